"""The room registry's chores on timers: idle rooms let go, stale unfinished rooms and old guests
forgotten, rooms whose clock must act soon loaded in time.

Unfinished rooms are kept in the database for ``Limits.retention_days`` after
their creation; finished games (their records) are kept for good.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime, timedelta

from roppyakken.server.people import guests
from roppyakken.server.play.registry import Registry
from roppyakken.server.play.seats import OVER
from roppyakken.server.store import room_store
from roppyakken.server.store.database import StorageError

log = logging.getLogger("roppyakken.server")


class Sweeper:
    """The timers of one registry's chores (:meth:`start`, :meth:`stop`)."""

    def __init__(self, registry: Registry, ready: Callable[[], Awaitable[None]] | None = None) -> None:
        self.registry = registry
        self.ready = ready
        """Awaited before the first look for due clocks (a single server's recovery)."""
        self._tasks: list[asyncio.Task[None]] = []
        self._last_prune = -math.inf
        self._last_guests = -math.inf

    def start(self) -> None:
        """Start sweeping and loading rooms whose clock is due."""
        self._tasks = [
            asyncio.create_task(self._sweep_loop(), name="roppyakken-sweeper"),
            asyncio.create_task(self._load_due_loop(), name="roppyakken-clock-loader"),
        ]

    async def stop(self) -> None:
        """Stop the timers."""
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    async def _sweep_loop(self) -> None:
        limits = self.registry.limits
        period = max(0.05, min(30.0, limits.room_idle / 4))
        while True:
            await asyncio.sleep(period)
            self.registry.sweep()
            if time.monotonic() - self._last_prune > 3600:
                self._last_prune = time.monotonic()
                await self.prune()
            if time.monotonic() - self._last_guests > guests.SWEEP_EVERY:
                self._last_guests = time.monotonic()
                await self.forget_guests()

    async def _load_due_loop(self) -> None:
        period = max(0.05, self.registry.limits.clock_horizon / 4)
        if self.ready is not None:
            await self.ready()
        while True:
            await self.registry.load_due()
            await asyncio.sleep(period)

    async def prune(self) -> int:
        """Forget unfinished rooms created more than ``Limits.retention_days`` ago; how many."""
        registry = self.registry
        before = datetime.now(UTC) - timedelta(days=registry.limits.retention_days)
        try:
            gone: int = await registry.db.run(lambda c: room_store.delete_unfinished(c, before))
        except StorageError:
            return 0
        for room in [r for r in registry.rooms.values() if r.status != OVER and r.created_at < before]:
            registry.evict(room)
        if gone:
            log.info("forgot %d unfinished rooms created before %s", gone, before.date())
        return gone

    async def forget_guests(self) -> int:
        """Delete a batch of old guests (server/people/guests.py; one member at a time); how many."""
        days = self.registry.limits.guest_days
        try:
            gone: int = await self.registry.db.run(lambda c: guests.sweep(c, time.time(), days))
        except StorageError as exc:
            log.warning("old guests were not swept: %s", exc)
            return 0
        if gone:
            log.info("forgot %d guests unseen for %g days, with no game and no account", gone, days)
        return gone
