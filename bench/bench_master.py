"""How fast the expert appraises and the master rolls out, pure and compiled (CPU time).

Three figures, each on seeded games (``classic``, two players, unless told):

* expert decisions a CPU second: :func:`roppyakken.ai.expert.best_move` on the card-play
  decisions of ``expert`` games (the appraisal and the value of every legal move);
* master rollouts a CPU second: the master's search at those decisions with a fixed
  number of rollouts (``master:iters=N:infer=0``: the search loop only, no weighing);
* rollouts a decision at the default budget (``master``, ``ms=230``, close calls 3x,
  ``infer=100``) in games against ``expert``: this one depends on the clock, so on how
  loaded the machine is (the CPU seconds the process got are printed beside it).

``--both`` runs the benchmark twice in new processes, on the pure-Python modules
(``ROPPYAKKEN_PURE=1``) and on the compiled ones, and prints the ratios::

    nice -n 10 .venv/bin/python bench/bench_master.py --both
    nice -n 10 .venv/bin/python bench/bench_master.py --games 4 --budget-games 2
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Sequence

from roppyakken.actions import PLAY, Play, Take
from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import play_out
from roppyakken.ai.expert import DEFAULT_WEIGHTS, best_move
from roppyakken.ai.master import MasterBot
from roppyakken.ai.position import Position
from roppyakken.engine import Game
from roppyakken.kernel import COMPILED
from roppyakken.rules import preset
from roppyakken.view import SeatView, view_of

Decision = tuple[SeatView, list[tuple[int, int]]]
"""A seat's view at a card-play decision and its moves ``(card, target)``."""


def decisions(rules_name: str, players: int, games: int, seed: int) -> list[Decision]:
    """The card-play decisions with a choice of ``expert`` games: each seat's view and its moves."""
    rules = preset(rules_name)
    found: list[Decision] = []
    for g in range(games):
        game = Game(rules, players, seed=seed + g)
        bots = [make_bot("expert", seed + g + s) for s in range(players)]
        while not game.over:
            seat = game.to_act
            view = view_of(game, seat)
            legal = view.legal
            if len(legal) > 1 and isinstance(legal[0], Play | Take):
                if isinstance(legal[0], Take):
                    moves = [(view.turned, a.target) for a in legal if isinstance(a, Take)]
                else:
                    moves = [(a.card, a.target) for a in legal if isinstance(a, Play)]
                found.append((view, moves))
            game.apply(bots[seat].choose(view))
    return found


def expert_rate(found: Sequence[Decision], repeat: int) -> float:
    """Expert decisions (:func:`best_move`) a CPU second."""
    positions = [(Position.of_view(v), m, v.phase == PLAY) for v, m in found]
    start = time.process_time()
    for _ in range(repeat):
        for pos, moves, from_hand in positions:
            best_move(pos, moves, from_hand, DEFAULT_WEIGHTS)
    return repeat * len(positions) / (time.process_time() - start)


def expert_times(rules_name: str, players: int, games: int, seed: int) -> list[float]:
    """Each ``expert`` card-play decision's time (``choose``, with a choice), in ms, in
    ``expert`` games: the figure of the README's decision times."""
    rules = preset(rules_name)
    times: list[float] = []
    clock = time.perf_counter
    for g in range(games):
        game = Game(rules, players, seed=seed + g)
        bots = [make_bot("expert", seed + g + s) for s in range(players)]
        while not game.over:
            view = view_of(game, game.to_act)
            start = clock()
            action = bots[game.to_act].choose(view)
            if len(view.legal) > 1 and isinstance(view.legal[0], Play | Take):
                times.append(1000.0 * (clock() - start))
            game.apply(action)
    return sorted(times)


def master_rate(found: Sequence[Decision], iters: int) -> tuple[float, int]:
    """Master rollouts a CPU second at a fixed number of rollouts (no weighing), and how many."""
    bot = MasterBot(1, ms=None, iters=iters, infer=0)
    rollouts = 0
    start = time.process_time()
    for view, moves in found:
        bot.search(view, moves)
        rollouts += bot.last_rollouts
    return rollouts / (time.process_time() - start), rollouts


class _Counting:
    """A master that keeps the number of rollouts of each of its searched decisions."""

    def __init__(self, bot: MasterBot) -> None:
        self.bot = bot
        self.name = bot.name
        self.counts: list[int] = []

    def choose(self, view: SeatView) -> object:
        self.bot.last_rollouts = -1
        action = self.bot.choose(view)
        if self.bot.last_rollouts > 0:
            self.counts.append(self.bot.last_rollouts)
        return action


def budget_counts(rules_name: str, games: int, seed: int) -> tuple[list[int], float, float]:
    """Rollouts a searched decision of the default master against ``expert``; CPU and wall seconds."""
    rules = preset(rules_name)
    counting = _Counting(MasterBot(5))
    cpu, wall = time.process_time(), time.perf_counter()
    for g in range(games):
        game = Game(rules, 2, seed=seed + g)
        play_out(game, [counting, make_bot("expert", 6)])  # type: ignore[list-item]
    return counting.counts, time.process_time() - cpu, time.perf_counter() - wall


def run(args: argparse.Namespace) -> dict[str, object]:
    """The figures of one mode (the modules this process loaded)."""
    found = decisions(args.rules, args.players, args.games, args.seed)
    result: dict[str, object] = {"compiled": COMPILED, "decisions": len(found)}
    result["expert_per_s"] = expert_rate(found, args.repeat)
    expert_times(args.rules, args.players, 1, args.seed)  # warm-up: first calls take ~4 ms
    times = expert_times(args.rules, args.players, args.games, args.seed)
    result["expert_ms"] = {"p50": times[len(times) // 2], "p99": times[99 * len(times) // 100]}
    sample = found[:: max(1, len(found) // args.master_decisions)]
    rate, rollouts = master_rate(sample, args.iters)
    result["master_rollouts_per_s"] = rate
    result["master_rollouts"] = rollouts
    if args.budget_games:
        counts, cpu, wall = budget_counts(args.rules, args.budget_games, args.seed)
        counts.sort()
        k = len(counts)
        result["budget"] = {
            "decisions": k,
            "median": counts[k // 2] if k else 0,
            "mean": statistics.mean(counts) if k else 0.0,
            "p10": counts[k // 10] if k else 0,
            "p90": counts[9 * k // 10] if k else 0,
            "cpu_share": cpu / wall if wall else 0.0,
        }
    return result


def show(mode: str, r: dict[str, object]) -> None:
    """Print one mode's figures."""
    print(f"{mode}: compiled={r['compiled']} decisions={r['decisions']}")
    print(f"  expert decisions / CPU s : {r['expert_per_s']:10.0f}")
    ms = r["expert_ms"]
    assert isinstance(ms, dict)
    print(f"  expert decision (choose), ms: p50 {ms['p50']:.3f}, p99 {ms['p99']:.3f}")
    print(
        f"  master rollouts / CPU s  : {r['master_rollouts_per_s']:10.1f}  ({r['master_rollouts']} rollouts)"
    )
    budget = r.get("budget")
    if isinstance(budget, dict):
        print(
            f"  rollouts a decision at ms=230: median {budget['median']}, mean {budget['mean']:.0f},"
            f" p10 {budget['p10']}, p90 {budget['p90']} ({budget['decisions']} decisions;"
            f" the process got {budget['cpu_share']:.0%} of a core)"
        )


def main(argv: list[str] | None = None) -> int:
    """Print the figures of this process's modules, or with ``--both`` of pure and compiled."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=6, help="expert games for the decisions")
    parser.add_argument("--seed", type=int, default=400)
    parser.add_argument("--repeat", type=int, default=3, help="passes over the decisions (expert)")
    parser.add_argument("--iters", type=int, default=60, help="rollouts a master decision")
    parser.add_argument("--master-decisions", type=int, default=40)
    parser.add_argument("--budget-games", type=int, default=2, help="master games at ms=230 (0: none)")
    parser.add_argument("--both", action="store_true", help="pure and compiled, in new processes")
    parser.add_argument("--json", action="store_true", help="print this mode's figures as JSON")
    args = parser.parse_args(argv)
    if not args.both:
        result = run(args)
        if args.json:
            print(json.dumps(result))
        else:
            show("compiled" if COMPILED else "pure", result)
        return 0
    rest = [a for a in (argv if argv is not None else sys.argv[1:]) if a != "--both"]
    results = {}
    for mode in ("pure", "compiled"):
        env = dict(os.environ)
        env.pop("ROPPYAKKEN_PURE", None)
        if mode == "pure":
            env["ROPPYAKKEN_PURE"] = "1"
        out = subprocess.run(
            [sys.executable, __file__, *rest, "--json"], env=env, capture_output=True, text=True, check=True
        )
        results[mode] = json.loads(out.stdout.strip().splitlines()[-1])
        show(mode, results[mode])
    pure, comp = results["pure"], results["compiled"]
    for key in ("expert_per_s", "master_rollouts_per_s"):
        print(f"compiled / pure, {key}: x{comp[key] / pure[key]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
