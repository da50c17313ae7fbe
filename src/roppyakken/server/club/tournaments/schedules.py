"""Recurring tournaments the server's operator schedules: hourly arenas, a weekly Swiss...

A schedule file is TOML (``serve --tournaments FILE``, ``roppyakken admin tournaments --schedule
FILE``), one ``[[tournament]]`` table a schedule::

    [[tournament]]
    name = "Hourly classic arena"   # the tournaments' name (at most 24 characters)
    format = "arena"                # arena, swiss or round_robin
    preset = "classic"              # a preset with a rating pool
    players = 2                     # a table (default 2)
    clock = "15+60"                 # required
    rated = true                    # default true
    minutes = 50                    # an arena's duration
    # rounds = 5                    # a Swiss tournament's rounds
    every = "1h"                    # how often: a duration (30m, 1h, 1d, 7d)
    first = 2026-12-07T18:00:00Z    # one start (default: 1970-01-01, so "1h" is on the hour)

Each start is ``first + k * every``; the tournaments starting within :data:`AHEAD` seconds are made
(public, by nobody) with an id derived from the schedule and the start, so that making them again,
from another member or the admin command, makes nothing twice.
"""

from __future__ import annotations

import hashlib
import math
import re
import tomllib
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from sqlalchemy import Connection, select

from roppyakken.errors import RoppyakkenError
from roppyakken.rules import PRESETS
from roppyakken.server.club.ratings.pools import FAMILIES
from roppyakken.server.club.tournaments import store
from roppyakken.server.club.tournaments.model import FORMATS
from roppyakken.server.play.clocks import CONTROLS
from roppyakken.server.store.tables import tournaments
from roppyakken.server.wire import text

AHEAD: Final = 3600.0
"""Seconds ahead of its start a scheduled tournament is made (the lobby lists it, players join)."""
MAX_SCHEDULES: Final = 100
"""Schedules one file may hold."""
MIN_EVERY: Final = 300.0
"""The shortest period of a schedule (seconds)."""
_DURATION: Final = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([mhdw])\s*$")
_UNITS: Final = {"m": 60.0, "h": 3600.0, "d": 86_400.0, "w": 7 * 86_400.0}


@dataclass(frozen=True, slots=True)
class Schedule:
    """One recurring tournament."""

    name: str
    format: str
    preset: str
    players: int
    clock: str
    rated: bool
    minutes: float | None
    rounds: int | None
    every: float
    """Seconds between two starts."""
    first: float
    """One start (epoch seconds); the others are this plus whole periods."""

    def starts(self, since: float, until: float) -> list[float]:
        """Its starts in ``[since, until]``."""
        k = math.ceil((since - self.first) / self.every)
        out = []
        while (at := self.first + k * self.every) <= until:
            out.append(at)
            k += 1
        return out

    def tournament_id(self, start: float) -> str:
        """The id of its tournament starting at ``start`` (the same on every member)."""
        digest = hashlib.sha256(f"{self.name}\0{start:.3f}".encode()).hexdigest()
        return "s" + digest[:23]


def _duration(value: Any) -> float:
    found = _DURATION.match(str(value))
    if found is None:
        raise ValueError(f"'every' is not a duration such as 30m, 1h, 1d or 7d: {value!r}")
    seconds = float(found.group(1)) * _UNITS[found.group(2)]
    if seconds < MIN_EVERY:
        raise ValueError(f"'every' is shorter than {MIN_EVERY / 60:g} minutes")
    return seconds


def _one(entry: Any) -> Schedule:
    if not isinstance(entry, dict):
        raise ValueError("a schedule is a [[tournament]] table")
    known = {"name", "format", "preset", "players", "clock", "rated", "minutes", "rounds", "every", "first"}
    extra = sorted(set(entry) - known)
    if extra:
        raise ValueError(f"unknown field '{extra[0]}'")
    name = entry.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= 24:
        raise ValueError("'name' must be 1 to 24 characters")
    fmt = entry.get("format")
    if fmt not in FORMATS:
        raise ValueError(f"'format' must be one of {', '.join(FORMATS)}")
    preset = entry.get("preset", "classic")
    if preset not in FAMILIES:
        raise ValueError(f"'preset' must have a rating pool: {', '.join(sorted(FAMILIES))}")
    players = entry.get("players", 2)
    if players not in (2, 3) or isinstance(players, bool):
        raise ValueError("'players' must be 2 or 3")
    if players not in PRESETS[preset].get("players", (2, 3)):
        raise ValueError(f"preset '{preset}' is not played by {players}")
    clock = entry.get("clock")
    if clock not in CONTROLS:
        raise ValueError(f"'clock' must be one of {', '.join(CONTROLS)}")
    rated = entry.get("rated", True)
    if not isinstance(rated, bool):
        raise ValueError("'rated' must be true or false")
    minutes, rounds = entry.get("minutes"), entry.get("rounds")
    if fmt == "arena" and (
        not isinstance(minutes, int | float) or isinstance(minutes, bool) or not 0 < minutes <= 1440
    ):
        raise ValueError("an arena needs 'minutes' (1 to 1440)")
    if fmt == "swiss" and (not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 30):
        raise ValueError("a Swiss tournament needs 'rounds' (1 to 30)")
    first = entry.get("first", 0.0)
    if isinstance(first, datetime):
        if first.tzinfo is None:
            raise ValueError("'first' needs its time zone (e.g. 2026-12-07T18:00:00Z)")
        first = first.timestamp()
    if not isinstance(first, int | float) or isinstance(first, bool):
        raise ValueError("'first' must be a date and time (e.g. 2026-12-07T18:00:00Z)")
    return Schedule(
        name=name.strip(),
        format=str(fmt),
        preset=str(preset),
        players=int(players),
        clock=str(clock),
        rated=rated,
        minutes=float(minutes) if fmt == "arena" and minutes is not None else None,
        rounds=int(rounds) if fmt == "swiss" and rounds is not None else None,
        every=_duration(entry.get("every")),
        first=float(first),
    )


def parse(source: str) -> list[Schedule]:
    """The schedules of a file's text; :class:`RoppyakkenError` with one line naming the problem."""
    try:
        data = tomllib.loads(source)
    except tomllib.TOMLDecodeError as exc:
        raise RoppyakkenError(text.TOURNAMENT_SCHEDULES_FILE, reason=str(exc)) from None
    entries = data.get("tournament", [])
    extra = sorted(set(data) - {"tournament"})
    if extra or not isinstance(entries, list):
        raise RoppyakkenError(
            text.TOURNAMENT_SCHEDULES_FILE,
            reason=f"only [[tournament]] tables are read ({', '.join(extra) or 'tournament'})",
        )
    if len(entries) > MAX_SCHEDULES:
        raise RoppyakkenError(text.TOURNAMENT_SCHEDULES_FILE, reason=f"more than {MAX_SCHEDULES} schedules")
    out: list[Schedule] = []
    for number, entry in enumerate(entries, 1):
        try:
            out.append(_one(entry))
        except ValueError as exc:
            name = entry.get("name", "?") if isinstance(entry, dict) else "?"
            raise RoppyakkenError(
                text.TOURNAMENT_SCHEDULE, number=number, name=str(name)[:40], problem=str(exc)
            ) from None
    return out


def make_due(conn: Connection, schedules: list[Schedule], now: float, ahead: float = AHEAD) -> list[str]:
    """Make the scheduled tournaments starting within ``ahead`` seconds that do not exist yet; their ids."""
    made: list[str] = []
    for schedule in schedules:
        for start in schedule.starts(now, now + ahead):
            tournament_id = schedule.tournament_id(start)
            if conn.execute(select(tournaments.c.id).where(tournaments.c.id == tournament_id)).first():
                continue
            store.create(
                conn,
                {
                    "id": tournament_id,
                    "name": schedule.name,
                    "format": schedule.format,
                    "preset": schedule.preset,
                    "players": schedule.players,
                    "clock": schedule.clock,
                    "rated": schedule.rated,
                    "visibility": "public",
                    "club_id": None,
                    "creator": None,
                    "schedule": schedule.name,
                    "created_at": now,
                    "starts_at": start,
                    "duration": None if schedule.minutes is None else schedule.minutes * 60.0,
                    "rounds": schedule.rounds,
                    "status": store.SCHEDULED,
                },
            )
            made.append(tournament_id)
    return made
