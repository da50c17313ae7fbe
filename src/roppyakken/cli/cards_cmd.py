"""``roppyakken cards``: the 48 cards with their slugs (the names every command reads)."""

from __future__ import annotations

import argparse
from typing import Any

from roppyakken.cards import KIND, MONTH, MONTH_NAMES, NUM_CARDS, POINTS, SLUGS
from roppyakken.cli.common import print_json


def register(sub: Any) -> None:
    """Add the ``cards`` subcommand."""
    p = sub.add_parser(
        "cards",
        help="list the 48 cards and their slugs",
        description="List the 48 cards: slug, month, kind and points (RULES.md R-1).",
    )
    p.add_argument("--json", action="store_true", help="print the cards as JSON")
    p.set_defaults(run=run)


def card_table() -> list[dict[str, Any]]:
    """Every card as ``{"slug", "month", "kind", "points"}``, in card-id order."""
    return [
        {"slug": SLUGS[c], "month": MONTH[c], "kind": KIND[c], "points": POINTS[c]} for c in range(NUM_CARDS)
    ]


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken cards``."""
    cards = card_table()
    if args.json:
        print_json(cards)
        return 0
    width = max(len(card["slug"]) for card in cards)
    for card in cards:
        month = f"{card['month']:>2} {MONTH_NAMES[card['month'] - 1]}"
        print(f"{card['slug']:{width}}  {month:13}  {card['kind']:7}  {card['points']:>2}")
    return 0
