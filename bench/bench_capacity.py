"""What one move and one connected player cost a cluster, piece by piece (members, PostgreSQL, Redis).

Run by hand (not a test; the machine is shared and noisy)::

    nice -n 10 .venv/bin/python bench/bench_capacity.py [--games 60] [--think 1,4] [--idle 300]

It starts a throwaway PostgreSQL (with ``pg_stat_statements`` preloaded), a
redis-server, ``--members`` ``roppyakken serve --redis`` members and nginx in
front of them (tests/harness/services.py; :func:`start_stack` is the one place
that starts them), and every client goes through nginx (round-robin, no
affinity: most room sockets are relayed).  Then phases of steady load, each
measured by the differences of counters between its start and its end:

* ``baseline``: nothing connected (what the members do on their own);
* ``games``: ``--games`` × 3 players, each a guest that seeks a game in the pool
  ``classic:3:15+60`` on ``/ws/lobby``, plays the room it is paired into at
  human pace (``--think`` seconds, uniform, before each decision) and seeks
  again when the game ends: clocked, rated, spectator-free 3-player games;
* ``idle lobby``: ``--idle`` players connected to ``/ws/lobby``, doing nothing;
* ``idle seated``: ``--idle-rooms`` rooms of 3 (turn-based ``1d`` clock),
  every seat connected, nobody moving;
* ``chat``: the same rooms, every seat sending a chat line every ``--chat-every``
  seconds;
* ``check``: the model's check, ``--check-games`` games at full speed (no think
  time): the moves a second predicted from the CPU a move cost in ``games`` and
  the CPU the machine left to the cluster, against the moves a second measured.

The counters: each process's CPU (utime + stime, /proc/<pid>/stat: the members,
every PostgreSQL process, redis-server, nginx, this load process), PostgreSQL's
``pg_stat_database`` (transactions, rows), write transactions (xids given,
exact), WAL bytes (the WAL position, exact), ``pg_stat_wal`` records,
``pg_stat_statements`` (calls, rows and WAL bytes per statement, grouped by
table and kind), connections (``pg_stat_activity``), Redis ``INFO
commandstats`` (calls per command) and ``INFO stats`` (bytes in and out).  After
each measured window, a window of the same load watched by Redis ``MONITOR``
attributes Redis's commands to their sources (leases, connections, relays,
limits, …) by key and by script; MONITOR itself costs Redis, so it never runs
while the counters are measured.

Per phase, less the baseline's rate: per move (``games``), per idle player per
minute (``idle lobby``, ``idle seated``), per chat line (``chat``).  Printed as
tables, written to ``bench/RESULTS-capacity.json`` and ``bench/RESULTS-capacity.md``.

``--configs single,cluster,replica,pooler,all`` compares configurations instead
(:data:`CONFIGS`: one Redis or a six-node Redis Cluster, with or without a
streaming replica for the lag-tolerant reads, with or without PgBouncer in
transaction mode), all started at once over shared services, each with its own
database, members and nginx (:func:`start_configs`).  After a baseline with
every configuration idle, the same steady load runs on each in turn, in order
and then in reverse (drift cancels): ``--games`` games at ``--think`` pace, then
``--idle`` idle lobby players.  Per move and per idle player a second, less the
baseline: the members' CPU, PostgreSQL's commits, write transactions, rows and
WAL (the primary's), the replica's commits and the reads it served, Redis's
commands summed over every master and its pub/sub messages (``PUBLISH`` and
``SPUBLISH``), each as a ratio to the first configuration; the connections at
PostgreSQL (through PgBouncer: its server connections) and the rooms held.  Then
the CPU model's check (:func:`model_check`).  Written to
``bench/RESULTS-capacity-configs.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import random
import re
import resource
import statistics
import sys
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
import redis
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.harness import services  # (the repository's root, just added)

ROOT = Path(__file__).resolve().parent.parent

POOL = {"type": "seek", "preset": "classic", "players": 3, "clock": "15+60"}
"""The pool every player of ``games`` seeks."""
DATABASE = "capacity"
TABLES = (
    "rooms",
    "seats",
    "actions",
    "players",
    "seat_players",
    "pairing",
    "chat",
    "sessions",
    "rating_games",
    "ratings",
    "rating_history",
    "game_seats",
    "heartbeats",
)
"""The tables whose size per row is reported after the run."""


# --- the services -------------------------------------------------------------------------------


@dataclass
class Stack:
    """The running services: PostgreSQL, Redis, the members, nginx."""

    admin: str
    """PostgreSQL's admin URL (the cluster, no database)."""
    database: str
    redis: str
    members: list[services.Member]
    url: str
    """nginx's address: every client's."""
    postmaster: int
    redis_pid: int
    nginx_pid: int

    def errors(self) -> list[str]:
        """What the members logged as errors."""
        return [line for m in self.members for line in m.errors()]

    def pieces(self) -> dict[str, list[int]]:
        """Each piece's processes now (PostgreSQL's backends come and go)."""
        return {
            "members": [m.proc.pid for m in self.members if m.proc is not None],
            "postgres": [self.postmaster, *services.descendants(self.postmaster)],
            "redis": [self.redis_pid],
            "nginx": [self.nginx_pid, *services.descendants(self.nginx_pid)],
        }


@contextlib.contextmanager
def start_stack(members: int, extra: list[str]) -> Iterator[Stack]:
    """Start every service the benchmark measures, and stop them at the end.

    The one place a variant of the cluster would start (a Redis Cluster, a
    PostgreSQL replica, PgBouncer in front of PostgreSQL): the rest of the
    benchmark reads only :class:`Stack`."""
    settings = {"shared_preload_libraries": "pg_stat_statements", "pg_stat_statements.track": "all"}
    with services.cluster(members, extra, settings=settings, name=DATABASE) as started:
        assert started.admin is not None
        with psycopg.connect(f"{started.admin}/postgres", autocommit=True) as conn:
            conn.execute("create extension if not exists pg_stat_statements")
        postmaster = services.postmaster_pid(started.admin)
        redis_pid, nginx_pid = started.redis_pid, started.nginx_pid
        assert redis_pid is not None and nginx_pid is not None, "redis-server or nginx not found"
        yield Stack(
            started.admin,
            started.database,
            started.redis,
            started.members,
            started.url,
            postmaster,
            redis_pid,
            nginx_pid,
        )


# --- the counters -------------------------------------------------------------------------------


def _cpu_with_reaped(pid: int) -> float:
    """CPU seconds of ``pid`` and of every child it reaped (cutime, cstime): PostgreSQL's
    postmaster reaps its backends, so a backend that ended still counts."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(x) for x in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _machine() -> tuple[float, float]:
    """The machine's busy and total CPU seconds so far, over all cores (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]
    total = sum(fields[:8])
    tick = os.sysconf("SC_CLK_TCK")
    return (total - idle) / tick, total / tick


@dataclass
class Snapshot:
    """Every counter at one moment."""

    at: float
    counters: dict[str, float]
    statements: dict[str, tuple[float, float, float]]
    """By statement text: calls, rows, WAL bytes."""
    gauges: dict[str, float]


class Probe:
    """Reads the counters (over connections of its own, to PostgreSQL's ``postgres`` database and
    to Redis, which the figures leave out)."""

    def __init__(self, stack: Stack) -> None:
        self.stack = stack
        self.pg = psycopg.connect(f"{stack.admin}/postgres", autocommit=True)
        self.pg.execute("set stats_fetch_consistency = none")
        oid = self.pg.execute("select oid from pg_database where datname = %s", (DATABASE,)).fetchone()
        assert oid is not None
        self.oid = int(oid[0])
        self.redis = redis.Redis.from_url(stack.redis, decode_responses=True)

    def metrics(self) -> float:
        """Moves made, summed over the members (``roppyakken_moves_total``)."""
        total = 0.0
        for member in self.stack.members:
            text = httpx.get(member.url + "/metrics", timeout=30).text
            for line in text.splitlines():
                if line.startswith("roppyakken_moves_total "):
                    total += float(line.split()[1])
        return total

    def take(self) -> Snapshot:
        """Every counter now."""
        counters: dict[str, float] = {}
        gauges: dict[str, float] = {}
        for piece, pids in self.stack.pieces().items():
            counters[f"cpu.{piece}"] = services.cpu_seconds(pids)
        for i, member in enumerate(self.stack.members):
            counters[f"cpu.member{i}"] = services.cpu_seconds([member.proc.pid] if member.proc else [])
        counters["cpu.load"] = time.process_time()
        counters["cpu.machine busy"], counters["cpu.machine all"] = _machine()
        counters["moves"] = self.metrics()
        row = self.pg.execute(
            "select xact_commit, xact_rollback, tup_returned, tup_fetched, tup_inserted, tup_updated,"
            " tup_deleted from pg_stat_database where datname = %s",
            (DATABASE,),
        ).fetchone()
        assert row is not None
        names = ("commits", "rollbacks", "rows returned", "rows fetched", "rows inserted", "rows updated")
        for name, value in zip((*names, "rows deleted"), row, strict=True):
            counters[f"pg.{name}"] = float(value)
        wal = self.pg.execute(
            "select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0'),"
            " txid_snapshot_xmax(txid_current_snapshot()), (select wal_records from pg_stat_wal)"
        ).fetchone()
        assert wal is not None
        counters["pg.WAL bytes"], counters["pg.write transactions"] = float(wal[0]), float(wal[1])
        counters["pg.WAL records"] = float(wal[2])
        conns = self.pg.execute(
            "select count(*) from pg_stat_activity where datname = %s", (DATABASE,)
        ).fetchone()
        gauges["pg.connections"] = float(conns[0]) if conns else 0.0
        statements: dict[str, tuple[float, float, float]] = {}
        for query, calls, rows, wal_bytes in self.pg.execute(
            "select query, calls, rows, wal_bytes from pg_stat_statements where dbid = %s", (self.oid,)
        ):
            old = statements.get(query, (0.0, 0.0, 0.0))
            statements[query] = (old[0] + calls, old[1] + rows, old[2] + float(wal_bytes))
        stats = self.redis.info("stats")
        counters["redis.bytes in"] = float(stats["total_net_input_bytes"])
        counters["redis.bytes out"] = float(stats["total_net_output_bytes"])
        for name, value in self.redis.info("commandstats").items():
            command = name.removeprefix("cmdstat_")
            if command not in ("info", "monitor", "pubsub|numsub", "pubsub|channels", "client|list"):
                counters[f"redis.{command}"] = float(value["calls"])
                counters[f"redis usec.{command}"] = float(value["usec"])
        gauges["redis.clients"] = float(self.redis.info("clients")["connected_clients"])
        channels = self.redis.pubsub_channels()
        gauges["redis.channels"] = float(len(channels))
        return Snapshot(time.perf_counter(), counters, statements, gauges)

    def close(self) -> None:
        """Close its connections."""
        self.pg.close()
        self.redis.close()


def _delta(a: Snapshot, b: Snapshot) -> dict[str, float]:
    out = {k: b.counters[k] - a.counters.get(k, 0.0) for k in b.counters}
    out["seconds"] = b.at - a.at
    return out


def _statement_delta(a: Snapshot, b: Snapshot) -> dict[str, tuple[float, float, float]]:
    out = {}
    for query, (calls, rows, wal) in b.statements.items():
        old = a.statements.get(query, (0.0, 0.0, 0.0))
        if calls - old[0] > 0:
            out[query] = (calls - old[0], rows - old[1], wal - old[2])
    return out


_TABLE = re.compile(
    r'(?:insert\s+into|update|delete\s+from|from|join)\s+(?:only\s+)?(?:"?public"?\.)?"?([a-z_]+)"?', re.I
)
SOURCES_BY_TABLE = {
    "actions": "moves",
    "rooms": "rooms and clocks",
    "seats": "rooms and clocks",
    "seat_players": "rooms and clocks",
    "heartbeats": "heartbeat",
    "pairing": "pairing pool",
    "rating_games": "ratings",
    "ratings": "ratings",
    "rating_history": "ratings",
    "game_seats": "ratings",
    "players": "players",
    "sessions": "players",
    "chat": "chat",
    "sanctions": "fair play",
    "abandonments": "fair play",
}
"""Where a statement comes from, by the first table it names (the rest: ``other``)."""


def statement_source(query: str) -> tuple[str, str]:
    """A statement's source and its kind (``insert rooms``, ``select pairing``, …)."""
    text = query.strip().lower()
    if text in ("begin", "commit", "rollback") or text.startswith(("savepoint", "release", "set ", "show ")):
        return "transactions", text.split()[0]
    kind = text.split()[0]
    found = _TABLE.search(text)
    table = found.group(1) if found else "?"
    return SOURCES_BY_TABLE.get(table, "other"), f"{kind} {table}"


# --- Redis MONITOR: which source sent each command ----------------------------------------------


def _scripts() -> dict[str, str]:
    """Every Lua script the cluster code registers, by its SHA-1: ``module.NAME``."""
    import importlib

    found: dict[str, str] = {}
    for module in ("leases", "connections", "buckets", "bus", "members", "visits", "link"):
        mod = importlib.import_module(f"roppyakken.server.cluster.{module}")
        for name, value in vars(mod).items():
            if isinstance(value, str) and "redis.call" in value:
                found[hashlib.sha1(value.encode()).hexdigest()] = f"{module}.{name.strip('_').lower()}"
    return found


def key_source(key: str) -> str:
    """Which part of the cluster a Redis key or channel belongs to."""
    rest = key.removeprefix("roppyakken:")
    head = rest.split(":", 1)[0]
    return {
        "lease": "leases",
        "rooms": "leases",
        "renewed": "leases",
        "conns": "connections (presence)",
        "member": "relays",
        "bucket": "rate limits",
    }.get(head, f"other ({head})")


class Monitor(threading.Thread):
    """Counts Redis's commands by source and command for as long as it runs (Redis ``MONITOR``)."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.counts: Counter[tuple[str, str]] = Counter()
        self.scripts = _scripts()
        self.halt = threading.Event()
        self.started_at = self.ended_at = 0.0

    def run(self) -> None:
        """Read MONITOR until :meth:`stop`."""
        client = redis.Redis.from_url(self.url, decode_responses=True, socket_timeout=1.0)
        with client.monitor() as monitor:  # type: ignore[no-untyped-call]
            monitor.next_command()  # the OK
            self.started_at = time.perf_counter()
            while not self.halt.is_set():
                try:
                    command = monitor.next_command()
                except (redis.TimeoutError, TimeoutError):
                    continue
                self._count(command)
            self.ended_at = time.perf_counter()

    def _count(self, command: dict[str, Any]) -> None:
        words = re.findall(r'"((?:[^"\\]|\\.)*)"|(\S+)', str(command["command"]))
        args = [a or b for a, b in words]
        if not args:
            return
        name = args[0].upper()
        lua = command.get("client_type") == "lua"
        if name in ("INFO", "MONITOR", "PUBSUB", "CLIENT"):
            return
        if name in ("EVALSHA", "EVAL"):
            script = self.scripts.get(args[1], "?") if name == "EVALSHA" else "eval"
            key = args[3] if len(args) > 3 and args[2] != "0" else ""
            self.counts[(key_source(key) if key else "scripts", f"EVALSHA {script}")] += 1
            return
        key = args[1] if len(args) > 1 else ""
        source = key_source(key) if key.startswith("roppyakken:") else "other"
        self.counts[(source, f"{name}{' (in a script)' if lua else ''}")] += 1

    def stop(self) -> dict[tuple[str, str], float]:
        """Stop; the commands a second by (source, command)."""
        self.halt.set()
        self.join(timeout=10)
        seconds = max(1e-9, self.ended_at - self.started_at)
        return {k: v / seconds for k, v in self.counts.items()}


# --- the load -----------------------------------------------------------------------------------


@dataclass
class Load:
    """What the clients did."""

    acts: int = 0
    moves: int = 0
    games: int = 0
    errors: int = 0
    paired: list[float] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    seated: int = 0
    """Players in a game now."""
    chat: int = 0


_addresses = iter(f"127.{a}.{b}.{c}" for a in range(1, 255) for b in range(256) for c in range(1, 255))
"""A loopback address of its own for each player (the per-address bounds and the cluster's count of
websockets per address see as many addresses as players, as on the internet)."""


@dataclass
class Guest:
    """A guest player: its cookies and its address."""

    cookies: dict[str, str]
    address: str

    @property
    def header(self) -> dict[str, str]:
        """The ``Cookie`` header of its websockets."""
        return {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}


async def make_guests(url: str, count: int) -> list[Guest]:
    """``count`` new guest players (``POST /api/me``)."""

    async def one(i: int) -> Guest:
        address = next(_addresses)
        transport = httpx.AsyncHTTPTransport(local_address=address)
        async with httpx.AsyncClient(base_url=url, timeout=60, transport=transport) as client:
            made = await client.post("/api/me", json={"name": f"p{i}"}, headers={"X-CSRF-Token": "new"})
            made.raise_for_status()
            return Guest(dict(client.cookies.items()), address)

    out: list[Guest] = []
    for start in range(0, count, 50):
        out += await asyncio.gather(*(one(i) for i in range(start, min(count, start + 50))))
    return out


def _ws(url: str, path: str) -> str:
    return url.replace("http://", "ws://") + path


async def _open(url: str, address: str, headers: dict[str, str] | None = None) -> ClientConnection:
    """A websocket from ``address``, without the client's own pings (a browser sends none)."""
    return await connect(
        url,
        open_timeout=60,
        max_size=2**22,
        compression=None,
        additional_headers=headers,
        ping_interval=None,
        local_addr=(address, 0),
    )


async def _seek(url: str, guest: Guest, load: Load) -> tuple[str, str]:
    """Seek a game in :data:`POOL` until paired: its room and token."""
    async with await _open(_ws(url, "/ws/lobby"), guest.address, guest.header) as ws:
        sent = time.perf_counter()
        await ws.send(json.dumps(POOL))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 300))
            if message["type"] == "paired":
                load.paired.append(time.perf_counter() - sent)
                return str(message["room"]), str(message["token"])
            if message["type"] == "error":
                raise RuntimeError(message["message"])


async def _play(
    url: str, address: str, room: str, token: str, think: list[float], load: Load, rng: random.Random
) -> None:
    """Play a seat until the game ends (``think[0]``..``think[1]`` seconds before each decision)."""
    async with await _open(_ws(url, f"/ws/{room}"), address) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        sent_at, sent_seq = None, -1
        while True:
            raw = await asyncio.wait_for(ws.recv(), 600)
            if not isinstance(raw, str):
                continue
            if raw.startswith('{"type":"game_end"'):
                return
            if raw.startswith('{"type":"error"'):
                load.errors += 1
                continue
            if not raw.startswith('{"type":"state"'):
                continue
            message = json.loads(raw)
            if sent_at is not None and message["seq"] > sent_seq:
                load.latencies.append(time.perf_counter() - sent_at)
                load.moves += 1
                sent_at = None
            view = message["view"]
            if view["legal"] and view["seat"] == view["to_act"]:
                await asyncio.sleep(rng.uniform(think[0], think[1]))
                sent_seq, sent_at = message["seq"], time.perf_counter()
                act = {"type": "act", "action": rng.choice(view["legal"]), "seq": message["seq"]}
                load.acts += 1
                await ws.send(json.dumps(act))


async def player(
    url: str, guest: Guest, think: list[float], stop: asyncio.Event, load: Load, seed: str
) -> None:
    """Seek, play, seek again, until ``stop`` (the game under way is played out)."""
    rng = random.Random(seed)
    while not stop.is_set():
        try:
            room, token = await _seek(url, guest, load)
            load.seated += 1
            try:
                await _play(url, guest.address, room, token, think, load, rng)
            finally:
                load.seated -= 1
            load.games += 1
        except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError, RuntimeError) as exc:
            load.errors += 1
            print(f"player {seed}: {type(exc).__name__}: {exc}", file=sys.stderr)
            await asyncio.sleep(1.0)


async def idle_lobby(url: str, guest: Guest, stop: asyncio.Event) -> None:
    """A player with the lobby open, doing nothing, until ``stop``."""
    async with await _open(_ws(url, "/ws/lobby"), guest.address, guest.header) as ws:
        reader = asyncio.create_task(_drain(ws))
        await stop.wait()
        reader.cancel()


async def _drain(ws: ClientConnection) -> None:
    with contextlib.suppress(ConnectionClosed):
        async for _ in ws:
            pass


async def idle_room(url: str, stop: asyncio.Event, chat: asyncio.Event, every: float, load: Load) -> None:
    """A room of 3 (turn-based clock), every seat connected, nobody moving; while ``chat`` is set,
    every seat says a line every ``every`` seconds."""
    addresses = [next(_addresses) for _ in range(3)]
    transport = httpx.AsyncHTTPTransport(local_address=addresses[0])
    async with httpx.AsyncClient(base_url=url, timeout=60, transport=transport) as client:
        body = {"name": "a", "players": 3, "rules": {"preset": "classic"}, "clock": "1d"}
        created = (await client.post("/api/rooms", json=body)).json()
        room, tokens = created["room"], [created["token"]]
        for name in ("b", "c"):
            tokens.append((await client.post(f"/api/rooms/{room}/join", json={"name": name})).json()["token"])
    sockets = [await _open(_ws(url, f"/ws/{room}"), address) for address in addresses]
    for ws, token in zip(sockets, tokens, strict=True):
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
    await sockets[0].send(json.dumps({"type": "start"}))
    readers = [asyncio.create_task(_drain(ws)) for ws in sockets]
    rng = random.Random(room)
    try:
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), every * rng.uniform(0.5, 1.5))
            if chat.is_set() and not stop.is_set():
                for ws in sockets:
                    await ws.send(json.dumps({"type": "chat", "phrase": "hello"}))
                    load.chat += 1
    finally:
        for task in readers:
            task.cancel()
        for ws in sockets:
            await ws.close()


# --- the phases ---------------------------------------------------------------------------------


@dataclass
class Phase:
    """One measured phase: its counters' differences, what the load did, Redis by source."""

    name: str
    delta: dict[str, float]
    statements: dict[str, tuple[float, float, float]]
    gauges: dict[str, float]
    load: dict[str, float]
    redis_sources: dict[tuple[str, str], float] = field(default_factory=dict)


async def measure(
    probe: Probe, name: str, seconds: float, monitor_seconds: float, load: Load, **extra: float
) -> Phase:
    """Measure ``seconds`` of whatever load runs now, then watch Redis for ``monitor_seconds``."""
    moves0, games0, chat0 = load.moves, load.games, load.chat
    seated: list[int] = []
    a = await asyncio.to_thread(probe.take)
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        await asyncio.sleep(min(1.0, max(0.0, end - time.perf_counter())))
        seated.append(load.seated)
    b = await asyncio.to_thread(probe.take)
    phase = Phase(
        name,
        _delta(a, b),
        _statement_delta(a, b),
        b.gauges,
        {
            "client moves": load.moves - moves0,
            "games ended": (load.games - games0) / 3,  # (each of its 3 players counts its end)
            "chat lines": load.chat - chat0,
            "games in play": statistics.mean(seated) / 3 if seated else 0.0,
            **extra,
        },
    )
    if monitor_seconds > 0:
        watcher = Monitor(probe.stack.redis)
        watcher.start()
        await asyncio.sleep(monitor_seconds)
        phase.redis_sources = watcher.stop()
    print(f"  {name}: {phase.delta['seconds']:.0f} s, {phase.delta['moves']:.0f} moves", flush=True)
    return phase


async def settle(stack: Stack, seconds: float) -> None:
    """Wait until the members hold no room (or ``seconds`` pass): finished rooms leave memory."""
    client = redis.Redis.from_url(stack.redis, decode_responses=True)
    deadline = time.perf_counter() + seconds
    while time.perf_counter() < deadline:
        now = client.time()
        if client.zcount("roppyakken:rooms", now[0] * 1000, "+inf") == 0:
            break
        await asyncio.sleep(1.0)
    client.close()


async def games_phase(
    stack: Stack, probe: Probe, guests: list[Guest], think: list[float], args: argparse.Namespace, name: str
) -> Phase:
    """Games through the pool at ``think`` pace: warm up, measure, play the games out."""
    load, stop = Load(), asyncio.Event()
    tasks = [
        asyncio.create_task(player(stack.url, g, think, stop, load, f"{name}:{i}"))
        for i, g in enumerate(guests)
    ]
    await asyncio.sleep(args.warmup)
    phase = await measure(probe, name, args.seconds, args.monitor, load, think=statistics.mean(think))
    phase.load["pairing p50 s"] = statistics.median(load.paired) if load.paired else float("nan")
    phase.load["move latency p50 ms"] = statistics.median(load.latencies) * 1000 if load.latencies else 0.0
    phase.load["errors"] = load.errors
    stop.set()
    _, pending = await asyncio.wait(tasks, timeout=args.drain)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    return phase


async def run(args: argparse.Namespace, stack: Stack) -> list[Phase]:
    """Every phase, in order."""
    probe = Probe(stack)
    phases: list[Phase] = []
    try:
        guests = await make_guests(stack.url, args.games * 3 + args.idle)
        await asyncio.sleep(args.settle)
        print("measuring", flush=True)
        phases.append(await measure(probe, "baseline", args.baseline, args.monitor, Load()))
        think = [float(x) for x in args.think.split(",")]
        phases.append(await games_phase(stack, probe, guests[: args.games * 3], think, args, "games"))
        await settle(stack, args.settle + 10)

        stop, load = asyncio.Event(), Load()
        lobby = [asyncio.create_task(idle_lobby(stack.url, g, stop)) for g in guests[args.games * 3 :]]
        await asyncio.sleep(args.warmup / 2)
        phases.append(
            await measure(probe, "idle lobby", args.idle_seconds, args.monitor, load, players=args.idle)
        )
        stop.set()
        await asyncio.gather(*lobby, return_exceptions=True)

        stop, chat, load = asyncio.Event(), asyncio.Event(), Load()
        rooms = [
            asyncio.create_task(idle_room(stack.url, stop, chat, args.chat_every, load))
            for _ in range(args.idle_rooms)
        ]
        await asyncio.sleep(args.warmup / 2)
        seated = args.idle_rooms * 3
        phases.append(
            await measure(probe, "idle seated", args.idle_seconds, args.monitor, load, players=seated)
        )
        chat.set()
        await asyncio.sleep(args.chat_every)
        phases.append(await measure(probe, "chat", args.idle_seconds, args.monitor, load, players=seated))
        stop.set()
        await asyncio.gather(*rooms, return_exceptions=True)
        await settle(stack, args.settle + 10)

        if args.check_games:
            check = await games_phase(stack, probe, guests[: args.check_games * 3], [0.0, 0.0], args, "check")
            phases.append(check)
        tables = await asyncio.to_thread(table_sizes, stack.database)
        phases.append(Phase("tables", {}, {}, {}, tables))
    finally:
        probe.close()
    return phases


def table_sizes(database: str) -> dict[str, float]:
    """Each table's rows and bytes (``pg_total_relation_size``: the table, its indexes, TOAST)."""
    out: dict[str, float] = {}
    with psycopg.connect(database, autocommit=True) as conn:
        conn.execute("vacuum analyze")
        for table in TABLES:
            row = conn.execute(
                f'select count(*), pg_total_relation_size(%s) from "{table}"', (table,)
            ).fetchone()
            assert row is not None
            out[f"{table} rows"], out[f"{table} bytes"] = float(row[0]), float(row[1])
        finished = conn.execute("select count(*) from rooms where status = 'over'").fetchone()
        out["games finished"] = float(finished[0]) if finished else 0.0
    return out


# --- the figures --------------------------------------------------------------------------------

PER_UNIT = (
    ("cpu.members", "members' CPU, ms", 1000.0),
    ("cpu.postgres", "PostgreSQL's CPU, ms", 1000.0),
    ("cpu.redis", "Redis's CPU, ms", 1000.0),
    ("cpu.nginx", "nginx's CPU, ms", 1000.0),
    ("cpu.load", "the load clients' CPU, ms", 1000.0),
    ("pg.commits", "PostgreSQL commits", 1.0),
    ("pg.write transactions", "PostgreSQL write transactions", 1.0),
    ("pg.rollbacks", "PostgreSQL rollbacks", 1.0),
    ("pg.rows inserted", "rows inserted", 1.0),
    ("pg.rows updated", "rows updated", 1.0),
    ("pg.rows deleted", "rows deleted", 1.0),
    ("pg.rows fetched", "rows fetched", 1.0),
    ("pg.rows returned", "rows returned (scanned)", 1.0),
    ("pg.WAL bytes", "WAL bytes", 1.0),
    ("pg.WAL records", "WAL records", 1.0),
    ("redis.commands", "Redis commands", 1.0),
    ("redis.evalsha", "Redis EVALSHA (scripts)", 1.0),
    ("redis.publish", "Redis PUBLISH (relays)", 1.0),
    ("redis usec.all", "Redis's time in commands, µs (commandstats)", 1.0),
    ("redis.bytes in", "Redis bytes in", 1.0),
    ("redis.bytes out", "Redis bytes out", 1.0),
)
"""The figures reported per unit: counter, label, scale."""


def rates(phase: Phase) -> dict[str, float]:
    """A phase's counters a second (Redis's commands summed into ``redis.commands``)."""
    seconds = phase.delta["seconds"]
    out = {k: v / seconds for k, v in phase.delta.items() if k != "seconds"}
    skip = ("redis.bytes in", "redis.bytes out")
    out["redis.commands"] = sum(v for k, v in out.items() if k.startswith("redis.") and k not in skip)
    out["redis usec.all"] = sum(v for k, v in out.items() if k.startswith("redis usec."))
    return out


def per_unit(phase: Phase, baseline: Phase, units_per_second: float) -> dict[str, float]:
    """A phase's counters, less the baseline's, per unit (``units_per_second`` units a second)."""
    mine, base = rates(phase), rates(baseline)
    keys = set(mine) | {"redis.commands"}
    return {k: (mine.get(k, 0.0) - base.get(k, 0.0)) / units_per_second for k in keys}


def statements_per_unit(
    phase: Phase, baseline: Phase, units: float
) -> list[tuple[str, str, float, float, float]]:
    """(source, kind, calls, rows, WAL bytes) per unit, by statement kind, less the baseline's."""
    grouped: dict[tuple[str, str], list[float]] = {}
    for which, sign, seconds in (
        (phase, 1.0, phase.delta["seconds"]),
        (baseline, -1.0, baseline.delta["seconds"]),
    ):
        scale = sign * phase.delta["seconds"] / seconds
        for query, (calls, rows, wal) in which.statements.items():
            entry = grouped.setdefault(statement_source(query), [0.0, 0.0, 0.0])
            entry[0] += calls * scale
            entry[1] += rows * scale
            entry[2] += wal * scale
    out = [(s, k, c / units, r / units, w / units) for (s, k), (c, r, w) in grouped.items()]
    return sorted((x for x in out if abs(x[2]) >= 0.001), key=lambda x: (x[0], -x[2]))


def redis_per_unit(phase: Phase, baseline: Phase, units_per_second: float) -> list[tuple[str, str, float]]:
    """(source, command, calls per unit) from MONITOR, less the baseline's."""
    keys = set(phase.redis_sources) | set(baseline.redis_sources)
    out = [
        (
            s,
            c,
            (phase.redis_sources.get((s, c), 0.0) - baseline.redis_sources.get((s, c), 0.0))
            / units_per_second,
        )
        for s, c in keys
    ]
    return sorted((x for x in out if abs(x[2]) >= 0.001), key=lambda x: (x[0], -x[2]))


def units(phase: Phase) -> tuple[str, float]:
    """What a phase's figures are per, and how many of them a second."""
    seconds = phase.delta["seconds"]
    if phase.name in ("games", "check"):
        return "move", phase.delta["moves"] / seconds
    if phase.name == "chat":
        return "chat line", phase.load["chat lines"] / seconds
    return "idle player per minute", phase.load["players"] / 60.0


def report(phases: list[Phase], args: argparse.Namespace, command: str) -> dict[str, Any]:
    """The figures as JSON-ready data."""
    by_name = {p.name: p for p in phases}
    baseline = by_name["baseline"]
    data: dict[str, Any] = {"command": command, "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
    data["machine"] = {"cores": os.cpu_count(), "load average": os.getloadavg()}
    data["baseline a second"] = {k: v for k, v in rates(baseline).items() if v}
    data["baseline Redis by source a second"] = [
        list(x) for x in redis_per_unit(baseline, Phase("", {}, {}, {}, {}), 1.0)
    ]
    data["phases"] = {}
    for phase in phases:
        if phase.name in ("baseline", "tables"):
            continue
        unit, per_second = units(phase)
        if per_second <= 0:
            continue
        entry = {
            "unit": unit,
            "units a second": per_second,
            "seconds": phase.delta["seconds"],
            "load": phase.load,
            "gauges": phase.gauges,
            "per unit": per_unit(phase, baseline, per_second),
            "statements per unit": [
                list(x)
                for x in statements_per_unit(
                    phase,
                    baseline,
                    phase.delta.get("moves", 0) if unit == "move" else per_second * phase.delta["seconds"],
                )
            ],
            "redis per unit": [list(x) for x in redis_per_unit(phase, baseline, per_second)],
            "a second": rates(phase),
        }
        data["phases"][phase.name] = entry
    if "games" in by_name:
        g = by_name["games"]
        moves_per_s = g.delta["moves"] / g.delta["seconds"]
        data["moves per game-minute"] = moves_per_s / max(1e-9, g.load["games in play"]) * 60.0
    if "tables" in by_name:
        data["tables"] = by_name["tables"].load
    if "check" in by_name and "games" in by_name:
        data["check"] = check(by_name["games"], by_name["check"], baseline)
    return data


def check(games: Phase, full: Phase, baseline: Phase) -> dict[str, float]:
    """The model's check: the moves a second at full speed, predicted and measured.

    The prediction: the CPU the machine left to the cluster and its load clients in the check (every
    core's seconds less what the other processes on the machine took) divided by the CPU one move
    cost all of them at human pace, less the baseline's."""
    cost = per_unit(games, baseline, games.delta["moves"] / games.delta["seconds"])
    ours = ("cpu.members", "cpu.postgres", "cpu.redis", "cpu.nginx", "cpu.load")
    per_move = sum(cost[k] for k in ours)
    seconds = full.delta["seconds"]
    mine = sum(full.delta[k] for k in ours)
    others = full.delta["cpu.machine busy"] - mine
    cores = full.delta["cpu.machine all"] / seconds
    left = cores - others / seconds
    base = sum(rates(baseline)[k] for k in ours)
    predicted = (left - base) / per_move
    measured = full.delta["moves"] / seconds
    members_per_move = cost["cpu.members"]
    return {
        "CPU per move at human pace, ms (all pieces)": per_move * 1000,
        "members' CPU per move at human pace, ms": members_per_move * 1000,
        "cores": cores,
        "cores the other processes took": others / seconds,
        "cores the stack used": mine / seconds,
        "predicted moves/s": predicted,
        "measured moves/s": measured,
        "error %": (measured - predicted) / predicted * 100,
        "CPU per move at full speed, ms (all pieces)": (mine / seconds - base) / measured * 1000,
    }


def markdown(data: dict[str, Any]) -> str:
    """The human page."""
    lines = [
        "# Capacity: what one move and one connected player cost, piece by piece",
        "",
        f"Measured {data['date']} on this machine ({data['machine']['cores']} cores, shared) with:",
        "",
        f"    {data['command']}",
        "",
        "Each figure is a phase's counters less the baseline's (nothing connected), per unit. Counts",
        "(transactions, rows, WAL bytes, Redis commands and bytes) are exact; CPU is noisy on a shared",
        "machine. The model built on them is docs/CAPACITY.md.",
        "",
    ]
    phases = data["phases"]
    names = list(phases)
    lines += ["| figure | " + " | ".join(f"{n} (per {phases[n]['unit']})" for n in names) + " |"]
    lines += ["| --- |" + " ---: |" * len(names)]
    for key, label, scale in PER_UNIT:
        if not any(key in phases[n]["per unit"] for n in names):
            continue  # (a counter this run did not read)
        cells = [f"{phases[n]['per unit'].get(key, 0.0) * scale:,.3f}" for n in names]
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    lines.append(
        "| units a second | " + " | ".join(f"{phases[n]['units a second']:,.2f}" for n in names) + " |"
    )
    lines.append("")
    if "moves per game-minute" in data:
        g, gauges = phases["games"]["load"], phases["games"]["gauges"]
        lines.append(
            f"Games: {g['games in play']:.1f} games in play on average,"
            f" {data['moves per game-minute']:.1f} moves per game-minute at {g['think']:.1f} s mean think"
            f" time; {g['games ended']:.0f} games ended in the window;"
            f" pairing p50 {g['pairing p50 s']:.2f} s;"
            f" move latency p50 {g['move latency p50 ms']:.1f} ms; errors {g['errors']:.0f}. PostgreSQL"
            f" connections: {gauges['pg.connections']:.0f}; Redis clients {gauges['redis.clients']:.0f},"
            f" pub/sub channels {gauges['redis.channels']:.0f}."
        )
        lines.append("")
    lines += ["## Baseline (nothing connected), a second", ""]
    lines += ["| counter | a second |", "| --- | ---: |"]
    for key, value in sorted(data["baseline a second"].items()):
        if not key.startswith("cpu.machine"):
            lines.append(f"| {key} | {value:,.3f} |")
    lines += ["", "Redis commands by source (MONITOR), a second:", "", "| source | command | a second |"]
    lines += ["| --- | --- | ---: |"]
    for source, command, value in data["baseline Redis by source a second"]:
        lines.append(f"| {source} | {command} | {value:,.2f} |")
    for name in names:
        entry = phases[name]
        lines += ["", f"## {name}: where each {entry['unit']}'s cost comes from", ""]
        lines += ["PostgreSQL statements (pg_stat_statements, grouped by source, kind and table):", ""]
        lines += ["| source | statement | calls | rows | WAL bytes |", "| --- | --- | ---: | ---: | ---: |"]
        for source, kind, calls, rows, wal in entry["statements per unit"]:
            lines.append(f"| {source} | {kind} | {calls:,.3f} | {rows:,.3f} | {wal:,.0f} |")
        lines += ["", "Redis commands (MONITOR, by key and script):", "", "| source | command | calls |"]
        lines += ["| --- | --- | ---: |"]
        for source, command, calls in entry["redis per unit"]:
            lines.append(f"| {source} | {command} | {calls:,.3f} |")
    if "tables" in data:
        t = data["tables"]
        lines += ["", f"## Stored, after the run ({t['games finished']:.0f} games finished)", ""]
        lines += ["| table | rows | bytes | bytes a row |", "| --- | ---: | ---: | ---: |"]
        for table in TABLES:
            rows, size = t[f"{table} rows"], t[f"{table} bytes"]
            lines.append(f"| {table} | {rows:,.0f} | {size:,.0f} | {size / rows if rows else 0:,.0f} |")
    if "calibration" in data:
        lines += [
            "",
            "## This machine flat out (same services, alone)",
            "",
            "From `.venv/bin/python bench/bench_capacity.py --calibrate-only` (pgbench's backends counted",
            "through the postmaster; redis-benchmark: 50 clients, 200,000 commands, random keys):",
            "",
            "| figure | value |",
            "| --- | --- |",
        ]
        for key, value in data["calibration"].items():
            shown = ", ".join(f"{k} {v:,.2f}" for k, v in value.items())
            lines.append(f"| {key} | {shown} |")
    if "check" in data:
        lines += [
            "",
            "## The model's check (full speed, no think time)",
            "",
            "| figure | value |",
            "| --- | ---: |",
        ]
        for key, value in data["check"].items():
            lines.append(f"| {key} | {value:,.2f} |")
    return "\n".join(lines) + "\n"


def calibrate(seconds: float) -> dict[str, Any]:
    """What PostgreSQL and Redis do flat out on this machine, on the benchmark's own services:
    ``pgbench -N`` (an update, a select and an insert a transaction, the shape of a move's write)
    and ``redis-benchmark`` for the commands the cluster sends most, each with the CPU it took."""
    import shutil
    import subprocess

    out: dict[str, Any] = {}
    pgbench = shutil.which("pgbench") or "/usr/lib/postgresql/15/bin/pgbench"
    with services.postgres() as admin:
        database = services.new_database(admin, "pgbench")
        subprocess.run([pgbench, "-i", "-q", "-s", "10", database], check=True, capture_output=True)
        with psycopg.connect(f"{admin}/postgres", autocommit=True) as conn:
            row = conn.execute("select setting from pg_settings where name = 'data_directory'").fetchone()
            assert row is not None
        postmaster = int((Path(str(row[0])) / "postmaster.pid").read_text().split()[0])
        for clients in (1, 4):
            busy0 = _machine()
            cpu0 = _cpu_with_reaped(postmaster) + services.cpu_seconds(services.descendants(postmaster))
            ran = subprocess.run(
                [
                    pgbench,
                    "-N",
                    "-c",
                    str(clients),
                    "-j",
                    str(min(clients, 2)),
                    "-T",
                    str(int(seconds)),
                    database,
                ],
                check=True,
                capture_output=True,
                text=True,
            )
            time.sleep(2.0)  # the postmaster reaps pgbench's backends: then their CPU counts (cutime)
            cpu = _cpu_with_reaped(postmaster) + services.cpu_seconds(services.descendants(postmaster)) - cpu0
            busy = _machine()
            tps = float(re.findall(r"tps = ([0-9.]+)", ran.stdout)[-1])
            out[f"pgbench -N, {clients} clients"] = {
                "tps": tps,
                "PostgreSQL CPU ms a transaction": cpu / (tps * seconds) * 1000,
                "machine busy cores": (busy[0] - busy0[0]) / seconds,
            }
    binary = shutil.which("redis-benchmark") or "/usr/bin/redis-benchmark"
    with services.redis_process() as rd:
        tests = {
            "ZADD (presence refresh)": ["ZADD", "roppyakken:conns:__rand_int__", "XX", "1", "m"],
            "PEXPIRE": ["PEXPIRE", "roppyakken:conns:__rand_int__", "6000"],
            "PUBLISH (relay)": ["PUBLISH", "roppyakken:member:x", "j " + "x" * 600],
            "SET PX (lease)": ["SET", "roppyakken:lease:__rand_int__", "member", "PX", "3000"],
        }
        flags = [binary, "-p", str(rd.port), "-q", "-n", "200000", "-r", "100000", "-c", "50"]
        assert rd.proc is not None
        for name, command in tests.items():
            for pipeline in (1, 16):
                cpu0 = services.cpu_seconds([rd.proc.pid])
                ran = subprocess.run(
                    [*flags, "-P", str(pipeline), "--csv", *command],
                    check=True,
                    capture_output=True,
                    text=True,
                )
                last = [line for line in ran.stdout.splitlines() if line.strip()][-1]
                out[f"redis-benchmark {name}, pipeline {pipeline}"] = {
                    "commands/s": float(last.split(",")[1].strip('"')),
                    "Redis CPU µs a command": (services.cpu_seconds([rd.proc.pid]) - cpu0) / 200_000 * 1e6,
                }
        out["lease renewal (leases.py's script, 1,000 rooms a call)"] = _renewal_cost(rd)
    return out


def _renewal_cost(rd: services.RedisServer, rooms: int = 1000, calls: int = 300) -> dict[str, float]:
    """Redis's CPU to renew one room's lease (the script every member runs every second)."""
    from roppyakken.server.cluster import leases

    client = redis.Redis.from_url(rd.url)
    renew = client.register_script(leases._RENEW)
    names = [f"r{i}" for i in range(rooms)]
    keys = [f"roppyakken:lease:{name}" for name in names]
    for key in keys:
        client.set(key, "m1", px=600_000)
    assert rd.proc is not None
    cpu0 = services.cpu_seconds([rd.proc.pid])
    for _ in range(calls):
        renew(keys=keys, args=["m1", 3000, "roppyakken:rooms", "roppyakken:renewed", *names])
    cpu = services.cpu_seconds([rd.proc.pid]) - cpu0
    client.close()
    return {"Redis CPU µs a room": cpu / (rooms * calls) * 1e6}


# --- configurations side by side (--configs) ----------------------------------------------------

CONFIGS: dict[str, tuple[bool, bool, bool]] = {
    "single": (False, False, False),
    "cluster": (True, False, False),
    "replica": (False, True, False),
    "pooler": (False, False, True),
    "all": (True, True, True),
}
"""A configuration by name: (a Redis Cluster, a read replica, PgBouncer in front of PostgreSQL)."""


@dataclass
class Config:
    """One configuration's members and nginx, over the services it shares with the others."""

    name: str
    database: str
    """Its database's name (each configuration has its own, in the one PostgreSQL)."""
    members: list[services.Member]
    url: str
    nginx_pid: int
    redis_ports: list[int]
    """Its Redis: the one redis-server, or every node of the Redis Cluster (masters found on reading)."""
    replica: str | None
    """The replica's admin URL, if its members read there."""
    redis_url: str
    """The members' ``--redis``."""


@dataclass
class Shared:
    """The services every configuration shares: their processes and addresses."""

    admin: str
    postmaster: int
    pids: list[int]
    """Every process of the services (the members and nginx come with each configuration)."""


def _config_counters(config: Config, shared: Shared, pg: psycopg.Connection[Any]) -> dict[str, float]:
    """One configuration's counters now (PostgreSQL's per database; WAL and write transactions are the
    primary's, shared: the baseline, every configuration idle, takes the others out)."""
    out: dict[str, float] = {}
    out["cpu.members"] = services.cpu_seconds([m.proc.pid for m in config.members if m.proc is not None])
    total = 0.0
    for member in config.members:
        text = httpx.get(member.url + "/metrics", timeout=30).text
        for line in text.splitlines():
            if line.startswith("roppyakken_moves_total "):
                total += float(line.split()[1])
    out["moves"] = total
    for where in ("replica", "primary"):
        out[f"reads.{where}"] = sum(
            float(line.split()[-1])
            for member in config.members
            for line in httpx.get(member.url + "/metrics", timeout=30).text.splitlines()
            if line.startswith("roppyakken_db_reads") and f'"{where}"' in line
        )
    row = pg.execute(
        "select xact_commit, tup_inserted, tup_updated from pg_stat_database where datname = %s",
        (config.database,),
    ).fetchone()
    assert row is not None
    out["pg.commits"], out["pg.rows inserted"], out["pg.rows updated"] = (float(x) for x in row)
    wal = pg.execute(
        "select pg_wal_lsn_diff(pg_current_wal_lsn(), '0/0'), txid_snapshot_xmax(txid_current_snapshot())"
    ).fetchone()
    assert wal is not None
    out["pg.WAL bytes"], out["pg.write transactions"] = float(wal[0]), float(wal[1])
    conns = pg.execute(
        "select count(*) from pg_stat_activity where datname = %s", (config.database,)
    ).fetchone()
    out["gauge.pg connections"] = float(conns[0]) if conns else 0.0
    out["replica.commits"] = 0.0
    if config.replica is not None:
        with psycopg.connect(f"{config.replica}/postgres", autocommit=True) as replica:
            replica.execute("set stats_fetch_consistency = none")
            found = replica.execute(
                "select xact_commit from pg_stat_database where datname = %s", (config.database,)
            ).fetchone()
            out["replica.commits"] = float(found[0]) if found else 0.0
    commands = publishes = 0.0
    for port in config.redis_ports:
        client = redis.Redis(host="127.0.0.1", port=port, decode_responses=True, socket_timeout=10)
        try:
            if client.info("replication")["role"] != "master":
                continue
            for name, value in client.info("commandstats").items():
                command = name.removeprefix("cmdstat_")
                if command.startswith(("info", "monitor", "pubsub", "client", "cluster", "ping", "config")):
                    continue
                commands += float(value["calls"])
                if command in ("publish", "spublish"):
                    publishes += float(value["calls"])
        finally:
            client.close()
    out["redis.commands"], out["redis.pubsub messages"] = commands, publishes
    out["gauge.rooms held"] = float(_rooms_held(config.redis_url))
    return out


def _rooms_held(url: str) -> int:
    """The rooms whose lease is live now (the set of held rooms, scored by their leases' ends)."""
    from roppyakken.server.cluster.redislink import KeySpace

    if url.startswith("redis+cluster://"):
        host, port = url.split("://", 1)[1].split(",")[0].rsplit(":", 1)
        cluster = redis.RedisCluster(host=host, port=int(port), decode_responses=True)
        try:
            now = cluster.time()
            return int(cluster.zcount(KeySpace(sharded=True).rooms, now[0] * 1000, "+inf"))
        finally:
            cluster.close()
    client = redis.Redis.from_url(url, decode_responses=True)
    try:
        now = client.time()
        return int(client.zcount(KeySpace().rooms, now[0] * 1000, "+inf"))
    finally:
        client.close()


FIGURES = (
    ("cpu.members", "members' CPU, ms", 1000.0),
    ("pg.commits", "PostgreSQL commits (primary)", 1.0),
    ("pg.write transactions", "PostgreSQL write transactions", 1.0),
    ("pg.rows inserted", "rows inserted", 1.0),
    ("pg.rows updated", "rows updated", 1.0),
    ("pg.WAL bytes", "WAL bytes", 1.0),
    ("replica.commits", "commits on the replica", 1.0),
    ("reads.replica", "lag-tolerant reads served by the replica", 1.0),
    ("reads.primary", "lag-tolerant reads served by the primary", 1.0),
    ("redis.commands", "Redis commands (every master)", 1.0),
    ("redis.pubsub messages", "pub/sub messages (PUBLISH, SPUBLISH)", 1.0),
)
"""The figures compared across configurations: counter, label, scale."""


class Side:
    """Counters of every configuration, and of the machine, at one moment."""

    def __init__(self, configs: list[Config], shared: Shared, pg: psycopg.Connection[Any]) -> None:
        self.at = time.perf_counter()
        self.by_config = {c.name: _config_counters(c, shared, pg) for c in configs}
        pids = [*shared.pids, *services.descendants(shared.postmaster)]
        for config in configs:
            pids += [m.proc.pid for m in config.members if m.proc is not None]
            pids += [config.nginx_pid, *services.descendants(config.nginx_pid)]
        self.stack_cpu = services.cpu_seconds(pids) + time.process_time()
        self.machine = _machine()


def _window(a: Side, b: Side, name: str) -> dict[str, float]:
    """A configuration's counters a second between two moments, with the whole stack's CPU a second
    and what the rest of the machine left it (cores)."""
    seconds = b.at - a.at
    out = {k: (b.by_config[name][k] - a.by_config[name][k]) / seconds for k in b.by_config[name]}
    out["gauge.pg connections"] = b.by_config[name]["gauge.pg connections"]
    out["gauge.rooms held"] = (
        a.by_config[name]["gauge.rooms held"] + b.by_config[name]["gauge.rooms held"]
    ) / 2
    out["seconds"] = seconds
    out["stack cpu"] = (b.stack_cpu - a.stack_cpu) / seconds
    busy, every = b.machine[0] - a.machine[0], b.machine[1] - a.machine[1]
    out["cores left"] = (every - (busy - (b.stack_cpu - a.stack_cpu))) / seconds
    return out


@contextlib.contextmanager
def start_configs(names: list[str], members: int, extra: list[str]) -> Iterator[tuple[list[Config], Shared]]:
    """One PostgreSQL with a streaming replica and PgBouncer (transaction mode), one redis-server and a
    six-node Redis Cluster, and for each configuration its own database, members and nginx."""
    from tests.harness.redis_cluster import redis_cluster
    from tests.harness.replica import pgbouncer, replica_of

    with contextlib.ExitStack() as stack:
        admin = stack.enter_context(services.postgres())
        postmaster = services.postmaster_pid(admin)
        databases = {name: services.new_database(admin, f"cap_{name}") for name in names}
        replica = stack.enter_context(replica_of(admin)) if any(CONFIGS[n][1] for n in names) else None
        pooler = (
            stack.enter_context(pgbouncer(admin, pool_size=4)) if any(CONFIGS[n][2] for n in names) else None
        )
        single = stack.enter_context(services.redis_process())
        nodes = stack.enter_context(redis_cluster()) if any(CONFIGS[n][0] for n in names) else None
        pids = [p for p in services.children(os.getpid()) if p != postmaster]
        configs: list[Config] = []
        for index, name in enumerate(names):
            on_cluster, read_replica, pooled = CONFIGS[name]
            database = f"cap_{name}"
            url = f"{pooler}/{database}?pooler=transaction" if pooled else databases[name]
            more = list(extra)
            if read_replica:
                assert replica is not None
                more += ["--database-replica", f"{replica.admin}/{database}"]
            if on_cluster:
                assert nodes is not None
                redis_url, ports = nodes.url, [n.port for n in nodes.nodes]
            else:
                redis_url, ports = f"redis://127.0.0.1:{single.port}/{index}", [single.port]
            started = stack.enter_context(services.fronted(url, redis_url, members, more))
            assert started.nginx_pid is not None, "nginx not found"
            configs.append(
                Config(
                    name,
                    database,
                    started.members,
                    started.url,
                    started.nginx_pid,
                    ports,
                    replica.admin if read_replica and replica is not None else None,
                    redis_url,
                )
            )
        member_pids = {m.proc.pid for c in configs for m in c.members if m.proc is not None}
        nginx_pids = {c.nginx_pid for c in configs}
        pids = [p for p in pids if p not in member_pids and p not in nginx_pids]
        if replica is not None:
            replica_pid = int((replica.data / "postmaster.pid").read_text().split()[0])
            pids += [replica_pid, *services.descendants(replica_pid)]
        yield configs, Shared(admin, postmaster, pids)


async def _steady(
    config: Config,
    guests: list[Guest],
    think: list[float],
    seconds: float,
    args: argparse.Namespace,
    measure_with: Any,
) -> dict[str, float]:
    """Games on ``config`` at ``think`` pace: warm up, measure ``seconds``, play the games out."""
    load, stop = Load(), asyncio.Event()
    tasks = [
        asyncio.create_task(player(config.url, g, think, stop, load, f"{config.name}:{i}:{time.time()}"))
        for i, g in enumerate(guests)
    ]
    await asyncio.sleep(args.warmup)
    a = await asyncio.to_thread(measure_with)
    await asyncio.sleep(seconds)
    b = await asyncio.to_thread(measure_with)
    stop.set()
    _, pending = await asyncio.wait(tasks, timeout=args.drain)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    window = _window(a, b, config.name)
    window["errors"] = load.errors
    return window


async def _idle(
    config: Config, guests: list[Guest], seconds: float, args: argparse.Namespace, measure_with: Any
) -> dict[str, float]:
    """``guests`` on ``config``'s lobby doing nothing, measured ``seconds``."""
    stop = asyncio.Event()
    lobby = [asyncio.create_task(idle_lobby(config.url, g, stop)) for g in guests]
    await asyncio.sleep(args.warmup / 2)
    a = await asyncio.to_thread(measure_with)
    await asyncio.sleep(seconds)
    b = await asyncio.to_thread(measure_with)
    stop.set()
    await asyncio.gather(*lobby, return_exceptions=True)
    return _window(a, b, config.name)


async def run_configs(args: argparse.Namespace, configs: list[Config], shared: Shared) -> dict[str, Any]:
    """The same steady load on each configuration in turn, in order and then in reverse (drift cancels);
    a baseline (everything idle) first; then the model's two full-speed loads."""
    pg = psycopg.connect(f"{shared.admin}/postgres", autocommit=True)
    pg.execute("set stats_fetch_consistency = none")

    def take() -> Side:
        return Side(configs, shared, pg)

    think = [float(x) for x in args.think.split(",")]
    guests = {c.name: await make_guests(c.url, args.games * 3 + args.idle) for c in configs}
    await asyncio.sleep(args.settle)
    print("measuring", flush=True)
    a = await asyncio.to_thread(take)
    await asyncio.sleep(args.baseline)
    b = await asyncio.to_thread(take)
    baseline = {c.name: _window(a, b, c.name) for c in configs}
    windows: dict[str, dict[str, list[dict[str, float]]]] = {
        c.name: {"games": [], "idle": []} for c in configs
    }
    for order in (configs, configs[::-1]):
        for config in order:
            mine = guests[config.name]
            games = await _steady(config, mine[: args.games * 3], think, args.seconds, args, take)
            windows[config.name]["games"].append(games)
            print(f"  {config.name} games: {games['moves']:.1f} moves/s", flush=True)
            idle = await _idle(config, mine[args.games * 3 :], args.idle_seconds, args, take)
            windows[config.name]["idle"].append(idle)
            print(f"  {config.name} idle: {idle['redis.commands']:.1f} Redis commands/s", flush=True)
    full: dict[str, dict[str, float]] = {}
    for name in args.check_configs.split(","):
        config = next(c for c in configs if c.name == name)
        mine = guests[name][: args.check_games * 3]
        full[name] = await _steady(config, mine, [0.0, 0.0], args.seconds, args, take)
        print(f"  {name} full speed: {full[name]['moves']:.1f} moves/s", flush=True)
    pg.close()
    return {"baseline": baseline, "windows": windows, "full speed": full}


def _mean(rows: list[dict[str, float]]) -> dict[str, float]:
    return {k: statistics.mean(r[k] for r in rows) for k in rows[0]}


def side_by_side(raw: dict[str, Any], args: argparse.Namespace) -> dict[str, Any]:
    """Per move and per idle player, each configuration's figures and their ratios to the first."""
    out: dict[str, Any] = {"per move": {}, "per idle player a second": {}, "load": {}}
    for name, windows in raw["windows"].items():
        base = raw["baseline"][name]
        games, idle = _mean(windows["games"]), _mean(windows["idle"])
        moves = games["moves"]
        out["per move"][name] = {k: (games[k] - base[k]) / moves for k, _, _ in FIGURES}
        reads = games["replica.commits"] - base["replica.commits"]
        primary = games["pg.commits"] - base["pg.commits"]
        out["per move"][name]["replica's share of commits"] = reads / max(1e-9, reads + primary)
        out["per idle player a second"][name] = {k: (idle[k] - base[k]) / args.idle for k, _, _ in FIGURES}
        out["load"][name] = {
            "moves/s (each pass)": [round(w["moves"], 2) for w in windows["games"]],
            "PostgreSQL connections (games)": max(w["gauge.pg connections"] for w in windows["games"]),
            "rooms held (leases live, mean of the window's ends)": round(
                statistics.mean(w["gauge.rooms held"] for w in windows["games"]), 1
            ),
            "games in play (target)": args.games,
            "errors": sum(w["errors"] for w in windows["games"]),
        }
    return out


def model_check(raw: dict[str, Any]) -> dict[str, Any]:
    """The CPU model: the whole stack's CPU a second = baseline + m × moves + f × write transactions,
    ``m`` and ``f`` fitted from two loads of the first configuration (human pace, full speed); then the
    full-speed moves a second of the second configuration predicted from the CPU the machine left it
    and its write transactions a move, against those measured."""
    names = list(raw["full speed"])
    first, second = names[0], names[1]

    def point(window: dict[str, float], name: str) -> tuple[float, float]:
        base = raw["baseline"][name]
        moves = window["moves"]
        cpu = (window["stack cpu"] - base["stack cpu"]) / moves
        txn = (window["pg.write transactions"] - base["pg.write transactions"]) / moves
        return cpu, txn

    human = _mean(raw["windows"][first]["games"])
    c1, t1 = point(human, first)
    c2, t2 = point(raw["full speed"][first], first)
    f = (c1 - c2) / (t1 - t2) if abs(t1 - t2) > 1e-6 else 0.0
    m = c1 - f * t1
    target = raw["full speed"][second]
    _, t3 = point(target, second)
    left = target["cores left"] - raw["baseline"][second]["stack cpu"]
    predicted = left / (m + f * t3)
    measured = target["moves"]
    return {
        "fitted on": first,
        "human pace: stack CPU a move, ms; write transactions a move": [c1 * 1000, t1],
        "full speed: stack CPU a move, ms; write transactions a move": [c2 * 1000, t2],
        "m: CPU a move, ms": m * 1000,
        "f: CPU a write transaction, ms": f * 1000,
        "checked on": second,
        "its write transactions a move": t3,
        "cores left to the stack": left,
        "predicted moves/s": predicted,
        "measured moves/s": measured,
        "off by %": (measured - predicted) / predicted * 100,
        "the old model (human-pace CPU a move) predicted moves/s": left / c1,
    }


def configs_markdown(table: dict[str, Any], check: dict[str, Any] | None, command: str) -> str:
    """The side-by-side table (ratios to the first configuration) and the model's check."""
    names = list(table["per move"])
    head = names[0]
    lines = [
        f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} with:",
        "",
        f"    {command}",
        "",
    ]
    for unit in ("per move", "per idle player a second"):
        lines += [f"| {unit} | " + " | ".join(names) + " |", "| --- |" + " ---: |" * len(names)]
        rows = [
            *FIGURES,
            *(
                [("replica's share of commits", "the replica's share of commits", 1.0)]
                if unit == "per move"
                else []
            ),
        ]
        for key, label, scale in rows:
            cells = []
            for name in names:
                value = table[unit][name][key] * scale
                ref = table[unit][head][key] * scale
                ratio = (
                    f" (×{value / ref:.2f})"
                    if name != head and abs(ref) > 1e-9 and key != "replica's share of commits"
                    else ""
                )
                cells.append(f"{value:,.3f}{ratio}")
            lines.append(f"| {label} | " + " | ".join(cells) + " |")
        lines.append("")
    lines += ["| load | " + " | ".join(names) + " |", "| --- |" + " ---: |" * len(names)]
    for key in table["load"][head]:
        lines.append(f"| {key} | " + " | ".join(str(table["load"][n][key]) for n in names) + " |")
    if check is not None:
        lines += ["", "The model's check:", "", "| figure | value |", "| --- | ---: |"]
        for key, value in check.items():
            shown = (
                ", ".join(f"{v:,.2f}" for v in value)
                if isinstance(value, list)
                else (f"{value:,.2f}" if isinstance(value, float) else str(value))
            )
            lines.append(f"| {key} | {shown} |")
    return "\n".join(lines) + "\n"


def main() -> int:
    """Run every phase and write the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--members", type=int, default=3)
    parser.add_argument("--games", type=int, default=60, help="games of 3 in play at once (target)")
    parser.add_argument("--think", default="1,4", help="seconds before each decision: LOW,HIGH")
    parser.add_argument("--seconds", type=float, default=120.0, help="the games phase's measured seconds")
    parser.add_argument("--idle", type=int, default=300, help="idle lobby players")
    parser.add_argument("--idle-rooms", type=int, default=50, help="idle rooms of 3 seated players")
    parser.add_argument("--idle-seconds", type=float, default=60.0)
    parser.add_argument("--chat-every", type=float, default=10.0)
    parser.add_argument("--baseline", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=30.0)
    parser.add_argument(
        "--monitor", type=float, default=15.0, help="seconds of Redis MONITOR after each phase"
    )
    parser.add_argument("--drain", type=float, default=240.0, help="seconds to let the games under way end")
    parser.add_argument("--settle", type=float, default=20.0, help="a finished room leaves memory after this")
    parser.add_argument(
        "--check-games", type=int, default=30, help="games at full speed for the check (0: none)"
    )
    parser.add_argument("--out", default=str(ROOT / "bench" / "RESULTS-capacity"))
    parser.add_argument("--calibrate", type=float, default=20.0, help="seconds of pgbench (0: none)")
    parser.add_argument("--calibrate-only", action="store_true", help="pgbench and redis-benchmark alone")
    parser.add_argument(
        "--rewrite",
        metavar="CALIBRATION.json",
        help="write the page again from --out's JSON, with this calibration",
    )
    parser.add_argument(
        "--configs",
        help="configurations side by side, the first the reference: names from single, cluster, replica,"
        " pooler, all (comma-separated)",
    )
    parser.add_argument(
        "--check-configs",
        default="single,cluster",
        help="with --configs: the model fitted on the first at two loads, checked on the second (full speed)",
    )
    args = parser.parse_args()
    if args.configs:
        return main_configs(args)
    if args.rewrite:
        data = json.loads(Path(args.out + ".json").read_text())
        data["calibration"] = json.loads(Path(args.rewrite).read_text())
        Path(args.out + ".json").write_text(json.dumps(data, indent=1, default=str) + "\n")
        Path(args.out + ".md").write_text(markdown(data))
        return 0
    if args.calibrate_only:
        print(json.dumps(calibrate(args.calibrate), indent=1))
        return 0
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    command = "nice -n 10 .venv/bin/python bench/bench_capacity.py " + " ".join(sys.argv[1:])
    extra = ["--room-idle", str(args.settle / 2)]
    with start_stack(args.members, extra) as stack:
        phases = asyncio.run(run(args, stack))
        errors = stack.errors()
    data = report(phases, args, command.strip())
    if args.calibrate > 0:
        data["calibration"] = calibrate(args.calibrate)
    data["member errors"] = errors[:20]
    Path(args.out + ".json").write_text(json.dumps(data, indent=1, default=str) + "\n")
    page = markdown(data)
    Path(args.out + ".md").write_text(page)
    print(page)
    return 0


def main_configs(args: argparse.Namespace) -> int:
    """``--configs``: every configuration's figures side by side, added to the results' page."""
    names = args.configs.split(",")
    unknown = [n for n in names if n not in CONFIGS]
    if unknown:
        print(f"bench_capacity: unknown configuration {unknown[0]!r} (known: {', '.join(CONFIGS)})")
        return 2
    checks = args.check_configs.split(",")
    if len(checks) != 2 or any(n not in names for n in checks):
        print("bench_capacity: --check-configs names two of --configs")
        return 2
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    command = "nice -n 10 .venv/bin/python bench/bench_capacity.py " + " ".join(sys.argv[1:])
    with start_configs(names, args.members, ["--room-idle", str(args.settle / 2)]) as (configs, shared):
        raw = asyncio.run(run_configs(args, configs, shared))
        errors = [line for c in configs for m in c.members for line in m.errors()]
    table = side_by_side(raw, args)
    check = model_check(raw)
    data = {
        "command": command,
        "raw": raw,
        "side by side": table,
        "check": check,
        "member errors": errors[:20],
    }
    Path(args.out + "-configs.json").write_text(json.dumps(data, indent=1, default=str) + "\n")
    page = configs_markdown(table, check, command)
    Path(args.out + "-configs.md").write_text(page)
    print(page)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
