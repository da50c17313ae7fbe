"""Guests: how fast one address may make them, and old ones forgotten.

**Making.**  ``POST /api/me`` without a player makes a guest; one address may make
``Limits.guests_per_hour`` (30 by default, a burst of a third of it, at least 3) a token
bucket counted per address as the other bounds are (an IPv6 client's /64; in a cluster
the shared Redis buckets, so the members count together).  Past it: 429 with
``Retry-After`` and one line (:class:`TooManyGuests`; counted by server/web/player_routes.py in
the bucket :func:`bucket` describes).

**Forgetting.**  Players who never took a seat, have no account and were not seen for long
are forgotten.

A visitor becomes a player at once (server/people/players.py) and keeps its cookie for
400 days; most never play a game.  A player row is deleted once all of these hold:

- it was not seen for ``Limits.guest_days`` days (30 by default): ``players.seen_at``,
  refreshed by every request that carries its cookie at most every
  :data:`SEEN_EVERY` seconds (its creation time if it was never refreshed);
- it never took a seat (no ``seat_players`` row: a player with a history is kept
  for good, for an account to adopt);
- it has no account (``players.account_id`` is null) and nothing else in the
  database points at it: any column with a foreign key to ``players.id``, or
  named ``player_id`` or ``reporter_id`` (an account, a rating, a waiting row of
  the pairing pool, a sanction or a report, and whatever a later table adds), but for
  its follows, blocks and challenges, which go with it (``tables.GONE_WITH_THE_PLAYER``).

Its cookie then no longer names anyone: the browser is a new visitor again.

The sweep runs on each member every :data:`SWEEP_EVERY` seconds and deletes at
most :data:`BATCH` players a round (a large backlog goes over several rounds,
each a short transaction).  On PostgreSQL one member at a time sweeps: a round
takes a transaction-level advisory lock first and does nothing if another
member holds it; SQLite has one writer anyway.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Final

import sqlalchemy
from sqlalchemy import Column, ColumnElement, Connection, and_, delete, exists, or_, select, update

from roppyakken.errors import RoppyakkenError
from roppyakken.server.store import tables
from roppyakken.server.wire import text

SEEN_EVERY: Final = 3600.0
"""Seconds between two refreshes of a player's ``seen_at`` (a write at most hourly per player)."""
SWEEP_EVERY: Final = 3600.0
"""Seconds between two sweeps on one member."""
BATCH: Final = 500
"""Most players deleted by one sweep round."""
NAMES: Final = frozenset({"player_id", "reporter_id"})
"""Column names that name a player without a foreign key (ratings, fair play, moderation)."""
LOCK_KEY: Final = 0x72705F67756573
"""The PostgreSQL advisory lock that lets one member at a time sweep."""


class TooManyGuests(RoppyakkenError):
    """One address made too many guests: 429, with the seconds to wait."""

    def __init__(self, seconds: int) -> None:
        super().__init__(text.GUESTS_LIMITED, minutes=max(1, math.ceil(seconds / 60)))
        self.seconds = seconds


def bucket(per_hour: float) -> tuple[float, float]:
    """The token bucket of one address's new guests when it may make ``per_hour`` an hour: its refill
    per minute and its size (a third of the hour's, at least 3)."""
    return per_hour / 60, max(3.0, per_hour / 3)


def seen(conn: Connection, player_id: str, last: float | None, now: float) -> None:
    """The player was seen at ``now`` (its stored ``seen_at`` is ``last``): stored if it is older than
    :data:`SEEN_EVERY`, so that a player's requests write at most hourly."""
    if last is None or now - last >= SEEN_EVERY:
        conn.execute(update(tables.players).where(tables.players.c.id == player_id).values(seen_at=now))


def _references() -> list[Column[str]]:
    """Every column that may name a player: a foreign key to ``players.id``, or one of :data:`NAMES`."""
    found = []
    for table in tables.metadata.sorted_tables:
        if table is tables.players or table.name in tables.GONE_WITH_THE_PLAYER:
            continue
        for column in table.columns:
            points = any(fk.column is tables.players.c.id for fk in column.foreign_keys)
            if points or column.name in NAMES:
                found.append(column)
    return found


def forgettable(now: float, days: float) -> ColumnElement[bool]:
    """The condition a forgotten guest meets (see the module docstring)."""
    cutoff = now - days * 86_400
    unseen = or_(
        tables.players.c.seen_at < cutoff,
        and_(
            tables.players.c.seen_at.is_(None),
            tables.players.c.created_at < datetime.fromtimestamp(cutoff, UTC),
        ),
    )
    kept = [exists().where(column == tables.players.c.id) for column in _references()]
    return and_(tables.players.c.account_id.is_(None), unseen, *[~k for k in kept])


def _sweep_lock(conn: Connection) -> bool:
    """Take the sweep's advisory lock for this transaction; False if another member holds it."""
    return bool(
        conn.execute(sqlalchemy.text("select pg_try_advisory_xact_lock(:key)"), {"key": LOCK_KEY}).scalar()
    )


def sweep(conn: Connection, now: float, days: float, *, batch: int = BATCH) -> int:
    """Delete at most ``batch`` forgotten guests (none if another member is sweeping); how many."""
    if conn.dialect.name == "postgresql" and not _sweep_lock(conn):
        return 0
    condition = forgettable(now, days)
    ids = [r[0] for r in conn.execute(select(tables.players.c.id).where(condition).limit(batch))]
    if not ids:
        return 0
    # the condition again: a guest seated or seen since the select is kept
    done = conn.execute(delete(tables.players).where(tables.players.c.id.in_(ids), condition))
    return int(done.rowcount or 0)
