"""What a director and a live page keep of a tournament between reads (known.py), the director's
read-decide-write split (director.plan / apply) and reads beside the database's writer
(Database.look)."""

from __future__ import annotations

import asyncio
import json
import random
import threading
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Connection, insert, update

from roppyakken.server.club.tournaments import director, model, store
from roppyakken.server.club.tournaments.known import ArenaScores, refresh
from roppyakken.server.club.tournaments.store import TableRow
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import players, tournament_tables

START = 1_800_000_000.0
LEASE = 5.0


def _database(tmp_path: Path, fmt: str, names: str) -> Database:
    made = Database(f"sqlite:///{tmp_path / 'known.sqlite3'}")
    made.open()

    def fill(c: Connection) -> None:
        store.create(
            c,
            {
                "id": "t1",
                "name": fmt,
                "format": fmt,
                "preset": "classic",
                "players": 2,
                "clock": "15+60",
                "rated": False,
                "visibility": "public",
                "creator": None,
                "created_at": START - 60,
                "starts_at": START,
                "duration": 3600.0 if fmt == "arena" else None,
                "rounds": None if fmt == "arena" else 3,
                "status": store.SCHEDULED,
            },
        )
        for name in names:
            c.execute(
                insert(players).values(id=name, secret_hash="x", name=name, created_at=datetime.now(UTC))
            )
            entry = store.Entry(
                name, name.upper(), 1500.0, "h" + name, START - 30, START - 30, False, False, 0
            )
            store.join(c, "t1", entry)

    made.run_now(fill)
    return made


def _end(db: Database, number: int, places: tuple[int, ...], at: float) -> None:
    db.run_now(
        lambda c: c.execute(
            update(tournament_tables)
            .where(tournament_tables.c.tournament_id == "t1", tournament_tables.c.number == number)
            .values(finished_at=at, places=json.dumps(list(places)), abandoned="[]")
        )
    )


def test_a_reread_takes_only_the_tables_from_the_first_in_play(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _database(tmp_path, "arena", "abcdef")
    db.run_now(lambda c: store.add_tables(c, "t1", [("a", "b"), ("c", "d"), ("e", "f")], 0, START))
    known, ended = db.run_now(lambda c: refresh(c, "t1", None))
    assert known is not None and ended == [] and known.first_to_read() == 1
    _end(db, 2, (1, 2), START + 10)
    _end(db, 1, (2, 1), START + 20)
    known, ended = db.run_now(lambda c: refresh(c, "t1", known))
    assert known is not None
    assert [t.number for t in ended] == [2, 1]  # in the order they ended
    assert known.first_to_read() == 3  # 1 and 2 are over: never read again
    assert [t.number for t in known.open_tables()] == [3]
    db.run_now(lambda c: store.add_tables(c, "t1", [("a", "c")], 0, START + 30))
    bound: list[int] = []
    real = store.tables_from

    def spy(
        conn: Connection, tournament_id: str, first: int, reuse: store.Reused | None = None
    ) -> list[TableRow]:
        bound.append(first)
        return real(conn, tournament_id, first, reuse)

    monkeypatch.setattr(store, "tables_from", spy)
    known, ended = db.run_now(lambda c: refresh(c, "t1", known))
    assert bound == [3]
    assert known is not None and ended == [] and sorted(known.tables) == [1, 2, 3, 4]
    assert [t.number for t in known.finished] == [2, 1]
    # a row read again unchanged is the same object; a changed one a new one
    entries, table = {e.player_id: e for e in known.entries}, known.tables[3]
    db.run_now(lambda c: store.set_entry(c, "t1", "b", paused=True))
    known, _ = db.run_now(lambda c: refresh(c, "t1", known))
    assert known is not None and known.tables[3] is table
    again = {e.player_id: e for e in known.entries}
    assert again["a"] is entries["a"] and again["b"] is not entries["b"] and again["b"].paused


def test_arena_scores_counted_game_by_game_are_the_standings_points() -> None:
    rng = random.Random(7)
    ids = [f"p{i}" for i in range(12)]
    for _ in range(200):
        results: list[model.TableResult] = []
        free = list(ids)
        scores = ArenaScores()
        for number in range(1, rng.randint(2, 61)):
            rng.shuffle(free)
            size = rng.choice((2, 3))
            table, free = free[:size], free[size:] + free[:size]
            places = list(range(1, size + 1))
            rng.shuffle(places)
            if rng.random() < 0.2:
                places = [1] * size  # a shared first place
            gone = frozenset(p for p in table if rng.random() < 0.1)
            results.append(model.TableResult(tuple(table), tuple(places), gone, 0))
            row = TableRow(number, 0, tuple(table), 0.0, "r", float(number), tuple(places), gone)
            scores.add([row])
        lines = model.standings("arena", [model.Entrant(p, 1500.0) for p in ids], results)
        assert {s.player_id: s.points for s in lines} == {p: scores.points(p) for p in ids}


@pytest.mark.parametrize("fmt", ["arena", "swiss"])
def test_a_player_who_withdrew_between_the_read_and_the_write_is_not_paired(tmp_path: Path, fmt: str) -> None:
    db = _database(tmp_path, fmt, "abcd")
    epoch = db.run_now(lambda c: store.take(c, "t1", "one", START, LEASE))
    assert epoch is not None
    held = director.Held(epoch)
    decided = db.run_now(lambda c: director.plan(c, held, "t1", START + 1, 1.0))
    assert decided is not None and len(decided.tables) == 2
    db.run_now(lambda c: store.set_entry(c, "t1", "a", withdrawn=True))  # a player's own change
    done = db.run_now(lambda c: director.written(c, held, "t1", decided, START + 1, LEASE))
    assert done.again
    paired = [list(t.players) for t in db.run_now(lambda c: store.tables(c, "t1"))]
    assert all("a" not in t for t in paired)
    if fmt == "arena":  # the other table is made; the withdrawn player's partner waits
        assert len(paired) == 1 and len(done.unmade) == 1
    else:  # a round is paired whole or not at all
        assert paired == [] and done.unmade == []
        held = director.Held(epoch, held.known)
        again = db.run_now(lambda c: director.step(c, "t1", epoch, START + 2, LEASE, held=held))
        assert again.tournament is not None and again.tournament.round == 1
        assert len(again.unmade) == 1 and "a" not in again.unmade[0].players  # b, c, d: a table and a bye


def test_a_look_reads_beside_a_writer_that_holds_its_transaction(tmp_path: Path) -> None:
    db = _database(tmp_path, "arena", "ab")

    async def run() -> None:
        await db.start()
        try:
            holding, release = threading.Event(), threading.Event()

            def slow(c: Connection) -> None:
                store.set_status(c, "t1", name="renamed")
                holding.set()
                release.wait(10)

            writing = asyncio.ensure_future(db.run(slow))
            await asyncio.to_thread(holding.wait, 10)
            began = time.monotonic()
            t = await db.look(lambda c: store.get(c, "t1"))
            took = time.monotonic() - began
            release.set()
            await writing
            assert t is not None and t.name == "arena"  # what was committed, not the write under way
            assert took < 5.0  # it did not wait for the writer's transaction
            after = await db.look(lambda c: store.get(c, "t1"))
            assert after is not None and after.name == "renamed"
        finally:
            await db.close()

    asyncio.run(run())
