"""Waiting for something to happen: a check polled until it holds, with a deadline (the machine may
be loaded, so no test waits a fixed time for an effect)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable

import pytest


def until(check: Callable[[], object], seconds: float, what: str, every: float = 0.05) -> float:
    """Poll ``check()`` every ``every`` seconds until it is true; the seconds that took.  The test
    fails, saying ``what`` was not seen, if it is still false after ``seconds``."""
    started = time.monotonic()
    while not check():
        if time.monotonic() - started > seconds:
            pytest.fail(f"not within {seconds:g} s: {what}")
        time.sleep(every)
    return time.monotonic() - started


async def until_async(
    check: Callable[[], object | Awaitable[object]], seconds: float, what: str, every: float = 0.05
) -> float:
    """:func:`until` inside an event loop (``check`` may be a coroutine function): the loop runs on
    between polls."""
    started = time.monotonic()
    while True:
        found = check()
        if isinstance(found, Awaitable):
            found = await found
        if found:
            return time.monotonic() - started
        if time.monotonic() - started > seconds:
            pytest.fail(f"not within {seconds:g} s: {what}")
        await asyncio.sleep(every)
