"""The server's garbage collector pace (server/web/collector.py): no full pass by the collector's own
rule while the server runs, one on the server's timer instead, and the settings put back after."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from roppyakken.server.web.collector import MIDDLE, NEVER, Collector


class Cycle:
    """An object in a reference cycle with itself: only the collector frees it."""

    def __init__(self) -> None:
        self.me: Any = self


def test_full_passes_run_on_the_timer_only_and_the_settings_come_back() -> None:
    before = gc.get_threshold()
    full: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "stop" and info["generation"] == 2:
            full.append(info["collected"])

    async def run() -> int:
        collector = Collector(every=0.5)
        collector.start()
        try:
            assert gc.get_threshold() == (before[0], MIDDLE, NEVER)
            gc.callbacks.append(watch)
            # enough long-lived objects to make the collector's own rule start full passes
            keep = [[object()] for _ in range(300_000)]
            for _ in range(20):
                keep.extend([[object()] for _ in range(20_000)])
                await asyncio.sleep(0)
            assert len(full) == collector.passes, "the collector made a full pass by itself"
            cycles = [Cycle() for _ in range(1000)]
            del cycles
            made = collector.passes
            while collector.passes == made:  # the timer's next pass frees them
                await asyncio.sleep(0.05)
            del keep
            return collector.passes
        finally:
            gc.callbacks.remove(watch)
            await collector.stop()

    passes = asyncio.run(run())
    assert passes >= 1 and full and max(full) >= 1000
    assert gc.get_threshold() == before


def test_two_servers_in_one_process_put_the_settings_back_once_both_stopped() -> None:
    before = gc.get_threshold()

    async def run() -> None:
        first, second = Collector(), Collector()
        first.start()
        second.start()
        await first.stop()
        assert gc.get_threshold()[2] == NEVER  # the second still runs
        await second.stop()

    asyncio.run(run())
    assert gc.get_threshold() == before
