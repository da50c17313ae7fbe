"""``woken``: an event or a time, whichever comes first, and a cancellation never dropped."""

from __future__ import annotations

import asyncio

import pytest

from roppyakken.waiting import woken


def test_it_says_whether_the_event_came_before_the_time() -> None:
    async def run() -> tuple[bool, bool]:
        event = asyncio.Event()
        asyncio.get_running_loop().call_later(0.01, event.set)
        came = await woken(event, 5.0)
        return came, await woken(asyncio.Event(), 0.01)

    assert asyncio.run(run()) == (True, False)


@pytest.mark.parametrize("turns", range(4))
def test_a_cancellation_in_the_turn_of_the_wake_goes_through(turns: int) -> None:
    """The event set, then its waiter cancelled a few turns of the loop later: unless the waiter had
    already returned, it ends cancelled (``wait_for`` in its place returns the wake instead, in
    Python 3.11)."""

    async def run() -> tuple[bool, bool]:
        event = asyncio.Event()
        waiter = asyncio.create_task(woken(event, 3600.0))
        await asyncio.sleep(0)
        event.set()
        for _ in range(turns):
            await asyncio.sleep(0)
        finished = waiter.done()
        waiter.cancel()
        try:
            await waiter
        except asyncio.CancelledError:
            return finished, True
        return finished, False

    finished, cancelled = asyncio.run(run())
    assert finished != cancelled
