"""The director's fence: a tournament has one director at a time; one whose lease lapsed (its member
stalled) and was taken over writes nothing more, and a table gets one room at most."""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import Connection, select

from roppyakken.server.club.tournaments import director, store
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import tournament_tables, tournaments
from tests.harness.tournaments import join_named, tournament_row

START = 1_800_000_000.0
LEASE = 5.0


@pytest.fixture
def db(tmp_path: Path) -> Database:
    made = Database(f"sqlite:///{tmp_path / 'fence.sqlite3'}")
    made.open()

    def fill(c: Connection) -> None:
        store.create(c, tournament_row("swiss", START, name="Swiss", rounds=2))
        join_named(c, "t1", "abcd", START - 30)

    made.run_now(fill)
    return made


def test_a_director_whose_lease_was_taken_over_writes_nothing(db: Database) -> None:
    try:
        first = db.run_now(lambda c: store.take(c, "t1", "one", START, LEASE))
        assert first == 1
        assert db.run_now(lambda c: store.take(c, "t1", "two", START + 1, LEASE)) is None  # held
        # the first director's member stalls past its lease: the second takes the tournament
        second = db.run_now(lambda c: store.take(c, "t1", "two", START + LEASE + 0.1, LEASE))
        assert second == 2
        # the stalled director wakes and tries to start and pair the tournament: refused, nothing written
        with pytest.raises(store.Fenced):
            db.run_now(lambda c: director.step(c, "t1", 1, START + LEASE + 0.2, LEASE))
        assert db.run_now(lambda c: c.execute(select(tournament_tables)).all()) == []
        status = db.run_now(lambda c: c.execute(select(tournaments.c.status)).scalar())
        assert status == store.SCHEDULED
        # the director holding it pairs round 1 (two tables), once
        done = db.run_now(lambda c: director.step(c, "t1", 2, START + LEASE + 0.3, LEASE))
        assert [len(u.players) for u in done.unmade] == [2, 2]
        again = db.run_now(lambda c: director.step(c, "t1", 2, START + LEASE + 0.4, LEASE))
        assert [u.number for u in again.unmade] == [u.number for u in done.unmade]  # the same tables
        assert len(db.run_now(lambda c: c.execute(select(tournament_tables)).all())) == 2
        # a table takes one room: a second room for it is refused (its insert is rolled back)
        number = done.unmade[0].number
        db.run_now(lambda c: store.link_room(c, "t1", number, "room1"))
        with pytest.raises(store.Fenced):
            db.run_now(lambda c: store.link_room(c, "t1", number, "room2"))
        rooms = db.run_now(lambda c: [r[0] for r in c.execute(select(tournament_tables.c.room_id))])
        assert sorted(r for r in rooms if r) == ["room1"]
    finally:
        db.engine.dispose()
