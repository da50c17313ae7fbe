"""Tournament pairing times: one Swiss round for 16 to 1,000 players, an arena wave of 1,000.

Run by hand (not a test; these machines are shared and noisy)::

    .venv/bin/python bench/bench_tournament_pairing.py [--rounds 5] [--repeat 3]

For each count and table size (2 and 3) it plays ``--rounds`` seeded Swiss rounds with random
results (so scores spread and opponents repeat if paired carelessly), then times the pairing of
the next round (the best of ``--repeat``) and counts its repeated pairs.  It also times a round
robin by 3 for 27 and 32 players and one arena wave of 1,000 waiting players (tables of 2 and 3,
each with one last opponent).  Pure Python, one core; no database.
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable
from itertools import combinations

from roppyakken.server.club.tournaments.model import (
    SwissRound,
    TableResult,
    Waiting,
    arena_pairing,
    place_points,
    round_robin_schedule,
    swiss_pairing,
)


def _best(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return min(times)


def _swiss(n: int, size: int, rounds: int, repeat: int) -> tuple[float, int]:
    rng = random.Random(n * 10 + size)
    scores = {f"p{i}": 0.0 for i in range(n)}
    ratings = {p: rng.uniform(1000, 2000) for p in scores}
    met: list[tuple[str, ...]] = []
    byes: dict[str, int] = {}
    for r in range(rounds):
        rnd = swiss_pairing(scores, met, byes, size, seed=r, ratings=ratings)
        for p in rnd.byes:
            byes[p] = byes.get(p, 0) + 1
            scores[p] += 1.0
        for table in rnd.tables:
            places = tuple(rng.sample(range(1, size + 1), size))
            result = TableResult(players=table, places=places)
            for p, points in zip(table, place_points(result.places), strict=True):
                scores[p] += points
            met.append(table)
    last: list[SwissRound] = []
    seconds = _best(lambda: last.append(swiss_pairing(scores, met, byes, size, ratings=ratings)), repeat)
    before = {frozenset(pair) for table in met for pair in combinations(table, 2)}
    repeats = sum(frozenset(pair) in before for t in last[-1].tables for pair in combinations(t, 2))
    return seconds, repeats


def main() -> None:
    """Print the timings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="rounds played before the timed one")
    parser.add_argument("--repeat", type=int, default=3, help="timed runs (the best is printed)")
    args = parser.parse_args()
    print(f"Swiss: the pairing of round {args.rounds + 1}")
    for size in (2, 3):
        for n in (16, 64, 256, 1000):
            seconds, repeats = _swiss(n, size, args.rounds, args.repeat)
            print(f"  tables of {size}, {n:5d} players: {seconds * 1000:8.1f} ms, {repeats} repeated pairs")
    for n in (27, 32):
        players = [f"p{i}" for i in range(n)]
        seconds = _best(functools.partial(round_robin_schedule, players, 3), args.repeat)
        print(f"Round robin by 3, {n} players (every round): {seconds * 1000:8.1f} ms")
    rng = random.Random(7)
    ids = [f"p{i}" for i in range(1000)]
    waiting = [
        Waiting(
            p,
            score=float(rng.randint(0, 40)),
            since=rng.uniform(0, 20),
            last_opponents=frozenset({rng.choice(ids)}),
        )
        for p in ids
    ]
    for size in (2, 3):
        seconds = _best(functools.partial(arena_pairing, waiting, size, now=20.0), args.repeat)
        print(f"Arena wave, 1000 waiting, tables of {size}: {seconds * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
