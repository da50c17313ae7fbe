"""A single server's heartbeat: how a start after a crash knows since when the clocks had nobody to run them.

A single server (no cluster) writes the epoch seconds of its last sign of life
to ``heartbeats`` every :data:`PERIOD` seconds and removes the row when it stops
cleanly (after pausing every running clock, :func:`pause_clocks`).  A server that
starts and finds the row knows its predecessor died (``kill -9``, a power cut):
every running clock gets back the time since that last beat (or since its turn
started, if later: the server was alive then), so each seat has at least what it
had when the server died and at most :data:`PERIOD` seconds (plus the writer's
lag) more.  A clean stop's paused clocks are resumed as before.

A cluster member does the same with the renewal stamps of its Redis leases
(server/cluster/leases.py), room by room, when it takes a room from a member that died.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Final

from sqlalchemy import Connection, delete, insert, select, update

from roppyakken.server.play.clocks import Clock
from roppyakken.server.store import room_store
from roppyakken.server.store.database import Database, StorageError
from roppyakken.server.store.room_store import save_clock
from roppyakken.server.store.tables import heartbeats

log = logging.getLogger("roppyakken.server")

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


def running_clocks(conn: Connection) -> list[tuple[str, Clock]]:
    """Every unfinished room's stored clock that has a deadline: (room, clock)."""
    return [(room_id, Clock.from_json(data)) for room_id, data in room_store.running_clocks(conn)]


def pause_clocks(conn: Connection, now: float) -> int:
    """The server stops: every running clock keeps what it has left (:func:`recover_clocks` resumes it);
    how many."""
    paused = 0
    for room_id, clock in running_clocks(conn):
        if clock.turn is not None and clock.paused is None and clock.timed:
            clock.pause(now)
            save_clock(conn, room_id, clock.to_json(), clock.next_deadline())
            paused += 1
    return paused


class Recovery:
    """A single server's clocks across its stops: made good at the start (:meth:`start`), then a beat
    every :data:`PERIOD`; every running clock paused at a clean stop (:meth:`stop`)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self.done: asyncio.Task[None] | None = None
        """The recovery at the start (rooms are loaded only once it is done)."""
        self._heart: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Make the clocks good after the last stop or crash, then beat."""
        self.done = asyncio.create_task(self._recover(), name="roppyakken-clock-recovery")

    async def ready(self) -> None:
        """Wait for the recovery at the start."""
        if self.done is not None and not self.done.done():
            await asyncio.shield(self.done)

    async def _recover(self) -> None:
        """The clocks the server paused when it last stopped run on from here, and if it died instead
        (its heartbeat is there), every running clock gets back the time since its last beat."""
        try:
            resumed, given, dead = await self.db.run(lambda c: recover_clocks(c, time.time()))
        except StorageError as exc:
            log.error("the clocks were not made good after the last stop (%s)", exc)
        else:
            if resumed:
                log.info("%d clocks paused while the server was stopped run again", resumed)
            if dead is not None:
                log.warning(
                    "the last server died %.1f s ago at most: %d running clocks got that time back",
                    time.time() - dead,
                    given,
                )
        self._heart = asyncio.create_task(self._beat_loop(), name="roppyakken-heartbeat")

    async def _beat_loop(self) -> None:
        while True:
            await asyncio.sleep(PERIOD)
            with contextlib.suppress(StorageError):
                await self.db.run(lambda c: beat(c, time.time()))

    async def stop(self) -> None:
        """Stop beating; every running clock, in memory or not, keeps what it has left (a clean stop)."""
        for task in (self.done, self._heart):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task

        def work(c: Connection) -> None:
            pause_clocks(c, time.time())
            stopped(c)  # a clean stop: nothing to give back at the next start

        try:
            await self.db.run(work)
        except StorageError as exc:
            log.error("the clocks were not paused (%s): the stop is charged to them", exc)
