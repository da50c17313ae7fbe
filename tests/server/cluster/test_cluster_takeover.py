"""A dead member's rooms are taken by a survivor within a lease's life plus a few seconds, with nobody
connected and whatever their clocks' deadlines, and a clock's timeout fires that soon after its
deadline; a stopping member's are taken at once (PostgreSQL, Redis and two real ``serve --redis``
members, the default ``--clock-horizon``).

The survivor learns which rooms lost their holder from the leases in Redis (a lease that lapsed
without being given back), not from its scan of the database for clocks near their deadlines,
which runs only every quarter of the horizon (30 s) and finds only rooms within it.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx
import pytest
import redis

from roppyakken.server.cluster.leases import LEASE_MS, Leases
from roppyakken.server.cluster.redislink import open_redis
from roppyakken.server.play.claims import RoomsFull
from roppyakken.server.store.database import Database
from roppyakken.server.store.room_store import load_room
from tests.harness import services
from tests.harness.poll import until_async

pytestmark = pytest.mark.slow

RULES = {"toml": 'preset = "classic"\ntarget = 100\n'}
CLOCKS = ["--clock-scale", "0.5"]
"""``15+60`` becomes 37.5 s for the first move; ``60+300`` 180 s: beyond the 120 s horizon, within the
twice that for which a room with nobody connected stays in memory (its holder's)."""
LEASE = LEASE_MS / 1000
FEW = 3.0
"""Seconds allowed beyond the lease (both bounds are the lease's life after the dead holder's last
renewal, which came before its death): half a second until a survivor looks, restoring the room,
playing the timed-out move, and the noise of a loaded, shared machine."""


def _clock(db: Database, room: str) -> dict[str, Any]:
    stored = db.run_now(lambda c: load_room(c, room))
    assert stored is not None and stored.room.clock is not None
    return stored.room.clock


def _create(url: str, clock: str) -> str:
    body = {"name": "alice", "rules": RULES, "clock": clock, "bots": {"1": "random"}}
    room: str = httpx.post(url + "/api/rooms", json=body, timeout=10).json()["room"]
    return room


def _alices_clock_runs(db: Database, room: str) -> dict[str, Any]:
    """Wait until the stored clock is seat 0's (the bot moved first, if it was to); return it."""
    deadline = time.monotonic() + 30
    while True:
        clock = _clock(db, room)
        if clock["turn"] == 0 and clock["deadline"] is not None:
            return clock
        assert time.monotonic() < deadline, clock
        time.sleep(0.05)


def test_a_dead_members_rooms_are_taken_with_nobody_connected() -> None:
    with services.postgres() as pg, services.redis_server() as rd:
        database = services.new_database(pg, "takeover")
        leases = redis.Redis.from_url(rd, decode_responses=True)
        db = Database(database)
        try:
            with services.members(database, rd, 2, CLOCKS) as (first, second):
                survivor = httpx.get(second.url + "/healthz", timeout=10).json()["member"]
                soon = _create(first.url, "15+60")  # alice never connects to either room
                later = _create(first.url, "60+300")
                before = _alices_clock_runs(db, soon)
                later_before = _alices_clock_runs(db, later)
                holder = httpx.get(first.url + "/healthz", timeout=10).json()["member"]
                assert [leases.get(Leases.lease_key(r)) for r in (soon, later)] == [holder, holder]
                killed = time.time()
                first.kill()
                taken: dict[str, float] = {}
                fired = None
                limit = time.monotonic() + 60
                while fired is None or len(taken) < 2:
                    assert time.monotonic() < limit, ("not taken in 60 s", taken, fired)
                    now = time.time()
                    for room in (soon, later):
                        if room not in taken and leases.get(Leases.lease_key(room)) == survivor:
                            taken[room] = now
                    if fired is None and _clock(db, soon)["by_clock"]:
                        fired = time.time()
                    time.sleep(0.05)
                later_after = _clock(db, later)
                assert not second.errors(), second.errors()
        finally:
            db.engine.dispose()
    assert fired is not None
    delays = {room: at - killed for room, at in taken.items()}
    late = fired - before["deadline"]
    print(
        f"\ntaken {delays[soon]:.2f} s and {delays[later]:.2f} s after the kill (lease {LEASE:g} s); "
        f"the timeout fired {late:.2f} s after the deadline"
    )
    assert delays[soon] <= LEASE + FEW, delays
    assert delays[later] <= LEASE + FEW, delays  # though its deadline is beyond the horizon
    assert late <= LEASE + FEW, late
    # the time without a holder was given back (the seat had at least its time), and no more than that
    given = later_after["deadline"] - later_before["deadline"]
    assert LEASE <= given <= delays[later] + FEW, (given, delays)


def test_lapsed_leases_are_the_rooms_of_holders_that_stopped_renewing() -> None:
    """What a member asks Redis for: the rooms whose leases lapsed unrenewed, not those given back nor
    those renewed; a lapsed one stays listed until taken, and counts no more among the rooms held.
    A room handed over is listed at once."""

    async def scenario(url: str) -> None:
        dead_link, live_link = open_redis(url, 1.0), open_redis(url, 1.0)
        dead = Leases(dead_link, "dead", lease_ms=300, max_rooms=3)  # it never renews
        # the live member's leases outlive any stall of a loaded machine (renewed every second):
        # only the dead member's, 300 ms long, may lapse here
        live = Leases(live_link, "live", lease_ms=3000, max_rooms=3)
        renewing = asyncio.create_task(live.renew_loop())
        try:
            for room in ("r1", "r2", "r3"):
                assert await dead.claim(room) is None
            with pytest.raises(RoomsFull):
                await live.claim("r4")
            await dead.release("r3")  # given back: never lapsed
            assert await live.claim("r4") is None  # renewed from here on
            assert await live.lapsed(10) == []

            async def both_lapsed() -> bool:
                return sorted(await live.lapsed(10)) == ["r1", "r2"]

            await until_async(both_lapsed, 30, "the dead member's two leases lapsed")
            assert len(await live.lapsed(1)) == 1
            assert await live.claim("r5") is None  # the lapsed ones count no more
            assert await live.claim("r1") is None
            assert live.orphaned_since("r1") is not None  # taken from a holder that died
            assert await live.lapsed(10) == ["r2"]
            await asyncio.sleep(0.5)  # time passes (the subject): renewed leases do not lapse
            assert await live.lapsed(10) == ["r2"]  # r1, r4 and r5 are renewed
            await live.hand_over("r5")  # a stopping member's room: first in line, nothing to give back
            assert not live.holds("r5")
            assert await live.lapsed(10) == ["r5", "r2"]
            assert await dead.claim("r5") is None and dead.orphaned_since("r5") is None
        finally:
            renewing.cancel()
            await dead_link.aclose()
            await live_link.aclose()

    with services.redis_server() as url:
        asyncio.run(scenario(url))


def test_a_stopping_members_rooms_are_taken_at_once_with_nobody_connected() -> None:
    """SIGTERM: the member pauses its clocks and hands its rooms over; a survivor takes them within
    about half a second, and the clock runs on from what it had left (the stop charged to nobody)."""
    with services.postgres() as pg, services.redis_server() as rd:
        database = services.new_database(pg, "handover")
        leases = redis.Redis.from_url(rd, decode_responses=True)
        db = Database(database)
        try:
            with services.members(database, rd, 2, CLOCKS) as (first, second):
                survivor = httpx.get(second.url + "/healthz", timeout=10).json()["member"]
                room = _create(first.url, "60+300")  # alice never connects
                before = _alices_clock_runs(db, room)
                stopping = time.time()
                first.stop()
                stopped = time.time()
                limit = time.monotonic() + 60
                while leases.get(Leases.lease_key(room)) != survivor:
                    assert time.monotonic() < limit, "not taken in 60 s"
                    time.sleep(0.02)
                taken = time.time() - stopped
                # paused by the stop, resumed by the survivor: its deadline moved on by the time between
                while (after := _clock(db, room))["deadline"] == before["deadline"] or after["paused"]:
                    assert time.monotonic() < limit, "the clock was not resumed"
                    time.sleep(0.05)
                resumed = time.time()
                assert not second.errors(), second.errors()
        finally:
            db.engine.dispose()
    print(f"\ntaken {taken:.2f} s after the member stopped")
    assert taken <= 2.0, taken
    assert after["turn"] == 0 and after["banks"] == before["banks"]
    assert 0 < after["deadline"] - before["deadline"] <= resumed - stopping, (after, before)
