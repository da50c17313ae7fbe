"""The bot interface and the registry of bot levels."""

from __future__ import annotations

import importlib
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from roppyakken.actions import Action
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import N_, install_extra
from roppyakken.indexed import choice_index
from roppyakken.text import BOT_LEVEL_DESCRIPTIONS
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


@runtime_checkable
class LegalOnlyBot(Bot, Protocol):
    """A bot whose choice depends on nothing but the legal actions of its view.

    ``choose_legal(view.legal)`` answers what ``choose(view)`` would, so a driver may
    hand it the legal actions alone and skip building the rest of the view (what the
    random bot is, in batches of thousands of games).
    """

    def choose_legal(self, legal: Sequence[Action]) -> Action:
        """Return one of ``legal``, as :meth:`choose` would for a view with these actions."""
        ...


@runtime_checkable
class IndexBot(LegalOnlyBot, Protocol):
    """A :class:`LegalOnlyBot` whose choice depends only on how many legal actions there are.

    ``choose_index(len(legal))`` is the index of what ``choose_legal(legal)`` would answer
    (drawing the same random numbers), so a driver may play its decisions without building
    the actions at all (:meth:`roppyakken.engine.Game.play_indexed`).  A bot whose choice is
    ``Random.choice`` may also offer ``choice_bits``, its generator's ``getrandbits``, for the
    driver to draw from directly (:func:`roppyakken.indexed.choice_index`).
    """

    def choose_index(self, count: int) -> int:
        """The index among ``count`` legal actions that :meth:`choose_legal` would choose."""
        ...


class RandomBot:
    """Level ``random``: a uniformly random legal action."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        """A uniformly random legal action."""
        return self.rng.choice(view.legal)

    def choose_legal(self, legal: Sequence[Action]) -> Action:
        """The same choice from the legal actions alone (see :class:`LegalOnlyBot`)."""
        return self.rng.choice(legal)

    def choose_index(self, count: int) -> int:
        """The index ``choose_legal`` would pick among ``count`` actions (see :class:`IndexBot`):
        what ``Random.choice`` draws (:func:`roppyakken.indexed.choice_index`)."""
        return choice_index(self.rng.getrandbits, count)

    @property
    def choice_bits(self) -> Callable[[int], int]:
        """The ``getrandbits`` its choices draw from: ``choose_index(count)`` is
        ``choice_index(choice_bits, count)``, which a driver may call without this bot."""
        return self.rng.getrandbits


BotFactory = Callable[[int], Bot]

BOT_LEVELS: dict[str, tuple[BotFactory, str]] = {
    "random": (RandomBot, BOT_LEVEL_DESCRIPTIONS["random"]),
}
"""Level name -> (factory taking a seed, one-line description for players)."""


BotOptionsFactory = Callable[[int, Mapping[str, str]], Bot]

BOT_OPTIONS: dict[str, tuple[BotOptionsFactory, str]] = {}
"""Levels that take options -> (factory taking a seed and the options, help on the options)."""


def register_level(
    name: str,
    factory: BotFactory,
    description: str,
    with_options: BotOptionsFactory | None = None,
    options_help: str = "",
) -> None:
    """Make ``name`` a bot level (or replace it): ``factory(seed)`` makes its bots, ``description``
    says it for players in one line; a level that takes options gives ``with_options(seed,
    options)`` and the help on them.  Levels register themselves from the module they live in."""
    BOT_LEVELS[name] = (factory, description)
    if with_options is not None:
        BOT_OPTIONS[name] = (with_options, options_help)


@dataclass(frozen=True)
class ExtraLevel:
    """A bot level that lives in an optional extra, declared here as an entry point is: listed
    with the others, and its ``module`` imported when the level is first asked for (importing
    it registers the level, :func:`register_level`).  Without the extra installed, asking for
    the level is a one-line error saying what to install."""

    module: str
    """The module that registers the level when imported."""
    extra: str
    """The extra that installs what it needs (``pip install '.[extra]'``)."""
    needs: str
    """What it needs, for the error message."""
    options_help: str
    """The help on its options, listed before its module is loaded."""


EXTRA_LEVELS: dict[str, ExtraLevel] = {
    "learned": ExtraLevel(
        "roppyakken.env.learned",
        "rl",
        "numpy",
        "weights=PATH: an .npz of weights (default: the shipped ones)",
    ),
}
"""The levels of the optional extras (the ``learned`` level lives beside the environment that
trained it, :mod:`roppyakken.env.learned`)."""


def _load_extra(name: str) -> None:
    """Import the module of extra level ``name`` (it registers the level), or say what to install."""
    level = EXTRA_LEVELS[name]
    try:
        importlib.import_module(level.module)
    except ImportError:
        raise RoppyakkenError(
            N_("bot level {name} needs {needs}, the '{extra}' extra: {install}"),
            name=name,
            needs=level.needs,
            extra=level.extra,
            install=install_extra(level.extra),
        ) from None
    if BOT_LEVELS[name][0] is _EXTRA_FACTORIES[name][0]:
        raise RoppyakkenError(
            N_("bot level {name}: {module} does not register it"), name=name, module=level.module
        )  # pragma: no cover


def _declare_extra(name: str) -> tuple[BotFactory, BotOptionsFactory]:
    """The stand-in factories of extra level ``name``: they load its module, then make the bot."""

    def plain(seed: int) -> Bot:
        _load_extra(name)
        return BOT_LEVELS[name][0](seed)

    def with_options(seed: int, options: Mapping[str, str]) -> Bot:
        _load_extra(name)
        return BOT_OPTIONS[name][0](seed, options)

    return plain, with_options


_EXTRA_FACTORIES = {name: _declare_extra(name) for name in EXTRA_LEVELS}


def _register_levels() -> None:
    """Add the levels defined in their own modules (imported here to avoid a cycle)."""
    from roppyakken.ai.expert import ExpertBot
    from roppyakken.ai.greedy import GreedyBot
    from roppyakken.ai.master import MasterBot

    BOT_LEVELS["greedy"] = (GreedyBot, BOT_LEVEL_DESCRIPTIONS["greedy"])
    BOT_LEVELS["expert"] = (ExpertBot, BOT_LEVEL_DESCRIPTIONS["expert"])
    BOT_LEVELS["master"] = (MasterBot, BOT_LEVEL_DESCRIPTIONS["master"])
    BOT_OPTIONS["master"] = (
        MasterBot.from_options,
        "ms=MILLISECONDS a decision (230, close calls 3x), iters=ROLLOUTS a decision (reproducible)",
    )
    for name, level in EXTRA_LEVELS.items():
        plain, with_options = _EXTRA_FACTORIES[name]
        register_level(name, plain, BOT_LEVEL_DESCRIPTIONS[name], with_options, level.options_help)


_register_levels()


def parse_level(spec: str) -> tuple[str, dict[str, str]]:
    """Split a level string ``name[:key=value[:key=value...]]`` into its name and options.

    For example ``master:ms=500`` or ``master:iters=300``.  Raises a one-line
    :class:`RoppyakkenError` for an unknown level, an option of a level that takes none,
    or a malformed option.
    """
    name, *parts = spec.strip().split(":")
    if name not in BOT_LEVELS:
        known = ", ".join(BOT_LEVELS)
        raise RoppyakkenError(N_("unknown bot level '{name}' (known: {known})"), name=name, known=known)
    options: dict[str, str] = {}
    for part in parts:
        key, eq, value = part.partition("=")
        if not eq or not key or not value:
            raise RoppyakkenError(
                N_("bot level '{spec}': options are written key=value, not '{part}'"), spec=spec, part=part
            )
        if name not in BOT_OPTIONS:
            raise RoppyakkenError(N_("bot level '{name}' takes no options"), name=name)
        options[key] = value
    return name, options


def make_bot(level: str, seed: int = 0) -> Bot:
    """A bot of ``level`` (a level string, see :func:`parse_level`) seeded with ``seed``.

    A clear one-line error for an unknown level or a bad option.
    """
    name, options = parse_level(level)
    if options:
        return BOT_OPTIONS[name][0](seed, options)
    return BOT_LEVELS[name][0](seed)


def bot_description(level: str) -> str:
    """The one-line description of a bot level (options, if any, are ignored)."""
    return BOT_LEVELS[level.split(":")[0]][1]
