"""The server's data layer on SQLite: database URLs, the default file, migrations, the batching writer."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import Connection, event, func, select, text

from roppyakken.errors import RoppyakkenError
from roppyakken.server.store.database import (
    ActionRow,
    Database,
    StorageError,
    default_database_path,
    normalize_url,
)
from roppyakken.server.store.tables import actions
from tests.harness.schema import check_schema


def test_migrations_build_the_models_schema(tmp_path: Path) -> None:
    check_schema(f"sqlite:///{tmp_path / 'a' / 'b' / 'new.sqlite3'}")


def test_database_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert default_database_path() == tmp_path / "xdg" / "roppyakken" / "roppyakken.sqlite3"
    assert normalize_url(None) == f"sqlite:///{tmp_path / 'xdg' / 'roppyakken' / 'roppyakken.sqlite3'}"
    monkeypatch.delenv("XDG_DATA_HOME")
    assert default_database_path() == Path.home() / ".local" / "share" / "roppyakken" / "roppyakken.sqlite3"
    monkeypatch.chdir(tmp_path)
    assert normalize_url("games.db") == f"sqlite:///{tmp_path / 'games.db'}"
    assert normalize_url("postgresql://u:p@h/db") == "postgresql+psycopg://u:p@h/db"
    assert normalize_url("postgres://h/db") == "postgresql+psycopg://h/db"
    assert normalize_url("sqlite:///x.db") == "sqlite:///x.db"
    with pytest.raises(RoppyakkenError, match="unsupported database URL"):
        normalize_url("mysql://h/db")


def test_the_default_database_file_is_created_on_first_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    db = Database()
    db.open()
    db.engine.dispose()
    assert (tmp_path / "data" / "roppyakken" / "roppyakken.sqlite3").is_file()


def test_the_writer_batches_and_isolates_a_failure(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'w.sqlite3'}")
    db.open()

    def boom(conn: Connection) -> None:
        raise ValueError("boom")

    def count(conn: Connection) -> int:
        return int(conn.execute(select(func.count()).select_from(actions)).scalar_one())

    async def scenario() -> tuple[int, int, BaseException | None]:
        await db.start()
        db.run_now(
            lambda c: c.execute(
                text(
                    "insert into rooms (id, created_at, players, preset, options, seed, status) "
                    "values ('r', CURRENT_TIMESTAMP, 2, 'classic', '{}', 1, 'playing')"
                )
            )
        )
        commits = [0]  # the transactions the writer commits from here on

        def committed(conn: Connection) -> None:
            commits[0] += 1

        event.listen(db.engine, "commit", committed)
        futures = [db.submit(ActionRow("r", i, 0, "{}")) for i in range(200)]
        failing = db.submit(boom)
        futures += [db.submit(ActionRow("r", i, 0, "{}")) for i in range(200, 300)]
        await asyncio.gather(*futures)
        error = None
        try:
            await failing
        except StorageError as exc:
            error = exc
        batches = commits[0]
        total = await db.run(count)
        await db.close()
        return total, batches, error

    total, batches, error = asyncio.run(scenario())
    assert total == 300 and isinstance(error, StorageError) and str(error) == "boom"
    assert batches < 40  # committed together, the failure isolated by halving, not one by one


def test_a_batch_of_moves_is_three_statements_on_sqlite(tmp_path: Path) -> None:
    """The writer stores a batch's moves, clocks and fence in one statement each (the interpreter's
    lock is let go once a statement, not once a row: store/sqlite_moves.py), in chunks of
    SQLITE_ROWS; a room's last move in the batch sets its clock; a stale room's moves are refused
    and the others stored."""
    from roppyakken.server.store import room_store
    from roppyakken.server.store.database import StaleRoom
    from roppyakken.server.store.sqlite_moves import ROWS as SQLITE_ROWS
    from roppyakken.server.store.tables import rooms

    db = Database(f"sqlite:///{tmp_path / 'm.sqlite3'}")
    db.open()
    ids = [f"r{i:04d}" for i in range(SQLITE_ROWS + 20)]

    def setup(conn: Connection) -> None:
        from datetime import UTC, datetime

        for room_id in ids:
            room = room_store.RoomRow(room_id, datetime.now(UTC), 2, "classic", {}, 1, "playing")
            room_store.insert_room(conn, room=room, room_seats=[room_store.SeatRow(0, "human", "p")])
        conn.execute(rooms.update().values(epoch=1))
        conn.execute(rooms.update().where(rooms.c.id == ids[12]).values(epoch=2))  # taken by another

    db.run_now(setup)
    statements: list[tuple[str, bool]] = []

    def seen(conn: object, cursor: object, sql: str, params: object, context: object, many: bool) -> None:
        if not sql.startswith("PRAGMA"):
            statements.append((sql.split()[0].upper(), many))

    async def scenario() -> list[BaseException | None]:
        await db.start()
        event.listen(db.engine, "before_cursor_execute", seen)
        few = [ActionRow(room, 0, 0, f'"{room}"', 1, f'"{room}-a"', 1.0) for room in ids[:10]]
        few.append(ActionRow(ids[0], 1, 1, '"second"', 1, '"r0000-b"', 2.0))
        outcomes: list[BaseException | None] = []
        for works in (few, [ActionRow(room, 0, 0, "{}", 1, '"c"', 3.0) for room in ids[10:]]):
            done = await asyncio.gather(*[db.submit(work) for work in works], return_exceptions=True)
            outcomes += [d if isinstance(d, BaseException) else None for d in done]
        event.remove(db.engine, "before_cursor_execute", seen)
        await db.close()
        return outcomes

    outcomes = asyncio.run(scenario())
    assert [i for i, o in enumerate(outcomes) if o is not None] == [13]
    assert isinstance(outcomes[13], StaleRoom)
    # the first batch: the fence, the moves, the clocks; the second (519 moves of as many rooms,
    # more than SQLITE_ROWS): the fence row by row, and the moves and the clocks in two chunks each
    assert (
        statements
        == [("SELECT", False), ("INSERT", False), ("UPDATE", False)]
        + [("SELECT", False)]
        + [("INSERT", False)] * 2
        + [("UPDATE", False)] * 2
    ), statements
    with db.engine.begin() as conn:
        stored = conn.execute(select(func.count()).select_from(actions)).scalar_one()
        clock = dict(conn.execute(select(rooms.c.id, rooms.c.clock_deadline)).all())
        first_actions = conn.execute(
            select(actions.c.action).where(actions.c.room_id == ids[0]).order_by(actions.c.idx)
        ).scalars()
        assert list(first_actions) == [f'"{ids[0]}"', '"second"']
    assert stored == 11 - 1 + SQLITE_ROWS + 10
    assert db.inline == 2  # both batches on the event loop's thread
    assert clock[ids[0]] == 2.0 and clock[ids[1]] == 1.0 and clock[ids[12]] is None and clock[ids[-1]] == 3.0
    db.engine.dispose()


def test_moves_wait_for_a_lock_on_the_writers_thread_not_the_event_loop(tmp_path: Path) -> None:
    """Moves are stored on the event loop's thread on a connection that waits for no lock: while
    another process holds the file's write lock, they go to the writer's thread, which waits for
    it (the loop goes on meanwhile), and are stored once it is let go; then on the loop again."""
    import sqlite3
    import threading
    import time

    from roppyakken.server.store import room_store

    path = tmp_path / "l.sqlite3"
    db = Database(f"sqlite:///{path}")
    db.open()

    def setup(conn: Connection) -> None:
        from datetime import UTC, datetime

        room = room_store.RoomRow("r", datetime.now(UTC), 2, "classic", {}, 1, "playing")
        room_store.insert_room(conn, room=room, room_seats=[room_store.SeatRow(0, "human", "p")])

    db.run_now(setup)
    other = sqlite3.connect(path, check_same_thread=False, isolation_level=None)

    async def scenario() -> tuple[int, int, float, int, int]:
        await db.start()
        await db.submit(ActionRow("r", 0, 0, "{}"))
        before = db.inline
        other.execute("BEGIN IMMEDIATE")  # another process writing
        let_go = threading.Timer(0.5, lambda: other.execute("COMMIT"))
        let_go.start()
        began = time.monotonic()
        ticks = 0
        move = db.submit(ActionRow("r", 1, 0, "{}"))
        while not move.done():  # the event loop is not held while the writer's thread waits
            ticks += 1
            await asyncio.sleep(0.01)
        await move
        waited = time.monotonic() - began
        during = db.inline - before
        await db.submit(ActionRow("r", 2, 0, "{}"))
        after = db.inline - before
        total = await db.run(lambda c: int(c.execute(select(func.count()).select_from(actions)).scalar_one()))
        await db.close()
        return during, after, waited, ticks, total

    during, after, waited, ticks, total = asyncio.run(scenario())
    other.close()
    assert during == 0 and after == 1 and total == 3
    assert waited >= 0.45 and ticks >= 20


def test_serve_refuses_a_bad_database_in_one_line(tmp_path: Path) -> None:
    code = "from roppyakken.cli import main; raise SystemExit(main())"
    for url, part in (
        ("mysql://x/y", "unsupported database URL"),
        ("postgresql://u@127.0.0.1:1/x", "cannot open"),
    ):
        done = subprocess.run(
            [sys.executable, "-c", code, "serve", "--port", "0", "--database", url],
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert done.returncode == 2
        assert done.stderr.count("\n") == 1 and part in done.stderr, done.stderr


def test_upgrading_a_sqlite_database_from_the_first_schema_keeps_every_row(tmp_path: Path) -> None:
    """Migrations that rebuild ``rooms`` on SQLite (batch mode) must not cascade its drop into the
    seats and actions that refer to it."""
    from roppyakken.server.store.database import migrate
    from roppyakken.server.store.engines import open_engine

    engine = open_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    migrate(engine, "0001")
    with engine.begin() as conn:
        conn.execute(
            text(
                "insert into rooms (id, created_at, players, preset, options, seed, status)"
                " values ('r1', '2026-01-01 00:00:00', 2, 'classic', '{}', 1, 'over')"
            )
        )
        conn.execute(
            text("insert into seats (room_id, seat, kind) values ('r1', 0, 'human'), ('r1', 1, 'bot')")
        )
        conn.execute(text("insert into actions (room_id, idx, seat, action) values ('r1', 0, 0, '{}')"))
    migrate(engine)
    with engine.begin() as conn:
        counts = [
            conn.execute(text(f"select count(*) from {t}")).scalar() for t in ("rooms", "seats", "actions")
        ]
        assert conn.execute(text("PRAGMA foreign_keys")).scalar() == 1  # enforced again afterwards
    assert counts == [1, 2, 1]
    engine.dispose()
