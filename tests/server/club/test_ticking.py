"""The ticker that runs pairing's and presence's rounds: a tick, a wake (from any thread), errors
logged without ending the loop, a close that stops it."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import threading
from collections.abc import AsyncIterator

import pytest

from roppyakken.server.club.ticking import Ticker
from roppyakken.server.store.database import StorageError
from tests.harness.poll import until_async

LONG = 3600.0
"""A tick that never comes within a test: only a wake runs a round."""


class Counted:
    """A round that counts its runs and raises the failures it is given, one a run."""

    def __init__(self, *failures: Exception) -> None:
        self.runs = 0
        self.failures = list(failures)
        self.ran = asyncio.Event()

    async def __call__(self) -> None:
        self.runs += 1
        self.ran.set()
        if self.failures:
            raise self.failures.pop(0)

    def reached(self, runs: int) -> bool:
        """Whether it ran ``runs`` times."""
        return self.runs == runs


@contextlib.asynccontextmanager
async def ticking(work: Counted, tick: float = LONG, *, wake_first: bool = False) -> AsyncIterator[Ticker]:
    """A started ticker over ``work`` (``wake_first``: woken before its start), closed at the end."""
    ticker = Ticker(work, tick, name="test-ticker", what="test round")
    if wake_first:
        ticker.wake()
    ticker.start()
    try:
        yield ticker
    finally:
        await ticker.close()


def test_rounds_come_every_tick() -> None:
    async def run() -> None:
        work = Counted()
        async with ticking(work, 0.02):
            await until_async(lambda: work.runs >= 3, 10, "three rounds on the tick alone")

    asyncio.run(run())


def test_a_wake_runs_a_round_before_the_tick() -> None:
    async def run() -> None:
        work = Counted()
        async with ticking(work) as ticker:
            await asyncio.sleep(0.05)
            assert work.runs == 0  # nothing woke it, and the tick is an hour away
            for n in (1, 2):
                ticker.wake()
                await until_async(functools.partial(work.reached, n), 10, f"round {n} after a wake")

    asyncio.run(run())


def test_another_thread_can_wake_it() -> None:
    async def run() -> None:
        work = Counted()
        async with ticking(work) as ticker:
            # the wake comes while the loop sleeps with nothing else to wake it: only a wake that goes
            # through the loop's own wake-up runs the round before the deadline
            waker = threading.Timer(0.2, ticker.wake)
            waker.start()
            await asyncio.wait_for(work.ran.wait(), 10)
            waker.join()

    asyncio.run(run())


def test_a_failing_round_is_logged_and_the_loop_goes_on(caplog: pytest.LogCaptureFixture) -> None:
    async def run() -> None:
        work = Counted(StorageError("the database is away"), ValueError("a bug"))
        async with ticking(work) as ticker:
            for n in (1, 2, 3):
                ticker.wake()
                await until_async(functools.partial(work.reached, n), 10, f"round {n} despite the failures")
            assert ticker.running

    with caplog.at_level(logging.WARNING, logger="roppyakken.server"):
        asyncio.run(run())
    failed = [r for r in caplog.records if r.getMessage().startswith("test round failed")]
    said = [r.getMessage() for r in failed]
    assert said == ["test round failed: the database is away", "test round failed"]
    assert failed[0].levelno == logging.WARNING and failed[0].exc_info is None  # one line
    assert failed[1].levelno == logging.ERROR and failed[1].exc_info is not None  # with its traceback


def test_close_cancels_a_round_under_way_and_no_more_come() -> None:
    async def run() -> None:
        cancelled: list[bool] = []
        work = Counted()

        async def slow() -> None:
            await work()
            try:
                await asyncio.sleep(LONG)
            except asyncio.CancelledError:
                cancelled.append(True)
                raise

        ticker = Ticker(slow, LONG, name="test-ticker", what="test round")
        ticker.start()
        ticker.wake()
        await asyncio.wait_for(work.ran.wait(), 10)
        await ticker.close()
        assert cancelled == [True]
        assert not ticker.running
        ticker.wake()  # a wake after the close runs nothing
        await asyncio.sleep(0.05)
        assert work.runs == 1

    asyncio.run(run())


def test_a_wake_before_the_start_runs_the_first_round_at_once() -> None:
    async def run() -> None:
        work = Counted()
        async with ticking(work, wake_first=True):
            await until_async(lambda: work.runs == 1, 10, "the first round at once")

    asyncio.run(run())


@pytest.mark.parametrize("turns", range(6))
def test_close_ends_it_when_a_wake_comes_with_the_cancellation(turns: int) -> None:
    """A wake and the close in the same turns of the loop: Python 3.11's ``asyncio.wait_for``
    returns the wake and drops the cancellation when the two meet, and the ticker must end anyway
    (a server's shutdown waits for it)."""

    async def run() -> None:
        work = Counted()
        ticker = Ticker(work, LONG, name="test-ticker", what="test round")
        ticker.start()
        for _ in range(3):
            await asyncio.sleep(0)  # waiting for a wake
        ticker.wake()
        for _ in range(turns):
            await asyncio.sleep(0)
        closing = asyncio.create_task(ticker.close())
        done, _ = await asyncio.wait({closing}, timeout=2.0)
        assert closing in done, "the ticker did not end"
        assert not ticker.running

    asyncio.run(run())


def test_close_ends_it_when_a_round_loses_the_cancellation() -> None:
    """A round that loses its cancellation (a library's ``wait_for`` dropping it, as Python 3.11's
    does) and returns: no round comes after it, and the ticker ends."""

    async def run() -> int:
        started = asyncio.Event()
        rounds = 0

        async def losing() -> None:
            nonlocal rounds
            rounds += 1
            started.set()
            with contextlib.suppress(asyncio.CancelledError):
                await asyncio.sleep(LONG)

        ticker = Ticker(losing, LONG, name="test-ticker", what="test round")
        ticker.start()
        ticker.wake()
        await started.wait()
        closing = asyncio.create_task(ticker.close())
        done, _ = await asyncio.wait({closing}, timeout=2.0)
        assert closing in done, "the ticker did not end"
        return rounds

    assert asyncio.run(run()) == 1
