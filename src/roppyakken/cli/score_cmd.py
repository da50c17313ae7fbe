"""``roppyakken score``: score a finished round (FORMATS.md §1); the physical-cards calculator."""

from __future__ import annotations

import argparse
from typing import Any

from roppyakken.cli.common import (
    add_rules_arguments,
    print_json,
    read_stdin_json,
    rules_from_args,
    run_jsonl,
)
from roppyakken.documents import parse_round, score_document
from roppyakken.explain import explain_round
from roppyakken.i18n import _


def register(sub: Any, help_text: str) -> None:
    """Add the ``score`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    p = sub.add_parser(
        "score",
        help=help_text,
        description=_(
            'Read {"players": [{"captures": [...], "lucky_hands": [...]}, ...]} '
            "on standard input and print the scoring breakdown (FORMATS.md §1)."
        ),
    )
    add_rules_arguments(p)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--jsonl", action="store_true", help=_("one document per line in and out"))
    mode.add_argument("--explain", action="store_true", help=_("print a readable breakdown"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken score``."""
    rules = rules_from_args(args)
    if args.jsonl:
        return run_jsonl(lambda doc: score_document(rules, doc).to_json())
    data = read_stdin_json()
    score = score_document(rules, data)
    if args.explain:
        masks, _, _ = parse_round(rules, data)
        print(explain_round(rules, score, masks))
    else:
        print_json(score.to_json())
    return 0
