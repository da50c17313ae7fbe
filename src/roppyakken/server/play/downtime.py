"""A single server's heartbeat: how a start after a crash knows since when the clocks had nobody to run them.

A single server (no cluster) writes the epoch seconds of its last sign of life
to ``heartbeats`` every :data:`PERIOD` seconds and removes the row when it stops
cleanly (after pausing every running clock, server/play/hub.py).  A server that
starts and finds the row knows its predecessor died (``kill -9``, a power cut):
every running clock gets back the time since that last beat (or since its turn
started, if later: the server was alive then), so each seat has at least what it
had when the server died and at most :data:`PERIOD` seconds (plus the writer's
lag) more.  A clean stop's paused clocks are resumed as before.

A cluster member does the same with the renewal stamps of its Redis leases
(server/cluster/leases.py), room by room, when it takes a room from a member that died.
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import Connection, delete, insert, select, update

from roppyakken.server.store.room_store import running_clocks, save_clock
from roppyakken.server.store.tables import heartbeats

PERIOD: Final = 1.0
"""Seconds between two heartbeats (the most a crash can give back beyond the time the server was dead)."""
SERVER: Final = "server"
"""The single server's row."""


def beat(conn: Connection, now: float) -> None:
    """Write the server's sign of life."""
    done = conn.execute(update(heartbeats).where(heartbeats.c.server == SERVER).values(seen_at=now))
    if not done.rowcount:
        conn.execute(insert(heartbeats).values(server=SERVER, seen_at=now))


def stopped(conn: Connection) -> None:
    """The server stops cleanly (its clocks are paused): no crash to make good at the next start."""
    conn.execute(delete(heartbeats).where(heartbeats.c.server == SERVER))


def last_beat(conn: Connection) -> float | None:
    """The last sign of life of a server that did not stop cleanly, or None."""
    value = conn.execute(select(heartbeats.c.seen_at).where(heartbeats.c.server == SERVER)).scalar()
    return None if value is None else float(value)


def recover_clocks(conn: Connection, now: float) -> tuple[int, int, float | None]:
    """The server starts: paused clocks run on from what they had left; if the last server died, every
    running clock gets back the time since its last beat.  (resumed, given back, the last beat), and
    a new beat (so that this runs once a crash)."""
    dead_since = last_beat(conn)
    resumed = given = 0
    for room_id, clock in running_clocks(conn):
        if clock.resume(now):
            resumed += 1
        elif dead_since is None or not clock.give_back(dead_since, now):
            continue
        else:
            given += 1
        save_clock(conn, room_id, clock.to_json(), clock.next_deadline())
    beat(conn, now)
    return resumed, given, dead_since
