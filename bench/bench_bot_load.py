"""Bots under load: many rooms of master bots from one client beside people's games.

Run by hand (not a test)::

    .venv/bin/python bench/bench_bot_load.py [--bot-rooms 24] [--people-rooms 10] [--bot-workers 2]

It starts ``roppyakken serve`` (fresh SQLite file, ``--bot-delay 0``) with
``--bot-workers`` processes for bots (0: threads in the server process, the old
way), opens ``--bot-rooms`` rooms where one websocket client plays at once
against a ``--level`` bot, and ``--people-rooms`` rooms of two clients that act
after about ``--think`` seconds, like people.  It prints, over the measured
seconds: each bot decision's time (from the state that asks the bot to act to
the state after its move: waiting for a worker, thinking, storing), against the
master's budget (230 ms, 690 ms for the hardest decisions), and the people's
act→state latency.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import re
import statistics
import subprocess
import sys
import tempfile
import time
from typing import Any

import httpx
from websockets.asyncio.client import connect


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return round(1000 * ordered[int(q * (len(ordered) - 1))], 1)


async def _play(
    url: str,
    room: str,
    token: str,
    think: float,
    span: tuple[float, float],
    rng: random.Random,
    out: dict[str, Any],
    host: bool = False,
) -> None:
    """One seat: act when asked; record people's act→state latency and bot decision times."""
    warm, until = span
    async with connect(url.replace("http", "ws") + f"/ws/{room}", max_size=2**22) as ws:
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        if host:
            await ws.send(json.dumps({"type": "start"}))
        sent_at: float | None = None
        bot_since: float | None = None
        while time.perf_counter() < until:
            try:
                raw = await asyncio.wait_for(ws.recv(), until - time.perf_counter() + 1)
            except TimeoutError:
                return
            if not isinstance(raw, str) or not raw.startswith('{"type":"state"'):
                if isinstance(raw, str) and raw.startswith('{"type":"game_end"'):
                    return
                continue
            now = time.perf_counter()
            view = json.loads(raw)["view"]
            if sent_at is not None:
                if now > warm:
                    out["people"].append(now - sent_at)
                sent_at = None
            if bot_since is not None:
                if now > warm:
                    out[out["solo"][room]].append(now - bot_since)
                bot_since = None
            mine = view["seat"] == view["to_act"]
            if not mine and room in out["solo"] and view["to_act"] is not None and view["winner"] is None:
                bot_since = now
            if mine and view["legal"]:
                if think > 0:
                    await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                sent_at = time.perf_counter() if think > 0 else None
                await ws.send(json.dumps({"type": "act", "action": rng.choice(view["legal"])}))


async def _run(args: argparse.Namespace, url: str) -> dict[str, Any]:
    out: dict[str, Any] = {"people": [], "bots": [], "others": [], "solo": {}}
    rng = random.Random(args.seed)
    start = time.perf_counter()
    span = (start + args.warmup, start + args.warmup + args.seconds)
    tasks = []
    async with httpx.AsyncClient(base_url=url, timeout=60) as client:

        async def solo(index: int, level: str, kind: str) -> None:
            """Games against a bot, one after another until the end of the run."""
            game = 0
            while time.perf_counter() < span[1]:
                body = {"name": f"s{index}", "seed": 1000 * index + game, "bots": {"1": level}}
                created = (await client.post("/api/rooms", json=body)).json()
                out["solo"][created["room"]] = kind
                await _play(url, created["room"], created["token"], 0.0, span, random.Random(game), out)
                game += 1

        for i in range(args.bot_rooms):
            tasks.append(solo(i, args.level, "bots"))
        for i in range(args.other_rooms):
            tasks.append(solo(args.bot_rooms + i, args.other_level, "others"))
        for i in range(args.people_rooms):
            created = (await client.post("/api/rooms", json={"name": f"p{i}"})).json()
            joined = (await client.post(f"/api/rooms/{created['room']}/join", json={"name": "q"})).json()
            for seat, token in enumerate((created["token"], joined["token"])):
                player = random.Random(rng.random())
                tasks.append(_play(url, created["room"], token, args.think, span, player, out, seat == 0))
        await asyncio.gather(*tasks, return_exceptions=True)
    return out


def main() -> int:
    """Run and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--bot-rooms", type=int, default=24)
    parser.add_argument("--people-rooms", type=int, default=10)
    parser.add_argument("--level", default="master")
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--other-rooms", type=int, default=5, help="rooms against a cheaper bot (5)")
    parser.add_argument("--other-level", default="expert", help="their level (expert)")
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument("--bot-workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    tmp = tempfile.TemporaryDirectory(prefix="roppyakken-botload-")
    command = [sys.executable, "-c", "from roppyakken.cli import main; raise SystemExit(main())", "serve"]
    command += ["--port", "0", "--bot-delay", "0", "--database", f"sqlite:///{tmp.name}/b.sqlite3"]
    command += ["--bot-workers", str(args.bot_workers), "--rooms-per-minute", "100000"]
    command += ["--requests-per-minute", "1000000", "--connections-per-address", "5000"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        found = re.search(r"http://[^/\\s]+", server.stdout.readline())
        if not found:
            raise SystemExit("the server did not start")
        out = asyncio.run(_run(args, found.group(0)))
        metrics = httpx.get(found.group(0) + "/metrics", timeout=30).text
    finally:
        server.terminate()
        server.wait(timeout=30)
        tmp.cleanup()
    bots, people, others = out["bots"], out["people"], out["others"]

    def sample(name: str) -> float:
        match = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", metrics, re.MULTILINE)
        return float(match.group(1)) if match else float("nan")

    level = f'level="{args.level}"'
    count = sample(f"roppyakken_bot_think_seconds_count{{{level}}}") or float("nan")
    think_mean = 1000 * sample(f"roppyakken_bot_think_seconds_sum{{{level}}}") / count
    wait_mean = 1000 * sample(f"roppyakken_bot_wait_seconds_sum{{{level}}}") / count
    within = sample(f'roppyakken_bot_think_seconds_bucket{{le="0.3",{level}}}') / count
    within_slow = sample(f'roppyakken_bot_think_seconds_bucket{{le="0.75",{level}}}') / count
    print(
        f"server side, whole run, {args.level}: {count:.0f} decisions, thinking mean {think_mean:.0f} ms "
        f"({100 * within:.0f}% within 300 ms, {100 * within_slow:.0f}% within 750 ms), "
        f"waiting for a worker mean {wait_mean:.0f} ms"
    )
    print(
        f"{args.bot_rooms} rooms of {args.level} + {args.people_rooms} rooms of two people, "
        f"bot workers {args.bot_workers}, {args.seconds:.0f} s measured: "
        f"{len(bots)} bot decisions p50 {_pct(bots, 0.5)} ms p90 {_pct(bots, 0.9)} ms "
        f"p99 {_pct(bots, 0.99)} ms; "
        f"{len(people)} people's moves act->state p50 {_pct(people, 0.5)} ms p99 {_pct(people, 0.99)} ms "
        f"(mean {round(1000 * statistics.mean(people), 1) if people else None} ms); "
        f"{len(others)} {args.other_level} decisions in {args.other_rooms} other rooms "
        f"p50 {_pct(others, 0.5)} ms p99 {_pct(others, 0.99)} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
