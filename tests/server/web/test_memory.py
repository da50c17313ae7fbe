"""The server's memory stays flat while websockets come and go (a real ``roppyakken serve`` process).

Each closed websocket left about 65 KiB behind (its buffers and compression state, in reference
cycles that only the server's full garbage collection, every few minutes, frees), so waves of
lobby or room connections made the server grow by about 16 MiB every 256 sockets, for good as far
as any operator could tell.  Here waves of 256 sockets (32 from each of 8 addresses, the
per-address bound, told to the server as a trusted proxy's ``X-Forwarded-For``) open, each reads
what the server sends first, and close; after warm-up waves the server's resident memory must stay
flat, for lobby sockets and for a room's players and spectators alike.
"""

from __future__ import annotations

import asyncio
import gc
import itertools
import json
import sys
import time
import weakref
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from roppyakken.rules import preset
from roppyakken.server.play.registry import Registry
from roppyakken.server.store.database import Database
from roppyakken.server.wire.bodies import CreateRoom
from tests.harness.server_harness import limits_for_tests
from tests.harness.services import Member
from tests.harness.support import require

pytestmark = pytest.mark.slow

ADDRESSES = 8
PER_ADDRESS = 32
"""The default ``--connections-per-address``: each wave fills every address's bound."""
WARM_UP = 3
"""Waves of each kind before the first measure (the allocator's pools and caches fill up)."""
WAVES = 6
"""Measured waves of each kind (each measured once the server's memory holds still)."""
MOST_PER_SOCKET = 4 * 1024
"""Bytes of resident memory a measured socket may leave on average: the leak left about 65 KiB
(7 KiB when only the upgraded HTTP side stayed), what is left now is noise (under 2.5 KiB)."""


def _resident(pid: int) -> int:
    """The process's resident memory (bytes), from /proc."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError(f"no VmRSS for process {pid}")


def _settled(pid: int) -> int:
    """The process's resident memory once it holds still for a second (the server may still be
    ending the last sockets its clients closed), or after 15 s."""
    deadline = time.monotonic() + 15
    readings = [_resident(pid)]
    while time.monotonic() < deadline and not (len(readings) >= 5 and len(set(readings[-5:])) == 1):
        time.sleep(0.2)  # the next sample: memory holding still is what is waited for
        readings.append(_resident(pid))
    return readings[-1]


@pytest.fixture
def served_process(tmp_path: Path) -> Iterator[Member]:
    require(sys.platform.startswith("linux"), "the server's memory is read from /proc (Linux only)")
    member = Member(
        str(tmp_path / "memory.sqlite3"), None, extra=["--connections-per-address", str(PER_ADDRESS)]
    )
    member.start()
    try:
        yield member
    finally:
        member.stop()


Visit = Callable[[ClientConnection, int], Awaitable[None]]


async def _wave(url: str, visit: Visit) -> None:
    """Open a socket from every address up to its bound, let each ``visit``, close them all."""

    async def one(address: str, n: int) -> None:
        headers = {"X-Forwarded-For": address}
        async with connect(url, additional_headers=headers, open_timeout=60, close_timeout=30) as ws:
            await asyncio.wait_for(visit(ws, n), 60)

    await asyncio.gather(*(one(f"10.7.0.{a + 1}", n) for a in range(ADDRESSES) for n in range(PER_ADDRESS)))


async def _lobby(ws: ClientConnection, n: int) -> None:
    message = json.loads(await ws.recv())
    assert message["type"] == "lobby", message


def _room_visit(token: str) -> Visit:
    """Half the sockets come as the room's player (its seat token), half as spectators."""

    async def visit(ws: ClientConnection, n: int) -> None:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token if n % 2 else None}))
        while True:
            message: dict[str, Any] = json.loads(await ws.recv())
            assert message["type"] != "error", message
            if message["type"] == "state":
                return

    return visit


def test_websockets_that_come_and_go_leave_no_memory_behind(served_process: Member) -> None:
    created = httpx.post(
        f"{served_process.url}/api/rooms",
        json={"name": "alice", "players": 2, "bots": {"1": "random"}},
        timeout=30,
    )
    assert created.status_code == 201, created.text
    room, token = created.json()["room"], created.json()["token"]
    base = served_process.url.replace("http://", "ws://")
    assert served_process.proc is not None
    pid = served_process.proc.pid

    def waves(url: str, visit: Visit) -> list[int]:
        """The server's memory before and after each of :data:`WAVES` waves."""
        readings = [_settled(pid)]
        for _ in range(WAVES):
            asyncio.run(_wave(url, visit))
            readings.append(_settled(pid))
        return readings

    lobby = (f"{base}/ws/lobby", _lobby)
    watch = (f"{base}/ws/{room}", _room_visit(token))
    for _ in range(WARM_UP):
        asyncio.run(_wave(*lobby))
        asyncio.run(_wave(*watch))
    measured = {"lobby": waves(*lobby), "room": waves(*watch)}

    # A leak grows the same at every wave; a wave that happened to hold more at once than any
    # before it grows the allocator's heap once (glibc keeps it): its step is left out.
    most = (WAVES - 1) * ADDRESSES * PER_ADDRESS * MOST_PER_SOCKET
    for kind, readings in measured.items():
        steps = [after - before for before, after in itertools.pairwise(readings)]
        shown = ", ".join(f"{step / 2**20:+.1f}" for step in steps)
        assert sum(steps) - max(steps) < most, (
            f"{kind} sockets: the server grew by {shown} MiB at each of {WAVES} waves of "
            f"{ADDRESSES * PER_ADDRESS} sockets (at most {most / 2**20:.1f} MiB in all but the largest)"
        )
    assert served_process.errors() == []


def test_a_room_let_go_is_freed_without_the_garbage_collector(tmp_path: Path) -> None:
    """A room leaves memory once its last client has gone (and comes back with the next one); the
    registry's hooks in it held it, a cycle, so every room let go stayed until the full collection."""

    async def scenario() -> None:
        db = Database(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
        db.open()
        await db.start()
        hub = Registry(db, limits=limits_for_tests())
        try:
            room, _ = await hub.create(CreateRoom("host", 3, preset("classic"), None, {}))
            let_go = weakref.ref(room)
            del room
            await db.run(lambda c: None)  # the database's writer holds on to its last batch
            gc.disable()
            try:
                assert hub.sweep(older_than=0.0) == 1
                assert let_go() is None, "the room let go is still in memory"
            finally:
                gc.enable()
        finally:
            await hub.close()
            await db.close()

    asyncio.run(scenario())
