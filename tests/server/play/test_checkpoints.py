"""A running server's SQLite log is checkpointed by a thread of its own (server/store/database.py), never
inside
the commit of a batch of moves: commits append to the log, the thread copies it into the file."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from pathlib import Path

from sqlalchemy import Connection, text

from roppyakken.server.store.database import Database


def _in_file(path: Path) -> int:
    """Rows of the table ``t`` in the database file itself, ignoring its write-ahead log."""
    conn = sqlite3.connect(f"file:{path}?immutable=1", uri=True)
    try:
        return int(conn.execute("select count(*) from t").fetchone()[0])
    finally:
        conn.close()


def test_commits_leave_the_log_to_the_checkpoint_thread(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    db = Database(str(path))
    db.open()
    db.run_now(lambda c: c.exec_driver_sql("create table t (x text)"))

    def insert(conn: Connection) -> None:
        conn.execute(text("insert into t values (:x)"), [{"x": "y" * 400} for _ in range(100)])

    async def scenario() -> tuple[int, int, int, int]:
        await db.start(checkpoint_every=3600)  # no pass of the thread before the stop
        for _ in range(200):  # 20,000 rows, about 2,500 pages: SQLite's own rule would checkpoint
            await db.run(insert)
        setting = await db.run(lambda c: c.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar())
        before = _in_file(path)
        log_bytes = (tmp_path / "g.sqlite3-wal").stat().st_size
        await db.close()
        return -1 if setting is None else int(setting), before, log_bytes, _in_file(path)

    setting, before, log_bytes, after = asyncio.run(scenario())
    assert setting == 0
    assert before == 0, "a commit copied the log into the file"
    assert log_bytes > 1000 * 4096, "the log did not grow past SQLite's own checkpoint size"
    assert after == 20_000, "the last checkpoint at the stop did not copy the log"
    wal = tmp_path / "g.sqlite3-wal"
    assert not wal.exists() or wal.stat().st_size == 0


def test_the_thread_checkpoints_while_the_server_runs(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    db = Database(str(path))
    db.open()
    db.run_now(lambda c: c.exec_driver_sql("create table t (x text)"))

    async def scenario() -> int:
        await db.start(checkpoint_every=0.05)
        try:
            await db.run(lambda c: c.exec_driver_sql("insert into t values ('a'), ('b')"))
            deadline = time.monotonic() + 20
            while _in_file(path) < 2:
                assert time.monotonic() < deadline, "the log was never copied into the file"
                await asyncio.sleep(0.02)
            return _in_file(path)
        finally:
            await db.close()

    assert asyncio.run(scenario()) == 2


def test_tools_without_the_writer_checkpoint_as_sqlite_does(tmp_path: Path) -> None:
    db = Database(str(tmp_path / "g.sqlite3"))
    db.open()
    assert db.run_now(lambda c: c.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar()) == 1000
