"""An arena across two cluster members whose director is killed (kill -9) mid-round: the other member
takes the tournament over within its lease, the games' clocks run on (their rooms taken over too),
every result is stored, no table is paired twice and no room is made for a table but its own
(PostgreSQL, Redis and two real ``serve --redis`` members)."""

from __future__ import annotations

import json
import time
from collections import Counter
from typing import Any

import httpx
import pytest
from sqlalchemy import select

from roppyakken.server.club.tournaments.director import LEASE
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import rooms, tournament_entries, tournament_tables, tournaments
from tests.harness import services
from tests.harness.tournaments import Entrant

pytestmark = pytest.mark.slow

CLOCKS = ["--clock-scale", "0.1"]
"""Nobody comes to the tables: each seat is given to a bot after two timeouts (about 9 s of ``15+60``
at this scale), an abandonment; a player's second abandonment withdraws them."""
PLAYERS = 6
FEW = 5.0
"""Seconds allowed beyond the lease for the survivor to look, take over and write (a loaded machine)."""


def _read(db: Database, tid: str) -> dict[str, Any]:
    def read(c: Any) -> dict[str, Any]:
        t = c.execute(select(tournaments).where(tournaments.c.id == tid)).mappings().one()
        tables = (
            c.execute(select(tournament_tables).where(tournament_tables.c.tournament_id == tid))
            .mappings()
            .all()
        )
        entries = (
            c.execute(select(tournament_entries).where(tournament_entries.c.tournament_id == tid))
            .mappings()
            .all()
        )
        made = c.execute(select(rooms.c.id, rooms.c.status)).all()
        return {
            "t": dict(t),
            "tables": [dict(r) for r in tables],
            "entries": [dict(e) for e in entries],
            "rooms": dict(made),
        }

    found: dict[str, Any] = db.run_now(read)
    return found


def test_a_killed_directors_arena_goes_on_on_the_other_member_with_no_table_paired_twice() -> None:
    with services.postgres() as pg, services.redis_server() as rd:
        database = services.new_database(pg, "tournament")
        db = Database(database)
        try:
            with services.members(database, rd, 2, CLOCKS) as (first, second):
                ids = {httpx.get(m.url + "/healthz", timeout=10).json()["member"]: m for m in (first, second)}
                ann = Entrant(first, "Ann", account=True)
                made = ann.post(
                    "/api/tournaments",
                    {"name": "Arena", "format": "arena", "minutes": 1, "clock": "15+60", "starts_in": 2},
                )
                assert made.status_code == 201, made.text
                tid = made.json()["id"]
                entrants = [ann, *(Entrant(second if i % 2 else first, f"P{i}") for i in range(1, PLAYERS))]
                for entrant in entrants:
                    entrant.join(tid)
                # the first wave: three tables, their games on
                deadline = time.monotonic() + 30
                while len((seen := _read(db, tid))["tables"]) < PLAYERS // 2 or any(
                    t["room_id"] is None for t in seen["tables"]
                ):
                    assert time.monotonic() < deadline, seen
                    time.sleep(0.1)
                director, epoch = seen["t"]["director"], seen["t"]["director_epoch"]
                victim = ids[director]
                survivor = second if victim is first else first
                killed = time.time()
                victim.kill()
                # the survivor takes over within the lease
                while (seen := _read(db, tid))["t"]["director_epoch"] == epoch:
                    assert time.time() - killed < LEASE + FEW + 30, seen["t"]
                    time.sleep(0.1)
                taken = time.time() - killed
                assert seen["t"]["director"] != director
                # ... and runs the arena to its end
                deadline = time.monotonic() + 180
                while (seen := _read(db, tid))["t"]["status"] != "finished":
                    assert time.monotonic() < deadline, seen["t"]
                    time.sleep(0.5)
                assert not survivor.errors(), survivor.errors()
                answer = httpx.get(f"{survivor.url}/api/tournaments/{tid}", timeout=10).json()
        finally:
            db.engine.dispose()
    print(f"\nthe tournament was taken over {taken:.2f} s after its director was killed (lease {LEASE:g} s)")
    assert taken <= LEASE + FEW, taken
    tables = seen["tables"]
    # every table's game ended and its result is stored
    assert all(t["places"] is not None and t["finished_at"] is not None for t in tables), tables
    # each player played exactly two games (two abandonments withdraw): none was paired twice at once
    seats = Counter(p for t in tables for p in json.loads(t["players"]))
    assert set(seats.values()) == {2} and len(seats) == PLAYERS, seats
    assert all(e["withdrawn"] and e["abandonments"] == 2 for e in seen["entries"])
    for player in seats:
        mine = sorted(
            (t["paired_at"], t["finished_at"]) for t in tables if player in json.loads(t["players"])
        )
        assert mine[0][1] <= mine[1][0], (player, mine)  # the second table came after the first ended
    # one room a table, and no room made for a table that is not its own
    linked = [t["room_id"] for t in tables]
    assert len(set(linked)) == len(linked) == len(seen["rooms"]) and set(linked) == set(seen["rooms"])
    assert all(status == "over" for status in seen["rooms"].values())
    assert len(answer["standings"]) == PLAYERS and len(answer["tables"]) == len(tables)
