"""Old guests are forgotten (server/people/guests.py): only players with no seat, no account and nothing
pointing at them, unseen for ``guest_days``; a bounded batch a round; one PostgreSQL member at a time."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, insert, select, update

from roppyakken.server.people import guests, players
from roppyakken.server.store.database import Database
from roppyakken.server.store.room_store import RoomRow, SeatRow, insert_room
from roppyakken.server.store.tables import accounts, pairing, sanctions, seat_players
from roppyakken.server.store.tables import players as table
from tests.harness import services

DAY = 86_400.0


def _player(conn: Connection, name: str, *, seen: float | None, created: float) -> str:
    made = players.create(conn, name)
    conn.execute(
        update(table)
        .where(table.c.id == made.id)
        .values(seen_at=seen, created_at=datetime.fromtimestamp(created, UTC))
    )
    return made.id


def _ids(conn: Connection) -> set[str]:
    return {r[0] for r in conn.execute(select(table.c.id))}


def _population(conn: Connection, now: float) -> dict[str, str]:
    """One player of each kind, all unseen for 40 days unless their name says otherwise (a moderator's
    sanction names a player without a foreign key: kept too)."""
    old = now - 40 * DAY
    made = {
        "unseen": _player(conn, "unseen", seen=old, created=old),
        "never-refreshed": _player(conn, "never-refreshed", seen=None, created=old),
        "new-never-refreshed": _player(conn, "new-never-refreshed", seen=None, created=now - DAY),
        "seen-lately": _player(conn, "seen-lately", seen=now - 29 * DAY, created=old),
        "seated": _player(conn, "seated", seen=old, created=old),
        "adopted": _player(conn, "adopted", seen=old, created=old),
        "account": _player(conn, "account", seen=old, created=old),
        "waiting": _player(conn, "waiting", seen=old, created=old),
        "sanctioned": _player(conn, "sanctioned", seen=old, created=old),
    }
    insert_room(
        conn,
        RoomRow("r1", datetime.now(UTC), 2, "classic", {}, 1, "over"),
        [SeatRow(0, "human", "seated"), SeatRow(1, "bot", None, "random")],
    )
    conn.execute(insert(seat_players).values(room_id="r1", seat=0, player_id=made["seated"]))
    conn.execute(update(table).where(table.c.id == made["adopted"]).values(account_id="acc1"))
    conn.execute(
        insert(accounts).values(
            id="acc2", login=None, password_hash=None, player_id=made["account"], created_at=datetime.now(UTC)
        )
    )
    conn.execute(
        insert(pairing).values(
            player_id=made["waiting"],
            pool="classic:2:15+60",
            name="w",
            token_hash="h",
            joined_at=old,
            seen_at=old,
        )
    )
    conn.execute(
        insert(sanctions).values(kind="mute", player_id=made["sanctioned"], created_at=old, created_by="mod")
    )
    return made


def test_only_guests_with_nothing_to_keep_are_forgotten_a_bounded_batch_a_round(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'g.sqlite3'}")
    db.open()
    try:
        now = time.time()
        made = db.run_now(lambda c: _population(c, now))
        first = db.run_now(lambda c: guests.sweep(c, now, 30.0, batch=1))
        assert first == 1
        assert len({made["unseen"], made["never-refreshed"]} & db.run_now(_ids)) == 1
        second = db.run_now(lambda c: guests.sweep(c, now, 30.0, batch=1))
        assert second == 1 and db.run_now(lambda c: guests.sweep(c, now, 30.0)) == 0
        kept = db.run_now(_ids)
        assert kept == set(made.values()) - {made["unseen"], made["never-refreshed"]}
        # a longer documented time keeps the ones unseen for 40 days ...
        assert db.run_now(lambda c: guests.sweep(c, now + 20 * DAY, 90.0)) == 0
        # ... and the seated, adopted, account-holding and waiting ones are kept however old
        assert db.run_now(lambda c: guests.sweep(c, now + 400 * DAY, 30.0)) == 2  # the two recent ones
        assert db.run_now(_ids) == {
            made[k] for k in ("seated", "adopted", "account", "waiting", "sanctioned")
        }
    finally:
        db.engine.dispose()


def test_a_player_s_requests_keep_it_seen_writing_at_most_hourly(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'seen.sqlite3'}")
    db.open()
    try:
        made = db.run_now(lambda c: players.create(c, "Sam"))

        def seen_at() -> float:
            value: Any = db.run_now(lambda c: c.execute(select(table.c.seen_at)).scalar())
            return float(value)

        created = seen_at()
        assert created == pytest.approx(time.time(), abs=5)
        old = time.time() - 40 * DAY
        db.run_now(lambda c: c.execute(update(table).values(seen_at=old)))
        assert db.run_now(lambda c: players.load(c, made.id, made.secret)) is not None
        refreshed = seen_at()
        assert refreshed == pytest.approx(time.time(), abs=5)
        db.run_now(lambda c: players.load(c, made.id, made.secret))
        assert seen_at() == refreshed  # within the hour: not written again
        assert db.run_now(lambda c: guests.sweep(c, time.time(), 30.0)) == 0  # seen: kept
        assert db.run_now(lambda c: players.load(c, made.id, "wrong")) is None
    finally:
        db.engine.dispose()


@pytest.mark.slow
def test_one_postgresql_member_sweeps_at_a_time() -> None:
    """While one member's sweep transaction is open, another member's round does nothing."""
    with services.postgres() as pg:
        url = services.new_database(pg, "guests")
        first, second = Database(url), Database(url)
        first.open()
        second.open()
        try:
            now = time.time()
            made = first.run_now(lambda c: _population(c, now))
            inside = threading.Event()
            release = threading.Event()
            counts: list[int] = []

            def slow_sweep(conn: Connection) -> None:
                counts.append(guests.sweep(conn, now, 30.0, batch=1))
                inside.set()
                assert release.wait(30)

            holder = threading.Thread(target=lambda: first.run_now(slow_sweep))
            holder.start()
            assert inside.wait(30)
            try:
                assert second.run_now(lambda c: guests.sweep(c, now, 30.0)) == 0  # the lock is taken
            finally:
                release.set()
                holder.join(30)
            assert counts == [1]
            assert second.run_now(lambda c: guests.sweep(c, now, 30.0)) == 1  # free again: the other one
            gone = {made["unseen"], made["never-refreshed"]}
            assert not gone & second.run_now(_ids)
        finally:
            first.engine.dispose()
            second.engine.dispose()


def test_the_hub_sweeps_with_its_documented_time(tmp_path: Path) -> None:
    """``Limits.guest_days`` (``--guest-days``) is the time the server's own sweep uses."""
    import asyncio

    from roppyakken.server.play.registry import Registry
    from roppyakken.server.play.sweeper import Sweeper
    from tests.harness.server_harness import limits_for_tests

    async def run() -> tuple[int, int]:
        db = Database(f"sqlite:///{tmp_path / 'hub.sqlite3'}")
        db.open()
        await db.start()
        try:
            now = time.time()
            await db.run(lambda c: _population(c, now))
            patient = Sweeper(Registry(db, limits=limits_for_tests(guest_days=60.0)))
            eager = Sweeper(Registry(db, limits=limits_for_tests(guest_days=30.0)))
            return await patient.forget_guests(), await eager.forget_guests()
        finally:
            await db.close()

    assert asyncio.run(run()) == (0, 2)
