"""Information sets: the hidden cards drawn consistently with what one seat has seen.

From a :class:`~roppyakken.view.SeatView` the seat knows its hand, the table, every
capture (in order), the declared lucky hands and the cards they revealed (still in
their owners' hands), the turned-up card, the hand sizes and the pile size.  The rest,
``view.unseen``, is split uniformly at random between the other hands (each gets its
size less its revealed cards) and the pile, in a random order.  Every world drawn this
way is one the seat cannot tell apart from the real one: this is the sampler the
``master`` bot searches with, public for researchers (determinized search, ISMCTS,
belief-state training).  Standard library only, like the rest of the core.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from roppyakken.actions import PLAY, TAKE
from roppyakken.cards import iter_cards
from roppyakken.engine import Game
from roppyakken.view import SeatView


@dataclass(frozen=True, slots=True)
class World:
    """One sampled completion of the hidden cards: every hand and the pile, top first."""

    hands: tuple[int, ...]
    pile: tuple[int, ...]


def sample_world(view: SeatView, rng: random.Random) -> World:
    """A uniformly random world consistent with ``view`` (see the module docstring)."""
    seat = view.seat
    if seat is None:
        raise ValueError("a spectator's view has no seat to sample for")
    unseen = list(iter_cards(view.unseen))
    rng.shuffle(unseen)
    hands = []
    pos = 0
    for s in range(view.players):
        if s == seat:
            hands.append(view.hand)
            continue
        hidden = view.hand_sizes[s] - view.revealed[s].bit_count()
        mask = view.revealed[s]
        for c in unseen[pos : pos + hidden]:
            mask |= 1 << c
        pos += hidden
        hands.append(mask)
    pile = tuple(unseen[pos:])
    if len(pile) != view.pile_count:
        raise ValueError(
            f"the view does not add up: {len(pile)} unseen cards for a pile of {view.pile_count}"
        )
    return World(tuple(hands), pile)


def game_of(view: SeatView, world: World, seed: int = 0) -> Game:
    """The whole game position of ``world``, rebuilt with :meth:`Game.from_position`.

    The cards shown by declared lucky hands stay shown.  ``seed`` deals the rounds after
    this one.  Decisions in the redeal or declaration phases are not rebuilt (the view
    does not say which seats are still to decide), so this serves card play.
    """
    if view.phase not in (PLAY, TAKE):
        raise ValueError(f"only card play positions are rebuilt, not phase {view.phase!r}")
    game = Game.from_position(
        view.rules,
        hands=world.hands,
        table=view.table,
        pile=world.pile,
        captures=view.captures,
        orders=view.capture_orders,
        declared=view.declared,
        phase=view.phase,
        to_act=view.to_act,
        dealer=view.dealer,
        turned=view.turned,
        totals=view.totals,
        legs=view.legs,
        round_index=view.round,
        leg=view.leg,
        seed=seed,
    )
    game.revealed = list(view.revealed)
    return game


def sample_game(view: SeatView, rng: random.Random) -> Game:
    """A game in a uniformly random world consistent with ``view`` (card play only)."""
    return game_of(view, sample_world(view, rng))


__all__ = ["World", "game_of", "sample_game", "sample_world"]
