"""A PostgreSQL streaming replica and a PgBouncer for the tests, on loopback beside a throwaway primary.

The replica is made as docs/DEPLOY.md makes one: ``pg_basebackup -R`` (a base backup that
starts as a hot standby, streaming from the primary); the pooler is Debian's ``pgbouncer`` in
transaction mode.  Like every service of tests/harness/services.py, a missing binary skips on a
developer's machine and fails under ``CI=true``.
"""

from __future__ import annotations

import os
import pwd
import shutil
import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import psycopg
import pytest

from tests.harness.poll import until
from tests.harness.services import _pg_binaries, free_port, need, wait_port


def _as_postgres(base: Path) -> list[str]:
    """The command prefix that runs PostgreSQL's tools as ``postgres`` when the tests run as root."""
    if os.geteuid() != 0:
        return []
    user = pwd.getpwnam("postgres")
    os.chown(base, user.pw_uid, user.pw_gid)
    return ["runuser", "-u", "postgres", "--"]


class Replica:
    """A hot standby of the primary at ``primary`` (an admin URL ``postgresql://postgres@127.0.0.1:PORT``)."""

    def __init__(self, primary: str) -> None:
        bindir = _pg_binaries()
        need("PostgreSQL", bindir, "apt-get install postgresql")
        assert bindir is not None
        self.bindir = bindir
        self.primary = primary
        self.base = Path(tempfile.mkdtemp(prefix="roppyakken-replica-"))
        self.prefix = _as_postgres(self.base)
        self.data = self.base / "data"
        self.port = free_port()
        primary_port = urlsplit(primary).port
        try:
            subprocess.run(
                [
                    *self.prefix,
                    str(bindir / "pg_basebackup"),
                    *("-h", "127.0.0.1", "-p", str(primary_port), "-U", "postgres"),
                    *("-D", str(self.data), "-R", "-X", "stream", "-c", "fast", "--no-sync"),
                ],
                check=True,
                capture_output=True,
                timeout=120,
            )
        except subprocess.CalledProcessError as exc:
            shutil.rmtree(self.base, ignore_errors=True)
            pytest.fail(f"pg_basebackup failed: {exc.stderr.decode(errors='replace')}")

    @property
    def admin(self) -> str:
        """``postgresql://postgres@127.0.0.1:PORT`` (append ``/DATABASE``)."""
        return f"postgresql://postgres@127.0.0.1:{self.port}"

    def _pg_ctl(self, *args: str) -> subprocess.CompletedProcess[bytes]:
        return subprocess.run(
            [*self.prefix, str(self.bindir / "pg_ctl"), "-D", str(self.data), *args],
            capture_output=True,
            timeout=120,
        )

    def start(self) -> Replica:
        """Start it (as a hot standby, streaming) and wait until it accepts connections."""
        options = (
            f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 -c fsync=off -c hot_standby=on"
        )
        options += " -c max_connections=200"
        done = self._pg_ctl("-o", options, "-l", str(self.base / "log"), "-w", "-t", "60", "start")
        if done.returncode != 0:
            log = (self.base / "log").read_text(errors="replace") if (self.base / "log").exists() else ""
            pytest.fail(f"the replica did not start: {done.stderr.decode(errors='replace')}{log}")
        wait_port(self.port)
        return self

    def stop(self) -> None:
        """Stop it at once (as a crash would)."""
        self._pg_ctl("-m", "immediate", "-w", "stop")

    def remove(self) -> None:
        """Stop it and delete its files."""
        self.stop()
        shutil.rmtree(self.base, ignore_errors=True)

    def sql(self, database: str, statement: str) -> object:
        """The first column of the first row of ``statement`` run on the replica's ``database``."""
        with psycopg.connect(f"{self.admin}/{database}", autocommit=True) as conn:
            row = conn.execute(statement).fetchone()
        return None if row is None else row[0]

    def wait_caught_up(self, database: str, seconds: float = 30.0) -> None:
        """Poll until the replica has replayed everything the primary has written now."""
        with psycopg.connect(f"{self.primary}/postgres", autocommit=True) as conn:
            row = conn.execute("select pg_current_wal_lsn()::text").fetchone()
        assert row is not None
        written = row[0]
        until(
            lambda: self.sql(database, f"select pg_last_wal_replay_lsn() >= '{written}'::pg_lsn"),
            seconds,
            "the replica replayed the primary's writes",
        )

    def pause(self, database: str) -> None:
        """Stop replaying the primary's changes (the replica lags from now on)."""
        self.sql(database, "select pg_wal_replay_pause()")
        until(
            lambda: self.sql(database, "select pg_get_wal_replay_pause_state()") == "paused",
            30,
            "the replica paused its replay",
        )

    def resume(self, database: str) -> None:
        """Replay again."""
        self.sql(database, "select pg_wal_replay_resume()")


@contextmanager
def replica_of(primary: str) -> Iterator[Replica]:
    """A started :class:`Replica` of ``primary``, removed at the end."""
    replica = Replica(primary).start()
    try:
        yield replica
    finally:
        replica.remove()


def _pgbouncer() -> str | None:
    for candidate in (shutil.which("pgbouncer"), "/usr/sbin/pgbouncer"):
        if candidate and Path(candidate).exists():
            return candidate
    return None


@contextmanager
def pgbouncer(primary: str, pool_size: int = 4) -> Iterator[str]:
    """Debian's PgBouncer in transaction pooling mode in front of ``primary`` (trust, loopback), with
    at most ``pool_size`` server connections per database; its admin URL (append ``/DATABASE``)."""
    binary = _pgbouncer()
    need("pgbouncer", binary, "apt-get install pgbouncer")
    assert binary is not None
    target = urlsplit(primary)
    base = Path(tempfile.mkdtemp(prefix="roppyakken-pgbouncer-"))
    user = ["-u", "postgres"] if _as_postgres(base) else []  # pgbouncer refuses to run as root
    port = free_port()
    (base / "users.txt").write_text('"postgres" ""\n')
    (base / "pgbouncer.ini").write_text(
        (Path(__file__).parents[2] / "docs" / "deploy" / "pgbouncer.ini")
        .read_text()
        .replace("@DATABASES@", f"* = host=127.0.0.1 port={target.port}")
        .replace("@LISTEN_ADDR@", "127.0.0.1")
        .replace("@LISTEN_PORT@", str(port))
        .replace("@AUTH_TYPE@", "trust")
        .replace("@AUTH_FILE@", str(base / "users.txt"))
        .replace("@POOL_SIZE@", str(pool_size))
        .replace("@RUN@", str(base))
    )
    proc = subprocess.Popen(
        [binary, *user, str(base / "pgbouncer.ini")], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    try:
        try:
            wait_port(port, proc=proc)
        except RuntimeError:
            log = (
                (base / "pgbouncer.log").read_text(errors="replace")
                if (base / "pgbouncer.log").exists()
                else ""
            )
            pytest.fail(f"pgbouncer did not start: {log}")
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(base, ignore_errors=True)
