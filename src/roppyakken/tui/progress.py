"""Yaku progress for every player (R-8): cards held, cards missing, and yaku made impossible.

A yaku is *gone* for a player when a card it needs lies in someone else's
captures (captures are never lost), so completing it this round is impossible.
Seven Ribbons counts ribbons (R-8.4): it is gone when fewer than seven countable
ribbons remain outside the others' captures, or, when the Willow ribbon is
required, when someone else holds it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from roppyakken.cards import PLUM_WARBLER
from roppyakken.rules import Rules
from roppyakken.yaku import SET_YAKU, SEVEN_RIBBONS, WILLOW_RIBBON_MASK, YAKU_SLUGS

DONE: Final = "done"
GONE: Final = "gone"
OPEN: Final = "open"


@dataclass(frozen=True, slots=True)
class YakuProgress:
    """One yaku's progress: per seat the cards held, the status and the cards still missing."""

    slug: str
    points: int
    needed: int
    held: tuple[int, ...]
    status: tuple[str, ...]
    missing: tuple[int, ...]
    """Per seat, a mask of the cards still to capture (for Seven Ribbons: those still obtainable)."""


def yaku_mask(rules: Rules, slug: str) -> int:
    """The cards of a set yaku under ``rules`` (Four Brights may need the Plum Warbler, R-8.4)."""
    mask = SET_YAKU[slug]
    if slug == "four-brights" and rules.four_brights_needs_warbler:
        mask |= 1 << PLUM_WARBLER
    return mask


def yaku_progress(rules: Rules, captures: Sequence[int]) -> list[YakuProgress]:
    """The progress of every enabled yaku for every seat, in display order."""
    out: list[YakuProgress] = []
    everyone = 0
    for c in captures:
        everyone |= c
    for slug in YAKU_SLUGS:
        if slug not in rules.yaku:
            continue
        held: list[int] = []
        status: list[str] = []
        missing: list[int] = []
        if slug == SEVEN_RIBBONS:
            table = rules.table
            countable = table.seven_ribbons_mask
            needed = 7
            for mine in captures:
                others = everyone & ~mine
                available = countable & ~others
                held.append((mine & countable).bit_count())
                missing.append(available & ~mine)
                if table.has_seven_ribbons(mine):
                    status.append(DONE)
                elif available.bit_count() < needed or (
                    table.seven_ribbons_require_willow and others & WILLOW_RIBBON_MASK
                ):
                    status.append(GONE)
                else:
                    status.append(OPEN)
        else:
            mask = yaku_mask(rules, slug)
            needed = mask.bit_count()
            for mine in captures:
                others = everyone & ~mine
                held.append((mine & mask).bit_count())
                missing.append(mask & ~mine)
                if mine & mask == mask:
                    status.append(DONE)
                elif mask & others:
                    status.append(GONE)
                else:
                    status.append(OPEN)
        out.append(YakuProgress(slug, rules.yaku[slug], needed, tuple(held), tuple(status), tuple(missing)))
    return out
