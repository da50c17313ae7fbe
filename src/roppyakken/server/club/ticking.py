"""A member's periodic work: one round every tick, or at once when woken.

Quick pairing (server/club/pairing.py) and the friends' presence (server/club/presence.py) run
their rounds in a :class:`Ticker`: a task of its own that waits for a wake or the tick, whichever
comes first, then runs one round.  A wake may come from any thread (a game's end is stored on the
database's writer thread).  A round that fails is logged and the next runs as usual: a
:class:`~roppyakken.server.store.database.StorageError` (the database busy or away) as a
one-line warning, anything else with its traceback.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from roppyakken.server.store.database import StorageError
from roppyakken.waiting import woken

log = logging.getLogger("roppyakken.server")

Round = Callable[[], Awaitable[None]]
"""One round of the work."""


class Ticker:
    """Runs ``work`` in a loop: before each round it waits ``tick`` seconds or a :meth:`wake`,
    whichever comes first.

    ``name`` names the task, ``what`` the work in the log (``"<what> failed: …"``).  Rounds never
    overlap: a wake during a round runs one more round right after it."""

    def __init__(self, work: Round, tick: float, *, name: str, what: str) -> None:
        self.work = work
        self.tick = tick
        """Seconds between two rounds when nothing wakes the ticker."""
        self.name = name
        self.what = what
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    @property
    def running(self) -> bool:
        """Whether the task was started and not closed (or ended)."""
        return self._task is not None and not self._task.done()

    def start(self) -> None:
        """Start the task on the running event loop."""
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.create_task(self._run(), name=self.name)

    async def close(self) -> None:
        """Stop the task: a round under way is cancelled; returns once the task has ended."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    def wake(self) -> None:
        """Run a round as soon as may be; from any thread (another thread's wake goes through the
        loop's ``call_soon_threadsafe``).  Before :meth:`start`, the first round runs at once."""
        loop = self._loop
        if loop is None or _running_loop() is loop:
            self._wake.set()
        elif not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: no round to run
                loop.call_soon_threadsafe(self._wake.set)

    async def _run(self) -> None:
        me = asyncio.current_task()
        assert me is not None
        while not me.cancelling():  # a round that lost its cancellation inside ends the loop too
            await woken(self._wake, self.tick)
            self._wake.clear()
            try:
                await self.work()
            except StorageError as exc:
                log.warning("%s failed: %s", self.what, exc)
            except Exception:
                log.exception("%s failed", self.what)


def _running_loop() -> asyncio.AbstractEventLoop | None:
    """The event loop running in this thread, if any."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        return None
