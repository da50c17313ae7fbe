"""The searchers' round: one round's card play on a sampled world, played to its end fast.

The master bot plays thousands of rounds a second on worlds it sampled from its own
view (:mod:`roppyakken.ai.determinize`).  A :class:`Playout` holds only what card play
needs (hands, table, pile, captures) and plays it with the rules' one kernel
(:class:`roppyakken.kernel.Round`, which :class:`roppyakken.engine.Game` uses too).
At the end of the round it scores it (R-7.6) and keeps the score;
:func:`round_result` (from :mod:`roppyakken.game_end`, as the engine decides) says
whether the game ended and who won.

It is never shown to a bot: it lives inside a search, built from a sampled world.
``tests/ai/test_ai_playout.py`` checks it against :class:`roppyakken.engine.Game`.
"""

from __future__ import annotations

from collections.abc import Sequence

from roppyakken.actions import PLAY, TAKE
from roppyakken.cards import BIT50, POINTS
from roppyakken.compiled import swap_in
from roppyakken.engine import Game
from roppyakken.game_end import round_result
from roppyakken.kernel import Round
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore

ENDED = "ended"
"""Phase of a :class:`Playout` whose round has been scored."""


class Playout(Round):
    """The card-play part of a round, as plain masks; :meth:`step` applies one decision.

    ``phase`` is ``"play"`` (``to_act`` plays a card from hand), ``"take"`` (``to_act``
    chooses the target of ``turned``) or :data:`ENDED`.  After the end, ``score`` holds
    the round's :class:`RoundScore`.  ``pile`` starts with the next card to turn up.
    """

    __slots__ = ("instant", "score")

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
        self.players = len(hands)
        self.hands = list(hands)
        self.table = table
        self.pile = list(pile)
        self.pile_pos = 0
        self.captures = list(captures)
        self.orders = [list(o) for o in orders]
        self.declared = [list(d) for d in declared]
        self.revealed = list(revealed)
        self.to_act = to_act
        self.phase = phase
        self.turned = turned
        self.score: RoundScore | None = None
        self.instant: tuple[int, str] | None = None
        self.read_options()

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
        """An independent copy (the pile and the declarations are shared: they never change)."""
        p = Playout.__new__(Playout)
        self.copy_round_to(p)
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
        return len(self.pile) - self.pile_pos

    def _end_round(self, instant: tuple[int, str] | None) -> None:
        score = self._score(instant)
        self.score = score
        self.instant = score.instant_win
        self.phase = ENDED
        self.turned = -1


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
    mine = p.captures[p.to_act]
    best_i = 0
    best_v = -1000
    for i, (card, target) in enumerate(moves):
        if target:
            taken = target | BIT50 >> (50 - card)
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


__all__ = ["ENDED", "Playout", "greedy_index", "round_result", "yaku_index"]


# --- end of the compiled part: what follows swaps in the compiled module when it is there.

swap_in(globals())
