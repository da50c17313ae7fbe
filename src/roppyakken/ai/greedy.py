"""Level ``greedy``: takes the most points now (card points plus any yaku completed)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from roppyakken.actions import Action, CallRedeal, Declare, Play, Take
from roppyakken.cards import MONTH, MONTH_MASK, POINTS, iter_cards, points_of
from roppyakken.rules import Rules
from roppyakken.view import SeatView


def yaku_points(rules: Rules, captured: int, order: list[int]) -> int:
    """Points of the yaku that ``captured`` scores under ``rules`` (R-8)."""
    return sum(p for _, p in rules.table.evaluate(captured, order))


def move_values(
    rules: Rules, captured: int, order: list[int], unseen: int, moves: Sequence[tuple[int, int]]
) -> list[float]:
    """The greedy player's value of each ``(card, target)`` of ``moves`` for a seat that has
    ``captured`` (in ``order``) and does not see ``unseen``: the points a capture takes (+0.5)
    and the yaku it completes; a discard costs its points (+0.1) if anyone can take it, else 0."""
    joker = rules.joker_card
    base = yaku_points(rules, captured, order)
    out: list[float] = []
    for card, target in moves:
        if target:
            taken = target | 1 << card
            value = points_of(taken) + 0.5
            value += yaku_points(rules, captured | taken, [*order, card, *iter_cards(target)]) - base
        elif unseen & MONTH_MASK[MONTH[card]] or (POINTS[card] and joker >= 0 and unseen >> joker & 1):
            value = -POINTS[card] - 0.1  # give away as little as possible
        else:
            value = 0.0  # no one can take it
        out.append(value)
    return out


class GreedyBot:
    """Captures what is worth the most points at once; otherwise discards its cheapest card.

    Points now are the card points taken plus the yaku the capture completes.  At equal
    points a capture comes before a discard, and a discard no one can take (every other
    card of its month is seen) before one that can be taken.  It declares every lucky
    hand it holds (points now) and never calls a redeal.  Remaining ties are broken by
    the seeded generator, so a seed reproduces its games.
    """

    name = "greedy"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        """The legal action worth the most points right now."""
        legal = view.legal
        first = legal[0]
        if isinstance(first, Declare):
            return max(legal, key=lambda a: len(a.hands) if isinstance(a, Declare) else -1)
        if isinstance(first, CallRedeal):
            return CallRedeal(False)
        seat = view.seat if view.seat is not None else view.to_act
        moves: list[tuple[int, int]] = []
        for action in legal:
            if isinstance(action, Play):
                moves.append((action.card, action.target))
            elif isinstance(action, Take):
                moves.append((view.turned, action.target))
            else:  # pragma: no cover - a play decision holds only plays or takes
                raise TypeError(f"not a card play: {action!r}")
        order = list(view.capture_orders[seat])
        values = move_values(view.rules, view.captures[seat], order, view.unseen, moves)
        best: list[Action] = []
        best_value = -1e9
        for action, value in zip(legal, values, strict=True):
            if value > best_value:
                best, best_value = [action], value
            elif value == best_value:
                best.append(action)
        return best[0] if len(best) == 1 else self.rng.choice(best)
