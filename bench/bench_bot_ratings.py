"""The bot levels on the players' rating scale: OpenSkill ratings from bot-vs-bot games on duplicate
deals, anchored, written to ``src/roppyakken/server/club/ratings/bot_ratings.json``.

Run by hand (not a test; these machines are shared and noisy)::

    nice -n 10 .venv/bin/python bench/bench_bot_ratings.py --deals 40 --jobs 2 --write

Method (bench/RESULTS-ratings.md, "Bots on the same scale"):

- each rating pool is played with one preset of its family (``classic``, ``yukbaek``,
  ``marguerite``) and its player count;
- every group of distinct levels (pairs for 2 players, triples for 3) plays each deal of
  the batch seed once from every seating (duplicate deals, as ``roppyakken ladder``);
- each game's finishing order is the server's (server/club/ratings/order.py) and moves the
  levels' ratings exactly as a rated game moves people's (server/club/ratings/model.py),
  games in deal order; ``--passes`` replays the whole list that many times from the
  last pass's ratings (the deals' order then matters less);
- the anchor: the levels' ratings are shifted together so that ``--anchor`` (``greedy``)
  sits at a new player's ``mu`` (25): a newcomer is taken to play like the greedy bot
  until their games say otherwise.  The gaps between levels are measured; only this one
  offset is chosen.

``master`` is played as ``master:iters=N`` (``--master``; a fixed search, the same
moves on any machine) and written under the name ``master``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import Any

from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import game_seeds, play_out
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.server.club.ratings.model import new_rating, rate
from roppyakken.server.club.ratings.order import finishing_order
from roppyakken.server.club.ratings.scale import MU0, display, uncertainty

TABLE = Path(__file__).resolve().parent.parent / "src/roppyakken/server/club/ratings/bot_ratings.json"
POOL_PRESETS = {
    "classic-2": ("classic", 2),
    "classic-3": ("classic", 3),
    "korean-2": ("yukbaek", 2),
    "korean-3": ("yukbaek", 3),
    "match-2": ("marguerite", 2),
    "match-3": ("marguerite", 3),
}


def play(task: tuple[str, int, list[str], int]) -> list[int]:
    """One game: ``levels`` in seat order on deal ``seed``; each seat's place."""
    preset_name, players, levels, seed = task
    bots = [make_bot(level, seed * 7 + seat) for seat, level in enumerate(levels)]
    game = play_out(Game(preset(preset_name), players, seed), bots)
    places = finishing_order(game.winner, list(game.totals), list(game.legs), [False] * players)
    assert places is not None
    return places


def tasks(pool: str, levels: list[str], deals: int, seed: int) -> list[tuple[str, int, list[str], int]]:
    """Every game of a pool's run, in the order they are rated."""
    preset_name, players = POOL_PRESETS[pool]
    out = []
    for deal in game_seeds(seed, deals):
        for group in itertools.combinations(levels, players):
            for shift in range(players):
                seating = [group[(seat + shift) % players] for seat in range(players)]
                out.append((preset_name, players, seating, deal))
    return out


def rate_pool(
    games: list[tuple[list[str], list[int]]], names: list[str], passes: int
) -> dict[str, tuple[float, float]]:
    """The levels' ratings after the games (``passes`` times over), before anchoring."""
    current = {name: new_rating() for name in names}
    for _ in range(passes):
        for seating, places in games:
            after = rate([current[level] for level in seating], places)
            for level, rating in zip(seating, after, strict=True):
                current[level] = rating
    return current


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print the table and, with ``--write``, store it."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--seed", type=int, default=29)
    ap.add_argument("--levels", default="random,greedy,expert,master")
    ap.add_argument("--master", default="master:iters=150", help="the spec that plays 'master'")
    ap.add_argument("--anchor", default="greedy")
    ap.add_argument("--passes", type=int, default=3)
    ap.add_argument("--pools", default=",".join(POOL_PRESETS))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--write", action="store_true", help=f"write {TABLE.name}")
    ap.add_argument("--out", type=Path, default=TABLE)
    ap.add_argument("--quick", action="store_true", help="a smoke run: 1 deal, random and greedy")
    args = ap.parse_args(argv)
    if args.quick:
        args.deals, args.levels, args.passes = 1, "random,greedy", 1
    names = [s.strip() for s in args.levels.split(",") if s.strip()]
    if args.anchor not in names:
        ap.error(f"--anchor {args.anchor} is not one of --levels")
    spec = {name: (args.master if name == "master" else name) for name in names}
    pools: dict[str, Any] = {}
    began = time.perf_counter()
    with ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool_exec:
        for pool in [p.strip() for p in args.pools.split(",") if p.strip()]:
            run = tasks(pool, names, args.deals, args.seed)
            t0 = time.perf_counter()
            specced = [(p, n, [spec[x] for x in seating], s) for p, n, seating, s in run]
            results = list(pool_exec.map(play, specced, chunksize=4))
            games = [(seating, places) for (_, _, seating, _), places in zip(run, results, strict=True)]
            rated = rate_pool(games, names, args.passes)
            shift = MU0 - rated[args.anchor][0]
            pools[pool] = {
                name: {"mu": round(mu + shift, 3), "sigma": round(sigma, 3)}
                for name, (mu, sigma) in rated.items()
            }
            wins = {
                name: sum(
                    1
                    for seating, places in games
                    for lv, pl in zip(seating, places, strict=True)
                    if lv == name and pl == 1
                )
                for name in names
            }
            played = {name: sum(seating.count(name) for seating, _ in games) for name in names}
            took = time.perf_counter() - t0
            print(f"{pool} ({POOL_PRESETS[pool][0]}, {args.deals} deals, {len(games)} games, {took:.0f} s):")
            for name in names:
                mu, sigma = pools[pool][name]["mu"], pools[pool][name]["sigma"]
                print(
                    f"  {name:8} mu {mu:6.2f}  sigma {sigma:4.2f}  skill {round(1500 + 30 * (mu - 20)):5}"
                    f"  display {display(mu, sigma):5} ±{uncertainty(sigma):3}"
                    f"  first {wins[name]}/{played[name]}"
                )
            sys.stdout.flush()
    command = "bench/bench_bot_ratings.py " + " ".join(sys.argv[1:] if argv is None else argv)
    runs = {
        pool: {"preset": POOL_PRESETS[pool][0], "deals": args.deals, "seed": args.seed, "command": command}
        for pool in pools
    }
    if args.out.exists():  # the pools not run this time keep their last figures
        old = json.loads(args.out.read_text(encoding="utf-8"))
        pools = {**old.get("pools", {}), **pools}
        runs = {**old.get("runs", {}), **runs}
    doc = {
        "method": "bench/bench_bot_ratings.py; bench/RESULTS-ratings.md",
        "anchor": {"level": args.anchor, "mu": MU0},
        "master": args.master,
        "passes": args.passes,
        "pools": dict(sorted(pools.items())),
        "runs": dict(sorted(runs.items())),
    }
    print(f"total {time.perf_counter() - began:.0f} s")
    if args.write:
        args.out.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"written {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
