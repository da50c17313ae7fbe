"""The server's garbage collector pace (server/web/collector.py): no middle or full pass by the
collector's own rule while the server runs, both on the server's timers instead, and the settings put
back after."""

from __future__ import annotations

import asyncio
import gc
from typing import Any

from roppyakken.server.web.collector import NEVER, Collector


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
            assert gc.get_threshold() == (before[0], NEVER, NEVER)
            gc.callbacks.append(watch)
            # enough long-lived objects to make the collector's own rule start full passes
            keep = [[object()] for _ in range(300_000)]
            for _ in range(20):
                keep.extend([[object()] for _ in range(20_000)])
                await asyncio.sleep(0)
            assert len(full) == collector.passes, "the collector made a full pass by itself"
            cycles = [Cycle() for _ in range(1000)]
            gc.collect(1)  # the cycles are old now: only a full pass frees them
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


def test_middle_passes_run_on_the_timer_only_whatever_the_young_passes() -> None:
    before = gc.get_threshold()
    passes: list[int] = []

    def watch(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            passes.append(info["generation"])

    async def run() -> tuple[list[int], list[int], int]:
        collector = Collector(middle_every=0.05)
        collector.start()
        gc.callbacks.append(watch)
        try:
            # young objects enough for hundreds of young passes, the loop held all along: CPython's
            # own rule would pass the middle generation every 10 of them
            kept = [[object()] for _ in range(300_000)]
            held = list(passes)
            passes.clear()
            made = collector.middle_passes
            await asyncio.sleep(0.3)  # the loop free: the timer's passes
            del kept
            return held, list(passes), collector.middle_passes - made
        finally:
            gc.callbacks.remove(watch)
            await collector.stop()

    held, timed, made = asyncio.run(run())
    assert held.count(0) >= 100 and 1 not in held and 2 not in held
    assert made >= 2 and timed.count(1) == made
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
