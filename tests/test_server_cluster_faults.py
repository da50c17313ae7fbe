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

