"""Members on a Redis Cluster: six real ``redis-server --cluster-enabled yes`` on loopback (three
masters, three replicas, tests/harness/redis_cluster.py), PostgreSQL, two ``serve --redis
redis+cluster://…`` members and nginx in front of them.

Games are played through it to the end with the players on different members (their messages
relayed on sharded channels), and the master serving the leases' slot is killed with ``kill -9``
mid-game: its replica is promoted, the game goes on to its end with every move stored once, and a
write under a holder epoch the database has moved past is refused.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
import pytest
from redis.crc import key_slot

from roppyakken.errors import RoppyakkenError
from roppyakken.server.cluster.leases import Leases
from roppyakken.server.cluster.redislink import KeySpace, check_url, cluster_address, open_redis
from roppyakken.server.play.claims import RoomsFull
from roppyakken.server.store import room_store
from roppyakken.server.store.database import ActionRow, Database, StaleRoom
from tests.harness import services
from tests.harness.cluster_seats import LONGER, Seat, create_room
from tests.harness.poll import until, until_async
from tests.harness.redis_cluster import RedisClusterNodes, redis_cluster
from tests.harness.support import run_cli
from tests.server.cluster.test_cluster import _check_exactly_once, _hidden_check, _play

pytestmark = pytest.mark.slow

SHARDED = KeySpace(sharded=True)
LEASES_SLOT_KEY = SHARDED.rooms
"""A key of the leases' slot (every lease, the rooms held and the stamps are in it)."""


def test_every_script_keeps_its_keys_in_one_slot() -> None:
    """A claim, a renewal and a release touch a room's lease, the rooms held and the stamps: on a
    Redis Cluster they share a slot (a script over several slots is refused); a member's channel is
    in a slot of its own member's, the names on one Redis are unchanged."""
    rooms = [f"r{n:05d}" for n in range(200)]
    assert {key_slot(SHARDED.lease(r).encode()) for r in rooms} == {key_slot(SHARDED.rooms.encode())}
    assert key_slot(SHARDED.stamps.encode()) == key_slot(SHARDED.rooms.encode())
    assert SHARDED.channel("abc") == "roppyakken:{member:abc}"
    single = KeySpace()
    assert (single.lease("r1"), single.rooms, single.stamps) == (
        "roppyakken:lease:r1",
        Leases.ROOMS_KEY,
        Leases.STAMPS_KEY,
    )
    assert single.channel("abc") == "roppyakken:member:abc"


def test_a_cluster_url_is_checked_in_one_line() -> None:
    address = cluster_address("rediss+cluster://u:p%40ss@10.0.0.1:7000,10.0.0.2:7001")
    assert address.nodes == [("10.0.0.1", 7000), ("10.0.0.2", 7001)]
    assert (address.username, address.password, address.ssl) == ("u", "p@ss", True)
    assert check_url("redis+cluster://127.0.0.1:7000/0") == "redis+cluster://127.0.0.1:7000/0"
    for bad in (
        "redis+cluster://",
        "redis+cluster://host",
        "redis+cluster://h:1/3",
        "redis+cluster://h:99999",
    ):
        with pytest.raises(RoppyakkenError) as refused:
            check_url(bad)
        assert str(refused.value).startswith(f"unsupported Redis URL '{bad}'")
    # nothing answers there: one line, no password shown
    pg = "postgresql://u@127.0.0.1:1/x"
    url = "redis+cluster://:secret@127.0.0.1:1,127.0.0.1:2"
    code, _, err = run_cli(["serve", "--port", "0", "--database", pg, "--redis", url])
    lines = err.strip().splitlines()
    assert code != 0 and len(lines) == 1, err
    assert lines[0].startswith("roppyakken: error: cannot reach Redis at redis+cluster://***@127.0.0.1:1,")
    assert "secret" not in err and "Traceback" not in err


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A PostgreSQL cluster's admin URL (databases made per use)."""
    with services.postgres() as pg:
        yield pg


def test_leases_on_a_redis_cluster() -> None:
    """The lease scripts run on a Redis Cluster as on one Redis: the bound on the rooms held, the
    leases that lapsed, a renewal, a hand-over."""

    async def scenario(url: str) -> None:
        dead_link, live_link = open_redis(url, 1.0), open_redis(url, 1.0)
        dead = Leases(dead_link, "dead", lease_ms=300, max_rooms=3, keys=SHARDED)
        live = Leases(live_link, "live", lease_ms=3000, max_rooms=3, keys=SHARDED)
        renewing = asyncio.create_task(live.renew_loop())
        try:
            for room in ("r1", "r2", "r3"):
                assert await dead.claim(room) is None
            with pytest.raises(RoomsFull):
                await live.claim("r4")
            await dead.release("r3")
            assert await live.claim("r4") is None
            assert await live.holders(["r1", "r4", "r9"]) == ["dead", "live", None]

            async def both_lapsed() -> bool:
                return sorted(await live.lapsed(10)) == ["r1", "r2"]

            await until_async(both_lapsed, 30, "the dead member's two leases lapsed")
            assert await live.claim("r1") is None and live.orphaned_since("r1") is not None
            await live.hand_over("r4")
            assert await live.lapsed(10) == ["r4", "r2"]
            assert await live.holder("r1") == "live"
        finally:
            renewing.cancel()
            await dead_link.aclose()
            await live_link.aclose()

    with redis_cluster() as rc:
        asyncio.run(scenario(rc.url))


def _at(url: str) -> Callable[[], str]:
    return lambda: url


@contextmanager
def _stack(pg: str, rc: RedisClusterNodes, label: str) -> Iterator[services.Stack]:
    """Two members on the Redis Cluster ``rc`` and a fresh database, nginx in front of them."""
    database = services.fresh_database(pg, label)
    with (
        services.members(database, rc.url, 2) as started,
        services.nginx([m.port for m in started]) as port,
    ):
        yield services.Stack(database, rc.url, started, port)


def test_games_through_a_redis_cluster(postgres: str) -> None:
    """Two games, each with its players on both members (one relayed to the holder through the
    holder's sharded channel) and a spectator: played to the end, every move stored once, each
    client shown only what its seat may see; the leases and channels are the cluster's names."""
    with redis_cluster() as rc, _stack(postgres, rc, "rc_games") as stack:
        a, b = stack.members
        games = []
        for n, (first, second) in enumerate(((a, b), (b, a))):
            room, tokens = create_room(first.url, 2, 1)
            games.append(
                [
                    Seat(_at(first.url), room, tokens[0], random.Random(n), True, {2: "random"}),
                    Seat(_at(second.url), room, tokens[1], random.Random(10 + n)),
                    Seat(_at(second.url), room, None, random.Random(20 + n)),
                ]
            )
        client = rc.client()
        try:
            ids = stack.member_ids()
            assert {client.get(SHARDED.lease(seats[0].room)) for seats in games} == set(ids)
            for member in ids:
                channel = SHARDED.channel(member)
                node = client.get_node_from_key(channel)  # type: ignore[no-untyped-call]
                numsub = client.execute_command(  # type: ignore[no-untyped-call]
                    "PUBSUB SHARDNUMSUB", channel, target_nodes=node
                )
                assert [int(n) for _, n in numsub] == [1], (member, numsub)
        finally:
            client.close()
        _play(stack, games)
        for seats in games:
            room = seats[0].room
            actions = _check_exactly_once(stack, room, seats)
            assert all(s.connections == 1 for s in seats), "nobody had to reconnect"
            assert _hidden_check(room, seats, actions, stack) > 2 * len(actions)
        assert stack.errors() == []


def test_kill_9_of_the_master_holding_the_leases_mid_game(postgres: str) -> None:
    """The master serving the leases' slot is killed mid-game: its replica is promoted, the game goes
    on to its end, no move stored twice nor missing; a write under the holder epoch of before a
    takeover is refused by the database."""
    with redis_cluster() as rc, _stack(postgres, rc, "rc_failover") as stack:
        room, tokens = create_room(stack.url, 2, 1, LONGER)
        seats = [
            Seat(lambda: stack.url, room, tokens[0], random.Random(4), host=True, bots={2: "random"}),
            Seat(lambda: stack.url, room, tokens[1], random.Random(5)),
            Seat(lambda: stack.url, room, None, random.Random(6)),
        ]
        killed: dict[str, Any] = {}
        master = rc.master_of(LEASES_SLOT_KEY)
        db = Database(stack.database)

        async def kill_master() -> None:
            deadline = time.monotonic() + 60
            while max(s.last_seq() for s in seats) < 8:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.002)
            killed["epoch"] = db.run_now(lambda c: room_store.room_epoch(c, room))
            master.kill()
            killed["at"] = max(s.last_seq() for s in seats)
            killed["when"] = time.monotonic()
            while max(s.last_seq() for s in seats) <= killed["at"] + 1:
                assert time.monotonic() < deadline and not all(s.over for s in seats), "the game stopped"
                await asyncio.sleep(0.01)
            killed["moved_on"] = time.monotonic() - killed["when"]

        try:
            _play(stack, [seats], during=kill_master)
            actions = _check_exactly_once(stack, room, seats)
            _hidden_check(room, seats, actions, stack)
            # the replica was promoted: another node serves the leases' slot, the cluster is whole
            until(lambda: rc.master_of(LEASES_SLOT_KEY).port != master.port, 30, "a replica promoted")
            rc.wait_ok(30)
            with psycopg.connect(stack.database) as conn:
                query = "select count(*), count(distinct idx) from actions where room_id = %s"
                stored = conn.execute(query, (room,)).fetchone()
            assert stored == (len(actions), len(actions))
            print(f"\nkill -9 of the leases' master: the game moved on {killed['moved_on']:.2f} s later")
            assert killed["moved_on"] < 15, killed
            # the fence: a member holding the room under an older epoch writes nothing, whether it
            # lost the room in the failover or later (another member takes it: the epoch rises)
            db.run_now(lambda c: room_store.load_room(c, room, take=True))
            epoch = db.run_now(lambda c: room_store.room_epoch(c, room))
            assert epoch is not None and epoch > killed["epoch"]

            async def stale_write() -> None:
                await db.start()
                try:
                    with pytest.raises(StaleRoom):
                        await db.submit(ActionRow(room, len(actions), 0, '"stale"', killed["epoch"]))
                finally:
                    await db.close()

            asyncio.run(stale_write())
            stored_after = db.run_now(lambda c: room_store.load_room(c, room))
            assert stored_after is not None
            assert len(stored_after.actions) == len(actions), "the stale move was not stored"
        finally:
            db.engine.dispose()
        print("members said:", stack.errors())


def test_kill_9_of_the_master_serving_the_holders_channel_mid_game(postgres: str) -> None:
    """The master serving the holder's sharded channel is killed mid-game, one player relayed through
    the other member: the holder subscribes again at the promoted replica, the relayed client
    reconnects, and the game goes on to its end with every move stored once."""
    with redis_cluster() as rc, _stack(postgres, rc, "rc_channel") as stack:
        a, b = stack.members
        room, tokens = create_room(a.url, 2, 1, LONGER)  # the member that creates a room holds it
        holder = next(m for m, member in stack.member_ids().items() if member is a)
        channel = SHARDED.channel(holder)
        master = rc.master_of(channel)
        seats = [
            Seat(_at(a.url), room, tokens[0], random.Random(7), host=True, bots={2: "random"}),
            Seat(_at(b.url), room, tokens[1], random.Random(8)),
        ]
        killed: dict[str, Any] = {}

        async def kill_master() -> None:
            deadline = time.monotonic() + 60
            while max(s.last_seq() for s in seats) < 8:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.002)
            master.kill()
            killed["at"] = max(s.last_seq() for s in seats)
            killed["when"] = time.monotonic()
            while max(s.last_seq() for s in seats) <= killed["at"] + 1:
                assert time.monotonic() < deadline and not all(s.over for s in seats), "the game stopped"
                await asyncio.sleep(0.01)
            killed["moved_on"] = time.monotonic() - killed["when"]

        _play(stack, [seats], during=kill_master)
        _check_exactly_once(stack, room, seats)
        until(lambda: rc.master_of(channel).port != master.port, 30, "a replica promoted")

        def subscribed_again() -> bool:
            client = rc.client()
            try:
                node = client.get_node_from_key(channel)  # type: ignore[no-untyped-call]
                got = client.execute_command(  # type: ignore[no-untyped-call]
                    "PUBSUB SHARDNUMSUB", channel, target_nodes=node
                )
                return [int(n) for _, n in got] == [1]
            finally:
                client.close()

        until(subscribed_again, 30, "the holder subscribed to its channel at the promoted replica")
        print(
            f"\nkill -9 of the holder's channel's master: the game moved on {killed['moved_on']:.2f} s later"
        )
        assert killed["moved_on"] < 15, killed
