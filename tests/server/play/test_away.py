"""The away mark (``state.clock.away``): set when the clock plays a seat's move, cleared when its player is
back (a new connection with the seat's token, or their own move), and stored with the clock so that a
crash does not bring it back."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

from roppyakken.server.store.database import Database
from roppyakken.server.store.room_store import load_room
from tests.harness.server_harness import Player, limits_for_tests, running_server

SCALE = 0.05
"""``15+60`` becomes 0.75 s a move and a 3 s bank: the first timeout comes after 3.75 s."""


def _stored_away(database: str, room: str) -> list[bool]:
    db = Database(database)
    try:
        stored = db.run_now(lambda c: load_room(c, room))
    finally:
        db.engine.dispose()
    assert stored is not None and stored.room.clock is not None
    return [bool(a) for a in stored.room.clock["away"]]


def test_a_seat_that_connects_again_is_no_longer_away(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'away.sqlite3'}"
    with running_server(database, limits=limits_for_tests(clock_scale=SCALE)) as server:
        made = server.post("/api/rooms", {"name": "alice", "players": 2, "clock": "15+60"}).json()
        room = made["room"]
        second = server.post(f"/api/rooms/{room}/join", {"name": "bob"}).json()["token"]
        tokens = [made["token"], second]

        async def run() -> tuple[int, dict[str, Any]]:
            alice = await Player.join(server, room, tokens[0])
            bob = await Player.join(server, room, tokens[1])
            await alice.send({"type": "start"})
            timeout = await alice.expect("timeout", 30)  # nobody moves: the first seat to act runs out
            seat = int(timeout["seat"])
            assert timeout["abandoned"] is False
            marked = await alice.expect("state")
            assert marked["clock"]["away"][seat] is True
            back = await Player.join(server, room, tokens[seat])  # the same player, a new connection
            state = await back.expect("state")
            for each in (alice, bob, back):
                await each.close()
            return seat, state

        seat, state = asyncio.run(run())
        assert state["clock"]["away"][seat] is False and state["clock"]["abandoned"][seat] is False
        deadline = time.monotonic() + 2  # the write is queued after the state is sent
        while _stored_away(database, room)[seat]:
            assert time.monotonic() < deadline, "the cleared mark was not stored"
            time.sleep(0.05)
