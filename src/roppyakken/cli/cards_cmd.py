"""``roppyakken cards``: the 48 cards with their slugs (the names every command reads)."""

from __future__ import annotations

import argparse
from typing import Any

from roppyakken.cards import KIND, MONTH, NUM_CARDS, POINTS, SLUGS
from roppyakken.cli.common import print_json
from roppyakken.i18n import _, cell_width, pad
from roppyakken.text import card_name, kind_name, month_name


def register(sub: Any, help_text: str) -> None:
    """Add the ``cards`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    p = sub.add_parser(
        "cards",
        help=help_text,
        description=_("List the 48 cards: slug, month, kind, points and name (RULES.md R-1)."),
    )
    p.add_argument("--json", action="store_true", help=_("print the cards as JSON"))
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
    # Month, kind and name in the current language (the slug is every document's name).
    months = [f"{c['month']:>2} {month_name(c['month'])}" for c in cards]
    kinds = [kind_name(c["kind"]) for c in cards]
    width = max(len(c["slug"]) for c in cards) + 2
    month_width = max(cell_width(m) for m in months) + 2
    kind_width = max(cell_width(k) for k in kinds) + 2
    for card, month, kind, c in zip(cards, months, kinds, range(NUM_CARDS), strict=True):
        print(
            f"{pad(card['slug'], width)}{pad(month, month_width)}{pad(kind, kind_width)}"
            f"{card['points']:>2}  {card_name(c)}"
        )
    return 0
