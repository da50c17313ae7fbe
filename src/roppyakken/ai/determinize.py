"""Sampling the hidden cards consistently with what one seat has seen (determinization).

The sampler itself is public in the core, :mod:`roppyakken.infoset` (re-exported here);
this module adds the fast card-play :class:`~roppyakken.ai.playout.Playout` of a world.

From a :class:`~roppyakken.view.SeatView` the seat knows its hand, the table, every
capture (in order), the declared lucky hands and the cards they revealed (still in
their owners' hands), the turned-up card, the hand sizes and the pile size.  The rest,
``view.unseen``, is split uniformly at random between the other hands (each gets its
size less its revealed cards) and the pile, in a random order.  Every world drawn this
way is one the seat cannot tell apart from the real one.
"""

from __future__ import annotations

from roppyakken.ai.playout import Playout
from roppyakken.infoset import World, game_of, sample_world
from roppyakken.view import SeatView

__all__ = ["World", "game_of", "playout_of", "sample_world"]


def playout_of(view: SeatView, world: World) -> Playout:
    """The card play of ``world`` from the view's current decision (play or take phase)."""
    if not view.phase.card_play:
        raise ValueError(f"card play is searched, not phase {view.phase.value!r}")
    return Playout(
        view.rules,
        world.hands,
        view.table,
        world.pile,
        view.captures,
        view.capture_orders,
        view.declared,
        view.revealed,
        view.to_act,
        view.phase.value,
        view.turned,
    )
