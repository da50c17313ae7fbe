"""Abandoned rated games and the playban ladder: waiting times before the next rated game.

A seat of a *rated* room (``rooms.rated``) is abandoned when the clock gives it up
(:data:`~roppyakken.server.play.clocks.ABANDON_AFTER_TIMEOUTS` timeouts in a row: the
player left or stopped playing) or when the other players hand it to a bot.  Each
such seat is a row of ``abandonments``, written in the transaction that stores the
clock's state, for the player who held the seat (``seat_players``).

The ladder follows lichess's playban (``TempBan.make``): a ban starts when the
game is abandoned; its length depends on the previous ban and how long ago that
ended, so that repeating soon costs more and a clean stretch brings it back down:

- an abandonment counts for :data:`HISTORY` (30 days); older ones are forgotten;
- the first abandonment with no other in the :data:`REPEAT_WINDOW` (7 days)
  before it costs nothing (a warning: connections drop);
- any other costs a ban of ``m`` minutes: :data:`BASE_MINUTES` (10) if there was
  no earlier ban; else, with ``p`` the previous ban's minutes and ``h`` the hours
  since it ended, ``p × (132 − h) / 60`` when ``h < 72`` (2.2× at once, 1× after
  three days), else ``55.6 p / ((5.56 p − 54.6) ^ (h / 720) + 54.6)`` (back to
  about 10 minutes after 30 days clean); never less than :data:`BASE_MINUTES`,
  never more than :data:`CAP_MINUTES` (3 days).

So four abandonments in an evening cost nothing, then 10, 22 and 48 minutes.
A moderator may forgive abandonments (``roppyakken admin playban PLAYER --forgive``).  A game
without a clock that everyone left ends as abandoned without counting against anyone (rated games
have clocks).  Every
duration and window is multiplied by the server's ``--clock-scale`` (tests).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from sqlalchemy import Connection, and_, insert, select

from roppyakken.server.store.tables import abandonments, rooms, seat_players
from roppyakken.server.wire.server import PlaybanInfo

BASE_MINUTES: Final = 10.0
"""The first ban's length, and the shortest."""
CAP_MINUTES: Final = 3 * 24 * 60.0
"""The longest ban: three days."""
REPEAT_WINDOW: Final = 7 * 86_400.0
"""Seconds within which a second abandonment is a repeat (and is banned)."""
HISTORY: Final = 30 * 86_400.0
"""Seconds an abandonment counts for."""
TIMEOUT: Final = "timeout"
HANDED: Final = "handed"


@dataclass(frozen=True, slots=True)
class Playban:
    """A ban in effect: when it ends (epoch seconds), and the abandonments that counted."""

    until: float
    minutes: float
    recent: int
    """Abandonments within :data:`HISTORY`."""

    def left(self, now: float) -> float:
        """Seconds left."""
        return max(0.0, self.until - now)

    def to_json(self, now: float) -> PlaybanInfo:
        """What clients are told (``playban`` of an error or of the lobby)."""
        return PlaybanInfo(seconds=math.ceil(self.left(now)), until=round(self.until, 3), recent=self.recent)


def next_minutes(previous: float | None, hours_since_end: float) -> float:
    """The length of a new ban after ``previous`` (its minutes; None: no earlier ban) ended
    ``hours_since_end`` hours ago (see the module docstring)."""
    if previous is None:
        return BASE_MINUTES
    h = max(0.0, hours_since_end)
    if h < 72:
        minutes = previous * (132 - h) / 60
    else:
        base = max(1.0, 5.56 * previous - 54.6)
        minutes = 55.6 * previous / (base ** (h / 720) + 54.6)
    return min(CAP_MINUTES, max(BASE_MINUTES, minutes))


def ladder(times: Sequence[float], now: float, scale: float = 1.0) -> list[tuple[float, float]]:
    """The bans ``(start, minutes)`` earned by abandonments at ``times`` (epoch seconds) counted at
    ``now``; every duration times ``scale``."""
    history, window = HISTORY * scale, REPEAT_WINDOW * scale
    kept = sorted(t for t in times if now - history <= t <= now)
    bans: list[tuple[float, float]] = []
    for i, at in enumerate(kept):
        if not any(at - window <= before for before in kept[:i]):
            continue  # nothing else recent: a warning
        if bans:
            start, minutes = bans[-1]
            ended = start + minutes * 60 * scale
            minutes = next_minutes(minutes, (at - ended) / (3600 * scale))
        else:
            minutes = next_minutes(None, 0.0)
        bans.append((at, minutes))
    return bans


def playban(times: Sequence[float], now: float, scale: float = 1.0) -> Playban | None:
    """The ban in effect at ``now`` after abandonments at ``times``, or None."""
    bans = ladder(times, now, scale)
    if not bans:
        return None
    start, minutes = bans[-1]
    until = start + minutes * 60 * scale
    if until <= now:
        return None
    recent = sum(1 for t in times if now - HISTORY * scale <= t <= now)
    return Playban(until, minutes, recent)


# ------------------------------------------------------------------------------------- storage


def record(conn: Connection, room_id: str, seat: int, at: float, cause: str) -> None:
    """Count the abandonment of ``seat`` in ``room_id`` against its player, if the room is rated and
    the seat's player is known (one statement, in the caller's transaction; once per seat)."""
    found = conn.execute(
        select(seat_players.c.player_id)
        .select_from(seat_players.join(rooms, rooms.c.id == seat_players.c.room_id))
        .where(seat_players.c.room_id == room_id, seat_players.c.seat == seat, rooms.c.rated.is_(True))
    ).first()
    if found is None:
        return
    done = conn.execute(
        select(abandonments.c.id).where(abandonments.c.room_id == room_id, abandonments.c.seat == seat)
    ).first()
    if done is not None:
        return
    conn.execute(
        insert(abandonments).values(player_id=found[0], room_id=room_id, seat=seat, at=at, cause=cause)
    )


def times_of(conn: Connection, player_id: str, now: float, scale: float = 1.0) -> list[float]:
    """When the player abandoned rated games within :data:`HISTORY` (not forgiven)."""
    rows = conn.execute(
        select(abandonments.c.at).where(
            and_(
                abandonments.c.player_id == player_id,
                abandonments.c.at >= now - HISTORY * scale,
                abandonments.c.forgiven.is_(False),
            )
        )
    ).all()
    return [float(r[0]) for r in rows]


def current(conn: Connection, player_id: str, now: float, scale: float = 1.0) -> Playban | None:
    """The player's ban in effect at ``now``, or None."""
    return playban(times_of(conn, player_id, now, scale), now, scale)


def room_rated(conn: Connection, room_id: str) -> bool:
    """Whether the room's result moves ratings (its seats are under the playban)."""
    return bool(conn.execute(select(rooms.c.rated).where(rooms.c.id == room_id)).scalar())
