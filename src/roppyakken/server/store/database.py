"""The data layer: one SQLAlchemy 2 engine (SQLite file or PostgreSQL), Alembic migrations, a batching writer.

Database work runs on one worker thread, off the event loop.  Work queued
while the thread is busy is done together in one transaction (group commit), so
many games moving at once cost a few commits, and a move is committed before its
result is sent to anyone: what a player saw survives a restart.  On a SQLite file, a
batch of moves alone (the most frequent work) is stored on the event loop's own thread
instead, in three statements (store/sqlite_moves.py) on a connection that never waits for a lock
(:meth:`Database._run_inline`; locked, it goes to the worker thread): a batch handed to
a thread and back made each move wait for the interpreter's lock behind the other
threads, which was most of the moves' slowest latencies.  Long reads that need
nothing still queued (a tournament's live page) run beside it instead
(:meth:`Database.look`), so that the moves queued behind them do not wait; a tournament
director's read and decision, Python enough to hold the interpreter's lock away from the
event loop, run in a process of its own (:meth:`Database.look_apart`, store/reading.py).

On SQLite (WAL, ``synchronous=NORMAL``) a commit appends to the write-ahead log and
does not wait for the disk; copying the log into the database file (a checkpoint)
does, with an ``fsync`` of the file.  SQLite makes that copy inside whichever commit
fills the log past 1,000 pages, so every few seconds one batch of moves waited for
the disk (0.3 s and more on a busy virtual disk) and so did every move queued behind
it.  While the writer runs, its connections do not checkpoint; a thread of its own
does, every :data:`CHECKPOINT_EVERY` seconds, beside the writer (a passive
checkpoint waits for no lock and holds none that a commit needs).

On PostgreSQL, reads that tolerate a little lag may go to a streaming replica
(:meth:`Database.read`, ``--database-replica``), and either URL may name a pooler in
transaction mode (``?pooler=transaction``, store/engines.py).

Several members write to one PostgreSQL at once.  A batch holds every row lock its work
took until it commits, so work that writes rows other members write too (the pairing
pool, presence) is queued ``alone`` (:meth:`Database.run`): it runs in a transaction of
its own, between the batches, and never holds those rows while the batch waits for
another member (the ratings lock of a game's end).  A transaction PostgreSQL still
breaks off (a deadlock, a serialization failure) stored nothing, and the writer runs it
again, up to :data:`~roppyakken.server.config.BROKEN_OFF_RETRIES` times, before its work
fails.
"""

from __future__ import annotations

import asyncio
import logging
import os
import random
import sqlite3
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar, cast

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, bindparam, event, update
from sqlalchemy.exc import DBAPIError, IntegrityError, SQLAlchemyError

from roppyakken.errors import RoppyakkenError
from roppyakken.server.config import (
    BROKEN_OFF_RETRIES,
    DEFAULT_WRITE_TIMEOUT,
    READ_WORKERS,
    REPLICA_CONNECT_TIMEOUT,
    REPLICA_MAX_LAG,
    REPLICA_RETRY,
)
from roppyakken.server.store.engines import display_url, no_checkpoints, one_line, open_engine
from roppyakken.server.store.reading import ReadingError, ReadingProcess
from roppyakken.server.store.room_store import Fenced, fenced
from roppyakken.server.store.sqlite_moves import append_moves, stale_rooms
from roppyakken.server.store.tables import actions, rooms
from roppyakken.server.wire import text

log = logging.getLogger("roppyakken.server")

T = TypeVar("T")
LOOK_WORKERS: Final = 2
"""Threads that run reads beside the writer (:meth:`Database.look`)."""
Op = Callable[[Connection], Any]
"""A piece of database work: runs inside the batch's transaction."""


def default_database_path() -> Path:
    """``$XDG_DATA_HOME/roppyakken/roppyakken.sqlite3`` (default ``~/.local/share/...``)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "roppyakken" / "roppyakken.sqlite3"


def normalize_url(url: str | None) -> str:
    """The SQLAlchemy URL for a ``--database`` value (None: the default SQLite file).

    ``postgresql://`` and ``postgres://`` use the psycopg 3 driver; a value
    without a scheme is a SQLite file path.
    """
    if url is None:
        return f"sqlite:///{default_database_path()}"
    if "://" not in url:
        return f"sqlite:///{Path(url).expanduser().resolve()}"
    scheme, rest = url.split("://", 1)
    if scheme in ("postgresql", "postgres"):
        return f"postgresql+psycopg://{rest}"
    if scheme in ("postgresql+psycopg", "sqlite"):
        return url
    raise RoppyakkenError(text.BAD_DATABASE_URL, url=url)


CHECKPOINT_EVERY: Final = 1.0
"""Seconds between two checkpoints of a running server's SQLite write-ahead log."""


class StorageError(Exception):
    """Database work that failed (locked, disk full, connection lost): nothing of it was stored."""


class StaleRoom(StorageError):
    """A write refused because the stored room moved on without this server: another server took
    it (a newer holder epoch, :func:`~roppyakken.server.store.room_store.fence`), or stored a move under
    the same number.  The room in memory is behind: it must be loaded again, never written on."""


def migrate(engine: Engine, revision: str = "head") -> None:
    """Bring the schema to ``revision`` (the newest by default; Alembic, run programmatically: no
    alembic.ini).

    On SQLite a migration that changes a table copies it and drops the old one ("batch" mode);
    with foreign keys enforced, that drop would delete every row referring to the table (a room's
    seats, actions, chat) by their ON DELETE CASCADE.  So foreign keys are off while migrating, as
    SQLite's documentation prescribes for such changes, and checked afterwards."""
    config = Config()
    location = str(Path(__file__).parent / "migrations")
    config.set_main_option("script_location", location.replace("%", "%%"))
    with engine.connect() as conn:
        sqlite = conn.dialect.name == "sqlite"
        if sqlite:  # outside any transaction, where SQLite heeds it
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()
        try:
            with conn.begin():
                config.attributes["connection"] = conn
                command.upgrade(config, revision)
                if sqlite and conn.exec_driver_sql("PRAGMA foreign_key_check").first() is not None:
                    raise RuntimeError("a migration left rows that refer to no row (foreign_key_check)")
        finally:
            if sqlite:
                conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                conn.commit()


BROKEN_OFF: Final = frozenset({"40P01", "40001"})
"""The SQLSTATEs of a transaction PostgreSQL broke off that succeeds if run again: deadlock detected,
serialization failure."""


def _broken_off(exc: BaseException) -> bool:
    """Whether ``exc`` is PostgreSQL breaking the transaction off (:data:`BROKEN_OFF`)."""
    return getattr(getattr(exc, "orig", None), "sqlstate", None) in BROKEN_OFF


def _whole_database(exc: BaseException) -> bool:
    """Whether ``exc`` is the database failing (not one piece of work's data)."""
    if isinstance(exc, IntegrityError):
        return False
    return isinstance(exc, DBAPIError | OSError)


@dataclass(frozen=True, slots=True)
class ActionRow:
    """An applied action to append: queued like any work, inserted in bulk."""

    room_id: str
    idx: int
    seat: int
    action: str
    epoch: int | None = None
    """The writer's holder epoch of the room, checked in the same transaction (None: unchecked)."""
    clock: str | None = None
    """The room's clock after the action (JSON), stored in the same transaction; None: unchanged."""
    clock_deadline: float | None = None


@dataclass(frozen=True, slots=True)
class Alone:
    """Work queued to run in a transaction of its own (:meth:`Database.run`'s ``alone``)."""

    op: Op


CLOCK_UPDATE: Final = (
    update(rooms)
    .where(rooms.c.id == bindparam("b_id"))
    .values(clock=bindparam("b_clock"), clock_deadline=bindparam("b_deadline"))
)
"""A room's clock after a move (:class:`ActionRow`), updated in bulk with the batch's other moves."""


class Database:
    """The server's database: open and migrated by :meth:`open`, then used through :meth:`run`."""

    def __init__(
        self,
        url: str | None = None,
        *,
        write_timeout: float = DEFAULT_WRITE_TIMEOUT,
        replica: str | None = None,
        replica_retry: float = REPLICA_RETRY,
        replica_max_lag: float = REPLICA_MAX_LAG,
        retries: int = BROKEN_OFF_RETRIES,
    ) -> None:
        self.url = normalize_url(url)
        self.write_timeout = write_timeout
        self.engine = open_engine(self.url, write_timeout)
        self.replica_url: str | None = None
        """The read replica's URL (``--database-replica``), None without one."""
        self.replica: Engine | None = None
        if replica is not None:
            self.replica_url = normalize_url(replica)
            if self.dialect != "postgresql" or not self.replica_url.startswith("postgresql"):
                raise RoppyakkenError(text.REPLICA_NEEDS_POSTGRESQL)
            self.replica = open_engine(
                self.replica_url,
                write_timeout,
                connect_timeout=REPLICA_CONNECT_TIMEOUT,
                pool_size=READ_WORKERS,
            )
        self.replica_retry = replica_retry
        self.replica_max_lag = replica_max_lag
        self._replica_down_until = 0.0
        self._reader: ThreadPoolExecutor | None = None
        self._looker: ThreadPoolExecutor | None = None
        self.apart: ReadingProcess | None = None
        """The process that runs :meth:`look_apart`'s reads (None: an in-memory database, or not started)."""
        self.reads: dict[str, int] = {"replica": 0, "primary": 0}
        """Lag-tolerant reads (:meth:`read`) by where they ran (for the metrics and tests)."""
        self._checkpointer: Checkpointer | None = None
        self._executor: ThreadPoolExecutor | None = None
        self._pending: list[tuple[Op | ActionRow | Alone, asyncio.Future[Any]]] = []
        self._wake: asyncio.Event | None = None
        self._writer: asyncio.Task[None] | None = None
        self._inline: Connection | None = None
        self.inline = 0
        """Batches of moves stored on the event loop's thread (:meth:`_run_inline`)."""
        self._closing = False
        self.failed = 0
        """How many pieces of work failed (for the metrics)."""
        self.retries = retries
        """Times a transaction PostgreSQL broke off is run again (:data:`BROKEN_OFF`)."""
        self.broken_off = 0
        """How many transactions PostgreSQL broke off (each run again, up to :attr:`retries` times)."""

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    def open(self) -> None:
        """Connect and migrate (blocking); a clear one-line error if the database cannot be used."""
        try:
            migrate(self.engine)
        except SQLAlchemyError as exc:
            reason = one_line(exc)
            raise RoppyakkenError(
                text.DATABASE_UNREACHABLE, url=display_url(self.url), reason=reason
            ) from None

    def run_now(self, op: Callable[[Connection], T]) -> T:
        """Run ``op`` in its own transaction on the calling thread (start-up, tests, tools)."""
        with self.engine.begin() as conn:
            return op(conn)

    async def start(self, checkpoint_every: float = CHECKPOINT_EVERY) -> None:
        """Start the writer task (call from the event loop that will use :meth:`run`), and on a
        SQLite file the thread that checkpoints its log every ``checkpoint_every`` seconds."""
        path = self.engine.url.database
        if self.dialect == "sqlite" and path and path != ":memory:" and self._checkpointer is None:
            self._checkpointer = Checkpointer(path, checkpoint_every, self.write_timeout)
            event.listen(self.engine, "connect", no_checkpoints)
            self.engine.dispose()  # the connections made from now on leave checkpoints to it
            self._checkpointer.start()
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="roppyakken-db")
        self._wake = asyncio.Event()
        self._closing = False
        self._writer = asyncio.create_task(self._write_loop(), name="roppyakken-db-writer")
        if self.dialect != "sqlite" or (path and path != ":memory:"):
            self._looker = ThreadPoolExecutor(
                max_workers=LOOK_WORKERS, thread_name_prefix="roppyakken-db-look"
            )
            self.apart = ReadingProcess(self.url, self.write_timeout)
        if self.replica is not None:
            self._reader = ThreadPoolExecutor(
                max_workers=READ_WORKERS, thread_name_prefix="roppyakken-db-read"
            )

    async def run(self, op: Callable[[Connection], T], *, alone: bool = False) -> T:
        """Run ``op`` on the database thread, in a transaction shared with other queued work;
        ``alone``: in a transaction of its own, for work that writes rows other members of a
        cluster write too (the module docstring)."""
        return cast(T, await self.submit(Alone(op) if alone else op))

    async def read(
        self,
        op: Callable[[Connection], T],
        *,
        own: bool = False,
        missing: Callable[[T], bool] | None = None,
    ) -> T:
        """Run a read that tolerates a little lag: on the read replica when one is configured and
        answers, otherwise (or if it fails) on the primary like :meth:`run`.

        ``op`` must only read.  The replica serves it only if it replayed a transaction of the
        primary within :attr:`replica_max_lag` seconds.  ``own``: the asker reads their own data
        (their games, their profile), so the replica serves it only if it has replayed everything
        the primary had written when the read began (``pg_last_wal_replay_lsn() >=
        pg_current_wal_lsn()``): a player sees the game they just finished and the name they just
        chose.  ``missing``: an
        answer for which the primary is asked again (a game or player not found on the replica
        may be one it has not replayed yet).  A failing replica is logged once and left alone
        for :attr:`replica_retry` seconds; the reader never sees its errors.
        """
        if self.replica is None or self._reader is None or time.monotonic() < self._replica_down_until:
            return await self._read_primary(op)
        loop = asyncio.get_running_loop()
        try:
            served, value = await loop.run_in_executor(self._reader, self._read_replica, op, own)
        except (DBAPIError, OSError) as exc:
            if self._replica_down_until == 0.0:
                log.warning(
                    "the read replica %s failed (reads go to the primary; tried again in %g s): %s",
                    display_url(self.replica_url or ""),
                    self.replica_retry,
                    one_line(exc),
                )
            self._replica_down_until = time.monotonic() + self.replica_retry
            return await self._read_primary(op)
        if self._replica_down_until:
            log.warning("the read replica %s answers again", display_url(self.replica_url or ""))
            self._replica_down_until = 0.0
        if not served or (missing is not None and missing(cast(T, value))):
            return await self._read_primary(op)
        self.reads["replica"] += 1
        return cast(T, value)

    async def look(self, op: Callable[[Connection], T]) -> T:
        """Run a read beside the writer, on a thread of its own: it sees every transaction committed
        before it began, not the work still queued for the writer.  For reads too long to make the
        moves queued behind them wait (a tournament's director and live page): SQLite's
        write-ahead log lets a reader read while the writer writes, PostgreSQL a pooled connection.
        ``op`` must only read.  An in-memory SQLite database has one connection: there it runs as
        :meth:`run` does."""
        if self._looker is None:
            return await self.run(op)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._looker, self._look, op)
        except SQLAlchemyError as exc:
            raise StorageError(one_line(exc)) from None

    async def look_apart(self, op: Callable[..., T], *args: Any) -> T:
        """Run ``op(connection, *args)`` as :meth:`look` does, in a process of its own
        (store/reading.py): for reads whose Python would hold the interpreter's lock away from the
        event loop.  ``op`` is a module's top-level function, ``args`` and its answer pickle; what
        it keeps between calls it keeps in its module (in the process).  An in-memory database has
        no such process: there it runs as :meth:`look` does, in this process."""
        if self.apart is None:
            return await self.look(lambda conn: op(conn, *args))
        try:
            return cast(T, await self.apart.call(op, *args))
        except ReadingError as exc:
            raise StorageError(str(exc)) from None

    def _look(self, op: Callable[[Connection], T]) -> T:
        with self.engine.begin() as conn:
            return op(conn)

    async def _read_primary(self, op: Callable[[Connection], T]) -> T:
        self.reads["primary"] += 1
        return await self.run(op)

    def _read_replica(self, op: Callable[[Connection], T], own: bool) -> tuple[bool, T | None]:
        """On the reader thread: ``(True, op's answer)`` from the replica, or ``(False, None)`` when
        the replica is too far behind (for an ``own`` read: behind the primary at all)."""
        assert self.replica is not None
        written = None
        if own:
            with self.engine.connect() as conn:
                written = conn.exec_driver_sql("select pg_current_wal_lsn()::text").scalar()
        fresh = "now() - pg_last_xact_replay_timestamp() <= make_interval(secs => %(lag)s)"
        if written is not None:
            fresh += " and pg_last_wal_replay_lsn() >= %(lsn)s::pg_lsn"
        with self.replica.begin() as conn:
            ok = conn.exec_driver_sql(
                f"select coalesce({fresh}, false)", {"lag": self.replica_max_lag, "lsn": written}
            ).scalar()
            if not ok:
                return False, None
            return True, op(conn)

    def submit(self, work: Op | ActionRow | Alone) -> asyncio.Future[Any]:
        """Queue ``work`` now (so queued work keeps its order); the future is done once committed."""
        if self._wake is None or self._closing:
            raise RuntimeError("the database is not open for work (start() not called, or closed)")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending.append((work, future))
        self._wake.set()
        return future

    async def _write_loop(self) -> None:
        assert self._wake is not None
        loop = asyncio.get_running_loop()
        while True:
            if not self._pending:
                if self._closing:
                    return
                await self._wake.wait()
                self._wake.clear()
                continue
            batch, self._pending = self._pending, []
            moves: list[ActionRow] = []
            if self._checkpointer is not None:  # a SQLite file: its leading moves on this thread
                for work, _ in batch:
                    if not isinstance(work, ActionRow):
                        break
                    moves.append(work)
            if moves:
                stored = self._run_inline(moves)
                if stored is not None:
                    self.inline += 1
                    self._settle(batch[: len(moves)], stored)
                    batch = batch[len(moves) :]
                    if not batch:
                        continue
            try:
                results = await loop.run_in_executor(self._executor, self._run_all, [w for w, _ in batch])
            except Exception as exc:  # the executor itself failed: fail the whole batch
                results = [(False, exc)] * len(batch)
            self._settle(batch, results)

    def _settle(self, batch: list[tuple[Any, asyncio.Future[Any]]], results: list[tuple[bool, Any]]) -> None:
        """Give each piece of work's future its result or its error."""
        for (_, future), (ok, value) in zip(batch, results, strict=True):
            if not ok:
                self.failed += 1
            if future.done():
                continue
            if ok:
                future.set_result(value)
            elif isinstance(value, Fenced | IntegrityError):
                future.set_exception(StaleRoom(one_line(value)))
            else:
                future.set_exception(StorageError(one_line(value)))

    def _run_inline(self, moves: Sequence[ActionRow]) -> list[tuple[bool, Any]] | None:
        """Store ``moves`` on the event loop's own thread, in one transaction on a connection that
        never waits for a lock (SQLite's ``busy_timeout`` 0); None when anything goes wrong (the
        file locked by another process, a move refused by the schema): nothing of it was stored,
        and the writer's thread runs it as any work, waiting for the lock and isolating a failure.

        Handing a batch to the writer's thread and its result back made each move wait for the
        interpreter's lock twice, behind whatever the other thread ran: at a thousand games that
        wait, not SQLite, was the moves' slowest part (bench/RESULTS-tournaments.md, "Where the
        tail is").  A batch of moves is one fence, one insert and one update
        (:func:`~roppyakken.server.store.sqlite_moves.append_moves`), well under a millisecond; a
        checkpoint never blocks it (the :class:`Checkpointer`'s are passive)."""
        try:
            if self._inline is None:
                self._inline = self.engine.connect()
                self._inline.exec_driver_sql("PRAGMA busy_timeout=0")
                self._inline.commit()
            with self._inline.begin():
                return self._execute(self._inline, moves)
        except Exception as exc:
            log.info("moves handed to the writer's thread: %s", one_line(exc))
            self._drop_inline()
            return None

    def _drop_inline(self) -> None:
        """Close :meth:`_run_inline`'s connection for good (never back to the pool: it waits for no lock)."""
        if self._inline is not None:
            self._inline.invalidate()
            self._inline.close()
            self._inline = None

    def _run_all(self, works: list[Op | ActionRow | Alone]) -> list[tuple[bool, Any]]:
        """Run the queued work in order: each :class:`Alone` in a transaction of its own, the rest
        between them in batches."""
        results: list[tuple[bool, Any]] = []
        batch: list[Op | ActionRow] = []
        for work in works:
            if isinstance(work, Alone):
                if batch:
                    results += self._run_batch(batch)
                    batch = []
                results += self._run_batch([work.op])
            else:
                batch.append(work)
        if batch:
            results += self._run_batch(batch)
        return results

    def _transaction(self, works: list[Op | ActionRow]) -> list[tuple[bool, Any]]:
        """Run ``works`` in one transaction, run again whole while PostgreSQL breaks it off
        (:data:`BROKEN_OFF`), at most :attr:`retries` times."""
        attempt = 0
        while True:
            try:
                with self.engine.begin() as conn:
                    return self._execute(conn, works)
            except DBAPIError as exc:
                if not _broken_off(exc):
                    raise
                self.broken_off += 1
                if attempt >= self.retries:
                    raise
                attempt += 1
                log.warning(
                    "database work (%d pieces) broken off, run again (%d of %d): %s",
                    len(works),
                    attempt,
                    self.retries,
                    one_line(exc),
                )
                time.sleep(random.uniform(0.0, 0.02 * attempt))  # (the other transaction goes first)

    def _run_batch(self, works: list[Op | ActionRow]) -> list[tuple[bool, Any]]:
        """Run a batch in one transaction; if it fails, split it in halves to isolate the failing work.

        A failure of the database itself (locked past the write timeout, disk full,
        connection lost) fails the whole batch at once: splitting would only wait
        the timeout again for each half while every room waits behind it.
        """
        try:
            return self._transaction(works)
        except Exception as exc:
            if len(works) == 1 or _whole_database(exc):
                if isinstance(exc, StaleRoom):  # the fence refusing a room's former holder: by design
                    log.info("a room's former holder was refused: %s", one_line(exc))
                else:
                    log.error("database work failed (%d pieces): %s", len(works), one_line(exc))
                return [(False, exc)] * len(works)
        middle = len(works) // 2
        return self._run_batch(works[:middle]) + self._run_batch(works[middle:])

    @staticmethod
    def _execute(conn: Connection, works: Sequence[Op | ActionRow]) -> list[tuple[bool, Any]]:
        results: list[tuple[bool, Any]] = []
        rows: list[tuple[int, ActionRow]] = []
        sqlite = conn.dialect.name == "sqlite"

        def flush() -> None:
            if not rows:
                return
            # fenced, all in one statement: a row of a room taken by another server fails alone
            epochs = {row.room_id: row.epoch for _, row in rows if row.epoch is not None}
            stale = (stale_rooms(conn, epochs) if sqlite else fenced(conn, epochs)) if epochs else set()
            kept = []
            clocks = []
            for at, row in rows:
                if row.room_id in stale:
                    results[at] = (False, Fenced(row.room_id))
                else:
                    kept.append(
                        {"room_id": row.room_id, "idx": row.idx, "seat": row.seat, "action": row.action}
                    )
                    if row.clock is not None:
                        clocks.append(
                            {"b_id": row.room_id, "b_clock": row.clock, "b_deadline": row.clock_deadline}
                        )
            if sqlite:
                append_moves(conn, kept, clocks)
            else:
                if kept:
                    conn.execute(actions.insert(), kept)
                if clocks:
                    conn.execute(CLOCK_UPDATE, clocks)
            rows.clear()

        for work in works:
            if isinstance(work, ActionRow):
                rows.append((len(results), work))
                results.append((True, None))
            else:
                flush()
                results.append((True, work(conn)))
        flush()
        return results

    async def ping(self) -> bool:
        """Whether the database answers a trivial query (``/readyz``)."""
        try:
            await self.run(lambda c: c.exec_driver_sql("select 1").scalar())
        except StorageError:
            return False
        return True

    async def close(self) -> None:
        """Finish the queued work, stop the writer and release the connections."""
        if self._writer is not None and self._wake is not None:
            self._closing = True
            self._wake.set()
            await self._writer
            self._writer = None
        self._drop_inline()
        if self._executor is not None:
            self._executor.shutdown(wait=True)
            self._executor = None
        if self._reader is not None:
            self._reader.shutdown(wait=True)
            self._reader = None
        if self._looker is not None:
            self._looker.shutdown(wait=True)
            self._looker = None
        if self.apart is not None:
            await self.apart.close()
            self.apart = None
        self.engine.dispose()
        if self.replica is not None:
            self.replica.dispose()
        if self._checkpointer is not None:
            event.remove(self.engine, "connect", no_checkpoints)
            await asyncio.to_thread(self._checkpointer.stop)
            self._checkpointer = None


class Checkpointer:
    """A thread that checkpoints a SQLite file's write-ahead log every ``every`` seconds, on its
    own connection (see the module docstring); a last, whole checkpoint when stopped."""

    def __init__(self, path: str, every: float, write_timeout: float = DEFAULT_WRITE_TIMEOUT) -> None:
        self.path = path
        self.every = every
        self.write_timeout = write_timeout
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="roppyakken-db-checkpoint", daemon=True)

    def start(self) -> None:
        """Start the thread."""
        self._thread.start()

    def _checkpoint(self, conn: sqlite3.Connection, mode: str) -> None:
        try:
            conn.execute(f"PRAGMA wal_checkpoint({mode})").fetchall()
        except sqlite3.Error as exc:  # (the next pass tries again; commits never wait for it)
            log.warning("checkpoint of the database's log failed: %s", exc)

    def _run(self) -> None:
        conn = sqlite3.connect(self.path, timeout=self.write_timeout, check_same_thread=False)
        try:
            while not self._stopping.wait(self.every):
                self._checkpoint(conn, "PASSIVE")
            self._checkpoint(conn, "TRUNCATE")
        finally:
            conn.close()

    def stop(self) -> None:
        """Make the last checkpoint and end the thread (blocking)."""
        self._stopping.set()
        self._thread.join()
