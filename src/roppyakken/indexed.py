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
from roppyakken.kernel import Round, nth_target, target_count, targets_of

Picker = Callable[[int], int]
"""``pick(count)``: an index among ``count`` legal actions."""


def choice_index(getrandbits: Callable[[int], int], count: int) -> int:
    """The index ``Random.choice`` draws from a sequence of ``count`` items, given the
    generator's ``getrandbits``: ``count.bit_length()`` bits, drawn again until below ``count``
    (CPython's ``Random._randbelow``; ``tests/ai/test_ai_bots.py`` holds the two together)."""
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
        table, joker, wild, higher = game.table, game._joker, game._wild, game._higher
        if phase == TAKE:
            targets = targets_of(table, game.turned, True, joker, wild, higher)
            count = target_count(targets)
            index = choice_index(draw, count) if draw is not None else pick(count)
            game.take(nth_target(targets, index))
            continue
        # Each card of the hand in id order, each with its targets (none: one decision, to the
        # table); counted from the targets ints, then the chosen card's targets found again.
        hand = game.hands[seat]
        count = 0
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            targets = targets_of(table, low.bit_length() - 1, False, joker, wild, higher)
            count += target_count(targets) if targets & (targets - 1) else 1
        index = choice_index(draw, count) if draw is not None else pick(count)
        rest = hand
        while rest:
            low = rest & -rest
            rest ^= low
            card = low.bit_length() - 1
            targets = targets_of(table, card, False, joker, wild, higher)
            if not targets & (targets - 1):  # to the table, or one card: one decision
                if index == 0:
                    game.play_card(card, targets)
                    break
                index -= 1
                continue
            size = target_count(targets)
            if index < size:
                game.play_card(card, nth_target(targets, index))
                break
            index -= size


__all__ = ["Picker", "choice_index", "play_cards"]


# --- end of the compiled part: what follows swaps in the compiled modules when they are there.

swap_in(globals())
