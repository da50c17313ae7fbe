"""A renewal of the leases that came late under load left the member unsure of rooms whose leases were
still its own: the next move in each was refused and the room let go, its (relayed) clients told
``restarting``.  The member now asks Redis first, and lets a room go only if it is truly lost."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from typing import Any

from roppyakken.rules import preset
from roppyakken.server.cluster.leases import Leases
from roppyakken.server.cluster.redislink import open_redis
from roppyakken.server.play.registry import Registry
from roppyakken.server.store.database import Database
from roppyakken.server.wire.bodies import CreateRoom
from roppyakken.view import view_of
from tests.harness import services
from tests.harness.server_harness import limits_for_tests


def test_a_lease_renewed_late_is_confirmed_and_one_taken_is_not() -> None:
    async def scenario(url: str) -> None:
        one, other = open_redis(url, 1.0), open_redis(url, 1.0)
        mine, theirs = Leases(one, "m1"), Leases(other, "m2")
        try:
            assert await mine.claim("room1") is None and await mine.claim("room2") is None
            for room in ("room1", "room2"):
                mine.held[room] = time.monotonic() - 0.1  # the last renewal's sure window is past
            assert not mine.holds("room1")
            assert await mine.confirm("room1") and mine.holds("room1")  # still its own in Redis
            assert mine.orphaned_since("room1") is None
            await other.delete(Leases.lease_key("room2"))  # lapsed, and taken by another member
            assert await theirs.claim("room2") is None
            assert not await mine.confirm("room2") and not mine.holds("room2")
            assert not await mine.confirm("room3")  # never held here
        finally:
            await one.aclose()
            await other.aclose()

    with services.redis_process() as rd:
        asyncio.run(scenario(rd.url))


class _LateClaims:
    """Every claim succeeds; the last renewal came late (``holds`` unsure), but the lease is still
    this member's when asked."""

    shared = False

    def __init__(self) -> None:
        self.asked: list[str] = []
        self.released: list[str] = []

    async def claim(self, room_id: str) -> str | None:
        return None

    def release_soon(self, room_id: str) -> None:
        self.released.append(room_id)

    def holds(self, room_id: str) -> bool:
        return False

    async def confirm(self, room_id: str) -> bool:
        self.asked.append(room_id)
        return True

    def orphaned_since(self, room_id: str) -> float | None:
        return None

    async def give_back(self, room_id: str, *, busy: bool) -> None:
        return None


class _Client:
    seat: int | None = 0

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.closed: list[int] = []

    def send(self, message: str) -> None:
        self.sent.append(json.loads(message))

    def close(self, code: int, reason: str) -> None:
        self.closed.append(code)


def test_a_move_after_a_late_renewal_is_made_and_the_room_kept(tmp_path: Any) -> None:
    async def scenario() -> None:
        db = Database(f"sqlite:///{tmp_path / 'late.sqlite3'}")
        db.open()
        await db.start()
        claims = _LateClaims()
        hub = Registry(db, limits=limits_for_tests(), claims=claims, bot_delay=0)
        try:
            for seed in range(100):
                room, _ = await hub.create(CreateRoom("host", 2, preset("classic"), seed, {1: "random"}))
                if room.game is not None and room.game.to_act == 0:
                    break
            game = room.game
            assert game is not None and game.to_act == 0
            client = _Client()
            assert await room.attach(client)
            await room.apply(0, view_of(game, 0).legal[0])
            assert room.actions >= 1 and claims.asked and room.id in hub.rooms
            assert client.closed == [] and all(m["type"] != "restarting" for m in client.sent)
            assert claims.released == []
        finally:
            await hub.close()
            await db.close()

    asyncio.run(scenario())


def test_slow_chores_do_not_hold_up_the_renewals() -> None:
    """The chores after a renewal (presence, the relays' checks, the members' roster) came before the
    next renewal: on a loaded member they made the renewals later than the leases' life, and the
    member lost its rooms (their clients told ``restarting``).  Now they run beside the renewals."""

    async def scenario(url: str) -> None:
        client, plain = open_redis(url, 3.0), open_redis(url, 3.0)
        leases = Leases(client, "m1", lease_ms=3000)  # renewed every second
        chores_done = 0

        async def slow_chore() -> None:  # each round takes nearly a lease's life
            nonlocal chores_done
            await asyncio.sleep(2.5)
            chores_done += 1

        leases.chores = [slow_chore]
        renewing = asyncio.create_task(leases.renew_loop())
        try:
            assert await leases.claim("room1") is None
            deadline = time.monotonic() + 7.0
            while time.monotonic() < deadline:  # a chore and a renewal's period would be 3.5 s
                left = await plain.pttl(Leases.lease_key("room1"))
                assert left > 0, "the lease lapsed: a renewal waited for the chores"
                await asyncio.sleep(0.05)
            assert chores_done >= 2  # they still ran, one round at a time
            assert leases.holds("room1")
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
            await client.aclose()
            await plain.aclose()

    with services.redis_process() as rd:
        asyncio.run(scenario(rd.url))
