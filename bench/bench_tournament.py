"""An arena of many players at human pace: pairing after a game's end, standings latency, the director's
cost, and move latency.

Run by hand (not a test; these machines are shared and noisy)::

    PYTHONPATH=src .venv/bin/python bench/bench_tournament.py [--players 1000] [--seconds 120]
        [--think 2] [--clock 15+60] [--clock-scale 0.5] [--cluster 3] [--leave] [--per-second]
        [--clients-nice 19]

It starts ``roppyakken serve`` on a fresh SQLite file (``--cluster N``: N members on PostgreSQL and
Redis behind nginx, from tests/harness/services.py), makes an account that creates an arena of
tables of 2 starting in ``--start-in`` seconds, and makes ``--players`` players (each its own
cookie identity: joining needs no account), who join it and watch its socket
``/ws/tournament/<id>`` with their cookies.  Whenever a player's socket message gives a new
``me.table``, its client plays that table over the room's websocket as bench_server.py's clients do
(a random legal action after ``--think`` seconds × 0.5–1.5), and reconnects when the server closes
the room's socket, as the browser's client does (counted, by close code and reason).

Measured for ``--seconds`` after ``--warmup`` seconds from the arena's start or, if later, the
last player's joining:

* **pairing**: from the client's receipt of ``game_end`` to the first socket message giving the
  player's next table;
* **standings**: from the receipt of ``game_end`` to the first socket message whose standings
  line of the player counts that game;
* **moves**: from sending ``act`` to receiving the ``state`` that results from it;
* **on the server**: ``roppyakken_move_seconds`` (a move's arrival to its result sent) and the part
  of it its write took (``roppyakken_move_stored_seconds``);
* **the director**: ``roppyakken_tournament_step_seconds`` from every server's ``/metrics``
  (a step's transaction, the thread CPU it used, and the pairing call alone), and the server
  processes' CPU;
* the bytes the tournament sockets received;
* **where the slow moves are**: second by second, the share of the moves over 20 ms that fall in
  the tenth of the seconds with the most games' ends and pairings (the arena's waves), and the
  correlation; with ``--per-second``, the same for the server's own moves over 20 ms, its
  histogram read every second, beside how long its event-loop thread ran and waited for a core
  in those seconds (the kernel's ``schedstat``: a wait is another process or thread on the core,
  such as the bench's own clients).

``--clients-nice 19`` runs the clients at the lowest priority, the servers at their own: the kernel
gives the servers a core whenever they need one, as clients on other machines would leave them
(the client-side latencies then include the clients' own waits; read the server's).

Compare the move latency with bench_server.py's clocked games run the same way, e.g.
``bench/bench_server.py --games 500 --players 2 --clock 15+60 --clock-scale 0.5 --think 2``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_server import _cpu_seconds, _raise_file_limit, _stop, pace_clients_collector

CSRF = "X-CSRF-Token"
RECONNECTS = 10
"""Reconnections of one table's socket before the player gives it up (an error)."""
BOUNDS = [
    "--rooms-per-minute",
    "100000",
    "--requests-per-minute",
    "1000000",
    "--guests-per-hour",
    "1000000",
    "--connections-per-address",
    "10000",
    "--rated-same-address",
]


@dataclass
class Tally:
    """What the clients measured."""

    pairing: list[float] = field(default_factory=list)
    standings: list[float] = field(default_factory=list)
    moves: list[float] = field(default_factory=list)
    moved_at: list[float] = field(default_factory=list)
    """When each of :attr:`moves` was answered (wall time), for the timeline."""
    ended_at: list[float] = field(default_factory=list)
    """When each game's end reached its player (wall time, measured games)."""
    paired_at: list[float] = field(default_factory=list)
    """When each player learnt their next table (wall time, measured pairings)."""
    server_seconds: list[tuple[float, int, int, float, float]] = field(default_factory=list)
    """With ``--per-second``: at each second's end (wall time), the moves the servers sent in it, how
    many of them over 20 ms after their arrival, and the seconds the servers' event-loop threads ran
    and waited for a core in it (the kernel's ``schedstat``)."""
    games: int = 0
    errors: int = 0
    reconnects: dict[str, int] = field(default_factory=dict)
    """Room sockets opened again, by why they closed (the close code and reason)."""
    socket_bytes: int = 0
    socket_messages: int = 0
    measuring: bool = False


class Entrant:
    """One player: its cookies, its seat token, its tournament socket and its games."""

    def __init__(self, index: int, player_id: str, cookie: str, token: str) -> None:
        self.index = index
        self.player_id = player_id
        self.cookie = cookie
        self.token = token
        self.rooms_played: set[str] = set()
        self.ended_at: float | None = None
        """When its last game's ``game_end`` arrived (not yet paired again)."""
        self.counted: tuple[int, float] | None = None
        """Games its standings line should count, and when the last of them ended."""
        self.games = 0


async def _make_player(client: httpx.AsyncClient, name: str) -> tuple[str, str]:
    made = await client.post("/api/me", json={"name": name}, headers={CSRF: "new"})
    made.raise_for_status()
    cookie = "; ".join(f"{k}={v}" for k, v in made.cookies.items())
    return cookie, str(made.json()["csrf"])


async def _entrant_made(url: str, tournament: str, i: int) -> Entrant:
    """A new player (its own cookies: none kept in a shared client) who joins the tournament."""
    async with httpx.AsyncClient(base_url=url, timeout=120) as mine:
        made = await mine.post("/api/me", json={"name": f"p{i}"}, headers={CSRF: "new"})
        made.raise_for_status()
        cookie = "; ".join(f"{k}={v}" for k, v in made.cookies.items())
        joined = await mine.post(
            f"/api/tournaments/{tournament}/join", json={}, headers={CSRF: str(made.json()["csrf"])}
        )
        if joined.status_code != 200:
            raise SystemExit(f"player {i} could not join: {joined.status_code} {joined.text}")
        return Entrant(i, str(made.json()["player"]["id"]), cookie, str(joined.json()["token"]))


async def _play(url: str, room: str, seat_token: str, think: float, rng: random.Random, tally: Tally) -> bool:
    """Play one table to its end, reconnecting as the browser's client does when the server closes
    the socket (``restarting``: the room moved to another member; ``try again``: the database was
    busy) or the handshake fails; True when the game ended."""
    for attempt in range(RECONNECTS + 1):
        try:
            return await _play_once(url, room, seat_token, think, rng, tally)
        except ConnectionClosed as exc:
            if attempt == RECONNECTS:
                raise
            why = "no close frame" if exc.rcvd is None else f"{exc.rcvd.code} {exc.rcvd.reason[:40]}"
        except (InvalidHandshake, OSError, TimeoutError) as exc:
            if attempt == RECONNECTS:
                raise
            why = f"handshake: {type(exc).__name__}"
        tally.reconnects[why] = tally.reconnects.get(why, 0) + 1
        await asyncio.sleep(rng.uniform(0.25, 0.75) * (attempt + 1))
    raise AssertionError("unreachable")


async def _play_once(
    url: str, room: str, seat_token: str, think: float, rng: random.Random, tally: Tally
) -> bool:
    """One connection to a table: played until the game's end (True) or the server closes it."""
    ws_url = url.replace("http://", "ws://") + f"/ws/{room}"
    async with connect(ws_url, open_timeout=60, max_size=2**22, compression=None) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": seat_token}))
        sent_at: float | None = None
        sent_seq = -1
        while True:
            raw = await ws.recv()
            if not isinstance(raw, str):
                continue
            if raw.startswith('{"type":"game_end"'):
                return True
            if raw.startswith('{"type":"error"'):
                tally.errors += 1
                continue
            if not raw.startswith('{"type":"state"'):
                continue
            message = json.loads(raw)
            if sent_at is not None and message["seq"] > sent_seq:
                if tally.measuring:
                    tally.moves.append(time.perf_counter() - sent_at)
                    tally.moved_at.append(time.time())
                sent_at = None
            view = message["view"]
            if view["legal"] and view["seat"] == view["to_act"]:
                if think > 0:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent_seq = message["seq"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal"])}))


def _own_line(raw: str, player_id: str) -> dict[str, Any] | None:
    """The player's standings line in a ``tournament`` message (its lines are flat objects)."""
    begin, end = raw.find('"standings":['), raw.find('],"tables":[')
    at = raw.find(f'"player":{json.dumps(player_id)},', begin, end)
    if at < 0:
        return None
    line: dict[str, Any] = json.loads(raw[raw.rindex("{", begin, at) : raw.index("}", at) + 1])
    return line


async def _entrant(
    e: Entrant,
    url: str,
    tournament: str,
    think: float,
    ends: float,
    tally: Tally,
    seed: int,
    leave: bool,
    hide: bool = False,
) -> None:
    """Watch the tournament socket; play each new table as it comes (``leave``: as the browser's page
    does, the socket is closed while the player is at a table and opened again at its end; ``hide``:
    the page says it is hidden while the player is at a table, as a tab behind the table's does)."""
    rng = random.Random(f"{seed}:{e.index}")
    while time.time() < ends:
        playing = await _watch(e, url, tournament, think, ends, tally, rng, leave, hide)
        if playing is None:
            return
        if leave:
            await playing


async def _watch(
    e: Entrant,
    url: str,
    tournament: str,
    think: float,
    ends: float,
    tally: Tally,
    rng: random.Random,
    leave: bool,
    hide: bool = False,
) -> asyncio.Task[bool] | None:
    """The tournament socket until the arena's end (``leave``: until the player's next table, whose
    game it returns, under way)."""
    ws_url = url.replace("http://", "ws://") + f"/ws/tournament/{tournament}"
    playing: asyncio.Task[bool] | None = None
    async with connect(
        ws_url, open_timeout=120, max_size=2**26, compression=None, additional_headers={"Cookie": e.cookie}
    ) as ws:
        while time.time() < ends:
            try:
                raw = await asyncio.wait_for(ws.recv(), max(0.1, ends - time.time()))
            except TimeoutError:
                break
            if not isinstance(raw, str):
                continue
            now = time.perf_counter()
            tally.socket_bytes += len(raw)
            tally.socket_messages += 1
            if not raw.startswith('{"type":"tournament"'):
                continue
            # only the player's own parts are parsed (the load generator's CPU is the machine's too)
            if e.counted is not None:
                mine = _own_line(raw, e.player_id)
                if mine is not None and mine["games"] >= e.counted[0]:
                    if tally.measuring:
                        tally.standings.append(now - e.counted[1])
                    e.counted = None
            me = json.loads(raw[raw.rindex('"me":') + 5 : raw.rindex(',"now":')])
            table = me["table"]
            if table is None or table["room"] in e.rooms_played or (playing and not playing.done()):
                continue
            e.rooms_played.add(table["room"])
            if e.ended_at is not None and tally.measuring:
                tally.pairing.append(now - e.ended_at)
                tally.paired_at.append(time.time())
            e.ended_at = None

            async def shown(visible: bool) -> None:
                if hide:
                    with contextlib.suppress(ConnectionClosed):
                        await ws.send(json.dumps({"type": "visible", "visible": visible}))

            async def game(room: str = table["room"]) -> bool:
                await shown(False)
                try:
                    ended = await _play(url, room, e.token, think, rng, tally)
                except Exception as exc:
                    tally.errors += 1
                    print(f"player {e.index}: {type(exc).__name__}: {exc}", file=sys.stderr)
                    return False
                if ended:
                    at = time.perf_counter()
                    e.games += 1
                    e.ended_at = at
                    e.counted = (e.games, at)
                    tally.games += 1
                    if tally.measuring:
                        tally.ended_at.append(time.time())
                await shown(True)
                return ended

            playing = asyncio.create_task(game())
            if leave:
                return playing
        if playing is not None:
            playing.cancel()
            with contextlib.suppress(BaseException):
                await playing
    return None


async def _arena(
    args: argparse.Namespace, url: str, urls: list[str], urls_all: list[str], pids: list[int], tally: Tally
) -> dict[str, Any]:
    """Make the arena, its players join, and play it; what was measured besides the tally (``urls_all``:
    every server's own URL, for their metrics; ``pids``: their processes)."""
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as client:
        cookie, csrf = await _make_player(client, "Host")
        headers = {CSRF: csrf, "Cookie": cookie}
        client.cookies.clear()
        signed = await client.post(
            "/api/account", json={"login": "arenahost", "password": "correct horse battery"}, headers=headers
        )
        signed.raise_for_status()
        cookie = "; ".join(
            [cookie, *(f"{k}={v}" for k, v in signed.cookies.items())]
        )  # the session cookie besides the player's
        headers = {CSRF: str(signed.json()["csrf"]), "Cookie": cookie}
        client.cookies.clear()
        made = await client.post(
            "/api/tournaments",
            json={
                "name": "Bench arena",
                "format": "arena",
                "players": 2,
                "clock": args.clock,
                "rated": False,
                "starts_in": args.start_in,
                "minutes": args.minutes,
            },
            headers=headers,
        )
        if made.status_code != 201:
            raise SystemExit(f"the arena was not made: {made.status_code} {made.text}")
        tournament = str(made.json()["id"])
        made_at = time.time()
        sem = asyncio.Semaphore(32)

        async def one(i: int) -> Entrant:
            async with sem:
                for attempt in range(5):
                    try:
                        return await _entrant_made(urls[i % len(urls)], tournament, i)
                    except httpx.HTTPError as exc:  # a loaded server: again, a little later
                        print(f"player {i}: {type(exc).__name__}: {exc}; again", file=sys.stderr)
                        await asyncio.sleep(1.0 + attempt)
                raise SystemExit(f"player {i} could not join")

        entrants = await asyncio.gather(*(one(i) for i in range(args.players)))
        joined_in = time.time() - made_at
        starts = made_at + args.start_in
        if time.time() > starts:
            print(f"warning: joining took {joined_in:.0f} s, past the start", file=sys.stderr)
        # measured from everybody's joining (late ones play from theirs), within the arena's time
        ends = min(starts + args.minutes * 60.0, max(starts, time.time()) + args.warmup + args.seconds) - 2.0
        tasks = [
            asyncio.create_task(
                _entrant(
                    e,
                    urls[e.index % len(urls)],
                    tournament,
                    args.think,
                    ends,
                    tally,
                    args.seed,
                    args.leave,
                    args.hidden_at_table,
                )
            )
            for e in entrants
        ]
        collecting = pace_clients_collector()  # short collector pauses of the load generator's own
        await asyncio.sleep(max(0.0, starts - time.time()) + args.warmup)
        tally.measuring = True
        measured_from = time.time()
        moves_before = await asyncio.to_thread(_server_moves, urls_all)
        scraping = asyncio.create_task(_per_second(urls_all, pids, tally)) if args.per_second else None
        await asyncio.gather(*tasks, return_exceptions=True)
        collecting.cancel()
        if scraping is not None:
            scraping.cancel()
        moves_after = await asyncio.to_thread(_server_moves, urls_all)
        server_moves = {
            name: {le: n - moves_before[name].get(le, 0) for le, n in counts.items()}
            for name, counts in moves_after.items()
        }
        return {
            "tournament": tournament,
            "joined_in": joined_in,
            "measured": time.time() - measured_from,
            "server_moves": server_moves,
        }


def _start_single(database: str, clock_scale: float, players: int) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-c", "from roppyakken.cli import main; raise SystemExit(main())"]
    command += ["serve", "--port", "0", "--bot-delay", "0", "--database", database]
    command += ["--clock-scale", str(clock_scale), "--tournament-entries", str(players), *BOUNDS]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert server.stdout is not None
    line = server.stdout.readline()
    found = re.search(r"http://[^/\s]+", line)
    if not found:
        server.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return server, found.group(0)


@contextlib.contextmanager
def _servers(args: argparse.Namespace) -> Iterator[tuple[str, list[str], list[int], list[str]]]:
    """(the URL players use, each player's URL by index, the server pids, each server's own URL)."""
    if args.cluster:
        from tests.harness import services

        extra = ["--clock-scale", str(args.clock_scale), "--tournament-entries", str(args.players), *BOUNDS]
        # a player at a table holds two websockets through nginx, each two of its connections
        with services.cluster(args.cluster, extra, connections=4 * args.players + 512) as stack:
            pids = [m.proc.pid for m in stack.members if m.proc is not None]
            try:
                yield stack.url, [stack.url], pids, [m.url for m in stack.members]
            finally:
                for member in stack.members:
                    _said(member.url, member.log)
        return
    with tempfile.TemporaryDirectory(prefix="roppyakken-bench-") as tmp:
        server, url = _start_single(f"sqlite:///{tmp}/bench.sqlite3", args.clock_scale, args.players)
        try:
            yield url, [url], [server.pid], [url]
        finally:
            _stop(server)


def _said(url: str, log: Path) -> None:
    """What a member logged above INFO, and its relayed clients sent to reconnect, each kind of line
    once with its count (a clean run: nothing)."""
    kinds: dict[str, int] = {}
    for line in log.read_text(errors="replace").splitlines():
        if " WARNING " in line or " ERROR " in line or "Traceback" in line or "reconnects" in line:
            kind = re.sub(r"room \S+|[0-9a-f]{8,}|\b\d+\b", "#", line.split(" ", 2)[-1])[:160]
            kinds[kind] = kinds.get(kind, 0) + 1
    for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1])[:12]:
        print(f"member {url} logged {n} x: {kind}", file=sys.stderr)


def _histogram(text: str, name: str) -> dict[str, dict[str, float]]:
    """Per ``part`` label: the histogram's count and sum."""
    out: dict[str, dict[str, float]] = {}
    for part, kind, value in re.findall(rf'{name}_(count|sum)\{{part="([^"]+)"\}} ([0-9.e+-]+)', text):
        out.setdefault(kind, {})[part] = out.setdefault(kind, {}).get(part, 0.0) + float(value)
    return out


def _server_moves(urls: list[str]) -> dict[str, dict[float, int]]:
    """``roppyakken_move_seconds`` and ``roppyakken_move_stored_seconds`` of every server: how many
    moves were sent within each bound (seconds) from their arrival, and stored within each bound
    from their write handed to the database's writer, so far."""
    total: dict[str, dict[float, int]] = {"move": {}, "move_stored": {}}
    for url in urls:
        try:
            text = httpx.get(url + "/metrics", timeout=10).text
        except httpx.HTTPError:
            continue
        for name, counts in total.items():
            for le, n in re.findall(rf'roppyakken_{name}_seconds_bucket\{{le="([^"]+)"\}} ([0-9.e+]+)', text):
                bound = float(le)
                counts[bound] = counts.get(bound, 0) + int(float(n))
    return total


def _loop_threads(pids: list[int]) -> tuple[float, float]:
    """Seconds the servers' main (event-loop) threads have run on a core and waited for one, so far
    (``/proc/PID/task/PID/schedstat``: a wait is the kernel's, another process or thread on the core)."""
    ran = waited = 0.0
    for pid in pids:
        with contextlib.suppress(OSError, ValueError):
            fields = Path(f"/proc/{pid}/task/{pid}/schedstat").read_text().split()
            ran += int(fields[0]) / 1e9
            waited += int(fields[1]) / 1e9
    return ran, waited


async def _per_second(urls: list[str], pids: list[int], tally: Tally) -> None:
    """Read the servers' move histograms and their event-loop threads' schedstat every second
    (``--per-second``): each second's moves, those over 20 ms, and the loop threads' run and wait,
    into ``tally.server_seconds``."""
    last = await asyncio.to_thread(_server_moves, urls)
    last_ran, last_waited = _loop_threads(pids)
    while True:
        await asyncio.sleep(1.0)
        now = await asyncio.to_thread(_server_moves, urls)
        ran, waited = _loop_threads(pids)
        moves = now["move"].get(float("inf"), 0) - last["move"].get(float("inf"), 0)
        quick = now["move"].get(0.02, 0) - last["move"].get(0.02, 0)
        tally.server_seconds.append((time.time(), moves, moves - quick, ran - last_ran, waited - last_waited))
        last, last_ran, last_waited = now, ran, waited


def _bucket_quantiles(counts: dict[float, int]) -> str:
    """p50 and p99 of a cumulative histogram, as the bounds they fall within."""
    if not counts or max(counts.values()) == 0:
        return "none"
    bounds = sorted(counts)
    n = counts[bounds[-1]]

    def within(q: float) -> str:
        bound = next(b for b in bounds if counts[b] >= q * n)
        return "over the last bound" if bound == float("inf") else f"<= {1000 * bound:g} ms"

    shares = ", ".join(
        f"{100 * counts[b] / n:.2f}% <= {1000 * b:g} ms" for b in bounds if b in (0.01, 0.02, 0.05, 0.1)
    )
    return f"p50 {within(0.5)}, p99 {within(0.99)} ({n}; {shares})"


def _director(urls: list[str]) -> dict[str, dict[str, float]]:
    total: dict[str, dict[str, float]] = {}
    for url in urls:
        try:
            text = httpx.get(url + "/metrics", timeout=10).text
        except httpx.HTTPError:
            continue
        for part, kinds in _histogram(text, "roppyakken_tournament_step_seconds").items():
            for kind, value in kinds.items():
                total.setdefault(part, {})[kind] = total.setdefault(part, {}).get(kind, 0.0) + value
    return total


def _timeline(tally: Tally, slow: float, on_server: bool = False) -> str:
    """Whether the slow moves (over ``slow`` s; ``on_server``: over 20 ms on the servers, from
    ``--per-second``) come with the games' ends and pairings: second by second, the share of slow
    moves in the seconds with the most of those, and their correlation."""
    if on_server:
        counts = [(at - 0.5, n) for at, _, n, _, _ in tally.server_seconds]  # each second's middle
        times = [at for at, _ in counts]
    else:
        times = tally.moved_at
        counts = [(at, int(took > slow)) for at, took in zip(tally.moved_at, tally.moves, strict=True)]
    if not times:
        return "no moves"
    start = min(times)
    seconds = int(max(times) - start) + 1
    late, churn = [0] * seconds, [0] * seconds
    for at, n in counts:
        if 0 <= at - start < seconds:
            late[int(at - start)] += n
    for at in (*tally.ended_at, *tally.paired_at):
        if 0 <= at - start < seconds:
            churn[int(at - start)] += 1
    busiest = sorted(range(seconds), key=lambda i: -churn[i])[: max(1, seconds // 10)]
    share = sum(late[i] for i in busiest) / max(1, sum(late))
    try:
        correlation = statistics.correlation(churn, late)
    except statistics.StatisticsError:  # fewer than two seconds, or one side constant
        correlation = 0.0
    said = (
        f"{sum(late)} moves over {slow * 1000:.0f} ms in {seconds} s; the tenth of the seconds with the "
        f"most game ends and pairings ({sum(churn[i] for i in busiest)} of {sum(churn)}) held "
        f"{100 * share:.0f} % of them; correlation per second {correlation:.2f}"
    )
    if on_server:
        said += "; " + _loop_seconds(tally, start, seconds, set(busiest), late)
    return said


def _loop_seconds(tally: Tally, start: float, seconds: int, busiest: set[int], late: list[int]) -> str:
    """The servers' event-loop threads' run and wait for a core (ms a second, mean) in the busiest
    seconds, in the others, and in the seconds with moves over 20 ms."""
    ran: dict[int, float] = {}
    waited: dict[int, float] = {}
    for at, _, _, r, w in tally.server_seconds:
        i = int(at - 0.5 - start)
        if 0 <= i < seconds:
            ran[i], waited[i] = r, w

    def mean(xs: dict[int, float], which: set[int]) -> float:
        picked = [xs[i] for i in which if i in xs]
        return 1000 * statistics.fmean(picked) if picked else 0.0

    rest = set(range(seconds)) - busiest
    slow = {i for i in range(seconds) if late[i]}
    return (
        f"the loop threads ran {mean(ran, busiest):.0f} ms a second and waited "
        f"{mean(waited, busiest):.0f} ms for a core in those seconds, {mean(ran, rest):.0f} and "
        f"{mean(waited, rest):.0f} ms in the others, {mean(ran, slow):.0f} and {mean(waited, slow):.0f} ms "
        f"in the {len(slow)} seconds with a move over 20 ms"
    )


def _quantiles(xs: list[float]) -> str:
    if not xs:
        return "none"
    xs = sorted(xs)
    p99 = xs[int(0.99 * (len(xs) - 1))]
    p50 = statistics.median(xs)
    return f"p50 {1000 * p50:.0f} ms, p99 {1000 * p99:.0f} ms, max {1000 * xs[-1]:.0f} ms ({len(xs)})"


def _page_cost(players: int, tables: int, watchers: int) -> None:
    """One read's cost for its watchers on one member: every watcher's whole page built and compared
    (as each watcher did alone before), against the shared parts built once and each watcher's own."""
    from roppyakken.server.club.tournaments import view
    from roppyakken.server.club.tournaments.store import Entry, TableRow, Tournament
    from roppyakken.server.wire import tournament as to_page

    t = Tournament(
        "t", "Bench", "arena", "classic", 2, "15+60", False, "public", None, None, None,
        0.0, 0.0, 3600.0, None, 0, "running", None,
    )  # fmt: skip
    rng = random.Random(1)
    entries = tuple(Entry(f"p{i}", f"p{i}", 1500.0, "h", 0.0, 0.0, False, False, 0) for i in range(players))
    rows = []
    for k in range(tables):
        a, b = rng.sample(range(players), 2)
        done = k < tables - players // 2
        rows.append(
            TableRow(
                k + 1, 0, (f"p{a}", f"p{b}"), float(k), f"r{k}", float(k) if done else None,
                (1, 2) if done else None, frozenset(),
            )
        )  # fmt: skip
    snap = view.Snapshot(t, entries, tuple(rows), ())
    ids = [f"p{i % players}" for i in range(watchers)]
    began = time.process_time()
    size = 0
    for player in ids:
        answer = view.answer(snap, player, 0.0)
        json.dumps({**answer, "now": 0.0}, sort_keys=True)
        size += len(to_page.tournament(answer))
    whole = time.process_time() - began
    began = time.process_time()
    live = view.Live(view.Shared.of(snap))
    small = 0
    for player in ids:
        small += len(live.message(live.own(player), 0.0))
    shared = time.process_time() - began
    print(
        f"{players} players, {tables} tables, {watchers} watchers, one read: whole page each "
        f"{whole:.2f} s CPU, {size / 1e6:.1f} MB; shared parts once {shared:.3f} s CPU, {small / 1e6:.2f} MB"
    )


def main() -> int:
    """Run the arena and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--players", type=int, default=1000)
    parser.add_argument("--minutes", type=int, default=30, help="the arena's duration (30)")
    parser.add_argument("--seconds", type=float, default=120.0, help="seconds measured (120)")
    parser.add_argument("--start-in", type=int, default=60, help="seconds to its start, for joining (60)")
    parser.add_argument(
        "--warmup", type=float, default=20.0, help="seconds after the start not measured (20)"
    )
    parser.add_argument("--think", type=float, default=2.0, help="mean seconds a player thinks (2)")
    parser.add_argument("--clock", default="15+60")
    parser.add_argument("--clock-scale", type=float, default=0.5)
    parser.add_argument("--cluster", type=int, default=0, help="members on PostgreSQL+Redis+nginx (0: one)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--leave",
        action="store_true",
        help="close a player's tournament socket while at a table, as the browser's page does",
    )
    parser.add_argument(
        "--hidden-at-table",
        action="store_true",
        help="a player's tournament page says it is hidden while they are at a table (a tab behind)",
    )
    parser.add_argument(
        "--per-second",
        action="store_true",
        help="read the servers' move histograms every second: where their slow moves are",
    )
    parser.add_argument(
        "--clients-nice",
        type=int,
        default=0,
        metavar="N",
        help="the clients run at this niceness (19: a core for the servers whenever they need it, as "
        "clients on other machines would leave them)",
    )
    parser.add_argument(
        "--page-only", type=int, metavar="TABLES", help="only time one read's pages for that many tables"
    )
    args = parser.parse_args()
    if args.page_only:
        _page_cost(args.players, args.page_only, args.players)
        return 0
    _raise_file_limit()
    tally = Tally()
    with _servers(args) as (url, urls, pids, member_urls):
        before = _director(member_urls)
        cpu0 = sum(_cpu_seconds(p) or 0.0 for p in pids)
        mine0 = time.process_time()
        if args.clients_nice:
            os.setpriority(os.PRIO_PROCESS, 0, args.clients_nice)  # this thread; those it starts inherit it
        run = asyncio.run(_arena(args, url, urls, member_urls, pids, tally))
        cpu = sum(_cpu_seconds(p) or 0.0 for p in pids) - cpu0
        client_cpu = time.process_time() - mine0
        after = _director(member_urls)
    steps = {
        part: {k: v - before.get(part, {}).get(k, 0.0) for k, v in kinds.items()}
        for part, kinds in after.items()
    }
    where = f"{args.cluster} members" if args.cluster else "one process"
    watching = (
        "watching only between games"
        if args.leave
        else "the page open throughout, hidden at a table"
        if args.hidden_at_table
        else "watching throughout"
    )
    print(
        f"arena of {args.players} players (tables of 2), clock {args.clock} x {args.clock_scale}, "
        f"think {args.think} s, {where}, {watching}"
    )
    print(f"joined in {run['joined_in']:.0f} s; measured {run['measured']:.0f} s; games ended {tally.games}")
    print(f"game end -> next pairing: {_quantiles(tally.pairing)}")
    print(f"game end -> standings counting it: {_quantiles(tally.standings)}")
    print(f"move latency: {_quantiles(tally.moves)}")
    print(f"  slow moves and the games' ends: {_timeline(tally, 0.020)}")
    if args.per_second:
        print(f"  on the server, second by second: {_timeline(tally, 0.020, on_server=True)}")
    print(f"move latency on the server (arrival to sent): {_bucket_quantiles(run['server_moves']['move'])}")
    print(f"  of which the write, handed to stored: {_bucket_quantiles(run['server_moves']['move_stored'])}")
    print(
        f"tournament sockets: {tally.socket_messages} messages, {tally.socket_bytes / 1e6:.1f} MB "
        f"({tally.socket_bytes / 1e6 / max(1.0, run['measured']):.2f} MB/s over the measured seconds)"
    )
    for part, kinds in sorted(steps.items()):
        n = kinds.get("count", 0.0)
        if n:
            print(f"director {part}: {n:.0f} observed, mean {1000 * kinds.get('sum', 0.0) / n:.1f} ms")
    print(
        f"server CPU {cpu:.0f} s (whole run), client CPU {client_cpu:.0f} s; errors {tally.errors}; "
        f"room sockets reopened {sum(tally.reconnects.values())}"
    )
    for why, n in sorted(tally.reconnects.items(), key=lambda kv: -kv[1]):
        print(f"  reopened after {why}: {n}")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
