"""Helpers the subcommands share: rule options, JSON input and output."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Iterator
from typing import Any

from roppyakken.errors import Phrase, RoppyakkenError, RulesError
from roppyakken.i18n import ERROR_LINE, N_, _, fill, json_reason
from roppyakken.rules import Rules, resolve

INPUT = Phrase(N_("input"))


def add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    """``--rules PRESET`` and ``--rules-file FILE``."""
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--rules", metavar="PRESET", help=_("a preset of RULES.md R-10 (classic)"))
    group.add_argument("--rules-file", metavar="FILE", help=_("a house-rules TOML file"))


def add_worker_arguments(parser: argparse.ArgumentParser) -> None:
    """``--jobs N`` (worker processes) and ``--ray [ADDRESS]`` (a Ray cluster) for a batch of games."""
    parser.add_argument(
        "--jobs", type=int, default=1, metavar="N", help=_("worker processes (1); results do not change")
    )
    parser.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        metavar="ADDRESS",
        help=_("play on a Ray cluster (auto: the one this machine joined); results do not change"),
    )


def seed_argument(text: str) -> int:
    """``--seed``'s value: a whole number from 0 to :data:`~roppyakken.engine.MAX_SEED` (argparse
    says which option it was given to)."""
    from roppyakken.engine import check_seed

    try:
        return check_seed(int(text))
    except ValueError:
        raise argparse.ArgumentTypeError(fill("not a whole number: {value}", value=repr(text))) from None
    except RoppyakkenError as exc:
        raise argparse.ArgumentTypeError(exc.translated()) from None


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
            raise RulesError(N_("{source}: {error}"), source=args.rules_file, error=exc) from None
        raise


def parse_json(text: str, what: str | Phrase = INPUT, *, one_line: bool = False) -> Any:
    """Parse JSON text or raise a one-line error naming where it is malformed (the column only
    when ``one_line``: the caller names the line, which is not the text's line 1)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        if one_line:
            raise RoppyakkenError(
                N_("{what} is not valid JSON: {error} at column {column}"),
                what=what,
                error=json_reason(exc.msg),
                column=exc.colno,
            ) from None
        raise RoppyakkenError(
            N_("{what} is not valid JSON: {error} at line {line}, column {column}"),
            what=what,
            error=json_reason(exc.msg),
            line=exc.lineno,
            column=exc.colno,
        ) from None


def read_stdin_json() -> Any:
    """One JSON document from standard input."""
    text = sys.stdin.read()
    if not text.strip():
        raise RoppyakkenError(N_("expected a JSON document on standard input, got nothing"))
    return parse_json(text)


def print_json(data: Any) -> None:
    """One JSON document on standard output."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")


def add_document_command(
    sub: Any, name: str, help_text: str, description: str, explain_help: str, run: Callable[..., int]
) -> None:
    """Add subcommand ``name``, which answers a JSON document read on standard input (FORMATS.md):
    the rule options, and ``--jsonl`` (a document a line) or ``--explain`` (``explain_help``)."""
    p = sub.add_parser(name, help=help_text, description=description)
    add_rules_arguments(p)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--jsonl", action="store_true", help=_("one document per line in and out"))
    mode.add_argument("--explain", action="store_true", help=explain_help)
    p.set_defaults(run=run)


def run_document(
    args: argparse.Namespace, answer: Callable[[Rules, Any], Any], explain: Callable[[Rules, Any], str]
) -> int:
    """Run a subcommand of :func:`add_document_command`: print ``answer(rules, document)`` (JSON) for
    standard input's document, or for each line with ``--jsonl``, or ``explain(rules, document)``
    with ``--explain``."""
    rules = rules_from_args(args)
    if args.jsonl:
        return run_jsonl(lambda doc: answer(rules, doc))
    data = read_stdin_json()
    if args.explain:
        print(explain(rules, data))
    else:
        print_json(answer(rules, data))
    return 0


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
            message = str(exc)  # the document's answer stays English, as the documents are
            line = fill("line {number}: {error}", number=number, error=exc.translated())
            print(fill(ERROR_LINE, message=line), file=sys.stderr)
            result = {"error": message}
            status = 1
        sys.stdout.write(json.dumps(result, ensure_ascii=False) + "\n")
    return status


def _lines() -> Iterator[tuple[int, str]]:
    for number, line in enumerate(sys.stdin, 1):
        if line.strip():
            yield number, line
