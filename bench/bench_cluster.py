"""A cluster's overhead: the same games through one member, through three behind nginx, and relayed.

Run by hand (not a test; the machine is shared and noisy)::

    nice -n 10 .venv/bin/python bench/bench_cluster.py [--games 30] [--seconds 15] [--think 0.05]
        [--redis-cluster]

It starts a throwaway PostgreSQL, a redis-server, three ``roppyakken serve
--redis`` members and nginx in front of them (tests/harness/services.py: the same
services and nginx configuration as the tests), then runs the same load four
ways, each for ``--seconds``:

* ``1 member``: every client connects to one member (which holds every room);
* ``1 member, nginx``: the same, through nginx (the balancer's own cost);
* ``3 members, nginx``: round-robin, no affinity: a client reaches the room's
  holder one time in three, otherwise a relay;
* ``3 members, relayed``: every client connects to a member that does not hold
  its room, so every move takes the hop (relay → Redis → holder → Redis → relay).

The load: ``--games`` 2-player games at once, each seat a random player that
acts ``--think`` seconds after its state offers it a decision; when a game ends
its slot starts another.  A move's latency is from sending ``act`` to receiving
the ``state`` that results.  Then the failover: the member holding the most of
``--games`` running games is killed (``kill -9``), and for each of its games the
time from the kill to the first move made after it is measured (the clients
reconnect through nginx, another member takes the lease and restores the game).

``--redis-cluster``: the members share a six-node Redis Cluster (tests/harness/redis_cluster.py)
instead of one redis-server, and a second failover is measured: the master serving the leases' slot
is killed (``kill -9``), and for every running game the time from the kill to its first move after.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from roppyakken.server.cluster.redislink import KeySpace, is_cluster
from tests.harness import redis_cluster, services

RULES = {"toml": 'preset = "classic"\ninstant_win = "off"\ntarget = 10000\n'}
"""Games that do not end during a run (the load stays the same)."""


@dataclass
class Tally:
    """What one way of running the load measured."""

    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    errors: int = 0


@dataclass
class Game:
    """A running game: its room and the highest ``seq`` any of its clients saw, and when."""

    room: str
    seq: int = -1
    seen_at: float = 0.0
    moves_after: dict[float, float] = field(default_factory=dict)


async def _seat(
    url: Callable[[], str],
    game: Game,
    token: str,
    think: float,
    until: float,
    tally: Tally,
    rng: random.Random,
) -> None:
    """Play one seat until ``until`` (reconnecting whenever the connection drops)."""
    while time.perf_counter() < until:
        try:
            ws_url = url().replace("http://", "ws://") + f"/ws/{game.room}"
            async with connect(ws_url, open_timeout=30, max_size=2**22, compression=None) as ws:
                await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
                sent_at, sent_seq = None, -1
                while time.perf_counter() < until:
                    try:
                        raw = await asyncio.wait_for(ws.recv(), max(0.1, until - time.perf_counter()))
                    except TimeoutError:
                        return
                    if not isinstance(raw, str):
                        continue
                    if raw.startswith('{"type":"error"'):
                        tally.errors += 1
                        continue
                    if not raw.startswith('{"type":"state"'):
                        continue
                    message = json.loads(raw)
                    now = time.perf_counter()
                    if message["seq"] > game.seq:
                        game.seq, game.seen_at = message["seq"], now
                    if sent_at is not None and message["seq"] > sent_seq:
                        tally.latencies.append(now - sent_at)
                        tally.moves += 1
                        sent_at = None
                    view = message["view"]
                    if view["legal"] and view["seat"] == view["to_act"]:
                        await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                        sent_seq, sent_at = message["seq"], time.perf_counter()
                        act = {"type": "act", "action": rng.choice(view["legal"]), "seq": message["seq"]}
                        await ws.send(json.dumps(act))
        except (OSError, ConnectionClosed, InvalidHandshake, TimeoutError):
            await asyncio.sleep(0.1)


def _new_game(create_at: str) -> tuple[Game, list[str]]:
    body = {"name": "a", "players": 2, "rules": RULES}
    created = httpx.post(create_at + "/api/rooms", json=body, timeout=30)
    assert created.status_code == 201, created.text
    room = created.json()["room"]
    joined = httpx.post(f"{create_at}/api/rooms/{room}/join", json={"name": "b"}, timeout=30).json()
    return Game(room), [created.json()["token"], joined["token"]]


async def _load(
    games: list[tuple[Game, list[str]]],
    url_for: Callable[[int], Callable[[], str]],
    think: float,
    seconds: float,
) -> Tally:
    tally = Tally()
    until = time.perf_counter() + seconds
    tasks = []
    for n, (game, tokens) in enumerate(games):
        for i, token in enumerate(tokens):
            rng = random.Random(f"{n}:{i}")
            tasks.append(
                asyncio.create_task(_seat(url_for(n * 2 + i), game, token, think, until, tally, rng))
            )
    await asyncio.gather(*tasks)
    return tally


def _start_all(games: list[tuple[Game, list[str]]], url: str) -> None:
    """Start each game (its host says ``start``) through ``url``."""

    async def start() -> None:
        for game, tokens in games:
            async with connect(url.replace("http://", "ws://") + f"/ws/{game.room}") as ws:
                await ws.send(json.dumps({"type": "hello", "v": 1, "token": tokens[0]}))
                await ws.send(json.dumps({"type": "start"}))
                while not str(await ws.recv()).startswith('{"type":"state"'):
                    pass

    asyncio.run(start())


def _fixed(url: str) -> Callable[[int], Callable[[], str]]:
    """Every client to ``url``."""
    return lambda n: lambda: url


def _summary(name: str, tally: Tally, seconds: float, cpu: float) -> str:
    lat = sorted(tally.latencies)
    if not lat:
        return f"| {name} | 0 | – | – | – | {tally.errors} |"
    p50 = statistics.median(lat) * 1000
    p99 = lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000
    per_move = cpu / tally.moves * 1000
    return (
        f"| {name} | {tally.moves / seconds:.1f} | {p50:.2f} ms | {p99:.2f} ms | {per_move:.2f} ms "
        f"| {tally.errors} |"
    )


def main() -> int:
    """Run the benchmark and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--think", type=float, default=0.05)
    parser.add_argument("--redis-cluster", action="store_true", help="a six-node Redis Cluster")
    args = parser.parse_args()
    rows = []
    cluster_failover = ""
    with _stack(args.redis_cluster) as (stack, nodes):
        a, b, c = stack.members
        others = [b.url, c.url]
        ways: list[tuple[str, str, Callable[[int], Callable[[], str]]]] = [
            ("1 member", a.url, lambda n: lambda: a.url),
            ("1 member, nginx", a.url, lambda n: lambda: stack.url),
            ("3 members, nginx", stack.url, lambda n: lambda: stack.url),
            ("3 members, relayed", a.url, lambda n: lambda: others[n % 2]),
        ]
        pids = [m.proc.pid for m in stack.members if m.proc is not None]
        for name, create_at, url_for in ways:
            games = [_new_game(create_at) for _ in range(args.games)]
            cpu_before = services.cpu_seconds(pids)
            if name == "1 member, nginx":
                # nginx over one member only: the others are out of its rotation for this run
                with services.nginx([a.port]) as port:
                    solo = f"http://127.0.0.1:{port}"
                    _start_all(games, solo)
                    tally = asyncio.run(_load(games, _fixed(solo), args.think, args.seconds))
            else:
                _start_all(games, create_at)
                tally = asyncio.run(_load(games, url_for, args.think, args.seconds))
            rows.append(_summary(name, tally, args.seconds, services.cpu_seconds(pids) - cpu_before))
            print(rows[-1], flush=True)
        if nodes is not None:
            cluster_failover = _redis_failover(stack, nodes, args.games, args.think)
        failover = _failover(stack, args.games, args.think)
    print()
    print(f"{args.games} games of 2 at once, think {args.think} s, {args.seconds:.0f} s each way")
    print("| way | moves/s | p50 | p99 | members' CPU per move | errors |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for row in rows:
        print(row)
    print()
    print(failover)
    if cluster_failover:
        print(cluster_failover)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


@contextmanager
def _stack(on_cluster: bool) -> Iterator[tuple[services.Stack, redis_cluster.RedisClusterNodes | None]]:
    """Three members and nginx, on one redis-server or (``on_cluster``) on a six-node Redis Cluster."""
    if not on_cluster:
        with services.cluster(3) as stack:
            yield stack, None
        return
    with redis_cluster.redis_cluster() as nodes, services.cluster(3, redis_url=nodes.url) as stack:
        yield stack, nodes


def _holders(stack: services.Stack, rooms: list[str]) -> dict[str, str]:
    """The member holding each of ``rooms`` (its id), read from Redis or the Redis Cluster."""
    import redis

    if not is_cluster(stack.redis):
        client = redis.Redis.from_url(stack.redis, decode_responses=True)
        return {room: str(client.get(KeySpace().lease(room))) for room in rooms}
    nodes = stack.redis.split("://", 1)[1].split(",")
    host, port = nodes[0].rsplit(":", 1)
    cluster = redis.RedisCluster(host=host, port=int(port), decode_responses=True)
    try:
        return {room: str(cluster.get(KeySpace(sharded=True).lease(room))) for room in rooms}
    finally:
        cluster.close()


Strike = Callable[[list[Game]], tuple[list[Game], Callable[[], None]]]
"""Given the running games: those to watch, and the kill."""


def _kill_and_time(
    stack: services.Stack, count: int, think: float, seconds: float, strike: Strike
) -> tuple[list[Game], list[float], int]:
    """Play ``count`` games through ``stack`` for ``seconds``; 3 s in, ``strike`` picks the games to
    watch and the kill, which is made then: the games watched, the seconds from the kill until each
    has a new move (those that had one), and the errors the players met until then."""
    games = [_new_game(stack.url) for _ in range(count)]
    _start_all(games, stack.url)
    watched: list[Game] = []
    waits: list[float] = []
    errors: list[int] = []

    async def scenario() -> None:
        tally = Tally()
        until = time.perf_counter() + seconds
        tasks = [
            asyncio.create_task(_seat(lambda: stack.url, g, t, think, until, tally, random.Random(i)))
            for g, tokens in games
            for i, t in enumerate(tokens)
        ]
        await asyncio.sleep(3)
        chosen, kill = strike([g for g, _ in games])
        watched.extend(chosen)
        before = {g.room: g.seq for g in chosen}
        killed = time.perf_counter()
        kill()
        while len(waits) < len(chosen) and time.perf_counter() < until:
            await asyncio.sleep(0.01)
            waits[:] = [g.seen_at - killed for g in chosen if g.seq > before[g.room] and g.seen_at > killed]
        errors.append(tally.errors)
        await asyncio.gather(*tasks)

    asyncio.run(scenario())
    return watched, waits, errors[0]


def _redis_failover(
    stack: services.Stack, nodes: redis_cluster.RedisClusterNodes, count: int, think: float
) -> str:
    """Kill -9 the Redis Cluster master serving the leases' slot; the time until each game moves on."""
    master = nodes.master_of(KeySpace(sharded=True).rooms)
    _, waits, errors = _kill_and_time(stack, count, think, 30, lambda games: (games, master.kill))
    nodes.wait_ok(60)
    if not waits:
        return "Redis Cluster failover: no game moved on"
    return (
        f"Redis Cluster failover: kill -9 of the leases' master with {count} games running; "
        f"{len(waits)} moved on, after {statistics.median(waits):.2f} s (median), "
        f"{max(waits):.2f} s (slowest); {errors} errors"
    )


def _failover(stack: services.Stack, count: int, think: float) -> str:
    """Kill -9 the member holding most games; the time until each of its games has a new move."""
    ids = stack.member_ids()
    victims: list[services.Member] = []

    def strike(games: list[Game]) -> tuple[list[Game], Callable[[], None]]:
        holders = _holders(stack, [g.room for g in games])
        victim_id = max(set(holders.values()), key=list(holders.values()).count)
        victims.append(ids[victim_id])
        return [g for g in games if holders[g.room] == victim_id], victims[0].kill

    theirs, waits, _ = _kill_and_time(stack, count, think, 25, strike)
    victims[0].start()
    if not waits:
        return "failover: no game moved on"
    return (
        f"failover: kill -9 of the member holding {len(theirs)} of {count} games; "
        f"{len(waits)} moved on, after {statistics.median(waits):.2f} s (median), "
        f"{max(waits):.2f} s (slowest)"
    )


if __name__ == "__main__":
    raise SystemExit(main())
