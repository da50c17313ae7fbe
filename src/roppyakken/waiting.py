"""Waiting for an asyncio event at most a while, without ever dropping a cancellation."""

from __future__ import annotations

import asyncio


async def woken(event: asyncio.Event, seconds: float) -> bool:
    """Wait until ``event`` is set or ``seconds`` have passed; whether it was set.

    Python 3.11's ``asyncio.wait_for(event.wait(), seconds)`` returns the event's wake when it comes
    in the same turn of the loop as its task's cancellation, and drops the cancellation: a task that
    loops on it is then never ended (a server's shutdown waiting for it). ``asyncio.timeout`` lets
    every cancellation through."""
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True
