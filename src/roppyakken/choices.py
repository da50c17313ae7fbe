"""What each choice of target gives, and which choices change nothing.

The engine asks whenever a card has several targets (R-5.3, R-5.5, R-6).  Often
the choice does not matter — two 0-point chaff cards of one month — and a front
end may answer it without asking.  Two actions are *equivalent* when they are
the same kind of decision for the same card and the cards they capture are
worth the same points now and bring the same progress to every yaku of the
rules (the same number of cards of each yaku's set, of the countable ribbons
of Seven Ribbons, and of Willow cards for the rain rules, R-8.3).  The engine's
legal actions never change: front ends use :func:`choices` to skip or explain.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from roppyakken.actions import Action, Play, Take
from roppyakken.cards import PLUM_WARBLER, points_of
from roppyakken.rules import Rules
from roppyakken.view import SeatView
from roppyakken.yaku import SET_YAKU, SEVEN_RIBBONS, WILLOW_MASK, YAKU_SLUGS


@dataclass(frozen=True, slots=True)
class YakuStep:
    """A yaku the capture brings closer: cards of it held before and after, and cards needed."""

    slug: str
    before: int
    after: int
    needed: int


@dataclass(frozen=True, slots=True)
class Choice:
    """One legal action with what it gives: card points captured and yaku progress.

    ``same_as`` is the index (in the legal actions) of the first equivalent
    action before it, or ``None`` when this one is the first of its kind.
    """

    action: Action
    points: int
    steps: tuple[YakuStep, ...]
    same_as: int | None

    def to_json(self) -> dict[str, Any]:
        """``{"points", "yaku": [{"slug", "before", "after", "needed"}], "same_as"}``."""
        return {
            "points": self.points,
            "yaku": [
                {"slug": s.slug, "before": s.before, "after": s.after, "needed": s.needed} for s in self.steps
            ],
            "same_as": self.same_as,
        }


def _yaku_sets(rules: Rules) -> list[tuple[str, int, int]]:
    """(slug, mask of its countable cards, cards needed) for every yaku of ``rules``."""
    out: list[tuple[str, int, int]] = []
    for slug in YAKU_SLUGS:
        if slug not in rules.yaku:
            continue
        if slug == SEVEN_RIBBONS:
            out.append((slug, rules.table.seven_ribbons_mask, 7))
            continue
        mask = SET_YAKU[slug]
        if slug == "four-brights" and rules.four_brights_needs_warbler:
            mask |= 1 << PLUM_WARBLER
        out.append((slug, mask, mask.bit_count()))
    return out


def captured_by(view: SeatView, action: Action) -> int:
    """The cards ``action`` would capture (the played or turned card with its target), as a mask."""
    if isinstance(action, Play):
        return (1 << action.card) | action.target if action.target else 0
    if isinstance(action, Take):
        return ((1 << view.turned) if view.turned >= 0 else 0) | action.target
    return 0


def _group(action: Action) -> tuple[str, int] | None:
    """Actions that may be equivalent share a group: plays of one card, or takes; others never."""
    if isinstance(action, Play):
        return ("play", action.card) if action.target else None
    if isinstance(action, Take):
        return ("take", -1)
    return None


def choices(view: SeatView) -> tuple[Choice, ...]:
    """Every legal action of ``view`` with what it gives and its first equivalent (see the module doc)."""
    if view.seat is None or not view.legal:
        return ()
    sets = _yaku_sets(view.rules)
    mine = view.captures[view.seat]
    seen: dict[tuple[object, ...], int] = {}
    out: list[Choice] = []
    for index, action in enumerate(view.legal):
        taken = captured_by(view, action)
        points = points_of(taken)
        counts = tuple((taken & mask).bit_count() for _, mask, _ in sets)
        steps = tuple(
            YakuStep(slug, (mine & mask).bit_count(), ((mine | taken) & mask).bit_count(), needed)
            for (slug, mask, needed), n in zip(sets, counts, strict=True)
            if n
        )
        group = _group(action)
        same_as = None
        if group is not None:
            key = (*group, points, counts, (taken & WILLOW_MASK).bit_count())
            same_as = seen.setdefault(key, index)
            if same_as == index:
                same_as = None
        out.append(Choice(action, points, steps, same_as))
    return tuple(out)


def automatic(view: SeatView) -> Action | None:
    """The action to take without asking when every legal action is one choice that changes nothing.

    Only a turned-up card's target (R-5.5) qualifies: every legal action is a
    :class:`Take` and all are equivalent.  ``None`` otherwise.
    """
    found = choices(view)
    if len(found) < 2 or not all(isinstance(c.action, Take) for c in found):
        return None
    if all(c.same_as is not None for c in found[1:]):
        return found[0].action
    return None
