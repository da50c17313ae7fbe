"""Helpers the subcommands share: rule options, JSON input and output."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

from roppyakken.errors import RoppyakkenError, RulesError
from roppyakken.i18n import _
from roppyakken.rules import Rules, resolve


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """``--rules PRESET`` and ``--rules-file FILE``."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--rules", metavar="PRESET", help=_("a preset of RULES.md R-10 (classic)"))
    group.add_argument("--rules-file", metavar="FILE", help=_("a house-rules TOML file"))


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The rules chosen on the command line."""
    return resolve(args.rules, args.rules_file)


def check_players(args: argparse.Namespace, rules: Rules, players: int) -> None:
    """Refuse a number of players ``rules`` do not allow, naming the house-rules file if one
    gave them (the file is what to change, not the preset it starts from)."""
    try:
        rules.check_players(players)
    except RulesError as exc:
        if getattr(args, "rules_file", None):
            raise RulesError(f"{args.rules_file}: {exc}") from None
        raise


def parse_json(text: str, what: str = "input", *, one_line: bool = False) -> Any:
    """Parse JSON text or raise a one-line error naming where it is malformed (the column only
    when ``one_line``: the caller names the line, which is not the text's line 1)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        where = f"column {exc.colno}" if one_line else f"line {exc.lineno}, column {exc.colno}"
        raise RoppyakkenError(f"{what} is not valid JSON: {exc.msg} at {where}") from None


def read_stdin_json() -> Any:
    """One JSON document from standard input."""
    text = sys.stdin.read()
    if not text.strip():
        raise RoppyakkenError("expected a JSON document on standard input, got nothing")
    return parse_json(text)


def print_json(data: Any) -> None:
    """One JSON document on standard output."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def run_jsonl(handle: Callable[[Any], Any]) -> int:
    """Batch mode: one JSON document per input line in, one per line out.

    A bad line answers ``{"error": "..."}`` in its place (so outputs stay aligned
    with inputs), says so on standard error, and makes the exit code 1.
    """
    status = 0
    for number, line in _lines():
        try:
            result = handle(parse_json(line, one_line=True))
        except RoppyakkenError as exc:
            message = str(exc)
            print(f"roppyakken: error: line {number}: {message}", file=sys.stderr)
            result = {"error": message}
            status = 1
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    return status


def _lines() -> Iterator[tuple[int, str]]:
    for number, line in enumerate(sys.stdin, 1):
        if line.strip():
            yield number, line
