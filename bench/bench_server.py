"""Web server load: N concurrent bot-vs-bot games over websockets on loopback; moves/s and move latency.

Run by hand (not a test; these machines are shared and noisy)::

    .venv/bin/python bench/bench_server.py [--games 300] [--players 3] [--seconds 30] [--think 0]

It starts ``roppyakken serve`` (a fresh SQLite file, no bot pacing) unless
``--url`` names a running server, then keeps ``--games`` games going at once:
each game is a room whose ``--players`` seats are all websocket clients (so
300 games of 3 are 900 connections), each client a random player that acts as
soon as its ``state`` offers legal actions (after ``--think`` seconds, if given,
to model people's pace).  When a game ends its slot starts a new one.

A move's latency is the time from sending ``act`` to receiving the ``state``
that results from it (server work, storage commit, and both event loops).
Figures count only moves after ``--warmup`` seconds.  The clients run in
``--procs`` processes (default 1) beside the server on the same machine
(``--clients-nice 19``: at the lowest priority, the server at its own, as
clients on other machines would leave it a core).

With ``--clock CONTROL`` every room has that time control (scaled by
``--clock-scale``, the server's option), and in ``--idle-share`` of the games one
seat never moves: the server plays it when its time runs out, then hands it to a
bot.  Each such timeout is timed from the deadline the seat's last ``state``
showed (its ``remaining``, counted from its arrival) to the arrival of the
``timeout`` message: how precisely timeouts fire, as a player sees it.  The
server's own figure (its timer's lateness) comes from ``/metrics``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

CLIENT_MIDDLE_EVERY = 0.2
"""Seconds between two middle passes of the clients' collector (:func:`pace_clients_collector`)."""


def pace_clients_collector() -> asyncio.Task[None]:
    """Set the load generator's collector, its connections made: what it holds so far out of its
    scans (``gc.freeze``: a full pass over it would pause every client at once), no full pass, and
    the middle generation passed every :data:`CLIENT_MIDDLE_EVERY` seconds rather than after a
    count of young passes (each scans a fifth of a second's survivors, as the server's do:
    server/web/collector.py).  The task that makes those passes; cancel it when done."""
    gc.freeze()
    gc.set_threshold(gc.get_threshold()[0], 1_000_000_000, 1_000_000_000)

    async def passes() -> None:
        while True:
            await asyncio.sleep(CLIENT_MIDDLE_EVERY)
            gc.collect(1)

    return asyncio.create_task(passes(), name="clients-collector")


@dataclass
class Results:
    """What one client process measured."""

    latencies: list[float] = field(default_factory=list)
    lateness: list[float] = field(default_factory=list)
    """Seconds from each idle seat's deadline to its ``timeout`` message."""
    moves: int = 0
    games: int = 0
    errors: int = 0
    connections: int = 0
    setup_seconds: float = 0.0
    client_cpu: float = 0.0
    """This client process's CPU share (of one core) during the measured seconds."""
    server_cpu: float | None = None
    """The server's CPU share during the measured seconds (if its pid is known)."""
    server_faults: int | None = None
    """The server's major page faults during the measured seconds (pages read back from disk: the
    machine took them away; each stalls the server for a disk read)."""
    client_pauses: list[float] = field(default_factory=list)
    """This client process's own garbage-collection passes over 10 ms in the measured seconds: while
    one runs no client reads, so the moves waiting then look slower than the server made them."""


class Clock:
    """The start of the measured run: when every slot has its first game set up."""

    def __init__(self, slots: int) -> None:
        self.slots = slots
        self.ready = 0
        self.go = asyncio.Event()
        self.start = float("inf")

    async def arrive(self) -> None:
        """One slot is set up; wait for all of them."""
        self.ready += 1
        if self.ready == self.slots:
            self.start = time.perf_counter()
            self.go.set()
        await self.go.wait()


@dataclass(frozen=True)
class Plan:
    """What one client process does."""

    url: str
    games: int
    players: int
    seconds: float
    warmup: float
    think: float
    seed: int
    rules: str
    server_pid: int | None = None
    clock: str = "none"
    idle_share: float = 0.0


async def _idle_seat(ws: ClientConnection, plan: Plan, clock: Clock, out: Results) -> None:
    """A seat that never moves: time each timeout the server makes for it."""
    end = clock.start + plan.warmup + plan.seconds
    seat: int | None = None
    due: float | None = None
    while time.perf_counter() < end:
        raw = await ws.recv()
        if not isinstance(raw, str):
            continue
        if raw.startswith('{"type":"state"'):
            message = json.loads(raw)
            seat = message["view"]["seat"]
            ticking = message.get("clock") or {}
            if ticking.get("turn") == seat and ticking.get("remaining") is not None and due is None:
                due = time.perf_counter() + ticking["remaining"]
        elif raw.startswith('{"type":"timeout"'):
            message = json.loads(raw)
            measured = time.perf_counter() - clock.start >= plan.warmup
            if message["seat"] == seat and due is not None and measured:
                out.lateness.append(time.perf_counter() - due)
            due = None
        elif raw.startswith('{"type":"game_end"'):
            return


async def _seat(ws: ClientConnection, plan: Plan, clock: Clock, out: Results, rng: random.Random) -> None:
    """One seat: act whenever the state offers legal actions, until the game ends or time is up."""
    start = clock.start
    deadline = start + plan.warmup + plan.seconds
    sent_at: float | None = None
    sent_seq = -1
    while True:
        raw = await ws.recv()
        # the server puts "type" first: parse only the states (the client's CPU is the machine's too)
        if not isinstance(raw, str) or not raw.startswith('{"type":"state"'):
            if isinstance(raw, str) and raw.startswith('{"type":"game_end"'):
                return
            if isinstance(raw, str) and raw.startswith('{"type":"error"'):
                out.errors += 1
            continue
        message = json.loads(raw)
        if sent_at is not None and message["seq"] > sent_seq:
            now = time.perf_counter()
            if now - start >= plan.warmup:
                out.latencies.append(now - sent_at)
                out.moves += 1
            sent_at = None
        view = message["view"]
        if view["legal"] and view["seat"] == view["to_act"]:
            if time.perf_counter() > deadline:
                return
            if plan.think > 0:
                await asyncio.sleep(plan.think * rng.uniform(0.5, 1.5))
            action = rng.choice(view["legal"])
            sent_seq = message["seq"]
            sent_at = time.perf_counter()
            await ws.send(json.dumps({"type": "act", "action": action}))


async def _game(
    client: httpx.AsyncClient, plan: Plan, clock: Clock, out: Results, rng: random.Random
) -> None:
    """One game: create the room, seat every player, start, play it out."""
    created = (
        await client.post(
            "/api/rooms",
            json={
                "name": "p0",
                "players": plan.players,
                "rules": {"preset": plan.rules},
                "clock": plan.clock,
            },
        )
    ).json()
    room = created["room"]
    tokens = [created["token"]]
    for seat in range(1, plan.players):
        tokens.append(
            (await client.post(f"/api/rooms/{room}/join", json={"name": f"p{seat}"})).json()["token"]
        )
    ws_url = plan.url.replace("http://", "ws://") + f"/ws/{room}"
    sockets = []
    try:
        for token in tokens:
            ws = await connect(ws_url, open_timeout=60, max_size=2**22, compression=None)
            sockets.append(ws)
            out.connections += 1
            await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        if not clock.go.is_set():
            await clock.arrive()
        await sockets[0].send(json.dumps({"type": "start"}))
        idle = plan.clock != "none" and rng.random() < plan.idle_share
        tasks = [
            asyncio.create_task(
                _idle_seat(ws, plan, clock, out)
                if idle and i == len(sockets) - 1
                else _seat(ws, plan, clock, out, rng)
            )
            for i, ws in enumerate(sockets)
        ]
        # every seat returns at game_end; at the deadline only the seat to act does: stop the others
        _, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        if pending:
            _, pending = await asyncio.wait(pending, timeout=5)
        for task in pending:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        if not pending:
            out.games += 1
    finally:
        for ws in sockets:
            await ws.close()
            out.connections -= 1


async def _slot(client: httpx.AsyncClient, plan: Plan, clock: Clock, out: Results, index: int) -> None:
    rng = random.Random(f"{plan.seed}:{index}")
    while True:
        try:
            await _game(client, plan, clock, out, rng)
        except Exception as exc:  # counted, and never holds up the others' start
            out.errors += 1
            print(f"slot {index}: {type(exc).__name__}: {exc}", file=sys.stderr)
            if not clock.go.is_set():
                await clock.arrive()
            await asyncio.sleep(1.0)
        if clock.go.is_set() and time.perf_counter() >= clock.start + plan.warmup + plan.seconds:
            return


async def _run(plan: Plan) -> Results:
    out = Results()
    clock = Clock(plan.games)
    began = time.perf_counter()
    limits = httpx.Limits(max_connections=32)
    async with httpx.AsyncClient(base_url=plan.url, timeout=120, limits=limits) as client:
        slots = [asyncio.create_task(_slot(client, plan, clock, out, i)) for i in range(plan.games)]
        await clock.go.wait()
        out.setup_seconds = clock.start - began
        # the load generator is not what is measured: short collector pauses of its own
        collecting = pace_clients_collector()
        await asyncio.sleep(plan.warmup)
        mine, server = time.process_time(), _cpu_seconds(plan.server_pid)
        faults = _major_faults(plan.server_pid)
        began_pass = [0.0]

        def timed(phase: str, _info: dict[str, Any]) -> None:
            if phase == "start":
                began_pass[0] = time.perf_counter()
            elif (took := time.perf_counter() - began_pass[0]) > 0.01:
                out.client_pauses.append(took)

        gc.callbacks.append(timed)
        await asyncio.sleep(plan.seconds)
        gc.callbacks.remove(timed)
        out.client_cpu = (time.process_time() - mine) / plan.seconds
        if server is not None:
            after = _cpu_seconds(plan.server_pid)
            out.server_cpu = None if after is None else (after - server) / plan.seconds
            faults_after = _major_faults(plan.server_pid)
            if faults is not None and faults_after is not None:
                out.server_faults = faults_after - faults
        await asyncio.gather(*slots)
        collecting.cancel()
    return out


def run_clients(plan: Plan) -> Results:
    """Entry point of one client process."""
    try:
        import uvloop

        return uvloop.run(_run(plan))
    except ImportError:  # pragma: no cover - uvloop comes with uvicorn[standard]
        return asyncio.run(_run(plan))


def _stop(server: subprocess.Popen[str]) -> None:
    """SIGTERM the server and wait for it; one that has not stopped 30 s later is said and killed
    (a finding, not the end of the figures)."""
    server.terminate()
    try:
        server.wait(timeout=30)
    except subprocess.TimeoutExpired:
        print("the server did not stop within 30 s of its SIGTERM: killed", file=sys.stderr)
        server.kill()
        server.wait()


def _raise_file_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


def _start_server(database: str, clock_scale: float = 1.0) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-c", "from roppyakken.cli import main; raise SystemExit(main())"]
    command += ["serve", "--port", "0", "--bot-delay", "0", "--database", database]
    if clock_scale != 1.0:
        command += ["--clock-scale", str(clock_scale)]
    # Every bound stays on at its default except the per-address ones: all the load comes from
    # this one address (300 rooms and 900 websockets), which the defaults exist to refuse.
    command += ["--rooms-per-minute", "100000", "--requests-per-minute", "1000000"]
    command += ["--guests-per-hour", "1000000", "--rated-same-address"]  # bench_pairing's players
    command += ["--connections-per-address", "5000"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    line = server.stdout.readline()
    found = re.search(r"http://[^/\s]+", line)
    if not found:
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return server, found.group(0)


def _metrics(url: str) -> str | None:
    """The server's ``/metrics`` text, or None."""
    try:
        return httpx.get(url + "/metrics", timeout=10).text
    except httpx.HTTPError:
        return None


def _histogram(metrics: str | None, name: str) -> dict[str, int] | None:
    """A histogram of the server's ``metrics``: how many observations within each bound."""
    if metrics is None:
        return None
    found = re.findall(rf'{name}_bucket\{{le="([^"]+)"\}} ([0-9.e+]+)', metrics)
    return {f"<={le}s": int(float(n)) for le, n in found}


def _stat(pid: int | None) -> list[str] | None:
    """A process's ``/proc/PID/stat`` fields after its name (Linux), or None."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, TypeError):
        return None


def _major_faults(pid: int | None) -> int | None:
    """A process's major page faults so far, or None."""
    fields = _stat(pid)
    return None if fields is None else int(fields[9])


def _cpu_seconds(pid: int | None) -> float | None:
    """CPU seconds a process has used, or None."""
    fields = _stat(pid)
    return None if fields is None else (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=300, help="concurrent games (300)")
    parser.add_argument("--players", type=int, default=3, choices=(2, 3), help="players per game (3)")
    parser.add_argument("--seconds", type=float, default=30.0, help="measured seconds (30)")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds not measured at the start (5)")
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a client waits before acting (0)"
    )
    parser.add_argument("--procs", type=int, default=1, help="client processes (1)")
    parser.add_argument("--rules", default="classic", help="preset (classic)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--url", help="a running server (default: start one on a fresh SQLite file)")
    parser.add_argument("--pid", type=int, help="the process id of the --url server (for its CPU figures)")
    parser.add_argument(
        "--database", help="database URL for the started server (default: a temporary SQLite file)"
    )
    parser.add_argument("--clock", default="none", help="every room's time control, e.g. 15+60 (none)")
    parser.add_argument("--clock-scale", type=float, default=1.0, help="the server's --clock-scale (1)")
    parser.add_argument(
        "--idle-share", type=float, default=0.0, help="share of games where one seat never moves (0)"
    )
    parser.add_argument(
        "--clients-nice",
        type=int,
        default=0,
        metavar="N",
        help="the clients run at this niceness (19: a core for the server whenever it needs one)",
    )
    parser.add_argument("--json", action="store_true", help="print the figures as one JSON document")
    args = parser.parse_args()
    _raise_file_limit()
    server = None
    tmp = tempfile.TemporaryDirectory(prefix="roppyakken-bench-")
    url = args.url
    if url is None:
        database = args.database or f"sqlite:///{tmp.name}/bench.sqlite3"
        server, url = _start_server(database, args.clock_scale)
    if args.clients_nice:
        os.setpriority(os.PRIO_PROCESS, 0, args.clients_nice)  # after the server's start: its own stays
    try:
        shares = [
            args.games // args.procs + (1 if i < args.games % args.procs else 0) for i in range(args.procs)
        ]
        plans = [
            Plan(
                url,
                n,
                args.players,
                args.seconds,
                args.warmup,
                args.think,
                args.seed * 1000 + i,
                args.rules,
                server.pid if server else args.pid,
                args.clock,
                args.idle_share,
            )
            for i, n in enumerate(shares)
            if n
        ]
        if len(plans) == 1:
            results = [run_clients(plans[0])]
        else:
            with ProcessPoolExecutor(len(plans)) as pool:
                results = list(pool.map(run_clients, plans))
        metrics = _metrics(url)
        # the server's timer lateness (timeouts fired within each bound) and its own move times (a
        # move's arrival to its result sent, the store included, over the whole run)
        server_late = _histogram(metrics, "roppyakken_clock_late_seconds") if args.clock != "none" else None
        server_moves = _histogram(metrics, "roppyakken_move_seconds")
        server_stored = _histogram(metrics, "roppyakken_move_stored_seconds")
    finally:
        if server is not None:
            _stop(server)
        tmp.cleanup()
    latencies = sorted(x for r in results for x in r.latencies)
    lateness = sorted(x for r in results for x in r.lateness)
    moves = sum(r.moves for r in results)
    pauses = [x for r in results for x in r.client_pauses]
    server_cpu = results[0].server_cpu
    figures: dict[str, Any] = {
        "games": args.games,
        "players": args.players,
        "connections": args.games * args.players,
        "think": args.think,
        "seconds": args.seconds,
        "moves": moves,
        "moves_per_second": round(moves / args.seconds, 1),
        "p50_ms": round(1000 * statistics.median(latencies), 2) if latencies else None,
        "p99_ms": round(1000 * latencies[int(0.99 * (len(latencies) - 1))], 2) if latencies else None,
        "max_ms": round(1000 * latencies[-1], 2) if latencies else None,
        "games_finished": sum(r.games for r in results),
        "errors": sum(r.errors for r in results),
        "server_cpu_share": None if results[0].server_cpu is None else round(results[0].server_cpu, 2),
        "client_cpu_share": round(sum(r.client_cpu for r in results), 2),
        "setup_seconds": round(max(r.setup_seconds for r in results), 1),
        "server_cpu_ms_per_move": round(1000 * server_cpu * args.seconds / moves, 2)
        if server_cpu is not None and moves
        else None,
        "server_move_seconds": server_moves,
        "server_move_stored_seconds": server_stored,
        "server_major_faults": results[0].server_faults,
        "client_gc_pauses": len(pauses),
        "client_gc_pause_max_ms": round(1000 * max(pauses), 1) if pauses else 0.0,
        "client_gc_pause_total_ms": round(1000 * sum(pauses), 1),
    }
    if args.clock != "none":
        figures.update(
            {
                "clock": args.clock,
                "clock_scale": args.clock_scale,
                "timeouts": len(lateness),
                "timeout_late_p50_ms": round(1000 * statistics.median(lateness), 1) if lateness else None,
                "timeout_late_p99_ms": round(1000 * lateness[int(0.99 * (len(lateness) - 1))], 1)
                if lateness
                else None,
                "timeout_late_max_ms": round(1000 * lateness[-1], 1) if lateness else None,
                "server_timer": server_late,
            }
        )
    if args.json:
        print(json.dumps(figures))
    else:
        print(
            f"{figures['games']} games x {args.players} players ({figures['connections']} websockets), "
            f"think {args.think} s, {args.seconds:.0f} s measured: {moves} moves, "
            f"{figures['moves_per_second']} moves/s, latency p50 {figures['p50_ms']} ms, "
            f"p99 {figures['p99_ms']} ms, max {figures['max_ms']} ms; "
            f"{figures['games_finished']} games finished, {figures['errors']} errors, "
            f"CPU (cores) server {figures['server_cpu_share']}, clients {figures['client_cpu_share']}; "
            f"set-up {figures['setup_seconds']} s; server CPU {figures['server_cpu_ms_per_move']} ms a move"
        )
        print(
            f"the clients' own collector passes over 10 ms: {len(pauses)}, "
            f"{figures['client_gc_pause_total_ms']} ms in all, "
            f"the longest {figures['client_gc_pause_max_ms']} ms; "
            f"the server's major page faults: {results[0].server_faults}; "
            f"the server's own move times (whole run): {server_moves}; "
            f"of which the write, handed to stored: {server_stored}"
        )
        if args.clock != "none":
            print(
                f"clock {args.clock} x {args.clock_scale}: {figures['timeouts']} timeouts seen "
                f"{figures['timeout_late_p50_ms']} ms (p50), {figures['timeout_late_p99_ms']} ms (p99), "
                f"{figures['timeout_late_max_ms']} ms (max) after their deadlines; "
                f"server timer: {server_late}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
