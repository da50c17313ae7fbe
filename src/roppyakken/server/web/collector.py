"""The garbage collector's pace in the server: young passes as usual, middle and full passes on timers.

CPython makes a full pass over every tracked object once the objects that
survived into the oldest generation since the last pass reach a quarter of it.
A server with many games in progress adds long-lived objects all the time (each
move's events stay with its game, each connection its buffers), so with 1,000
clocked games that happened every 12 to 16 s: each pass scanned about 500,000
objects and held the event loop and the GIL for 0.3 to 2 s (more on a loaded
machine), for about 200 objects of garbage found, and every game, clock and
connection waited through it (bench/RESULTS-server.md).

So the server keeps the young generation's automatic passes (they find the
short-lived cycles) and makes the full pass itself every :data:`FULL_EVERY`
seconds, from the event loop, logging it when it takes longer than 100 ms.
Cyclic garbage that outlived the young and middle passes is freed by that pass, so it waits
at most that long; so what each websocket and room leaves when it goes must not be
cyclic (server/web/serving.py, server/web/guard.py, server/play/registry.py): thousands of closed
connections held for ten minutes are hundreds of megabytes.

The middle generation is passed over on a timer too, every :data:`MIDDLE_EVERY` seconds.
What survives a young pass is mostly the connections' keepalive work (a ping timer, its callback
and the pong's parser every 2.5 s for each websocket), which piles up with time, while CPython
passes the middle generation after a count of young passes, which come with allocations: the
less the server allocates, the more each middle pass scans, holding the loop and every move
(bench/RESULTS-server.md, "What was tried").  On the timer a pass scans a fifth of a second's
survivors whatever the allocations.  The settings are put back when the server stops.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from typing import Final

log = logging.getLogger("roppyakken.server")

FULL_EVERY: Final = 600.0
"""Seconds between two full passes of the collector."""
MIDDLE_EVERY: Final = 0.2
"""Seconds between two passes of the middle generation."""
NEVER: Final = 1_000_000_000
"""The threshold that keeps the collector from passing the middle or the oldest generation by itself."""


_taken: list[tuple[int, int, int]] = []
"""The thresholds before the first running :class:`Collector` (several servers may share a process,
as in tests: the last one to stop puts them back)."""
_running = [0]


class Collector:
    """Middle and full collections on timers while started (see the module docstring)."""

    def __init__(self, every: float = FULL_EVERY, middle_every: float = MIDDLE_EVERY) -> None:
        self.every = every
        self.middle_every = middle_every
        self.passes = 0
        """Full passes made so far."""
        self.middle_passes = 0
        """Middle passes made so far."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Take the middle and full passes over (from the running event loop)."""
        if not _running[0]:
            _taken[:] = [gc.get_threshold()]
        _running[0] += 1
        young = _taken[0][0]
        gc.set_threshold(young, NEVER, NEVER)
        self._task = asyncio.create_task(self._loop(), name="roppyakken-collector")

    async def _loop(self) -> None:
        full_at = time.monotonic() + self.every
        while True:
            await asyncio.sleep(min(self.middle_every, max(0.0, full_at - time.monotonic())))
            if time.monotonic() < full_at:
                gc.collect(1)
                self.middle_passes += 1
                continue
            full_at = time.monotonic() + self.every
            began = time.perf_counter()
            found = gc.collect()
            took = time.perf_counter() - began
            self.passes += 1
            if took > 0.1:
                log.info("full garbage collection: %.2f s, %d objects freed", took, found)

    async def stop(self) -> None:
        """Stop, and give the collector its own pace back."""
        if self._task is None:
            return
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task
        self._task = None
        _running[0] -= 1
        if not _running[0]:
            gc.set_threshold(*_taken[0])
