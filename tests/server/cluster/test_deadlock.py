"""Two members' database writers on one real PostgreSQL: the pool's rows written by one member while the
other holds the ratings lock of a game's end never deadlock, and a transaction PostgreSQL breaks off
(a deadlock) is run again, its work done once and nothing refused."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime

import psycopg
import pytest
from sqlalchemy import Connection, select

from roppyakken.server.club import pairing
from roppyakken.server.club.ratings import store as rating_store
from roppyakken.server.store import room_store
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import pairing as pool_table
from tests.harness.poll import until
from tests.harness.ratings_season import make_people
from tests.harness.services import fresh_database

POOL = pairing.Pool.parse("classic:3:15+60")


@pytest.fixture
def pg_url(pg_cluster: str) -> str:
    """A fresh, empty database on the module's cluster."""
    return fresh_database(pg_cluster, "deadlock")


def _gate(mine: threading.Event, theirs: threading.Event) -> Callable[[Connection], None]:
    """Work that says it ran and waits for the other member's (the batch's work in between)."""

    def work(_conn: Connection) -> None:
        mine.set()
        assert theirs.wait(10), "the other member's work never ran"

    return work


def _seekers_claimed(db: Database) -> tuple[list[tuple[str, str]], pairing.Claimed, str]:
    """Three players waiting in the pool, claimed into a game whose room exists: (their rows' keys,
    the claim, the room)."""
    assert POOL is not None

    def setup(conn: Connection) -> tuple[list[tuple[str, str]], pairing.Claimed, str]:
        people = make_people(conn, 3)
        now = time.time()
        for i, player in enumerate(people):
            pairing.enter(conn, player, f"p{i}", POOL, f"token{i}", now - 3 + i)
        claims = pairing.claim(conn, now, True, apart=False)
        assert len(claims) == 1
        row = room_store.RoomRow("room1", datetime.now(UTC), 3, "classic", {}, 1, "playing", rated=True)
        seats = [room_store.SeatRow(i, "human", f"p{i}", None, "h") for i in range(3)]
        room_store.insert_room(conn, row, seats)
        return [(p, f"token{i}") for i, p in enumerate(people)], claims[0], "room1"

    return db.run_now(setup)


def test_a_heartbeat_and_a_claim_made_beside_game_ends_never_deadlock(pg_url: str) -> None:
    """Member A heartbeats its seekers, then a game of its own ends (the ratings lock); member B's game
    ended first, then B marks its claim of A's seekers made.  Batched together, A held the seekers'
    rows while waiting for B's ratings lock, and B waited for those rows: PostgreSQL broke the cycle
    and a batch's moves were refused."""
    a, b = Database(pg_url, write_timeout=10.0), Database(pg_url, write_timeout=10.0)
    a.open()
    b.open()
    seekers, claimed, room = _seekers_claimed(a)
    a_beat, b_locked = threading.Event(), threading.Event()

    async def scenario() -> None:
        await a.start()
        await b.start()
        try:
            # each writer is kept busy while its next work is queued: all of it is one batch's
            go = threading.Event()
            busy = [db.submit(lambda _c: go.wait(10)) for db in (a, b)]
            beat = asyncio.ensure_future(pairing.heartbeat(a, seekers))
            await asyncio.sleep(0)
            a_works = [a.submit(_gate(a_beat, b_locked)), a.submit(rating_store.lock)]
            b_works = [b.submit(rating_store.lock), b.submit(_gate(b_locked, a_beat))]
            marked = asyncio.ensure_future(pairing.mark_made(b, claimed, room))
            await asyncio.sleep(0)
            go.set()
            await asyncio.wait_for(asyncio.gather(*busy, beat, marked, *a_works, *b_works), 30)
        finally:
            await a.close()
            await b.close()

    asyncio.run(scenario())
    assert a.failed == b.failed == 0
    assert a.broken_off == b.broken_off == 0  # no deadlock at all, not one retried
    ready = b.run_now(lambda c: c.execute(select(pool_table.c.room_id, pool_table.c.ready)).all())
    assert sorted(ready) == [(room, True)] * 3


def test_a_transaction_broken_off_by_a_deadlock_is_run_again_once(pg_url: str) -> None:
    """Another connection locks row 1 then row 2; the writer's work locks row 2 then row 1.  PostgreSQL
    breaks the writer's transaction off; the writer runs it again, and its work is stored once."""
    with psycopg.connect(pg_url, autocommit=True) as setup:
        setup.execute("create table counters (id int primary key, n int not null)")
        setup.execute("insert into counters values (1, 0), (2, 0)")
    db = Database(pg_url, write_timeout=10.0)
    db.open()
    held, waiting, finished = threading.Event(), threading.Event(), threading.Event()
    attempts: list[int] = []

    def work(conn: Connection) -> str:
        assert held.wait(10)
        if attempts:  # run again: after the other transaction (else the two may meet again)
            assert finished.wait(10)
        attempts.append(int(conn.exec_driver_sql("select pg_backend_pid()").scalar_one()))
        conn.exec_driver_sql("update counters set n = n + 1 where id = 2")
        waiting.set()
        conn.exec_driver_sql("update counters set n = n + 1 where id = 1")
        return "done"

    def other() -> None:
        with psycopg.connect(pg_url) as conn:
            conn.execute("set deadlock_timeout = '20s'")  # the writer finds the deadlock: its victim
            conn.execute("update counters set n = n + 10 where id = 1")
            held.set()
            assert waiting.wait(10)
            pid = attempts[0]

            def writer_waits() -> bool:
                with psycopg.connect(pg_url, autocommit=True) as look:
                    row = look.execute(
                        "select wait_event_type from pg_stat_activity where pid = %s", (pid,)
                    ).fetchone()
                return row is not None and row[0] == "Lock"

            until(writer_waits, 10, "the writer waiting for row 1")
            conn.execute("update counters set n = n + 10 where id = 2")  # the cycle
            conn.commit()
            finished.set()

    async def scenario() -> str:
        await db.start()
        try:
            done = db.run(work)
            result, _ = await asyncio.wait_for(asyncio.gather(done, asyncio.to_thread(other)), 30)
            return result
        finally:
            await db.close()

    assert asyncio.run(scenario()) == "done"
    assert len(attempts) == 2 and db.broken_off == 1 and db.failed == 0
    with psycopg.connect(pg_url) as look:
        assert look.execute("select id, n from counters order by id").fetchall() == [(1, 11), (2, 11)]


def test_the_retries_are_bounded(pg_url: str) -> None:
    """Work that PostgreSQL breaks off every time fails after the bounded retries (nothing stored)."""
    db = Database(pg_url, retries=2)
    db.open()
    attempts: list[int] = []

    def work(conn: Connection) -> None:
        attempts.append(1)
        conn.exec_driver_sql(
            "do $$ begin raise exception using errcode = '40P01', message = 'deadlock detected'; end $$"
        )

    async def scenario() -> None:
        await db.start()
        try:
            with pytest.raises(Exception, match="deadlock detected"):
                await db.run(work)
        finally:
            await db.close()

    asyncio.run(scenario())
    assert len(attempts) == 3 and db.broken_off == 3 and db.failed == 1
