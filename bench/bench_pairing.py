"""Quick pairing under load: new players arrive at a steady rate and press Play; time to be paired.

Run by hand (not a test; these machines are shared and noisy)::

    .venv/bin/python bench/bench_pairing.py [--rate 50] [--seconds 20] [--players 2]

It starts ``roppyakken serve`` (a fresh SQLite file) unless ``--url`` names a
running server.  Every ``1/--rate`` seconds a new player is made
(``POST /api/me``), opens ``/ws/lobby`` with its cookie and seeks a game in one
pool (``classic``, ``--players``, ``60+300``).  A player's pairing time runs from
sending ``seek`` to receiving ``paired``; it then leaves (its game goes on with
the clock, untouched).  Printed: players, games made, pairing time p50/p99/max,
the server's CPU seconds per player paired, and whether every paired room had
distinct players (never one twice).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_server import _cpu_seconds, _raise_file_limit, _start_server, _stop


async def _player(
    url: str, index: int, players: int, times: list[float], rooms: dict[str, list[str]]
) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        made = await client.post("/api/me", json={"name": f"p{index}"}, headers={"X-CSRF-Token": "new"})
        made.raise_for_status()
        cookie = client.cookies["rp_player"]
    ws_url = url.replace("http://", "ws://") + "/ws/lobby"
    async with connect(ws_url, additional_headers={"Cookie": f"rp_player={cookie}"}) as ws:
        seek = {"type": "seek", "preset": "classic", "players": players, "clock": "60+300"}
        sent = time.perf_counter()
        await ws.send(json.dumps(seek))
        while True:
            message = json.loads(await asyncio.wait_for(ws.recv(), 120))
            if message["type"] == "paired":
                times.append(time.perf_counter() - sent)
                rooms.setdefault(message["room"], []).append(f"p{index}")
                return
            if message["type"] == "error":
                raise RuntimeError(message["message"])


async def _run(
    url: str, rate: float, seconds: float, players: int
) -> tuple[list[float], dict[str, list[str]], int]:
    times: list[float] = []
    rooms: dict[str, list[str]] = {}
    tasks = []
    start = time.perf_counter()
    total = int(rate * seconds) // players * players  # a whole number of games
    for index in range(total):
        await asyncio.sleep(max(0.0, start + index / rate - time.perf_counter()))
        tasks.append(asyncio.create_task(_player(url, index, players, times, rooms)))
    results = await asyncio.gather(*tasks, return_exceptions=True)
    failed = sum(isinstance(r, BaseException) for r in results)
    return times, rooms, failed


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--rate", type=float, default=50.0, help="new players a second")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument("--url", help="a running server (default: start one over a fresh SQLite file)")
    args = parser.parse_args()
    _raise_file_limit()
    server = None
    url = args.url
    if url is None:
        database = str(Path(tempfile.mkdtemp(prefix="roppyakken-pairing-")) / "games.sqlite3")
        server, url = _start_server(database)
    try:
        cpu_before = _cpu_seconds(server.pid if server else None)
        times, rooms, failed = asyncio.run(_run(url, args.rate, args.seconds, args.players))
        cpu_after = _cpu_seconds(server.pid if server else None)
    finally:
        if server is not None:
            _stop(server)
    times.sort()
    paired = len(times)
    print(f"players {paired + failed} at {args.rate:g}/s for {args.seconds:g} s, {args.players} a game")
    print(f"paired {paired}, failed {failed}, games made {len(rooms)}")
    if times:
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        print(
            f"time to be paired: p50 {statistics.median(times) * 1000:.0f} ms, "
            f"p99 {p99 * 1000:.0f} ms, max {times[-1] * 1000:.0f} ms"
        )
    distinct = all(len(set(names)) == len(names) == args.players for names in rooms.values())
    print(f"every game {args.players} distinct players: {distinct}")
    if cpu_before is not None and cpu_after is not None and paired:
        used = cpu_after - cpu_before
        print(f"server CPU {used:.2f} s: {used / paired * 1000:.1f} ms a player (account, lobby, game made)")
    return 0 if failed == 0 and distinct else 1


if __name__ == "__main__":
    raise SystemExit(main())
