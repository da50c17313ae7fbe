"""How long each step stays on screen at the table, and the waits a key cuts short."""

from __future__ import annotations

import asyncio
from typing import Final

from roppyakken.waiting import woken

PACES: Final[dict[str, float]] = {"slow": 1.2, "normal": 0.6, "fast": 0.25, "instant": 0.0}
"""Seconds each step of a move stays on screen."""
PACE_ORDER: Final = ("normal", "fast", "instant", "slow")
"""The paces in the order the speed key goes through them."""


class Pacer:
    """The table's pace, its pauses (Space skips one) and a replay's steps (Enter asks for one)."""

    def __init__(self, pace: str) -> None:
        self.pace = pace if pace in PACES else "normal"
        """The pace's name (a key of :data:`PACES`)."""
        self._skip = asyncio.Event()
        self._step = asyncio.Event()

    @property
    def seconds(self) -> float:
        """How long a step stays on screen at the pace as it is now."""
        return PACES[self.pace]

    def faster(self) -> None:
        """The next pace (after the fastest: the slowest), cutting the pause short."""
        self.pace = PACE_ORDER[(PACE_ORDER.index(self.pace) + 1) % len(PACE_ORDER)]
        self._skip.set()

    def skip(self) -> None:
        """Cut the current pause short."""
        self._skip.set()

    def step(self) -> None:
        """Ask for a replay's next step."""
        self._step.set()

    async def pause(self, seconds: float) -> None:
        """Let a step be seen for ``seconds`` (:meth:`skip` cuts it short)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        self._skip.clear()
        await woken(self._skip, seconds)

    async def next_step(self) -> None:
        """Wait until :meth:`step` asks for a replay's next step."""
        self._step.clear()
        await self._step.wait()
