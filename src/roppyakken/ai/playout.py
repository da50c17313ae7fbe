"""A lean copy of one round's card play, for searchers: play a sampled world to its end fast.

The master bot plays thousands of rounds a second on worlds it sampled from its own
view (:mod:`roppyakken.ai.determinize`).  :class:`Playout` holds only what card play
needs (hands, table, pile, captures) and follows the engine's card-play rules exactly
(R-5, R-6, R-8.5 ``immediate``), asking :func:`roppyakken.engine.capture_targets` for
every capture choice so the joker and stack rules have one source.  At the end of the
round it scores with :func:`roppyakken.scoring.score_round` and works out, as the
engine does (R-7.6, R-9), whether the game ended and who won.

It is never shown to a bot: it lives inside a search, built from a sampled world.
``tests/test_ai_playout.py`` checks it against :class:`roppyakken.engine.Game`.
"""

from __future__ import annotations

from collections.abc import Sequence

from roppyakken.actions import PLAY, TAKE
from roppyakken.engine import Game, capture_targets
from roppyakken.game_end import leg_winner, most_legs
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore, score_round

ENDED = "ended"
"""Phase of a :class:`Playout` whose round has been scored."""


class Playout:
    """The card-play part of a round, as plain masks; :meth:`step` applies one decision.

    ``phase`` is ``"play"`` (``to_act`` plays a card from hand), ``"take"`` (``to_act``
    chooses the target of ``turned``) or :data:`ENDED`.  After the end, ``score`` holds
    the round's :class:`RoundScore`.
    """

    __slots__ = (
        "captures",
        "declared",
        "hands",
        "instant",
        "n",
        "orders",
        "phase",
        "pile",
        "pos",
        "revealed",
        "rules",
        "score",
        "table",
        "to_act",
        "turned",
    )

    def __init__(
        self,
        rules: Rules,
        hands: Sequence[int],
        table: int,
        pile: Sequence[int],
        captures: Sequence[int],
        orders: Sequence[Sequence[int]],
        declared: Sequence[Sequence[str]],
        revealed: Sequence[int],
        to_act: int,
        phase: str = PLAY,
        turned: int = -1,
    ) -> None:
        self.rules = rules
        self.n = len(hands)
        self.hands = list(hands)
        self.table = table
        self.pile = list(pile)
        self.pos = 0
        self.captures = list(captures)
        self.orders = [list(o) for o in orders]
        self.declared = [list(d) for d in declared]
        self.revealed = list(revealed)
        self.to_act = to_act
        self.phase = phase
        self.turned = turned
        self.score: RoundScore | None = None
        self.instant: tuple[int, str] | None = None

    @classmethod
    def from_game(cls, game: Game) -> Playout:
        """The card play of ``game`` (which must be in its play or take phase)."""
        if game.phase not in (PLAY, TAKE):
            raise ValueError(f"a playout starts in card play, not in phase {game.phase!r}")
        return cls(
            game.rules,
            game.hands,
            game.table,
            game.pile[game.pile_pos :],
            game.captures,
            game.orders,
            game.declared,
            game.revealed,
            game.to_act,
            game.phase,
            game.turned,
        )

    def copy(self) -> Playout:
        """An independent copy (the pile list is shared: it is never changed)."""
        p = Playout.__new__(Playout)
        p.rules = self.rules
        p.n = self.n
        p.hands = list(self.hands)
        p.table = self.table
        p.pile = self.pile
        p.pos = self.pos
        p.captures = list(self.captures)
        p.orders = [list(o) for o in self.orders]
        p.declared = self.declared
        p.revealed = list(self.revealed)
        p.to_act = self.to_act
        p.phase = self.phase
        p.turned = self.turned
        p.score = self.score
        p.instant = self.instant
        return p

    @property
    def ended(self) -> bool:
        """Whether the round has been scored."""
        return self.phase == ENDED

    @property
    def pile_count(self) -> int:
        """Cards left in the pile."""
        return len(self.pile) - self.pos

    def moves(self) -> list[tuple[int, int]]:
        """Every legal decision as ``(card, target)``: a card from hand, or the turned card."""
        rules, table = self.rules, self.table
        if self.phase == TAKE:
            card = self.turned
            return [(card, t) for t in capture_targets(rules, table, card, True)]
        out: list[tuple[int, int]] = []
        hand = self.hands[self.to_act]
        while hand:
            low = hand & -hand
            hand ^= low
            card = low.bit_length() - 1
            targets = capture_targets(rules, table, card, False)
            if targets:
                out.extend((card, t) for t in targets)
            else:
                out.append((card, 0))
        return out

    def step(self, card: int, target: int) -> None:
        """Apply a decision from :meth:`moves` (not checked: searchers pass legal ones)."""
        seat = self.to_act
        if self.phase == TAKE:
            self.turned = -1
            self.phase = PLAY
            if not self._place(seat, card, target):
                self._next_turn()
            return
        bit = 1 << card
        self.hands[seat] &= ~bit
        self.revealed[seat] &= ~bit
        if self._place(seat, card, target):
            return
        drawn = self.pile[self.pos]
        self.pos += 1
        targets = capture_targets(self.rules, self.table, drawn, True)
        if len(targets) > 1:  # the player who turned it chooses
            self.turned = drawn
            self.phase = TAKE
            return
        if not self._place(seat, drawn, targets[0] if targets else 0):
            self._next_turn()

    def _place(self, seat: int, card: int, target: int) -> bool:
        """R-5.2: capture or add to the table; True if an immediate instant win ended the round."""
        if target:
            self.table &= ~target
            taken = target | 1 << card
            self.captures[seat] |= taken
            order = self.orders[seat]
            order.append(card)
            while target:
                low = target & -target
                target ^= low
                order.append(low.bit_length() - 1)
            if self.rules.instant_win == "immediate":
                slug = self.rules.table.instant_yaku(self.captures[seat])
                if slug is not None:
                    self._end((seat, slug))
                    return True
        else:
            self.table |= 1 << card
        return False

    def _next_turn(self) -> None:
        if not any(self.hands):
            self._end(None)
            return
        self.to_act = (self.to_act + 1) % self.n

    def _end(self, instant: tuple[int, str] | None) -> None:
        score = score_round(self.rules, self.captures, self.orders, self.declared)
        if instant is not None:
            score = RoundScore(score.players, score.fuke, instant)
        self.score = score
        self.instant = score.instant_win
        self.phase = ENDED
        self.turned = -1


def round_result(
    rules: Rules,
    score: RoundScore,
    totals: Sequence[int],
    legs: Sequence[int],
    dealer: int,
    round_index: int,
) -> tuple[int | None, list[int], list[int]]:
    """After a scored round: ``(winner or None, totals, legs)`` as the engine decides (R-9).

    ``winner`` is the winner of the game (match); the totals and legs are those the
    next round would start with when the game goes on.
    """
    n = len(totals)
    new_totals = [t + p.final for t, p in zip(totals, score.players, strict=True)]
    new_legs = list(legs)
    won = leg_winner(rules, score, new_totals, dealer)
    match = rules.match_rule
    if won is not None:
        seat = won[0]
        if match.kind == "single":
            return seat, new_totals, new_legs
        new_legs[seat] += 1
        if match.kind == "first-to" and new_legs[seat] >= match.count:
            return seat, new_totals, new_legs
    if match.kind == "rounds" and round_index + 1 >= match.count:
        final = most_legs(rules, new_legs, new_totals, dealer)
        if final is not None:
            return final[0], new_totals, new_legs
    if won is not None:
        new_totals = [0] * n
    return None, new_totals, new_legs


def yaku_index(rules: Rules) -> list[list[tuple[int, int]]]:
    """For each card, the ``(mask, points)`` of the enabled set yaku it belongs to."""
    index: list[list[tuple[int, int]]] = [[] for _ in range(48)]
    for _, mask, value in rules.table.set_yaku:
        rest = mask
        while rest:
            low = rest & -rest
            rest ^= low
            index[low.bit_length() - 1].append((mask, value))
    return index


def greedy_index(p: Playout, moves: Sequence[tuple[int, int]], index: list[list[tuple[int, int]]]) -> int:
    """A fast points-now policy for rollouts: the move capturing the most card and yaku points.

    Yaku completed by the capture count in full; with nothing to take, the cheapest
    card is discarded.  The first of equal moves is chosen.
    """
    from roppyakken.cards import POINTS

    mine = p.captures[p.to_act]
    best_i = 0
    best_v = -1000
    for i, (card, target) in enumerate(moves):
        if target:
            taken = target | 1 << card
            after = mine | taken
            v = 0
            counted: list[int] = []
            t = taken
            while t:
                low = t & -t
                t ^= low
                x = low.bit_length() - 1
                v += POINTS[x]
                for mask, value in index[x]:
                    if after & mask == mask and mine & mask != mask and mask not in counted:
                        counted.append(mask)
                        v += value
        else:
            v = -POINTS[card]
        if v > best_v:
            best_i, best_v = i, v
    return best_i
