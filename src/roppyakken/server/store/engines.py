"""The database's engines: a SQLite file's or PostgreSQL's (:func:`open_engine`), with their
settings (SQLite's write-ahead log and busy timeout, PostgreSQL's lock and statement timeouts, a
pooler in transaction mode), and the reading process's (:func:`open_reading_engine`)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError

from roppyakken.errors import RoppyakkenError
from roppyakken.server.config import DEFAULT_WRITE_TIMEOUT
from roppyakken.server.wire import text


def display_url(url: str) -> str:
    """The URL without its password, for messages."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except ArgumentError:
        return "<database>"


def _sqlite_pragmas(write_timeout: float) -> Callable[[Any, Any], None]:
    def pragmas(dbapi_connection: Any, _record: Any) -> None:
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute(f"PRAGMA busy_timeout={max(1, int(write_timeout * 1000))}")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.close()

    return pragmas


def no_checkpoints(dbapi_connection: Any, _record: Any) -> None:
    """A SQLite connection that leaves the log's checkpoints to :class:`Checkpointer`."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


POOLER: Final = "pooler"
"""The URL's query parameter naming a pooler in front of PostgreSQL (``?pooler=transaction``)."""
POOLER_MODES: Final = ("transaction",)
"""The pooling modes the server works under (PgBouncer's ``pool_mode``; session pooling needs no hint)."""


def _timeouts(write_timeout: float) -> dict[str, str]:
    millis = max(1, int(write_timeout * 1000))
    # A server frozen inside a transaction (a long pause, a stalled VM) holds its row locks until
    # PostgreSQL ends its session: the room's next holder waits for no longer than this.
    return {
        "lock_timeout": str(millis),
        "statement_timeout": str(millis * 5),
        "idle_in_transaction_session_timeout": str(millis * 5),
    }


def _local_timeouts(settings: dict[str, str]) -> Callable[[Connection], None]:
    """Each transaction's first statement sets the timeouts for that transaction only: behind a pooler
    in transaction mode the server's session is shared, and the pooler refuses ``options``."""
    statement = "select " + ", ".join(
        f"set_config('{name}', '{value}', true)" for name, value in settings.items()
    )

    def begin(conn: Connection) -> None:
        conn.exec_driver_sql(statement)

    return begin


def open_engine(
    url: str, write_timeout: float = DEFAULT_WRITE_TIMEOUT, *, connect_timeout: int = 5, pool_size: int = 2
) -> Engine:
    """An engine for ``url``; a SQLite file's folder is created on first start.

    ``write_timeout`` bounds how long a write waits for a lock (SQLite's busy
    timeout, PostgreSQL's ``lock_timeout`` and ``statement_timeout``).  A PostgreSQL
    URL ending in ``?pooler=transaction`` goes through a pooler in transaction mode
    (PgBouncer's ``pool_mode = transaction``): no server-side prepared statements
    (psycopg prepares none) and no session settings (the timeouts are set in each
    transaction instead of at connection).
    """
    try:
        parsed = make_url(url)
    except ArgumentError:
        raise RoppyakkenError(text.BAD_DATABASE_URL, url=url) from None
    if parsed.get_backend_name() == "sqlite":
        if parsed.database and parsed.database != ":memory:":
            Path(parsed.database).parent.mkdir(parents=True, exist_ok=True)
        engine = create_engine(url, connect_args={"check_same_thread": False})
        event.listen(engine, "connect", _sqlite_pragmas(write_timeout))
        return engine
    pooler = parsed.query.get(POOLER)
    if pooler is not None and pooler not in POOLER_MODES:
        raise RoppyakkenError(text.BAD_POOLER, pooler=str(pooler)[:40], modes=", ".join(POOLER_MODES))
    settings = _timeouts(write_timeout)
    connect_args: dict[str, Any] = {"connect_timeout": connect_timeout}
    if pooler is None:
        connect_args["options"] = " ".join(f"-c {name}={value}" for name, value in settings.items())
    else:
        connect_args["prepare_threshold"] = None
        parsed = parsed.difference_update_query([POOLER])
    try:
        engine = create_engine(parsed, pool_pre_ping=True, pool_size=pool_size, connect_args=connect_args)
    except (ArgumentError, ImportError) as exc:
        raise RoppyakkenError(text.DATABASE_UNREACHABLE, url=display_url(url), reason=exc) from None
    if pooler is not None:
        event.listen(engine, "begin", _local_timeouts(settings))
    return engine


def _query_only(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA query_only=ON")
    cursor.close()


def open_reading_engine(url: str, write_timeout: float) -> Engine:
    """An engine for the reading process (store/reading.py): one connection; on SQLite one that
    writes nothing and leaves the log's checkpoints to the server's :class:`Checkpointer`."""
    engine = open_engine(url, write_timeout, pool_size=1)
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", no_checkpoints)
        event.listen(engine, "connect", _query_only)
    return engine


def one_line(exc: BaseException) -> str:
    """A database error's first line (the driver's own message where SQLAlchemy wraps one)."""
    orig = getattr(exc, "orig", None)
    message = str(orig if orig is not None else exc).strip()
    return message.splitlines()[0] if message else type(exc).__name__
