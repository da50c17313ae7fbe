"""Run games between bots: each bot sees only its own seat's view."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence

from roppyakken.actions import Action
from roppyakken.ai.base import Bot
from roppyakken.engine import Game
from roppyakken.errors import IllegalActionError
from roppyakken.i18n import N_
from roppyakken.indexed import Picker
from roppyakken.view import view_of


def game_seeds(seed: int, count: int) -> list[int]:
    """``count`` independent game seeds derived from a batch seed."""
    rng = random.Random(f"roppyakken-batch:{seed}")
    return [rng.getrandbits(63) for _ in range(count)]


def play_out(
    game: Game,
    bots: Sequence[Bot],
    timings: list[list[float]] | None = None,
    on_step: Callable[[Game], None] | None = None,
) -> Game:
    """Let ``bots`` (one per seat) play ``game`` to its end; return it.

    ``timings[seat]`` collects each decision's time in seconds when given.
    A bot answering an illegal action is a bug in the bot: it raises.
    """
    # Bots that choose from the legal actions alone get those, not a whole view.  (What
    # isinstance(bot, LegalOnlyBot) asks of this runtime protocol, without its cost per call.)
    legal_only: list[Callable[[Sequence[Action]], Action] | None] = [
        getattr(bot, "choose_legal", None) for bot in bots
    ]
    # Bots that choose by the number of legal actions alone (the random bot) have their
    # decisions played by the game itself, without actions built, checked and applied:
    # the same games (tests/core/test_simulate_pinned.py).  Not when each decision is timed or
    # watched.
    indexed: list[Picker | None] = [None] * len(bots)
    bits: list[Callable[[int], int] | None] = [None] * len(bots)
    if timings is None and on_step is None:
        indexed = [getattr(bot, "choose_index", None) for bot in bots]
        bits = [getattr(bot, "choice_bits", None) if indexed[i] else None for i, bot in enumerate(bots)]
    while not game.over:
        seat = game.to_act
        if indexed[seat] is not None:
            game.play_indexed(indexed, bits)
            continue
        choose_legal = legal_only[seat]
        start = time.perf_counter() if timings is not None else 0.0
        if choose_legal is not None:
            action = choose_legal(game.legal_actions())
        else:
            action = bots[seat].choose(view_of(game, seat))
        if timings is not None:
            timings[seat].append(time.perf_counter() - start)
        try:
            game.apply(action, seat)
        except IllegalActionError as exc:
            raise IllegalActionError(
                N_("bot {name} at seat {seat}: {error}"), name=bots[seat].name, seat=seat + 1, error=exc
            ) from None
        if on_step is not None:
            on_step(game)
    return game
