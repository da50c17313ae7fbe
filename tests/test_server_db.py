"""The server's data layer on SQLite: database URLs, the default file, migrations, the batching writer."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, func, select, text

from roppyakken.errors import RoppyakkenError
from roppyakken.server.store.database import (
    ActionRow,
    Database,
    StorageError,
    default_database_path,
    normalize_url,
    table_names,
)
from roppyakken.server.store.tables import actions, metadata


def check_schema(url: str) -> None:
    """Migrating twice works, and the migrated schema is exactly what the models describe."""
    db = Database(url)
    db.open()
    db.open()  # already at the newest revision: nothing to do
    assert {"rooms", "seats", "actions", "alembic_version"} <= table_names(db.engine)
    with db.engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), metadata)
        assert diff == []
        assert conn.execute(text("select version_num from alembic_version")).scalar() == "0009_offline_games"
    db.engine.dispose()


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
        futures = [db.submit(ActionRow("r", i, 0, "{}")) for i in range(200)]
        failing = db.submit(boom)
        futures += [db.submit(ActionRow("r", i, 0, "{}")) for i in range(200, 300)]
        await asyncio.gather(*futures)
        error = None
        try:
            await failing
        except StorageError as exc:
            error = exc
        total = await db.run(count)
        batches = db.batches
        await db.close()
        return total, batches, error

    total, batches, error = asyncio.run(scenario())
    assert total == 300 and isinstance(error, StorageError) and str(error) == "boom"
    assert batches < 40  # committed together, the failure isolated by halving, not one by one


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
    from roppyakken.server.store.database import migrate, open_engine

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
