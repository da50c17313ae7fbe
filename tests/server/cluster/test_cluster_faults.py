"""The cluster under faults, for real: a holder paused mid-write, Redis frozen, a reader that never
reads, a server killed with bot workers running.

Real PostgreSQL, Redis and ``roppyakken serve`` processes (tests/harness/services.py), as in
tests/server/cluster/link/test_cluster.py; each scenario is made deterministic by the test holding
what it needs (a row lock, SIGSTOP), not by timing.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import functools
import json
import os
import random
import signal
import socket
import time
from collections.abc import Iterator
from typing import Any

import httpx
import psycopg
import pytest
import redis
from websockets.asyncio.client import connect

from tests.harness import services
from tests.harness.cluster_seats import LONGER, Seat, create_room

pytestmark = pytest.mark.slow

MARATHON = {"toml": 'preset = "classic"\ninstant_win = "off"\ntarget = 10000\n'}
"""A game that goes on for many rounds: a steady stream of messages to its watchers."""


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A PostgreSQL cluster's admin URL (databases made per use)."""
    with services.postgres() as pg:
        yield pg


def _lease(redis_url: str, room: str) -> str | None:
    value = redis.Redis.from_url(redis_url, decode_responses=True).get(f"roppyakken:lease:{room}")
    return None if value is None else str(value)


def _member_id(member: services.Member) -> str:
    return str(httpx.get(member.url + "/healthz", timeout=10).json()["member"])


def _seqs(log: list[dict[str, Any]]) -> list[int]:
    return [int(m["seq"]) for m in log if "seq" in m]


def test_a_paused_holder_cannot_write_once_another_member_took_its_room(postgres: str) -> None:
    """The holder sends a move's write, which waits on a row lock (held here); the holder is frozen
    (SIGSTOP) past its lease; the other member takes the room; the lock is let go and the holder
    resumes.  The database orders the two: the old holder's write, begun under its holder epoch,
    commits before the takeover reads the room (so the new holder has it), and nothing the old
    holder tries after that is stored.  The game goes on to its end with every move stored once,
    and no client, whichever member it reaches, is ever shown a lower seq after a higher one.

    (Without fencing the new holder read the room without that move, the old holder's write then
    took the move's number, every later move of the new holder was refused for good, and the
    clients were shown the game one move back.)"""
    database = services.new_database(postgres, "fencing")
    with (
        services.redis_process() as rd,
        # writes may wait on a lock for the whole scenario (the lock is the test's, on purpose)
        services.members(database, rd.url, 2, extra=["--write-timeout", "20"]) as (a, b),
    ):
        room, tokens = create_room(a.url, 2, 1, LONGER)
        target = [a.url]
        seats = [
            Seat(lambda: target[0], room, tokens[0], random.Random(31), host=True, bots={2: "random"}),
            Seat(lambda: target[0], room, tokens[1], random.Random(32)),
        ]
        watcher = Seat(lambda: b.url, room, None, random.Random(33))
        b_id = _member_id(b)
        assert _lease(rd.url, room) == _member_id(a)
        frozen: dict[str, int] = {}

        def to_act() -> Seat | None:
            for s in seats:
                states = [m for m in s.log if m["type"] == "state"]
                if states and states[-1]["view"]["legal"] and states[-1]["view"]["seat"] == s.seat:
                    return s
            return None

        async def fault() -> None:
            deadline = time.monotonic() + 60
            while max(s.last_seq() for s in seats) < 6:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.01)
            for s in seats:
                s.paused = True
            # A move already sent is made (the state after it is in: a seat records a move before
            # sending it, and sends none once paused); then both hold their next.
            while (
                any(max(s.sent, default=-1) >= s.last_seq() for s in seats)
                or (mover := to_act()) is None
                or mover.last_seq() != max(s.last_seq() for s in seats)
            ):
                assert time.monotonic() < deadline
                await asyncio.sleep(0.01)
            seq = mover.last_seq()
            lock = await psycopg.AsyncConnection.connect(database)
            try:
                await lock.execute("select id from rooms where id = %s for update", (room,))
                waiting_before = await asyncio.to_thread(services.lock_waiters, database)
                mover.paused = False  # its move goes to the holder, whose write waits on the lock
                while await asyncio.to_thread(services.lock_waiters, database) <= waiting_before:
                    assert time.monotonic() < deadline, "the holder's write never reached the database"
                    await asyncio.sleep(0.01)
                assert a.proc is not None
                os.kill(a.proc.pid, signal.SIGSTOP)
                frozen["seq"] = seq
                target[0] = b.url  # new connections go to the other member
                while _lease(rd.url, room) is not None:  # the frozen holder's lease lapses
                    assert time.monotonic() < deadline
                    await asyncio.sleep(0.05)
                watching = asyncio.create_task(watcher.run(time.monotonic() + 90))
                while _lease(rd.url, room) != b_id:  # the other member takes the room
                    assert time.monotonic() < deadline, "the other member never took the room"
                    await asyncio.sleep(0.02)
                held = await asyncio.to_thread(services.lock_waiters, database)
                await lock.rollback()  # the holder's write goes on (it is still frozen)
            finally:
                await lock.close()
            # The holder's write, first in the lock's queue, takes the row (the takeover, if it is
            # queued too, now waits on that write's transaction): one waiter fewer.
            while await asyncio.to_thread(services.lock_waiters, database) >= held:
                assert time.monotonic() < deadline, "the holder's write never took the row"
                await asyncio.sleep(0.01)
            os.kill(a.proc.pid, signal.SIGCONT)
            # whichever member each reconnection reaches, from now on
            target[0] = a.url
            rng = random.Random(34)
            for s in seats:
                s.urls = lambda: rng.choice([a.url, b.url])
                s.paused = False
            resumed = time.monotonic()
            while max(s.last_seq() for s in [*seats, watcher]) < seq + 4:
                assert time.monotonic() - resumed < 20, "the game is stuck after the takeover"
                await asyncio.sleep(0.02)
            await watching

        async def scenario() -> None:
            deadline = time.monotonic() + 120
            tasks = [asyncio.create_task(s.run(deadline)) for s in seats]
            try:
                await fault()
                await asyncio.gather(*tasks)
            finally:
                if a.proc is not None and a.proc.poll() is None:
                    os.kill(a.proc.pid, signal.SIGCONT)
                for task in tasks:
                    task.cancel()

        asyncio.run(scenario())
        record = httpx.get(f"{b.url}/api/games/{room}/record", timeout=10)
        assert record.status_code == 200, "the game ended"
        for s in [*seats, watcher]:
            seen = _seqs(s.log)
            assert seen == sorted(seen), f"a client was shown the game going back: {seen}"
        with psycopg.connect(database) as conn:
            rows = conn.execute("select idx from actions where room_id = %s order by idx", (room,)).fetchall()
        assert [r[0] for r in rows] == list(range(len(rows)))
        assert len(rows) > frozen["seq"] + 1, "the game went on after the takeover"
        _check_stored_moves_were_sent(database, room, seats)


def _check_stored_moves_were_sent(database: str, room: str, seats: list[Seat]) -> None:
    """Every stored move of a seat is one that seat sent for that state, and every client saw the
    game to its last move."""
    with psycopg.connect(database) as conn:
        rows = conn.execute(
            "select idx, seat, action from actions where room_id = %s order by idx", (room,)
        ).fetchall()
    by_seat = {s.seat: s for s in seats if s.seat is not None}
    for idx, seat, action in rows:
        if seat in by_seat:  # (not a bot's)
            assert json.loads(action) in by_seat[seat].sent.get(idx, []), f"move {idx} was never sent for it"
    for s in seats:
        assert s.last_seq() == len(rows), "every client saw the game to its end"


def test_a_move_relayed_while_redis_is_frozen_is_answered_within_the_write_timeout(postgres: str) -> None:
    """Redis frozen (SIGSTOP): a move sent through a member relaying to the holder cannot reach it,
    nor its answer come back.  The client is told within --write-timeout that its move was not
    confirmed (and to reconnect), instead of waiting for good; once Redis is back, the move sent
    again is made once."""
    database = services.new_database(postgres, "frozen_redis")
    write_timeout = 2.0
    extra = ["--write-timeout", str(write_timeout)]
    with (
        services.redis_process() as rd,
        services.members(database, rd.url, 2, extra=extra) as (holder, relay),
    ):
        room, tokens = create_room(holder.url, 1, 1)  # a person and a bot: it starts at once, held there
        assert rd.proc is not None
        redis_pid = rd.proc.pid

        async def turn(ws: Any) -> dict[str, Any]:
            while True:
                message: dict[str, Any] = json.loads(await asyncio.wait_for(ws.recv(), 30))
                if message["type"] == "state" and message["view"]["legal"] and message["view"]["seat"] == 0:
                    return message

        async def scenario() -> tuple[list[dict[str, Any]], float, dict[str, Any]]:
            async with connect(f"ws://127.0.0.1:{relay.port}/ws/{room}") as ws:
                await ws.send(json.dumps({"type": "hello", "v": 1, "token": tokens[0]}))
                state = await turn(ws)
                action = state["view"]["legal"][0]
                os.kill(redis_pid, signal.SIGSTOP)
                try:
                    began = time.monotonic()
                    await ws.send(
                        json.dumps({"type": "act", "action": action, "seq": state["seq"], "id": "m1"})
                    )
                    answers = []
                    with contextlib.suppress(TimeoutError):
                        while True:
                            message = json.loads(await asyncio.wait_for(ws.recv(), write_timeout + 3))
                            answers.append(message)
                            if message["type"] in ("state", "error"):
                                break
                    took = time.monotonic() - began
                finally:
                    os.kill(redis_pid, signal.SIGCONT)
            return answers, took, state

        answers, took, state = asyncio.run(scenario())
        print(
            f"a move relayed while Redis was frozen answered in {took:.2f} s: {[m['type'] for m in answers]}"
        )
        assert answers, f"no answer to a move relayed while Redis was frozen ({write_timeout + 3} s)"
        assert answers[-1]["type"] in ("state", "error") and took <= write_timeout + 0.5, (answers, took)
        if answers[-1]["type"] == "error":
            assert answers[-1]["id"] == "m1" and "\n" not in answers[-1]["message"]

        async def again() -> int:
            # Redis is back: the client reconnects and sends its move again (made once, by its seq)
            deadline = time.monotonic() + 30
            while True:
                assert time.monotonic() < deadline, "the game never came back after Redis did"
                try:
                    async with connect(f"ws://127.0.0.1:{relay.port}/ws/{room}") as ws:
                        await ws.send(json.dumps({"type": "hello", "v": 1, "token": tokens[0]}))
                        message = json.loads(await asyncio.wait_for(ws.recv(), 10))
                        if message["type"] != "welcome":
                            raise OSError(message)
                        while (message := json.loads(await asyncio.wait_for(ws.recv(), 10)))[
                            "type"
                        ] != "state":
                            pass
                        return int(message["seq"])
                except (OSError, TimeoutError, Exception):
                    await asyncio.sleep(0.3)

        now = asyncio.run(again())
        assert now >= state["seq"]
        with psycopg.connect(database) as conn:
            rows = conn.execute("select idx from actions where room_id = %s order by idx", (room,)).fetchall()
        assert [r[0] for r in rows] == list(range(len(rows)))


def _never_reading_watcher(port: int, room: str) -> socket.socket:
    """A websocket spectator that says hello and then never reads a byte (after the handshake)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(
        (
            f"GET /ws/{room} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    answer = b""
    while b"\r\n\r\n" not in answer:  # the handshake's answer (before it, a frame could be lost)
        answer += sock.recv(1)
    assert answer.startswith(b"HTTP/1.1 101"), answer
    payload = json.dumps({"type": "hello", "v": 1, "token": None}).encode()
    mask = os.urandom(4)
    sock.sendall(
        bytes([0x81, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )
    return sock


def _slow_drops(member: services.Member) -> float:
    for line in httpx.get(member.url + "/metrics", timeout=10).text.splitlines():
        if line.startswith('roppyakken_requests_refused_total{reason="slow_client"}'):
            return float(line.split()[-1])
    return 0.0


def test_a_spectator_that_never_reads_is_dropped_within_the_send_timeout(postgres: str) -> None:
    """Two spectators that never read, one on the holder and one relayed through the other member,
    while a long game runs fast.  Each is dropped within about --send-timeout of falling behind
    (the bytes not taken are counted where they wait, in this process and in the kernel), not
    when megabytes have piled up; the player, who reads, plays on."""
    database = services.new_database(postgres, "never_reads")
    send_timeout = 2.0
    extra = ["--send-timeout", str(send_timeout)]
    with services.redis_server() as rd, services.members(database, rd, 2, extra=extra) as (holder, relay):
        room, tokens = create_room(holder.url, 1, 2, MARATHON)  # a person and two bots
        player = Seat(lambda: holder.url, room, tokens[0], random.Random(41), pace=0.0)

        async def scenario() -> tuple[float, int]:
            playing = asyncio.create_task(player.run(time.monotonic() + 120))
            try:
                while player.last_seq() < 3:
                    assert not playing.done()
                    await asyncio.sleep(0.01)
                began = time.monotonic()
                watchers = [_never_reading_watcher(m.port, room) for m in (holder, relay)]
                try:
                    # (off the event loop: the player must answer its pings in time)
                    while not await asyncio.to_thread(
                        lambda: min(_slow_drops(holder), _slow_drops(relay)) >= 1
                    ):
                        assert not playing.done(), "the player stopped"
                        assert time.monotonic() - began < 20, "a spectator that never reads is still served"
                        await asyncio.sleep(0.1)
                    took = time.monotonic() - began
                finally:
                    for w in watchers:
                        w.close()
                moves = player.last_seq()
                return took, moves
            finally:
                playing.cancel()
                with contextlib.suppress(asyncio.CancelledError, AssertionError):
                    await playing

        took, moves = asyncio.run(scenario())
        print(f"never-reading spectators dropped {took:.1f} s after connecting; {moves} moves by then")
        assert player.connections == 1, "the player, who reads, was never dropped"


def test_bot_workers_end_when_their_server_is_killed(postgres: str) -> None:
    """``kill -9`` of a server whose bots think in worker processes: the forkserver, the workers and
    the resource tracker end within seconds (they used to run on for good, about 100 MB)."""
    database = services.new_database(postgres, "bot_workers")
    with (
        services.redis_server() as rd,
        services.members(database, rd, 1, extra=["--bot-workers", "2"]) as (m,),
    ):
        assert m.proc is not None
        pid = m.proc.pid
        body = {"name": "p", "players": 2, "bots": {"1": "master"}}
        created = httpx.post(m.url + "/api/rooms", json=body, timeout=10).json()

        def workers() -> list[int]:
            # the forkserver is the server's child; the workers are the forkserver's (same command line)
            forkservers = [p for p in services.children(pid) if "forkserver" in services.command_line(p)]
            return [w for f in forkservers for w in services.descendants(f)]

        async def play_until_a_master_thinks() -> None:
            async with connect(f"ws://127.0.0.1:{m.port}/ws/{created['room']}") as ws:
                await ws.send(json.dumps({"type": "hello", "v": 1, "token": created["token"]}))
                deadline = time.monotonic() + 60
                while not workers():
                    assert time.monotonic() < deadline, "no bot worker was started"
                    with contextlib.suppress(TimeoutError):
                        message = json.loads(await asyncio.wait_for(ws.recv(), 0.2))
                        view = message.get("view", {})
                        if message["type"] == "state" and view.get("legal") and view.get("seat") == 0:
                            act = {"type": "act", "action": view["legal"][0], "seq": message["seq"]}
                            await ws.send(json.dumps(act))

        asyncio.run(play_until_a_master_thinks())
        below = services.descendants(pid)
        assert len(below) >= 3, [services.command_line(p) for p in below]  # forkserver, tracker, workers
        try:
            m.kill()
            killed = time.monotonic()
            while left := [p for p in below if services.running(p)]:
                assert time.monotonic() - killed < 10, [services.command_line(p) for p in left]
                time.sleep(0.05)
            print(f"{len(below)} bot processes ended {time.monotonic() - killed:.2f} s after kill -9")
        finally:
            for p in below:
                with contextlib.suppress(OSError):
                    os.kill(p, signal.SIGKILL)


@pytest.mark.parametrize("backend", ["postgresql", "sqlite"])
def test_the_database_refuses_a_write_of_a_holder_whose_room_was_taken(
    backend: str, postgres: str, tmp_path: Any
) -> None:
    """Fencing in the database itself: a server that takes a room raises its holder epoch, and
    every write of a server still on the older epoch is refused (the move and the finish alike),
    in bulk with other rooms' moves, which are stored; the taker's writes go through."""
    from roppyakken.server.store import room_store
    from roppyakken.server.store.database import ActionRow, Database, StaleRoom

    url = (
        services.new_database(postgres, "fence_direct")
        if backend == "postgresql"
        else str(tmp_path / "f.sqlite3")
    )
    old, new = Database(url), Database(url)
    old.open()

    def room(room_id: str) -> room_store.RoomRow:
        from datetime import UTC, datetime

        return room_store.RoomRow(room_id, datetime.now(UTC), 2, "classic", {}, 1, "playing")

    async def scenario() -> None:
        await old.start()
        await new.start()
        try:
            seat = room_store.SeatRow(0, "human", "p")
            for row in (room("r1"), room("r2")):
                await old.run(functools.partial(room_store.insert_room, room=row, room_seats=[seat]))
            await old.submit(ActionRow("r1", 0, 0, "{}", 1))
            taken = await new.run(lambda c: room_store.load_room(c, "r1", take=True))
            assert taken is not None and taken.room.epoch == 2 and taken.actions == ["{}"]
            stale = old.submit(ActionRow("r1", 1, 0, '"old"', 1))
            other = old.submit(ActionRow("r2", 0, 0, "{}", 1))  # the same batch: stored
            with pytest.raises(StaleRoom):
                await stale
            await other
            with pytest.raises(StaleRoom):
                await old.run(lambda c: room_store.fence(c, "r1", 1))
            await new.submit(ActionRow("r1", 1, 1, '"new"', 2))
            stored = await new.run(lambda c: room_store.load_room(c, "r1"))
            assert stored is not None and stored.actions == ["{}", '"new"'] and stored.room.epoch == 2
        finally:
            await old.close()
            await new.close()

    asyncio.run(scenario())
