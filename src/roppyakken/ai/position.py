"""What one seat knows at a decision, as plain masks, for the heuristic bots.

A :class:`Position` is built either from a :class:`~roppyakken.view.SeatView` (a bot's
real decision) or from a :class:`~roppyakken.ai.playout.Playout` for one of its seats
(a decision inside a search, on a world the searcher sampled).  In both cases it holds
only what that seat may see: its hand, the table, everyone's captures, the cards
revealed by declared lucky hands, and the counts of the hidden cards.  ``unseen`` is
the set of cards the seat has not seen (other hands less their revealed cards, and the
pile).
"""

from __future__ import annotations

from collections.abc import Sequence

from roppyakken.ai.playout import Playout
from roppyakken.cards import ALL_CARDS, BIT50, card_count
from roppyakken.compiled import swap_in
from roppyakken.rules import Rules
from roppyakken.view import SeatView


class Position:
    """One seat's knowledge at a card-play decision (see the module docstring)."""

    __slots__ = (
        "captures",
        "declared",
        "hand",
        "hand_sizes",
        "n",
        "orders",
        "pile_count",
        "revealed",
        "rules",
        "seat",
        "table",
        "totals",
        "turned",
        "unseen",
    )

    rules: Rules
    seat: int
    n: int
    hand: int
    table: int
    captures: Sequence[int]
    orders: Sequence[Sequence[int]]
    revealed: Sequence[int]
    hand_sizes: Sequence[int]
    pile_count: int
    unseen: int
    turned: int
    totals: Sequence[int]
    declared: Sequence[Sequence[str]]

    def __init__(
        self,
        rules: Rules,
        seat: int,
        hand: int,
        table: int,
        captures: Sequence[int],
        orders: Sequence[Sequence[int]],
        revealed: Sequence[int],
        hand_sizes: Sequence[int],
        pile_count: int,
        unseen: int,
        turned: int,
        totals: Sequence[int],
        declared: Sequence[Sequence[str]],
    ) -> None:
        self.rules = rules
        self.seat = seat
        self.n = len(hand_sizes)
        self.hand = hand
        self.table = table
        self.captures = captures
        self.orders = orders
        self.revealed = revealed
        self.hand_sizes = hand_sizes
        self.pile_count = pile_count
        self.unseen = unseen
        self.turned = turned
        self.totals = totals
        self.declared = declared

    @classmethod
    def of_view(cls, view: SeatView) -> Position:
        """The knowledge of the seat whose view this is."""
        if view.seat is None:
            raise ValueError("a spectator's view has no seat to play for")
        return cls(
            view.rules,
            view.seat,
            view.hand,
            view.table,
            view.captures,
            view.capture_orders,
            view.revealed,
            view.hand_sizes,
            view.pile_count,
            view.unseen,
            view.turned,
            view.totals,
            view.declared,
        )

    @classmethod
    def of_playout(cls, p: Playout, seat: int, totals: Sequence[int]) -> Position:
        """What ``seat`` of a playout knows (no peeking at the other hands or the pile)."""
        hands = p.hands
        seen: int = hands[seat] | p.table
        revealed: list[int] = []
        sizes: list[int] = []
        for i in range(p.players):
            hand: int = hands[i]
            r: int = p.revealed[i] & hand
            revealed.append(r)
            sizes.append(card_count(hand))
            seen |= p.captures[i] | r
        if p.turned >= 0:
            seen |= BIT50 >> (50 - p.turned)
        return cls(
            p.rules,
            seat,
            hands[seat],
            p.table,
            p.captures,
            p.orders,
            revealed,
            sizes,
            p.pile_count,
            ALL_CARDS & ~seen,
            p.turned,
            totals,
            p.declared,
        )


__all__ = ["Position"]


# --- end of the compiled part: what follows swaps in the compiled module when it is there.

swap_in(globals())
