"""Real services for the server tests, started on loopback: PostgreSQL, Redis, nginx, cluster members.

Each is Debian's own binary (``scripts/setup`` installs them), run in a
temporary folder on a free port from 18000–18999.  Without the binary a test is
skipped on a developer's machine but fails in CI (``CI=true``): CI must run it.
"""

from __future__ import annotations

import glob
import itertools
import os
import pwd
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import httpx
import pytest
import redis

from tests.harness.support import ROOT, require

PORTS = range(18000, 19000)
NGINX_TEMPLATE = ROOT / "docs" / "deploy" / "nginx-cluster.conf"
"""The nginx configuration docs/DEPLOY.md ships; the tests run it as it is, placeholders filled."""


def need(what: str, found: object, install: str) -> None:
    """Skip (or, under CI=true, fail) when a service's binary is missing (tests.harness.support.require)."""
    require(found, f"{what} is not installed ({install}; scripts/setup installs it)")


def free_port() -> int:
    """A free loopback port from 18000–18999."""
    for port in random.sample(PORTS, len(PORTS)):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 18000-18999")


def wait_port(port: int, timeout: float = 30.0, proc: subprocess.Popen[bytes] | None = None) -> None:
    """Wait until something accepts connections on ``port``."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise RuntimeError(f"the process on port {port} ended ({proc.returncode})")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise RuntimeError(f"nothing listens on port {port}")


def _pg_binaries() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).resolve().parent if initdb else None


@contextmanager
def postgres(settings: dict[str, str] | None = None) -> Iterator[str]:
    """A throwaway PostgreSQL cluster (trust authentication, loopback); its admin URL.

    ``settings``: more server settings (``-c name=value``), e.g. a preloaded extension."""
    bindir = _pg_binaries()
    need("PostgreSQL", bindir, "apt-get install postgresql")
    assert bindir is not None
    base = Path(tempfile.mkdtemp(prefix="roppyakken-pg-"))
    prefix: list[str] = []
    if os.geteuid() == 0:  # initdb refuses to run as root
        user = pwd.getpwnam("postgres")
        os.chown(base, user.pw_uid, user.pw_gid)
        prefix = ["runuser", "-u", "postgres", "--"]
    data, port = base / "data", free_port()
    pg_ctl = [*prefix, str(bindir / "pg_ctl"), "-D", str(data)]
    initdb = [str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust", "--no-sync"]
    try:
        subprocess.run(
            [*prefix, *initdb, "-E", "UTF8", "--locale=C"], check=True, capture_output=True, timeout=120
        )
        options = (
            f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
            " -c max_connections=200"
        )
        options += "".join(f" -c {name}={value}" for name, value in (settings or {}).items())
        subprocess.run(
            [*pg_ctl, "-o", options, "-l", str(base / "log"), "-w", "-t", "60", "start"],
            check=True,
            capture_output=True,
            timeout=120,
        )
    except subprocess.CalledProcessError as exc:
        log = (base / "log").read_text(errors="replace") if (base / "log").exists() else ""
        shutil.rmtree(base, ignore_errors=True)
        pytest.fail(f"could not start PostgreSQL: {exc.stderr.decode(errors='replace')}{log}")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run([*pg_ctl, "-m", "immediate", "-w", "stop"], capture_output=True, timeout=120)
        shutil.rmtree(base, ignore_errors=True)


class RedisServer:
    """Debian's redis-server on a free loopback port, nothing saved to disk (it can be restarted empty)."""

    def __init__(self) -> None:
        binary = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin:/usr/sbin")
        need("redis-server", binary, "apt-get install redis-server")
        assert binary is not None
        self.base = Path(tempfile.mkdtemp(prefix="roppyakken-redis-"))
        self.port = free_port()
        self.cmd = [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--dir", str(self.base)]
        self.cmd += ["--save", "", "--appendonly", "no"]
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        """``redis://127.0.0.1:PORT/0``."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> RedisServer:
        """Start it and wait until it answers."""
        self.proc = subprocess.Popen(self.cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_port(self.port, proc=self.proc)
        return self

    def stop(self) -> None:
        """Stop it (everything in it is forgotten)."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


@contextmanager
def redis_server() -> Iterator[str]:
    """A started :class:`RedisServer`; its URL."""
    with redis_process() as server:
        yield server.url


@contextmanager
def redis_process() -> Iterator[RedisServer]:
    """A started :class:`RedisServer`, stopped and cleaned up at the end."""
    server = RedisServer().start()
    try:
        yield server
    finally:
        server.stop()
        shutil.rmtree(server.base, ignore_errors=True)


def _nginx_binary() -> str | None:
    for candidate in (shutil.which("nginx"), "/usr/sbin/nginx"):
        if candidate and Path(candidate).exists():
            return candidate
    return None


def render_nginx(listen: int, members: list[int]) -> str:
    """The shipped nginx configuration with its placeholders filled (members on loopback)."""
    servers = "\n".join(f"    server 127.0.0.1:{port};" for port in members)
    text = NGINX_TEMPLATE.read_text()
    return text.replace("@LISTEN@", f"127.0.0.1:{listen}").replace("    @SERVERS@", servers)


NGINX_CONNECTIONS: Final = 1024
"""nginx's ``worker_connections`` (one worker) unless told: a websocket through it takes two (the
client's and the member's), so a player at a table (its room and its tournament page) takes four."""


@contextmanager
def nginx(members: list[int], connections: int = NGINX_CONNECTIONS) -> Iterator[int]:
    """Debian's nginx in front of ``members`` (round-robin, no affinity), as the docs configure it."""
    with nginx_site(lambda port: render_nginx(port, members), connections) as port:
        yield port


@contextmanager
def nginx_site(site: Callable[[int], str], connections: int = NGINX_CONNECTIONS) -> Iterator[int]:
    """Debian's nginx serving ``site(port)`` (an ``http``-level configuration) on a free port, with
    ``connections`` at once at most (beyond them it drops new ones with no HTTP answer)."""
    binary = _nginx_binary()
    need("nginx", binary, "apt-get install nginx-light")
    assert binary is not None
    base = Path(tempfile.mkdtemp(prefix="roppyakken-nginx-"))
    port = free_port()
    (base / "site.conf").write_text(site(port))
    user = "user root;\n" if os.geteuid() == 0 else ""
    (base / "nginx.conf").write_text(
        f"{user}worker_processes 1;\ndaemon off;\npid {base}/nginx.pid;\nerror_log {base}/error.log warn;\n"
        f"worker_rlimit_nofile {connections + 64};\nevents {{ worker_connections {connections}; }}\n"
        "http {\n"
        f"  access_log off;\n  client_body_temp_path {base}/body;\n  proxy_temp_path {base}/proxy;\n"
        f"  fastcgi_temp_path {base}/fastcgi;\n  uwsgi_temp_path {base}/uwsgi;\n"
        f"  scgi_temp_path {base}/scgi;\n"
        f"  include {base}/site.conf;\n"
        "}\n"
    )
    proc = subprocess.Popen(
        [binary, "-p", str(base), "-c", str(base / "nginx.conf"), "-e", str(base / "error.log")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        try:
            wait_port(port, proc=proc)
        except RuntimeError:
            log = (base / "error.log").read_text(errors="replace") if (base / "error.log").exists() else ""
            pytest.fail(f"nginx did not start: {log}")
        yield port
    finally:
        proc.terminate()
        proc.wait(timeout=30)
        shutil.rmtree(base, ignore_errors=True)


MEMBER_BOUNDS = [
    "--trusted-proxy",
    "127.0.0.1",
    "--guests-per-hour",
    "1000000",
    "--bot-workers",
    "0",
    "--rooms-per-minute",
    "1000000",
    "--requests-per-minute",
    "1000000",
    "--connections-per-address",
    "10000",
]


class Member:
    """One ``roppyakken serve --redis … --database postgresql://…`` process (``redis`` None: a server
    alone, on any database)."""

    def __init__(
        self, database: str, redis: str | None, port: int | None = None, extra: list[str] | None = None
    ):
        self.database = database
        self.redis = redis
        self.port = port or free_port()
        self.extra = extra or []
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = Path(tempfile.mkstemp(prefix="roppyakken-member-", suffix=".log")[1])
        """Its standard error, kept over restarts."""

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Member:
        """Start and wait until it answers."""
        code = "from roppyakken.cli import main; raise SystemExit(main())"
        cmd = [sys.executable, "-c", code, "serve", "--port", str(self.port), "--database", self.database]
        if self.redis is not None:
            cmd += ["--redis", self.redis]
        cmd += ["--bot-delay", "0", *MEMBER_BOUNDS, *self.extra]  # later ones win
        with self.log.open("ab") as log:
            self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=log)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode()
        if not re.search(r"http://", line):
            said = self.log.read_text(errors="replace").strip().splitlines()[-8:] if self.log.exists() else []
            raise AssertionError(f"the member did not start: {line!r}; its log ends: {said}")
        wait_port(self.port, proc=self.proc)
        return self

    def errors(self) -> list[str]:
        """Tracebacks and errors it logged (a clean run has none)."""
        text = self.log.read_text(errors="replace")
        return [line for line in text.splitlines() if "Traceback" in line or " ERROR " in line]

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)

    def stop(self) -> None:
        """SIGTERM (a clean stop), or kill -9 if it does not stop."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


@contextmanager
def members(
    database: str, redis: str, count: int = 3, extra: list[str] | None = None
) -> Iterator[list[Member]]:
    """``count`` members started (``extra``: more ``serve`` options), stopped (or killed) at the end."""
    started: list[Member] = []
    try:
        for _ in range(count):
            started.append(Member(database, redis, extra=extra).start())
        yield started
    except BaseException:
        # a failing test shows what the members said (pytest prints a failed test's stdout)
        for member in started:
            tail = member.log.read_text(errors="replace").splitlines()[-60:]
            print(f"--- the last {len(tail)} lines logged by the member on {member.url}:", *tail, sep="\n")
        raise
    finally:
        for member in started:
            member.stop()
            member.log.unlink(missing_ok=True)


@dataclass
class Stack:
    """PostgreSQL, Redis, three members and nginx in front of them."""

    database: str
    redis: str
    members: list[Member]
    balancer: int
    nginx_pid: int | None = None
    """nginx's master process (:func:`fronted`)."""
    admin: str | None = None
    """PostgreSQL's admin URL (the cluster, no database: :func:`cluster`)."""
    redis_pid: int | None = None
    """The redis-server :func:`cluster` started."""

    @property
    def url(self) -> str:
        """nginx's address."""
        return f"http://127.0.0.1:{self.balancer}"

    def member_ids(self) -> dict[str, Member]:
        """Each running member by its cluster id (``/healthz``)."""
        out = {}
        for member in self.members:
            if member.proc is not None and member.proc.poll() is None:
                out[httpx.get(member.url + "/healthz", timeout=10).json()["member"]] = member
        return out

    def errors(self) -> list[str]:
        """What the members logged as errors."""
        return [line for m in self.members for line in m.errors()]

    def holder(self, room: str) -> Member | None:
        """The member holding ``room``'s lease now."""
        held = redis.Redis.from_url(self.redis, decode_responses=True).get(f"roppyakken:lease:{room}")
        return None if held is None else self.member_ids().get(str(held))


def new_database(admin: str, name: str) -> str:
    """A fresh database ``name`` on the PostgreSQL cluster at ``admin``; its URL."""
    import psycopg

    with psycopg.connect(f"{admin}/postgres", autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    return f"{admin}/{name}"


def postmaster_pid(admin: str) -> int:
    """The postmaster's process id of the PostgreSQL cluster at ``admin`` (read from its data folder)."""
    import psycopg

    with psycopg.connect(f"{admin}/postgres", autocommit=True) as conn:
        row = conn.execute("select setting from pg_settings where name = 'data_directory'").fetchone()
    assert row is not None
    return int((Path(str(row[0])) / "postmaster.pid").read_text().split()[0])


_fresh = itertools.count()


def fresh_database(admin: str, label: str) -> str:
    """:func:`new_database` under a name of its own (``label``, this process, a count): a new
    database for each test on a cluster shared by a module."""
    return new_database(admin, f"roppyakken_{label}_{os.getpid()}_{next(_fresh)}")


@contextmanager
def fronted(
    database: str,
    redis: str,
    count: int = 3,
    extra: list[str] | None = None,
    connections: int = NGINX_CONNECTIONS,
) -> Iterator[Stack]:
    """``count`` members on ``database`` and ``redis`` (``extra``: more ``serve`` options) and nginx in
    front of them (``connections``: its ``worker_connections``), all started (and stopped)."""
    with members(database, redis, count, extra) as started:
        before = set(children(os.getpid()))
        with nginx([m.port for m in started], connections) as port:
            found = [p for p in children(os.getpid()) if p not in before and "nginx" in command_line(p)]
            yield Stack(database, redis, started, port, nginx_pid=found[0] if found else None)


@contextmanager
def cluster(
    count: int = 3,
    extra: list[str] | None = None,
    *,
    redis_url: str | None = None,
    settings: dict[str, str] | None = None,
    name: str = "cluster",
    connections: int = NGINX_CONNECTIONS,
) -> Iterator[Stack]:
    """PostgreSQL (``settings``: more server settings), Redis, a database ``name``, ``count`` members
    and nginx in front of them (``connections``: its ``worker_connections``), all started (and
    stopped); ``redis_url``: a Redis already running (a Redis Cluster), else a redis-server is started."""
    with postgres(settings) as pg, ExitStack() as more:
        server = None
        if redis_url is None:
            server = more.enter_context(redis_process())
            redis_url = server.url
        database = new_database(pg, name)
        with fronted(database, redis_url, count, extra, connections) as stack:
            stack.admin = pg
            if server is not None and server.proc is not None:
                stack.redis_pid = server.proc.pid
            yield stack


def websocket_members(stack: Stack, address: str = "127.0.0.1") -> list[Member]:
    """The members serving websockets from ``address`` now (as the cluster counts them in Redis)."""
    client = redis.Redis.from_url(stack.redis, decode_responses=True)
    ids = [str(entry).split(":", 1)[0] for entry in client.zrange(f"roppyakken:conns:{address}", 0, -1)]
    by_id = stack.member_ids()
    return [by_id[i] for i in ids if i in by_id]


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid``."""
    return _by_parent().get(pid, [])


def descendants(pid: int) -> list[int]:
    """The processes below ``pid`` (its children, theirs, …), read from /proc."""
    parents = _by_parent()
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _by_parent() -> dict[int, list[int]]:
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        parents.setdefault(ppid, []).append(int(entry.name))
    return parents


def cpu_seconds(pids: list[int]) -> float:
    """CPU seconds (user and system) the processes have used so far (a process gone counts 0)."""
    total = 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and has not ended (a zombie waiting to be reaped has ended)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")


def command_line(pid: int) -> str:
    """Process ``pid``'s command line, its arguments joined by spaces ("" if it is gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
    except OSError:
        return ""


def lock_waiters(database: str) -> int:
    """How many sessions of ``database`` wait for a lock now (PostgreSQL)."""
    import psycopg

    with psycopg.connect(database, autocommit=True) as conn:
        row = conn.execute(
            "select count(*) from pg_stat_activity"
            " where datname = current_database() and wait_event_type = 'Lock'"
        ).fetchone()
    return int(row[0]) if row else 0
