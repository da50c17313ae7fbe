"""``roppyakken targets``: what a card may capture on a table (FORMATS.md §2)."""

from __future__ import annotations

import argparse
from typing import Any

from roppyakken.cards import mask_of, parse_cards, slugs_of
from roppyakken.cli.common import (
    add_rules_arguments,
    expect_object,
    print_json,
    read_stdin_json,
    rules_from_args,
    run_jsonl,
)
from roppyakken.engine import capture_targets
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import _
from roppyakken.rules import Rules


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


def targets_document(rules: Rules, data: Any) -> dict[str, Any]:
    """Answer one §2 input document."""
    doc = expect_object(data, "input")
    unknown = set(doc) - {"table", "card", "source"}
    if unknown:
        raise RoppyakkenError(f"input: unknown key {sorted(unknown)[0]!r}")
    table_slugs = doc.get("table", [])
    if not isinstance(table_slugs, list):
        raise RoppyakkenError("input: 'table' must be a list of card slugs")
    table = parse_cards(table_slugs, "table")
    card_slug = doc.get("card")
    if not isinstance(card_slug, str):
        raise RoppyakkenError("input: 'card' must be a card slug")
    (card,) = parse_cards([card_slug], "card")
    if card in table:
        raise RoppyakkenError(f"card {card_slug!r} is also on the table")
    source = doc.get("source", "hand")
    if source not in ("hand", "pile"):
        raise RoppyakkenError(f"input: 'source' must be 'hand' or 'pile', not {source!r}")
    for month in range(1, 13):
        if sum(1 for c in table if (c // 4) + 1 == month) == 4:
            raise RoppyakkenError(f"table: four cards of month {month} cannot lie on the table")
    choices = capture_targets(rules, mask_of(table), card, source == "pile")
    return {"targets": [slugs_of(t) for t in choices]}


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken targets``."""
    rules = rules_from_args(args)
    if args.jsonl:
        return run_jsonl(lambda doc: targets_document(rules, doc))
    print_json(targets_document(rules, read_stdin_json()))
    return 0
