"""Leaderboard and profile queries over a large store: 100,000 rated games of ~10,000 players.

Run by hand (not a test; these machines are shared and noisy)::

    .venv/bin/python bench/bench_leaderboard.py [--games 100000] [--players 10000] [--samples 300]
        [--database postgresql://…]   # default: a fresh SQLite file in a temporary folder

It migrates a fresh database, then stores, in bulk, what the server would have stored
after that many rated games: players, rooms (each with a real game record), seats,
``seat_players``, ``game_seats`` (the profiles' per-seat summaries), ``rating_games``,
``ratings`` and ``rating_history``.  Players' activity is skewed as on a real site (a
few play thousands of games, most a handful); the games span a year, so a pool's board
holds the players active in its last 90 days.  PostgreSQL is analysed after the load, as
its autovacuum would; SQLite is left as the server leaves it (no ``ANALYZE``).

Then it times, each ``--samples`` times on one open connection (the server's database
thread does the same): the first page of the biggest pool's board, a middle page, its
last page, the first page of a small pool, and the profile of a random player (any
activity) and of the most active one.  Printed: p50/p99/max of each in ms, the deep/first
ratio, and the query plan of a board page.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, func, insert, select, text

from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import play_out
from roppyakken.engine import Game
from roppyakken.record import dumps, record_of
from roppyakken.rules import preset
from roppyakken.server.club import profiles
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import (
    game_seats,
    players,
    rating_games,
    rating_history,
    ratings,
    rooms,
    seat_players,
    seats,
)

POOL_SHARE = {
    "classic-2": 0.70,
    "classic-3": 0.10,
    "korean-2": 0.10,
    "korean-3": 0.05,
    "match-2": 0.03,
    "match-3": 0.02,
}
POOL_PRESET = {"classic": "classic", "korean": "yukbaek", "match": "marguerite"}
YAKU = [
    "boar-deer-butterfly",
    "red-ribbons",
    "blue-ribbons",
    "three-brights",
    "four-brights",
    "cannon",
    "flower-viewing",
]
LUCKY = ["hand-three", "hand-four", "hand-pair", "hand-plain"]
BATCH = 5000


def _sample_record() -> str:
    """A real record of a 2-player classic game (every room stores one of this size)."""
    game = play_out(Game(preset("classic"), 2, seed=5), [make_bot("greedy", 1), make_bot("greedy", 2)])
    return dumps(record_of(game, ["alice", "bob"]))


def _batches(rows: list[dict[str, Any]]) -> Iterator[list[dict[str, Any]]]:
    for i in range(0, len(rows), BATCH):
        yield rows[i : i + BATCH]


def _rate(mus: list[float], sigmas: list[float], places: list[int]) -> tuple[list[float], list[float]]:
    """A cheap stand-in for the rating update (only the numbers' spread matters here)."""
    n = len(mus)
    out_mu = [m + (n + 1 - 2 * p) * 0.4 * s / 8.3 for m, s, p in zip(mus, sigmas, places, strict=True)]
    out_sigma = [max(1.2, s * 0.94) for s in sigmas]
    return out_mu, out_sigma


def seed(conn: Connection, games: int, people: int, rng: random.Random, now: datetime) -> dict[str, int]:
    """Store ``games`` rated games of ``people`` players; each player's number of games."""
    ids = [f"p{i:05d}" for i in range(people)]
    conn.execute(
        insert(players),
        [{"id": p, "secret_hash": "0" * 64, "name": f"Player {p[1:]}", "created_at": now} for p in ids],
    )
    skill = {p: rng.gauss(0, 1) for p in ids}
    weight = [1.0 / (i + 15) ** 1.1 for i in range(people)]  # a few very active players, a long tail
    record = _sample_record()
    pools = list(POOL_SHARE)
    shares = list(POOL_SHARE.values())
    times = sorted(now - timedelta(days=365 * rng.random()) for _ in range(games))
    state: dict[tuple[str, str], list[Any]] = {}  # mu, sigma, games, last_seq, last_played
    played: dict[str, int] = dict.fromkeys(ids, 0)
    room_rows: list[dict[str, Any]] = []
    seat_rows: list[dict[str, Any]] = []
    owner_rows: list[dict[str, Any]] = []
    summary_rows: list[dict[str, Any]] = []
    game_rows: list[dict[str, Any]] = []
    history_rows: list[dict[str, Any]] = []

    def flush(final: bool = False) -> None:
        if not final and len(history_rows) < BATCH:
            return
        for table, rows in (
            (rooms, room_rows),
            (seats, seat_rows),
            (seat_players, owner_rows),
            (game_seats, summary_rows),
            (rating_games, game_rows),
            (rating_history, history_rows),
        ):
            if rows:
                for chunk in _batches(rows):
                    conn.execute(insert(table), chunk)
                rows.clear()

    for g, at in enumerate(times):
        pool = rng.choices(pools, shares)[0]
        family, count = pool.split("-")
        n = int(count)
        seated: list[str] = []
        while len(seated) < n:
            pick = ids[rng.choices(range(people), weight)[0]] if rng.random() < 0.8 else rng.choice(ids)
            if pick not in seated:
                seated.append(pick)
        order = sorted(range(n), key=lambda s: -(skill[seated[s]] + rng.gauss(0, 1.5)))
        places = [0] * n
        for place, s in enumerate(order):
            places[s] = place + 1
        room_id = f"r{g:07d}"
        seq = g + 1
        room_rows.append(
            {
                "id": room_id,
                "created_at": at - timedelta(minutes=25),
                "players": n,
                "preset": POOL_PRESET[family],
                "options": "{}",
                "seed": g,
                "status": "over",
                "finished_at": at,
                "winner": order[0],
                "record": record,
                "epoch": 1,
                "public": rng.random() < 0.7,
                "rated": True,
            }
        )
        public = room_rows[-1]["public"]
        before = [state.setdefault((p, pool), [25.0, 25 / 3, 0, 0, at]) for p in seated]
        mus, sigmas = _rate([b[0] for b in before], [b[1] for b in before], places)
        game_rows.append({"seq": seq, "room_id": room_id, "pool": pool, "finished_at": at, "result": "{}"})
        for s, p in enumerate(seated):
            seat_rows.append({"room_id": room_id, "seat": s, "kind": "human", "name": f"Player {p[1:]}"})
            owner_rows.append({"room_id": room_id, "seat": s, "player_id": p})
            rounds = rng.randint(2, 8)
            finals = [rng.choice((0, 0, 50, 100, 150, 300, 600)) for _ in range(rounds)]
            made = rng.sample(YAKU, rng.randint(0, 3))
            summary_rows.append(
                {
                    "room_id": room_id,
                    "seat": s,
                    "player_id": p,
                    "finished_at": at,
                    "preset": POOL_PRESET[family],
                    "public": public,
                    "rated": True,
                    "place": places[s],
                    "rounds": rounds,
                    "points": sum(finals),
                    "points_sq": float(sum(f * f for f in finals)),
                    "abandoned": rng.random() < 0.01,
                    "yaku": json.dumps({y: rng.randint(1, 2) for y in made}, sort_keys=True),
                    "lucky": json.dumps({rng.choice(LUCKY): 1} if rng.random() < 0.1 else {}),
                }
            )
            row = before[s]
            row[0], row[1], row[2], row[3], row[4] = mus[s], sigmas[s], row[2] + 1, seq, at
            history_rows.append(
                {
                    "player_id": p,
                    "pool": pool,
                    "seq": seq,
                    "mu": mus[s],
                    "sigma": sigmas[s],
                    "place": places[s],
                }
            )
            played[p] += 1
        flush()
    flush(final=True)
    rating_rows = [
        {
            "player_id": p,
            "pool": pool,
            "mu": v[0],
            "sigma": v[1],
            "games": v[2],
            "last_seq": v[3],
            "last_played": v[4],
        }
        for (p, pool), v in state.items()
    ]
    for chunk in _batches(rating_rows):
        conn.execute(insert(ratings), chunk)
    return played


def timed(samples: int, work: Callable[[int], object]) -> list[float]:
    """``work(i)`` ``samples`` times (after two warm-up calls); each call's milliseconds."""
    work(0)
    work(1)
    out = []
    for i in range(samples):
        began = time.perf_counter()
        work(i)
        out.append((time.perf_counter() - began) * 1000)
    return out


def p(values: list[float], q: float) -> float:
    """The ``q`` quantile (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=300)
    parser.add_argument("--database", default=None, help="a PostgreSQL URL (default: a fresh SQLite file)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep", action="store_true", help="keep the SQLite file (its path is printed)")
    parser.add_argument("--reuse", default=None, help="time the queries over a kept SQLite file again")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    folder = None if args.reuse or args.database else tempfile.mkdtemp(prefix="bench-leaderboard-")
    url = args.reuse or args.database or f"sqlite:///{Path(str(folder)) / 'games.sqlite3'}"
    db = Database(url)
    db.open()
    now = datetime(2026, 12, 1, tzinfo=UTC)
    began = time.perf_counter()
    if args.reuse:
        per_player = select(game_seats.c.player_id, func.count()).group_by(game_seats.c.player_id)
        found = db.run_now(lambda c: c.execute(per_player).all())
        played = {str(p): int(n) for p, n in found if p is not None}
    else:
        played = db.run_now(lambda c: seed(c, args.games, args.players, rng, now))
    load = time.perf_counter() - began
    if db.engine.dialect.name == "postgresql":
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as c:
            c.execute(text("ANALYZE"))
    size = ""
    if db.engine.dialect.name == "sqlite" and db.engine.url.database:
        size = f", file {os.path.getsize(db.engine.url.database) / 2**20:.0f} MiB"
    counts = sorted(played.values())
    games = db.run_now(lambda c: c.execute(select(func.count()).select_from(rooms)).scalar_one())
    print(
        f"{db.engine.dialect.name}: {games} games of {len(played)} players "
        f"{'reused' if args.reuse else f'stored in {load:.0f} s'}{size}; "
        f"games a player: median {statistics.median(counts):.0f}, max {counts[-1]}"
    )
    busiest = max(played, key=lambda k: played[k])
    someone = sorted(played)
    results: dict[str, list[float]] = {}
    with db.engine.connect() as conn:
        first = profiles.leaderboard(conn, "classic-2", 1, profiles.PAGE_SIZE, now)
        pages = first["pages"]
        small = profiles.leaderboard(conn, "match-3", 1, profiles.PAGE_SIZE, now)
        print(
            f"classic-2 board: {first['total']} players on {pages} pages of {profiles.PAGE_SIZE}; "
            f"match-3 board: {small['total']} players"
        )
        cases: dict[str, Callable[[int], object]] = {
            "board classic-2, page 1": lambda i: profiles.leaderboard(conn, "classic-2", 1, 50, now),
            f"board classic-2, page {max(1, pages // 2)}": lambda i: profiles.leaderboard(
                conn, "classic-2", max(1, pages // 2), 50, now
            ),
            f"board classic-2, page {pages} (last)": lambda i: profiles.leaderboard(
                conn, "classic-2", pages, 50, now
            ),
            "board match-3, page 1": lambda i: profiles.leaderboard(conn, "match-3", 1, 50, now),
            "profile, a random player": lambda i: profiles.profile(conn, rng.choice(someone), None),
            f"profile, the busiest ({played[busiest]} games)": lambda i: profiles.profile(
                conn, busiest, busiest
            ),
        }
        for name, work in cases.items():
            results[name] = timed(args.samples, work)
        plan_sql = "EXPLAIN QUERY PLAN " if db.engine.dialect.name == "sqlite" else "EXPLAIN "
        query = (
            "SELECT player_id FROM ratings WHERE pool = 'classic-2' AND last_played >= :since "
            "AND games >= 10 AND sigma <= 6.0 ORDER BY mu - 3.0 * sigma DESC, player_id LIMIT 50 OFFSET 1000"
        )
        since = now - timedelta(days=profiles.ACTIVE_DAYS)
        plan = [
            " ".join(str(x) for x in row) for row in conn.execute(text(plan_sql + query), {"since": since})
        ]
    load_avg = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"\nload average while timing: {load_avg} (on {os.cpu_count()} cores)")
    print(f"{'query':45} {'p50 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    for name, values in results.items():
        print(f"{name:45} {p(values, 0.5):8.2f} {p(values, 0.99):8.2f} {max(values):8.2f}")
    first_p99 = p(results["board classic-2, page 1"], 0.99)
    last_p99 = p(results[f"board classic-2, page {pages} (last)"], 0.99)
    print(f"\nlast page / first page (p99): {last_p99 / first_p99:.2f}")
    print("plan of a board page:", " | ".join(plan))
    db.engine.dispose()
    if folder is not None and args.keep:
        print(f"kept: {url}")
    elif folder is not None:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
