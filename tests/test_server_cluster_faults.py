"""The cluster under faults, for real: a holder paused mid-write, Redis frozen, a reader that never
reads, a server killed with bot workers running.

Real PostgreSQL, Redis and ``roppyakken serve`` processes (tests/services.py), as in
tests/test_server_cluster.py; each scenario is made deterministic by the test holding
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

from tests import services
from tests.test_server_cluster import LONGER, Seat, _create, _database

pytestmark = pytest.mark.slow

MARATHON = {"toml": 'preset = "classic"\ninstant_win = "off"\ntarget = 10000\n'}
"""A game that goes on for many rounds: a steady stream of messages to its watchers."""


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A PostgreSQL cluster's admin URL (databases made per use)."""
    with services.postgres() as pg:
        yield pg


def test_a_move_relayed_while_redis_is_frozen_is_answered_within_the_write_timeout(postgres: str) -> None:
    """Redis frozen (SIGSTOP): a move sent through a member relaying to the holder cannot reach it,
    nor its answer come back.  The client is told within --write-timeout that its move was not
    confirmed (and to reconnect), instead of waiting for good; once Redis is back, the move sent
    again is made once."""
    database = _database(postgres, "frozen_redis")
    write_timeout = 2.0
    extra = ["--write-timeout", str(write_timeout)]
    with (
        services.redis_process() as rd,
        services.members(database, rd.url, 2, extra=extra) as (holder, relay),
    ):
        room, tokens = _create(holder.url, 1, 1)  # a person and a bot: it starts at once, held there
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
    database = _database(postgres, "never_reads")
    send_timeout = 2.0
    extra = ["--send-timeout", str(send_timeout)]
    with services.redis_server() as rd, services.members(database, rd, 2, extra=extra) as (holder, relay):
        room, tokens = _create(holder.url, 1, 2, MARATHON)  # a person and two bots
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
                    while not (_slow_drops(holder) >= 1 and _slow_drops(relay) >= 1):
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
    database = _database(postgres, "bot_workers")
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
                time.sleep(0.1)
        finally:
            for p in below:
                with contextlib.suppress(OSError):
                    os.kill(p, signal.SIGKILL)

