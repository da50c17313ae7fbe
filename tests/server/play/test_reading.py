"""Reads in a process of their own (store/reading.py, Database.look_apart): the director's read
runs there, keeps what it read between calls, fails in one line, and the process never outlives
the server, even one killed with kill -9."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from roppyakken.server.club.tournaments import director, store
from roppyakken.server.store.database import Database, StorageError
from tests.harness.tournaments import tournament_row

START = 1_800_000_000.0


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    state = Path(f"/proc/{pid}/stat").read_text().split()[2] if Path(f"/proc/{pid}/stat").exists() else "X"
    return state != "Z"


def _database(path: Path) -> Database:
    db = Database(f"sqlite:///{path}")
    db.open()
    db.run_now(lambda c: store.create(c, tournament_row("arena", START, name="Apart", duration=3600.0)))
    return db


def test_a_read_apart_runs_in_another_process_and_a_write_there_is_refused(tmp_path: Path) -> None:
    db = _database(tmp_path / "apart.sqlite3")

    async def run() -> None:
        await db.start()
        try:
            t = await db.look_apart(store.get, "t1")
            assert t is not None and t.name == "Apart"
            assert db.apart is not None and db.apart.pid not in (None, os.getpid())
            first = db.apart.pid
            with pytest.raises(StorageError) as refused:  # the process's connection only reads
                await db.look_apart(store.take, "t1", "member", START, 5.0)
            assert "\n" not in str(refused.value) and "readonly" in str(refused.value)
            assert db.run_now(lambda c: store.take(c, "t1", "member", START, 5.0)) == 1  # nothing was taken
            assert db.apart.pid == first and db.apart.started == 1  # a failed read keeps the process
        finally:
            await db.close()

    asyncio.run(run())


def test_the_director_s_read_is_kept_in_the_process_between_calls(tmp_path: Path) -> None:
    db = _database(tmp_path / "kept.sqlite3")
    epoch = db.run_now(lambda c: store.take(c, "t1", "one", START, 5.0))
    assert epoch is not None

    async def run() -> None:
        await db.start()
        try:
            seen = await db.look_apart(director.look_kept, "k/t1", "t1", epoch, START - 1, 1.0)
            assert isinstance(seen, director.Looked) and seen.tournament is not None
            assert seen.decided is not None and not seen.decided.writes  # not started yet
            assert director._kept == {}  # kept there, not here
            # killed between two reads: the next fails in one line, the one after starts another
            assert db.apart is not None and db.apart.pid is not None
            gone = db.apart.pid
            os.kill(gone, signal.SIGKILL)
            await asyncio.sleep(0.2)
            with pytest.raises(StorageError, match="reading process ended"):
                await db.look_apart(director.look_kept, "k/t1", "t1", epoch, START - 1, 1.0)
            seen = await db.look_apart(director.look_kept, "k/t1", "t1", epoch, START - 1, 1.0)
            assert seen.tournament is not None and db.apart.started == 2 and db.apart.pid != gone
            assert not _alive(gone)
            process = db.apart.pid
        finally:
            await db.close()
        assert process is not None
        deadline = time.monotonic() + 5
        while _alive(process) and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not _alive(process), "the reading process outlived Database.close"

    asyncio.run(run())


def test_the_reading_process_ends_with_a_server_killed_by_sigkill(tmp_path: Path) -> None:
    path = tmp_path / "killed.sqlite3"
    _database(path).engine.dispose()
    script = textwrap.dedent(
        f"""
        import asyncio, sys
        from roppyakken.server.club.tournaments import store
        from roppyakken.server.store.database import Database

        async def main():
            db = Database({f"sqlite:///{path}"!r})
            await db.start()
            await db.look_apart(store.get, "t1")
            print(db.apart.pid, flush=True)
            await asyncio.sleep(60)

        asyncio.run(main())
        """
    )
    server = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        child = int(server.stdout.readline())
        assert _alive(child)
    finally:
        server.kill()
        server.wait()
    deadline = time.monotonic() + 5
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert not _alive(child), "the reading process outlived its server (kill -9)"


def test_a_reading_process_that_cannot_start_fails_the_read_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = _database(tmp_path / "nostart.sqlite3")
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-python"))

    async def run() -> None:
        await db.start()
        try:
            with pytest.raises(
                StorageError, match=r"^the reading process cannot start: .*no-python"
            ) as failed:
                await db.look_apart(store.get, "t1")
            assert "\n" not in str(failed.value) and db.apart is not None and db.apart.pid is None
        finally:
            await db.close()

    asyncio.run(run())
