"""What one seat may see: its own hand, the public table and captures, counts — nothing else.

Bots and network clients receive a :class:`SeatView`, never the :class:`Game`;
it holds no other seat's hidden cards and not the order of the pile, so hidden
information is enforced by construction.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from roppyakken.actions import OVER, Action
from roppyakken.cards import ALL_CARDS, SLUGS, slugs_of
from roppyakken.engine import Game
from roppyakken.phase import PHASE_OF, Phase
from roppyakken.rules import Rules
from roppyakken.yaku import LuckyHand, lucky_hands_held

PlayRecord = tuple[int, str, int, int]
"""One play of a round's public record: ``(seat, source, card, captured)``, ``source``
``"hand"`` or ``"pile"``, ``captured`` the mask of table cards taken (0: to the table)."""


@dataclass(frozen=True, slots=True)
class RoundRecord:
    """What every seat saw of the current round so far: its start and its plays in order.

    ``table`` is the table as dealt (before a dealer took a month's four, R-3.3),
    ``revealed`` the cards each seat showed by declaring lucky hands (R-4.1), ``plays``
    the round's card plays in order, exactly the record's (FORMATS.md §3).  With the
    view's current cards this rebuilds the round's start in any world the seat cannot
    tell from the real one: each hand then held its cards now and those it played from
    hand; the pile's top held the turned-up cards in order.
    """

    table: int
    revealed: tuple[int, ...]
    plays: tuple[PlayRecord, ...]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's view of the game (``seat`` is ``None`` for a spectator)."""

    seat: int | None
    players: int
    rules: Rules
    phase: Phase
    """The decision the seat to act faces (:attr:`Phase.OVER` once the game has ended)."""
    to_act: int
    dealer: int
    round: int
    leg: int
    totals: tuple[int, ...]
    legs: tuple[int, ...]
    hand: int
    hand_sizes: tuple[int, ...]
    table: int
    captures: tuple[int, ...]
    capture_orders: tuple[tuple[int, ...], ...]
    pile_count: int
    turned: int
    declared: tuple[tuple[str, ...], ...]
    revealed: tuple[int, ...]
    legal: tuple[Action, ...]
    lucky_hands: tuple[LuckyHand, ...]
    winner: int | None
    record: RoundRecord | None = None
    """The current round's public record (:class:`RoundRecord`); ``None`` when the game keeps
    no round logs (searchers' copies).  Not sent over the wire: clients follow the events."""

    @property
    def my_turn(self) -> bool:
        """Whether this seat has a decision to make now."""
        return bool(self.legal)

    @property
    def unseen(self) -> int:
        """Cards this seat has not seen: in other hands (unrevealed) or in the pile."""
        seen = self.hand | self.table
        for i in range(self.players):
            seen |= self.captures[i] | self.revealed[i]
        if self.turned >= 0:
            seen |= 1 << self.turned
        return ALL_CARDS & ~seen

    def to_json(self) -> dict[str, Any]:
        """The view as JSON data (card slugs), for the web protocol and tools."""
        return {
            "seat": self.seat,
            "players": self.players,
            "phase": self.phase.value,
            "to_act": self.to_act,
            "dealer": self.dealer,
            "round": self.round,
            "leg": self.leg,
            "totals": list(self.totals),
            "legs": list(self.legs),
            "hand": slugs_of(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "table": slugs_of(self.table),
            "captures": [[SLUGS[c] for c in order] for order in self.capture_orders],
            "pile_count": self.pile_count,
            "turned": SLUGS[self.turned] if self.turned >= 0 else None,
            "declared": [list(d) for d in self.declared],
            "revealed": [slugs_of(r) for r in self.revealed],
            "legal": [a.to_json() for a in self.legal],
            "lucky_hands": [
                {"slug": h.slug, "points": h.points, "cards": slugs_of(h.cards)} for h in self.lucky_hands
            ],
            "winner": self.winner,
        }


def record_of(game: Game) -> RoundRecord | None:
    """The current round's public record (:class:`RoundRecord`), if ``game`` keeps round logs."""
    if not game.log or not game.history or game.phase == OVER:
        return None
    log = game.history[-1]
    revealed = []
    for s, slugs in enumerate(log.declared):
        shown = 0
        if slugs:
            for h in lucky_hands_held(game.rules, log.hands[s]):
                if h.slug in slugs:
                    shown |= h.cards
        revealed.append(shown)
    plays = tuple([(p[0], p[1], p[2], p[3]) for p in log.plays])
    return RoundRecord(log.table, tuple(revealed), plays)


def view_of(game: Game, seat: int | None) -> SeatView:
    """The view of ``seat`` (``None``: a spectator, who sees no hand)."""
    hands = game.hands
    legal: tuple[Action, ...] = ()
    lucky: tuple[LuckyHand, ...] = ()
    if seat is None:
        hand = 0
    else:
        hand = hands[seat]
        mine = seat == game.to_act and game.phase != OVER
        legal = tuple(game.legal_actions()) if mine else ()
        lucky = tuple(game.held_lucky_hands(seat))
    return SeatView(
        seat,
        game.players,
        game.rules,
        PHASE_OF[game.phase],
        game.to_act,
        game.dealer,
        game.round,
        game.leg,
        tuple(game.totals),
        tuple(game.legs),
        hand,
        tuple([h.bit_count() for h in hands]),
        game.table,
        tuple(game.captures),
        tuple([tuple(o) for o in game.orders]),
        len(game.pile) - game.pile_pos,
        game.turned,
        tuple([tuple(d) for d in game.declared]),
        tuple([r & h for r, h in zip(game.revealed, hands, strict=True)]),
        legal,
        lucky,
        game.winner,
        record_of(game),
    )
