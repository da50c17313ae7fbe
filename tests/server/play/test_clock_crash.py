"""A crash of the server holding a room costs its player no time: the clock gets back the time the room
had nobody alive to serve it, and not much more.

For real: ``roppyakken serve`` processes killed with ``kill -9`` while a player's clock runs, then a
single server restarted on its SQLite file, or the room taken over by the other member of a cluster
(PostgreSQL, Redis) as soon as its lease lapses.  Without the give-back the stored deadline stays
where it was and the whole outage is charged to the player.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from websockets.sync.client import ClientConnection, connect

from roppyakken.server.cluster.leases import LEASE_MS, Leases
from roppyakken.server.play.downtime import PERIOD, last_beat
from roppyakken.server.store.database import Database
from roppyakken.server.store.room_store import load_room
from tests.harness import services
from tests.harness.poll import until

pytestmark = pytest.mark.slow

RULES = {"toml": 'preset = "classic"\ntarget = 100\n'}
CLOCKS = ["--clock-scale", "0.1", "--clock-horizon", "1"]
"""``60+300`` becomes 6 s a move and a 30 s bank; no room is loaded for its clock before it is due."""
DOWN = 3.0
"""Seconds the test leaves the single server dead before starting the next."""
SLACK = 2.0
"""Seconds of scheduling noise allowed above the bound (a beat or a renewal late on a loaded, shared
machine: the bound is the period plus the writer's or Redis's lag)."""


def _clock(database: str, room: str) -> dict[str, Any]:
    db = Database(database)
    try:
        stored = db.run_now(lambda c: load_room(c, room))
    finally:
        db.engine.dispose()
    assert stored is not None and stored.room.clock is not None
    return stored.room.clock


def _beat_since(database: str, when: float) -> bool:
    """Whether the single server's stored heartbeat was written after ``when`` (epoch seconds)."""
    db = Database(database)
    try:
        beat = db.run_now(last_beat)
    finally:
        db.engine.dispose()
    return beat is not None and beat > when


def _renewed_since(leases: redis.Redis, room: str, when: float) -> bool:
    """Whether the holder's last renewal of ``room``'s lease (Redis's stamp) came after ``when``."""
    stamp = leases.hget(Leases.STAMPS_KEY, room)
    return stamp is not None and int(str(stamp)) / 1000 > when


def _alices_clock_runs(database: str, room: str) -> dict[str, Any]:
    """Wait until the stored clock is seat 0's (the bot moved first, if it was to); return it."""
    deadline = time.monotonic() + 30
    while True:
        clock = _clock(database, room)
        if clock["turn"] == 0 and clock["deadline"] is not None:
            return clock
        assert time.monotonic() < deadline, clock
        time.sleep(0.1)


def _create(url: str) -> dict[str, Any]:
    body = {"name": "alice", "rules": RULES, "clock": "60+300", "bots": {"1": "random"}}
    created: dict[str, Any] = httpx.post(url + "/api/rooms", json=body, timeout=10).json()
    return created


@contextmanager
def _join(url: str, room: str, token: str) -> Iterator[ClientConnection]:
    """Alice's websocket: she is there (a room with a connected player stays with its holder)."""
    with connect(url.replace("http://", "ws://") + f"/ws/{room}", open_timeout=10) as ws:
        ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        yield ws


def _server(database: str) -> services.Member:
    """One ``roppyakken serve`` over a SQLite file (no cluster), with the test's clocks."""
    return services.Member(database, None, extra=list(CLOCKS))


@contextmanager
def _single(database: str) -> Iterator[list[services.Member]]:
    started: list[services.Member] = []
    try:
        yield started
    except BaseException:
        for server in started:
            print(f"--- {server.url}:", server.log.read_text(errors="replace")[-4000:])
        raise
    finally:
        for server in started:
            server.stop()
            server.log.unlink(missing_ok=True)


def test_a_single_server_killed_gives_the_outage_back_to_the_clock(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with _single(database) as servers:
        first = _server(database).start()
        servers.append(first)
        created = _create(first.url)
        room = created["room"]
        with _join(first.url, room, created["token"]):
            before = _alices_clock_runs(database, room)
            until(
                lambda: _beat_since(database, before["started"]),
                30,
                "a heartbeat written after the clock started",
            )
            killed = time.time()
            first.kill()
        time.sleep(DOWN)  # the outage (the subject): what the clock must get back
        launched = time.time()
        second = _server(database).start()
        servers.append(second)
        ready = time.time()
        assert httpx.get(second.url + f"/api/rooms/{room}", timeout=10).json()["status"] == "playing"
        after = _clock(database, room)
        log = second.log.read_text(errors="replace")
    given = after["deadline"] - before["deadline"]
    # everything from the kill to the relaunch at least (and the start itself, which the test cannot
    # time): alice has at least what she had when the server died ...
    assert given >= launched - killed, (given, launched - killed)
    # ... and at most a heartbeat's period more than the outage
    assert given <= ready - killed + PERIOD + SLACK, (given, ready - killed)
    assert after["turn"] == 0 and after["banks"] == before["banks"]
    assert after["started"] - before["started"] == pytest.approx(given)
    assert "running clocks got that time back" in log


def test_a_clean_stop_is_not_given_back_twice(tmp_path: Path) -> None:
    """A clean stop pauses the clocks and removes the heartbeat: the restart resumes the clock at what
    it had left, exactly, and gives nothing more."""
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with _single(database) as servers:
        first = _server(database).start()
        servers.append(first)
        created = _create(first.url)
        room = created["room"]
        with _join(first.url, room, created["token"]):
            started = _alices_clock_runs(database, room)["started"]
            until(lambda: _beat_since(database, started), 30, "a heartbeat written after the clock started")
        first.stop()
        paused = _clock(database, room)
        assert paused["paused"] is not None
        time.sleep(1.0)  # the server stays down (the subject): a time the clock must not get back
        second = _server(database).start()
        servers.append(second)
        assert httpx.get(second.url + f"/api/rooms/{room}", timeout=10).json()["status"] == "playing"
        after = _clock(database, room)
        log = second.log.read_text(errors="replace")
    assert after["paused"] is None
    left = after["deadline"] - time.time()
    assert paused["paused"] - 2.0 < left <= paused["paused"], (left, paused["paused"])
    assert "running clocks got that time back" not in log


def test_a_member_killed_gives_the_time_without_a_holder_back_to_the_clock() -> None:
    """The room's holder is killed while alice's clock runs; the other member takes the room over by
    itself once the lease lapses: the clock gets back the time since the dead holder's last lease
    renewal."""
    with services.postgres() as pg, services.redis_server() as rd:
        database = services.new_database(pg, "clockcrash")
        leases = redis.Redis.from_url(rd, decode_responses=True)
        with services.members(database, rd, 2, CLOCKS) as (first, second):
            survivor = httpx.get(second.url + "/healthz", timeout=10).json()["member"]
            created = _create(first.url)
            room = created["room"]
            with _join(first.url, room, created["token"]):
                before = _alices_clock_runs(database, room)
                until(
                    lambda: _renewed_since(leases, room, before["started"]),
                    30,
                    "the holder renewed the room's lease after the clock started",
                )
                killed = time.time()
                first.kill()
            # the lease lapses, then the survivor takes it: the last look before that is a time the
            # room had no living holder; the clock is given back before the stored one is seen moved
            limit = time.monotonic() + 30
            while True:
                looked = time.time()
                if leases.get(Leases.lease_key(room)) == survivor:
                    break
                unheld = looked
                assert time.monotonic() < limit, "the survivor did not take the room"
                time.sleep(0.02)
            while (after := _clock(database, room))["deadline"] == before["deadline"]:
                assert time.monotonic() < limit, "the clock was not given back"
                time.sleep(0.05)
            moved = time.time()
            assert not second.errors(), second.errors()
    given = after["deadline"] - before["deadline"]
    assert given >= unheld - killed, (given, unheld - killed)
    # the dead holder renewed every third of a lease's life: at most that before its death
    assert given <= moved - killed + LEASE_MS / 3000 + SLACK, (given, moved - killed)
    assert after["turn"] == 0 and after["banks"] == before["banks"]
