"""What a director and a live page keep of a tournament between reads (known.py), the director's
read-decide-write split (director.plan / apply) and reads beside the database's writer
(Database.look)."""

from __future__ import annotations

import asyncio
import functools
import json
import random
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import Connection, update

from roppyakken.server.club.tournaments import director, model, store
from roppyakken.server.club.tournaments.known import Known, refresh
from roppyakken.server.club.tournaments.store import TableRow
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import tournament_tables
from tests.harness.tournaments import join_named, tournament_row

START = 1_800_000_000.0
LEASE = 5.0


def _database(tmp_path: Path, fmt: str, names: str) -> Database:
    made = Database(f"sqlite:///{tmp_path / 'known.sqlite3'}")
    made.open()

    def fill(c: Connection) -> None:
        arena = fmt == "arena"
        store.create(
            c, tournament_row(fmt, START, duration=3600.0 if arena else None, rounds=None if arena else 3)
        )
        join_named(c, "t1", names, START - 30)

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
    assert [line.games for line in known.tally.standings([model.Entrant(p, 1500.0) for p in "abcd"])] == [
        1
    ] * 4
    # a row read again unchanged is the same object; a changed one a new one
    entries, table = {e.player_id: e for e in known.entries}, known.tables[3]
    db.run_now(lambda c: store.set_entry(c, "t1", "b", paused=True))
    known, _ = db.run_now(lambda c: refresh(c, "t1", known))
    assert known is not None and known.tables[3] is table
    again = {e.player_id: e for e in known.entries}
    assert again["a"] is entries["a"] and again["b"] is not entries["b"] and again["b"].paused


@pytest.mark.parametrize("fmt", ["arena", "swiss"])
def test_the_standings_a_reader_keeps_are_those_of_every_table_read_again(tmp_path: Path, fmt: str) -> None:
    db = _database(tmp_path, fmt, "abcdefg")
    rng = random.Random(7)
    known: Known | None = None
    open_sizes: dict[int, int] = {}
    for turn in range(25):
        free = list("abcdefg")
        rng.shuffle(free)
        tables = [tuple(free[:2]), tuple(free[2:5])]
        numbers = db.run_now(
            functools.partial(store.add_tables, tournament_id="t1", paired=tables, round_=0, now=START)
        )
        open_sizes.update(zip(numbers, (2, 3), strict=True))
        if fmt == "swiss":
            db.run_now(
                functools.partial(store.add_byes, tournament_id="t1", round_=turn + 1, players=[free[5]])
            )
        for number, size in list(open_sizes.items()):
            if rng.random() < 0.6:  # some end now, some later
                _end(db, number, tuple(rng.sample(range(1, size + 1), size)), START + turn)
                del open_sizes[number]
        if rng.random() < 0.3:
            db.run_now(lambda c: store.set_entry(c, "t1", rng.choice("abcdefg"), withdrawn=True))
        known, _ = db.run_now(functools.partial(refresh, tournament_id="t1", known=known))
        assert known is not None
        every = db.run_now(lambda c: (store.entries(c, "t1"), store.tables(c, "t1"), store.byes(c, "t1")))
        expected = director.standings(known.tournament, *every)
        entrants = [model.Entrant(e.player_id, e.rating) for e in every[0]]
        gone = [e.player_id for e in every[0] if e.withdrawn]
        assert known.tally.standings(entrants, gone) == expected
    assert known is not None and any(line.buchholz for line in known.tally.standings(entrants))


@pytest.mark.parametrize("fmt", ["arena", "swiss"])
def test_a_player_who_withdrew_between_the_read_and_the_write_is_not_paired(tmp_path: Path, fmt: str) -> None:
    db = _database(tmp_path, fmt, "abcd")
    epoch = db.run_now(lambda c: store.take(c, "t1", "one", START, LEASE))
    assert epoch is not None
    held = director.Held(epoch)
    decided = db.run_now(lambda c: director.plan(c, held, "t1", START + 1, 1.0))
    assert decided is not None and len(decided.tables) == 2
    db.run_now(lambda c: store.set_entry(c, "t1", "a", withdrawn=True))  # a player's own change
    done = db.run_now(
        lambda c: director.written(c, director.looked(held, decided, []), "t1", epoch, START + 1, LEASE)
    )
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
