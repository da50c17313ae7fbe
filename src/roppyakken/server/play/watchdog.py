"""The send watchdog: clients that have not taken what was sent to them within ``Limits.send_timeout``
are dropped, so that a reader that stopped reading holds no memory and slows nobody."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Final

from roppyakken.server.play.registry import Registry

WATCH_SLICE: Final = 200
"""Connections the send watchdog checks before letting the event loop run other work again."""


class SendWatchdog:
    """Looks at every client of a registry's rooms (and the relayed ones) a few times a second."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start looking."""
        self._task = asyncio.create_task(self._watch(), name="roppyakken-send-watchdog")

    async def stop(self) -> None:
        """Stop looking."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _watch(self) -> None:
        registry = self.registry
        loop = asyncio.get_running_loop()
        period = max(0.05, min(0.5, registry.limits.send_timeout / 8))
        while True:
            await asyncio.sleep(period)
            clients = [c for room in registry.rooms.values() for c in room.clients] + list(registry.relayed)
            for start in range(0, len(clients), WATCH_SLICE):
                if start:
                    await asyncio.sleep(0)  # the loop runs moves and timers between slices
                now = loop.time()
                for client in clients[start : start + WATCH_SLICE]:
                    check = getattr(client, "check_send", None)
                    if check is not None:
                        check(now, period)
