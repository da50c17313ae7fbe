"""``roppyakken targets``: what a card may capture on a table (FORMATS.md §2)."""

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
from roppyakken.documents import targets_document
from roppyakken.i18n import _


def register(sub: Any) -> None:
    """Add the ``targets`` subcommand."""
    p = sub.add_parser(
        "targets",
        help=_("list what a card may capture on a table"),
        description=_(
            'Read {"table": [...], "card": slug, "source": "hand"|"pile"} on '
            'standard input; print {"targets": [[...], ...]} (FORMATS.md §2).'
        ),
    )
    add_rules_arguments(p)
    p.add_argument("--jsonl", action="store_true", help=_("one document per line in and out"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken targets``."""
    rules = rules_from_args(args)
    if args.jsonl:
        return run_jsonl(lambda doc: targets_document(rules, doc))
    print_json(targets_document(rules, read_stdin_json()))
    return 0
