"""Card-play decisions chosen by index: the loop that plays a random bot's cards.

A bot that chooses by the number of legal actions alone (the random bot,
:class:`roppyakken.ai.base.IndexBot`) needs no action objects: :func:`play_cards`
lists the kernel's moves (:meth:`roppyakken.kernel.Round.moves`, in the order of
:meth:`roppyakken.engine.Game.legal_actions`), asks the seat's picker for an index and
plays that move with :meth:`~roppyakken.kernel.Round.step`, as ``apply()`` would after
its check (a listed move is legal by construction).  It is part of the compiled group
(:data:`roppyakken.compiled.GROUP`) so that the loop, the listing and the play stay in
compiled code; pure Python, it is the reference like the rest of the group.
"""

from __future__ import annotations

from collections.abc import Callable

from roppyakken.actions import PLAY, TAKE
from roppyakken.compiled import swap_in
from roppyakken.kernel import Round

Picker = Callable[[int], int]
"""``pick(count)``: an index among ``count`` legal actions."""


def play_cards(game: Round, pickers: list[Picker | None]) -> None:
    """Play card-play decisions (phases ``play`` and ``take``) while the seat to act has a
    picker; return at any other decision, at the end of the game, or at a seat without one.

    ``pickers[seat](len(moves))`` chooses the move; the rounds that end on the way are
    ended (and the next dealt) by ``game`` as usual.
    """
    while True:
        phase = game.phase
        if phase != PLAY and phase != TAKE:
            return
        pick = pickers[game.to_act]
        if pick is None:
            return
        moves = game.moves()
        card, target = moves[pick(len(moves))]
        game.step(card, target)


__all__ = ["Picker", "play_cards"]


# --- end of the compiled part: what follows swaps in the compiled modules when they are there.

swap_in(globals())
