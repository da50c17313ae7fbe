"""Card-play decisions chosen by index: the loop that plays a random bot's cards.

A bot that chooses by the number of legal actions alone (the random bot,
:class:`roppyakken.ai.base.IndexBot`) needs no action objects: :func:`play_cards`
counts the legal card-play decisions (in the order of
:meth:`roppyakken.engine.Game.legal_actions` and :meth:`roppyakken.kernel.Round.moves`),
asks the seat's picker for an index and plays that decision with
:meth:`~roppyakken.kernel.Round.play_card` or :meth:`~roppyakken.kernel.Round.take`, as
``apply()`` would after its check (a listed decision is legal by construction).  It is
part of the compiled group (:data:`roppyakken.compiled.GROUP`) so that the loop, the
count and the play stay in compiled code, and so is :func:`choice_index`, the random
bot's draw, so that a random seat's choice needs no interpreted call; pure Python, they
are the reference like the rest of the group.
"""

from __future__ import annotations

from collections.abc import Callable

from roppyakken.actions import PLAY, TAKE
from roppyakken.compiled import swap_in
from roppyakken.kernel import Round, capture_targets

Picker = Callable[[int], int]
"""``pick(count)``: an index among ``count`` legal actions."""


def choice_index(getrandbits: Callable[[int], int], count: int) -> int:
    """The index ``Random.choice`` draws from a sequence of ``count`` items, given the
    generator's ``getrandbits``: ``count.bit_length()`` bits, drawn again until below ``count``
    (CPython's ``Random._randbelow``; ``tests/test_ai_bots.py`` holds the two together)."""
    k = count.bit_length()
    r = getrandbits(k)
    while r >= count:
        r = getrandbits(k)
    return r


def play_cards(game: Round, pickers: list[Picker | None], bits: list[Callable[[int], int] | None]) -> None:
    """Play card-play decisions (phases ``play`` and ``take``) while the seat to act has a
    picker; return at any other decision, at the end of the game, or at a seat without one.

    ``pickers[seat](count)`` chooses among the ``count`` legal decisions, or, when
    ``bits[seat]`` is given, ``choice_index(bits[seat], count)`` (what the random bot's
    picker answers).  The rounds that end on the way are ended (and the next dealt) by
    ``game`` as usual.
    """
    while True:
        phase = game.phase
        if phase != PLAY and phase != TAKE:
            return
        seat = game.to_act
        pick = pickers[seat]
        if pick is None:
            return
        draw = bits[seat]
        rules, table = game.rules, game.table
        if phase == TAKE:
            targets = capture_targets(rules, table, game.turned, True)
            count = len(targets)
            index = choice_index(draw, count) if draw is not None else pick(count)
            game.take(targets[index])
            continue
        # Each card of the hand in id order, each with its targets (or none: to the table).
        hand = game.hands[seat]
        options: list[list[int]] = []
        count = 0
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            targets = capture_targets(rules, table, low.bit_length() - 1, False)
            options.append(targets)
            count += len(targets) or 1
        index = choice_index(draw, count) if draw is not None else pick(count)
        rest = hand
        for targets in options:
            low = rest & -rest
            rest ^= low
            size = len(targets) or 1
            if index < size:
                game.play_card(low.bit_length() - 1, targets[index] if targets else 0)
                break
            index -= size


__all__ = ["Picker", "choice_index", "play_cards"]


# --- end of the compiled part: what follows swaps in the compiled modules when they are there.

swap_in(globals())
