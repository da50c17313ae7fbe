"""Rating updates at scale: 100,000 stored rated games, then the time to recompute every rating.

Run by hand (not a test; these machines are shared and noisy)::

    .venv/bin/python bench/bench_ratings.py [--games 100000] [--players 2000] [--postgresql URL]

It makes a fresh database (a SQLite file; ``--postgresql URL`` an empty PostgreSQL
database as well), stores ``--games`` rated games among ``--players`` players (2 and
3 players, every pool, ties and leavers; the same seeded season for every database):
all but the last ``--incremental`` as stored results (rated by a first recompute),
the last ones through the server's own update (server/club/ratings/store.py
``record_game``: the update in each game's transaction, ``--batch`` games a
transaction as the server's group commit does; timed), then runs ``roppyakken
ratings --recompute``'s work (replay every stored game in ``seq`` order and rewrite
every rating and history row) and ``--check``'s, and checks that the recomputed
numbers equal the stored ones exactly.  Printed: games a second through the update,
the replay alone, the whole recompute, and the OpenSkill update alone (no database)
for comparison; wall-clock and this process's CPU seconds (the machine may be shared;
PostgreSQL's own work is in its server processes, not counted).
"""

from __future__ import annotations

import argparse
import json
import random
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from sqlalchemy import Connection, insert

from roppyakken.server.club.ratings import store
from roppyakken.server.club.ratings.model import new_rating, rate
from roppyakken.server.club.ratings.order import finishing_order
from roppyakken.server.club.ratings.pools import POOLS
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import players, rating_games, rooms, seat_players

START = datetime(2026, 1, 1, tzinfo=UTC)
Season = list[tuple[str, str, list[str], int, list[int], list[int], list[bool], datetime]]


def season(games: int, people: int, seed: int) -> Season:
    """The seeded games: (room, pool, owners, winner, totals, legs, left, finished at)."""
    rng = random.Random(seed)
    ids = [f"p{i:05d}" for i in range(people)]
    out: Season = []
    for index in range(games):
        pool = rng.choice(POOLS)
        n = int(pool[-1])
        owners = rng.sample(ids, n)
        totals = [rng.choice((0, 100, 200, 300, 300, 600)) for _ in range(n)]
        legs = [rng.randint(0, 3) for _ in range(n)] if pool.startswith("match") else [0] * n
        left = [rng.random() < 0.03 for _ in range(n)]
        if all(left):
            left[0] = False
        out.append(
            (
                f"r{index:07d}",
                pool,
                owners,
                rng.randrange(n),
                totals,
                legs,
                left,
                START + timedelta(seconds=index),
            )
        )
    return out


def fill(conn: Connection, games: Season, people: int) -> None:
    """The players, and each game's room and seat links (bulk)."""
    conn.execute(
        insert(players),
        [
            {"id": f"p{i:05d}", "secret_hash": "x", "name": f"p{i}", "created_at": START}
            for i in range(people)
        ],
    )
    for at in range(0, len(games), 5000):
        chunk = games[at : at + 5000]
        conn.execute(
            insert(rooms),
            [
                {
                    "id": g[0],
                    "created_at": g[7],
                    "players": len(g[2]),
                    "preset": "classic",
                    "options": "{}",
                    "seed": 1,
                    "status": "playing",
                    "epoch": 1,
                    "rated": True,
                }
                for g in chunk
            ],
        )
        conn.execute(
            insert(seat_players),
            [{"room_id": g[0], "seat": s, "player_id": p} for g in chunk for s, p in enumerate(g[2])],
        )


def bulk_results(conn: Connection, games: Season) -> None:
    """Store games as rated results without their updates (``recompute`` then makes the ratings)."""
    rows = []
    for room, pool, owners, winner, totals, legs, left, moment in games:
        places = finishing_order(winner, totals, legs, left)
        result = {
            "players": owners,
            "places": places,
            "left": left,
            "winner": winner,
            "totals": totals,
            "legs": legs,
        }
        rows.append({"room_id": room, "pool": pool, "finished_at": moment, "result": json.dumps(result)})
    for at in range(0, len(rows), 5000):
        conn.execute(insert(rating_games), rows[at : at + 5000])


def run(url: str, label: str, games: Season, people: int, batch: int, incremental: int) -> None:
    db = Database(url, write_timeout=60.0)
    db.open()
    try:
        db.run_now(lambda c: fill(c, games, people))
        first, last = games[: len(games) - incremental], games[len(games) - incremental :]
        db.run_now(lambda c: bulk_results(c, first))
        db.run_now(store.recompute)
        t0, c0 = time.perf_counter(), time.process_time()
        for at in range(0, len(last), batch):
            chunk = last[at : at + batch]

            def work(conn: Connection, chunk: Season = chunk) -> None:
                for room, pool, _, winner, totals, legs, left, moment in chunk:
                    store.record_game(
                        conn, room, pool, moment, winner=winner, totals=totals, legs=legs, left=left
                    )

            db.run_now(work)
        stored_s, stored_cpu = time.perf_counter() - t0, time.process_time() - c0
        t0, c0 = time.perf_counter(), time.process_time()
        replayed = db.run_now(lambda c: store.replay(list(store.stored_games(c))))
        replay_s, replay_cpu = time.perf_counter() - t0, time.process_time() - c0
        t0, c0 = time.perf_counter(), time.process_time()
        recomputed = db.run_now(store.recompute)
        recompute_s, recompute_cpu = time.perf_counter() - t0, time.process_time() - c0
        t0, c0 = time.perf_counter(), time.process_time()
        found = db.run_now(lambda c: store.differences(c, store.replay(list(store.stored_games(c)))))
        check_s, check_cpu = time.perf_counter() - t0, time.process_time() - c0
        assert recomputed.games == replayed.games == len(games)
        n, k = len(games), len(last)
        rows = f"{len(recomputed.ratings):,} ratings, {len(recomputed.history):,} history rows"
        print(f"{label}: {n:,} games, {rows}")
        rate_k, rate_n = k / stored_s, n / recompute_s
        print(f"  last {k:,} games' updates   {stored_s:7.1f} s   {rate_k:8,.0f} games/s", end="")
        print(f"  (CPU {stored_cpu:.1f} s; {batch} games a transaction)")
        print(f"  replay (read + OpenSkill)  {replay_s:7.1f} s   {n / replay_s:8,.0f} games/s", end="")
        print(f"  (CPU {replay_cpu:.1f} s)")
        print(f"  recompute (replay+rewrite) {recompute_s:7.1f} s   {rate_n:8,.0f} games/s", end="")
        print(f"  (CPU {recompute_cpu:.1f} s)")
        print(f"  check (replay+compare)     {check_s:7.1f} s   differences: {len(found)}", end="")
        print(f"  (CPU {check_cpu:.1f} s)")
        assert found == []
    finally:
        db.engine.dispose()


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--players", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--batch", type=int, default=50, help="games a transaction when storing")
    ap.add_argument("--incremental", type=int, default=5000, help="the last games stored through the update")
    ap.add_argument("--postgresql", metavar="URL", help="also on this empty PostgreSQL database")
    args = ap.parse_args(argv)
    games = season(args.games, args.players, args.seed)
    t0, c0 = time.perf_counter(), time.process_time()
    current: dict[tuple[str, str], tuple[float, float]] = {}
    fresh = new_rating()
    for _, pool, owners, winner, totals, legs, left, _ in games:
        places = finishing_order(winner, totals, legs, left)
        assert places is not None
        after = rate([current.get((p, pool), fresh) for p in owners], places)
        current.update({(p, pool): r for p, r in zip(owners, after, strict=True)})
    alone, alone_cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"OpenSkill alone (no database): {len(games):,} games in {alone:.1f} s", end="")
    print(f", {len(games) / alone:,.0f} games/s (CPU {alone_cpu:.1f} s)")
    with tempfile.TemporaryDirectory() as tmp:
        run(
            f"sqlite:///{Path(tmp) / 'bench.sqlite3'}",
            "SQLite",
            games,
            args.players,
            args.batch,
            args.incremental,
        )
    if args.postgresql:
        run(args.postgresql, "PostgreSQL", games, args.players, args.batch, args.incremental)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
