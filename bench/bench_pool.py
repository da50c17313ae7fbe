"""How many distinct hand assignments the master's rollouts use (issue 14: more time, more worlds).

Plays seeded games between two bots (``expert`` against ``expert`` by default) and, at the
first seat's card-play decisions where the opponents have played (so ``infer`` weighs a
pool), runs the master's search at each rollout budget given (``--iters``) and prints, per
budget: the rollouts and worlds a decision, the weighed pool's size and effective size
(:attr:`roppyakken.ai.infer.WorldPool.effective_size`), how many distinct hand
assignments the rollouts' worlds used, and the CPU time spent weighing and drawing
worlds (per weighed world) against rolling out (per rollout)::

    nice -n 10 .venv/bin/python bench/bench_pool.py --rules marguerite --games 4 --iters 150,600,2400

``--master`` gives the master's other options (``grow=0``, ``infer=100``, ...), the same at
every budget.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from roppyakken.actions import PLAY, TAKE
from roppyakken.ai.base import make_bot
from roppyakken.ai.infer import WorldPool
from roppyakken.ai.master import MasterBot
from roppyakken.engine import Game
from roppyakken.infoset import World
from roppyakken.rules import preset
from roppyakken.view import SeatView, view_of


class _Counting(MasterBot):
    """A master that remembers the hands of the worlds its rollouts were given."""

    hands: set[tuple[int, ...]]
    draws: int
    weigh_cpu: float

    def sample(self, view: SeatView) -> World:
        t0 = time.process_time()
        world = super().sample(view)  # with ``grow``, weighing more worlds at times
        self.weigh_cpu += time.process_time() - t0
        self.hands.add(tuple(world.hands))
        self.draws += 1
        return world

    def weigh(self, view: SeatView, deadline: float = float("inf")) -> None:
        t0 = time.process_time()
        super().weigh(view, deadline)
        self.weigh_cpu += time.process_time() - t0


def main(argv: list[str] | None = None) -> int:
    """Print, per rollout budget, the pool's effective size and the distinct assignments used."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="marguerite")
    parser.add_argument("--bots", default="expert,expert", help="the two players of the games")
    parser.add_argument("--games", type=int, default=4)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--iters", default="150,600,2400", help="rollout budgets, comma-separated")
    parser.add_argument("--master", default="", help="other master options, as in a level (a=1:b=2)")
    parser.add_argument("--every", type=int, default=3, help="measure every this many eligible decisions")
    args = parser.parse_args(argv)
    rules = preset(args.rules)
    budgets = [int(x) for x in args.iters.split(",")]
    extra = dict(kv.split("=", 1) for kv in args.master.split(":") if kv)
    rows: dict[int, dict[str, list[float]]] = {b: {} for b in budgets}
    levels = args.bots.split(",")
    eligible = 0
    for g_index in range(args.games):
        seed = args.seed * 100_000 + g_index
        game = Game(rules, 2, seed=seed)
        bots = [make_bot(level, seed + s) for s, level in enumerate(levels)]
        while not game.over:
            seat = game.to_act
            view = view_of(game, seat)
            if (
                seat == 0
                and game.phase in (PLAY, TAKE)
                and len(view.legal) > 1
                and view.record is not None
                and any(p[0] != seat for p in view.record.plays)
            ):
                eligible += 1
                if eligible % args.every == 0:
                    for b in budgets:
                        _measure(view, b, extra, seed + eligible, rows[b])
            game.apply(bots[seat].choose(view))
    print(f"{args.rules}, {args.bots}, {args.games} games, master options {args.master or '(default)'}")
    for b in budgets:
        r = rows[b]
        if not r.get("rollouts"):
            continue
        n = len(r["rollouts"])
        mean = {k: statistics.fmean(v) for k, v in r.items() if v}
        per_world = 1000 * sum(r["weigh_ms"]) / max(1.0, sum(r["pool"]))
        per_rollout = 1000 * sum(r["roll_ms"]) / max(1.0, sum(r["rollouts"]))
        med = {k: statistics.median(v) for k, v in r.items() if v}
        print(
            f"  iters={b}: {n} decisions; rollouts {mean['rollouts']:.0f}, worlds drawn {mean['draws']:.0f}; "
            f"pool {mean['pool']:.0f} weighed, effective {mean['ess']:.1f} (median {med['ess']:.1f}); "
            f"distinct assignments used {mean['distinct']:.1f} (median {med['distinct']:.0f}); "
            f"draws per distinct {mean['draws'] / mean['distinct']:.1f}; "
            f"CPU ms a decision: weighing {mean['weigh_ms']:.1f} ({per_world:.0f} µs a world), "
            f"rollouts {mean['roll_ms']:.1f} ({per_rollout:.0f} µs a rollout)"
        )
    return 0


def _measure(
    view: SeatView, budget: int, extra: dict[str, str], seed: int, out: dict[str, list[float]]
) -> None:
    bot = _Counting.from_options(seed, {"iters": str(budget), **extra})
    bot.hands, bot.draws, bot.weigh_cpu = set(), 0, 0.0
    t0 = time.process_time()
    bot.choose(view)
    spent = time.process_time() - t0
    pool = bot._pool
    if not isinstance(pool, WorldPool) or bot.draws == 0:
        return  # the expert's choice alone (one candidate): nothing searched
    for key, value in (
        ("rollouts", bot.last_rollouts),
        ("draws", bot.draws),
        ("pool", len(pool.worlds)),
        ("ess", pool.effective_size),
        ("distinct", len(bot.hands)),
        ("weigh_ms", 1000 * bot.weigh_cpu),
        ("roll_ms", 1000 * (spent - bot.weigh_cpu)),
    ):
        out.setdefault(key, []).append(float(value))


if __name__ == "__main__":
    random.seed(0)
    sys.exit(main())
