"""A clock survives ``kill -9`` of the cluster member holding its room: with nobody connected, another
member loads the room before the deadline, its clock plays the absent player's moves, a bot takes the
seat, and the game ends (PostgreSQL, Redis and two real ``serve --redis`` members)."""

from __future__ import annotations

import time

import httpx
import pytest

from roppyakken.record import replay
from roppyakken.server.store.database import Database
from roppyakken.server.store.room_store import load_room
from tests.harness import services

pytestmark = pytest.mark.slow

RULES = {"toml": 'preset = "classic"\ntarget = 100\n'}
CLOCKS = ["--clock-scale", "0.1", "--clock-horizon", "4"]
"""``15+60`` becomes 1.5 s a move and a 6 s bank; rooms are loaded 4 s before their deadlines."""


def _status(database: str, room: str) -> str | None:
    db = Database(database)
    try:
        stored = db.run_now(lambda c: load_room(c, room))
    finally:
        db.engine.dispose()
    return None if stored is None else stored.room.status


def test_a_clock_survives_kill_9_of_the_holder() -> None:
    with services.postgres() as pg, services.redis_server() as rd:
        database = services.new_database(pg, "clocks")
        with services.members(database, rd, 2, CLOCKS) as (first, second):
            created = httpx.post(
                first.url + "/api/rooms",
                json={"name": "alice", "rules": RULES, "clock": "15+60", "bots": {"1": "random"}},
                timeout=10,
            ).json()
            room = created["room"]
            # the game started at once (a bot in the other seat); alice never connects
            assert httpx.get(first.url + f"/api/rooms/{room}", timeout=10).json()["status"] == "playing"
            first.kill()  # the holder dies before alice's first deadline (7.5 s)
            # nobody asks for the room: the survivor's clock loader must find it by itself
            deadline = time.monotonic() + 90
            while _status(database, room) != "over":
                assert time.monotonic() < deadline, "the game did not end after its holder died"
                time.sleep(0.5)
            record = httpx.get(second.url + f"/api/games/{room}/record", timeout=10).json()
            assert not [e for e in second.errors() if "clock" in e], second.errors()
    online = record["online"]
    assert online["abandoned"] == [0]
    assert [e["seat"] for e in online["by_clock"]] == [0, 0]
    game, _ = replay(record)
    assert game.over
