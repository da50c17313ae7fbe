"""The bot interface and the registry of bot levels."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from roppyakken.actions import Action
from roppyakken.errors import RoppyakkenError
from roppyakken.view import SeatView


class Bot(Protocol):
    """A player program: given its seat's view (with the legal actions), it picks one.

    A bot never receives the game state, only :class:`SeatView`; with the same seed
    and the same views it answers the same way.
    """

    name: str

    def choose(self, view: SeatView) -> Action:
        """Return one of ``view.legal``."""
        ...


class RandomBot:
    """Level ``random``: a uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        """A uniformly random legal action."""
        return self.rng.choice(view.legal)


BotFactory = Callable[[int], Bot]

BOT_LEVELS: dict[str, tuple[BotFactory, str]] = {
    "random": (RandomBot, "Plays any legal card at random: for learning the rules."),
}
"""Level name -> (factory taking a seed, one-line description for players)."""


def make_bot(level: str, seed: int = 0) -> Bot:
    """A bot of ``level`` seeded with ``seed``; a clear error for an unknown level."""
    try:
        factory, _ = BOT_LEVELS[level]
    except KeyError:
        known = ", ".join(BOT_LEVELS)
        raise RoppyakkenError(f"unknown bot level {level!r} (known: {known})") from None
    return factory(seed)


def bot_description(level: str) -> str:
    """The one-line description of a bot level."""
    return BOT_LEVELS[level][1]
