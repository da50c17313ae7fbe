"""Who sits where, names, saving and resuming, and replaying a record step by step.

Nothing here imports Textual: it is the terminal game's plain model, tested on
its own.  Bots are named ``bot:LEVEL`` in records (FORMATS.md §3), so a saved
game resumes with the same opponents.  The human who gave no name is stored as
``""`` (:data:`UNNAMED`) and called "You" in the language of the screen showing it.
"""

from __future__ import annotations

import functools
import gettext
import json
import os
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from roppyakken.actions import Action, CallRedeal, Declare, Play, Take
from roppyakken.ai.base import BOT_LEVELS, Bot, make_bot
from roppyakken.cards import cards_of
from roppyakken.engine import Game, RoundLog, deal_pattern, seeded_deck
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import (
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    N_,
    SOURCE_LANGUAGE,
    Plural,
    catalog_name,
    language,
    os_reason,
)
from roppyakken.phase import Phase
from roppyakken.record import load, replay, save
from roppyakken.rules import Rules
from roppyakken.text import bot_label
from roppyakken.tui import text as t

HUMAN: Final = "human"
BOT_PREFIX: Final = "bot:"
MAX_NAME: Final = 20
UNNAMED: Final = ""
"""The record name of the human who gave no name (a name is never empty), shown as "You"."""


@dataclass(frozen=True, slots=True)
class Seat:
    """A seat: ``kind`` is :data:`HUMAN` or a bot level; ``name`` is a human's name
    (:data:`UNNAMED` for "You")."""

    kind: str
    name: str = UNNAMED

    @property
    def human(self) -> bool:
        """Whether a person plays this seat."""
        return self.kind == HUMAN

    @property
    def record_name(self) -> str:
        """The name stored in a record: the human's name, or ``bot:LEVEL``."""
        return self.name if self.human else f"{BOT_PREFIX}{self.kind}"

    @property
    def shown_name(self) -> str:
        """The human's name as shown: "You", in the current language, if none was given."""
        return self.name or t.DEFAULT_HUMAN_NAME


def check_name(name: str) -> str:
    """A human's name, stripped; a clear error if empty, too long or looking like a bot."""
    name = name.strip()
    if not name or len(name) > MAX_NAME or name.startswith(BOT_PREFIX):
        raise RoppyakkenError(t.ERROR_NAME)
    return name


@functools.cache
def default_names() -> frozenset[str]:
    """ "You" in every language: what older saves stored for the human who gave no name."""
    english = t.ENGLISH["DEFAULT_HUMAN_NAME"]
    found = {english}
    for lang in LANGUAGES:
        if lang != SOURCE_LANGUAGE:
            catalog = gettext.translation(DOMAIN, LOCALE_DIR, languages=[catalog_name(lang)], fallback=True)
            found.add(catalog.gettext(english))
    return frozenset(found)


def seat_from_record_name(name: str) -> Seat:
    """The seat a record's player name stands for (``bot:LEVEL`` is a bot; :data:`UNNAMED`, or
    "You" in any language as older saves wrote it, is the human who gave no name)."""
    if name.startswith(BOT_PREFIX):
        level = name[len(BOT_PREFIX) :]
        if level not in BOT_LEVELS:
            known = ", ".join(BOT_LEVELS)
            raise RoppyakkenError(
                N_("the saved game has a bot of unknown level '{level}' (known: {known})"),
                level=level,
                known=known,
            )
        return Seat(level)
    return Seat(HUMAN, UNNAMED if name in default_names() else name)


def display_names(seats: Sequence[Seat]) -> list[str]:
    """What the table calls each seat; equal names get their seat number."""
    names = [s.shown_name if s.human else t.BOT_NAME.format(level=bot_label(s.kind)) for s in seats]
    repeated = {name for name in names if names.count(name) > 1}
    return [f"{name} {i + 1}" if name in repeated else name for i, name in enumerate(names)]


def parse_seats(bots: str | None, players: int, name: str | None = None) -> list[Seat]:
    """Seat 0 is the human ``name`` (None: "You"); ``bots`` lists the opponents (levels or ``human``),
    comma-separated."""
    you = Seat(HUMAN, UNNAMED if name is None else check_name(name))
    if bots is None:
        return [you] + [Seat(default_level()) for _ in range(players - 1)]
    levels = [b.strip() for b in bots.split(",") if b.strip()]
    if len(levels) == 1:
        levels = levels * (players - 1)
    if len(levels) != players - 1:
        raise RoppyakkenError(
            N_("--bots: give {wanted} for {players}, got {given}"),
            wanted=Plural("{n} opponent", "{n} opponents", players - 1),
            players=Plural("{n} player", "{n} players", players),
            given=len(levels),
        )
    seats = [you]
    for i, level in enumerate(levels, start=2):
        if level == HUMAN:
            seats.append(Seat(HUMAN, t.HUMAN_NAME_N.format(n=i)))
        elif level in BOT_LEVELS:
            seats.append(Seat(level))
        else:
            known = ", ".join([*BOT_LEVELS, HUMAN])
            raise RoppyakkenError(
                N_("--bots: unknown opponent '{level}' (known: {known})"), level=level, known=known
            )
    return name_seats(seats)


def default_level() -> str:
    """The bot level a new opponent gets unless chosen: the first one registered."""
    return next(iter(BOT_LEVELS))


def bot_seed(game_seed: int, seat: int) -> int:
    """A bot's seed, derived from the game's seed and its seat (so a seeded game is repeatable)."""
    return random.Random(f"roppyakken-tui-bot:{game_seed}:{seat}").getrandbits(63)


def make_bots(game: Game, seats: Sequence[Seat]) -> dict[int, Bot]:
    """One bot per bot seat."""
    return {i: make_bot(s.kind, bot_seed(game.seed, i)) for i, s in enumerate(seats) if not s.human}


def name_seats(seats: Sequence[Seat]) -> list[Seat]:
    """With several people at the keyboard, the default "You" of seat 0 becomes "Player 1"."""
    out = list(seats)
    if sum(s.human for s in out) > 1 and out[0].human and out[0].name == UNNAMED:
        out[0] = Seat(HUMAN, t.HUMAN_NAME_N.format(n=1))
    return out


@dataclass(frozen=True, slots=True)
class GameSetup:
    """What the new-game screen (or the command line) chose."""

    rules: Rules
    seats: tuple[Seat, ...]
    seed: int | None = None

    def new_game(self) -> Game:
        """A new game with these rules, seats and seed."""
        return Game(self.rules, len(self.seats), self.seed)


# ---------------------------------------------------------------- saving


def save_dir() -> Path:
    """Where games are saved: ``$XDG_DATA_HOME/roppyakken/saves`` (``~/.local/share/…`` by default)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "roppyakken" / "saves"


def new_save_path(now: float | None = None) -> Path:
    """A fresh file name in :func:`save_dir` for a game saved now."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    path = save_dir() / f"game-{stamp}.json"
    n = 2
    while path.exists():
        path = save_dir() / f"game-{stamp}-{n}.json"
        n += 1
    return path


def save_game(path: Path, game: Game, seats: Sequence[Seat]) -> Path:
    """Save ``game`` as a record (FORMATS.md §3) at ``path``, creating its folder."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        save(path, game, [s.record_name for s in seats])
    except OSError as exc:
        raise RoppyakkenError(
            N_("cannot save to '{path}': {error}"), path=str(path), error=os_reason(exc)
        ) from None
    return path


def list_saves(limit: int = 20) -> list[Path]:
    """Saved games, newest first."""
    folder = save_dir()
    if not folder.is_dir():
        return []
    files = [p for p in folder.glob("*.json") if p.is_file()]
    files.sort(key=lambda p: p.stat().st_mtime, reverse=True)
    return files[:limit]


def save_label(path: Path) -> str | None:
    """A saved game in words ("30 Nov 16:42 – You vs Greedy bot, round 2"); None if it cannot be
    resumed (finished, or not a record)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("winner") is not None:
            return None
        names = display_names([seat_from_record_name(str(n)) for n in data["players"]])
        rounds = max(1, len(data.get("rounds") or []))
        form = t.SAVE_TIME_DAY_FIRST if language() in t.DAY_FIRST else t.SAVE_TIME
        when = time.strftime(form, time.localtime(path.stat().st_mtime))
    except (OSError, ValueError, KeyError, TypeError, RoppyakkenError):
        return None
    return t.SAVE_LABEL.format(when=when, players=t.SAVE_VS.join(names), round=rounds)


def resumable_saves(limit: int = 20) -> list[tuple[str, Path]]:
    """The unfinished saved games, newest first, each with its label."""
    out = []
    for path in list_saves(limit * 3):
        label = save_label(path)
        if label is not None:
            out.append((label, path))
    return out[:limit]


def resume(path: str | Path) -> tuple[Game, list[Seat]]:
    """Load a saved unfinished game and its seats, ready to play on."""
    game, names = replay(load(path))
    if game.over:
        raise RoppyakkenError(
            N_("the game in '{path}' is finished; watch it with: roppyakken replay {path} --watch"),
            path=str(path),
        )
    seats = [seat_from_record_name(n) for n in names]
    if not any(s.human for s in seats):
        seats[0] = Seat(HUMAN, UNNAMED)
    return game, seats


# ---------------------------------------------------------------- replays


class RecordScript:
    """The decisions of a recorded game, handed out one at a time to a fresh game of it.

    :meth:`start` builds a game that deals the recorded deals; :meth:`next_action`
    answers the decision the game waits for with the one the record made.
    """

    def __init__(self, record: dict[str, Any]) -> None:
        self.final, self.names = replay(record)  # checks the record first
        self.history: list[RoundLog] = self.final.history

    def start(self) -> Game:
        """A new game at the start of the record."""
        final = self.final
        decks = [self._deck(log) for log in self.history]

        def source(index: int, attempt: int) -> list[int]:
            if index < len(decks) and attempt == 0:
                return decks[index]
            return seeded_deck(final.seed, index, attempt)

        return Game(
            final.rules, final.players, final.seed, deck_source=source, first_dealer=self.history[0].dealer
        )

    def _deck(self, log: RoundLog) -> list[int]:
        n = self.final.players
        sources = {i: sorted(cards_of(log.hands[(log.dealer + 1 + i) % n])) for i in range(n)}
        sources[-1] = sorted(cards_of(log.table))
        deck: list[int] = []
        for who, count in deal_pattern(self.final.rules, n):
            deck.extend(sources[who][:count])
            sources[who] = sources[who][count:]
        return deck + list(log.pile)

    def finished(self, game: Game) -> bool:
        """Whether ``game`` has reached the end of the record."""
        if game.over:
            return True
        if game.round >= len(self.history):
            return True
        log = self.history[game.round]
        phase = Phase(game.phase)
        if phase == Phase.DECLARE:
            return log.declared[game.to_act] is None
        if phase.card_play:
            return len(game.history[game.round].plays) >= len(log.plays)
        return False

    def next_action(self, game: Game) -> Action:
        """The recorded decision for the position ``game`` is in."""
        log = self.history[game.round]
        phase = Phase(game.phase)
        if phase == Phase.REDEAL:
            return CallRedeal(False)  # the recorded deal is the one that was played
        if phase == Phase.DECLARE:
            return Declare(tuple(log.declared[game.to_act] or ()))
        _, source, card, taken = log.plays[len(game.history[game.round].plays)]
        if phase == Phase.TAKE:
            return Take(taken)
        if source != "hand":
            raise RoppyakkenError(
                N_("the record and the replay disagree at round {number}"), number=game.round + 1
            )
        return Play(card, taken)

    def seats(self) -> list[Seat]:
        """The seats as the record names them (unknown bot levels shown as humans)."""
        out = []
        for name in self.names:
            try:
                out.append(seat_from_record_name(name))
            except RoppyakkenError:
                out.append(Seat(HUMAN, name))
        return out
