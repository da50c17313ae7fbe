"""Engine throughput: random-playout rounds per second on one core, 2 and 3 players.

Run by hand (not a test; these machines are shared and noisy)::

    .venv/bin/python bench/bench_engine.py [--seconds 3] [--rules classic]

Four figures per player count, each the best of ``--repeats`` runs:

* ``search``: what a searching bot does millions of times: copy a dealt position
  (``Game.clone``) and play the round out with :meth:`Game.playout` (random card,
  random target), scoring it at the end.
* ``games``: whole games with :meth:`Game.playout`, every round dealt from its
  seeded deck, lucky hands, scoring, next dealer: rounds per second.
* ``api``: whole games through the public API: ``legal_actions()`` and
  ``apply()`` with a uniformly random choice (every action built and checked).
* ``simulate``: what ``roppyakken simulate --bots random,random`` does per game:
  seeded random bots, a game that keeps the record's logs (not events), and the
  driver, which plays a random seat's decisions by index
  (:meth:`~roppyakken.engine.Game.play_indexed`: the legal decisions counted, the
  bot's draw, the kernel's play, the logged play).

Each figure is measured with the pure-Python kernel (the reference) and, when it is
built (``scripts/build_kernel.py``), with the compiled one, each in a fresh process.
Times are the process's CPU time (``--clock cpu``, the default): on a machine
shared with other jobs, wall-clock figures mostly measure the neighbours.  The
last column compares the better of the two with the target for that figure
(:data:`TARGETS`: search 300,000, whole games 100,000, simulate 20,000 rounds/s;
the API loop has none).  All four
figures run the one kernel of the round (:mod:`roppyakken.kernel`).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable

from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import play_out
from roppyakken.engine import Game
from roppyakken.rules import Rules, preset

TARGETS: dict[str, float] = {"search": 300_000.0, "games": 100_000.0, "simulate": 20_000.0}
"""The targets, rounds per second, by figure (``bench/RESULTS-engine.md``)."""

clock: Callable[[], float] = time.process_time
"""The clock of every figure: CPU time by default (``--clock wall`` for wall time)."""


def search_rounds(rules: Rules, players: int, seconds: float) -> float:
    """Rounds per second: clone a dealt position and play it out to the round's end."""
    rng = random.Random(1)
    positions = []
    for seed in range(64):
        game = Game(rules, players, seed, log=False)
        game.stop_at_round_end = True
        positions.append(game)
    rounds = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        for base in positions:
            copy = base.clone()
            copy.playout(rng)
        rounds += len(positions)
    return rounds / (clock() - start)


def game_rounds(rules: Rules, players: int, seconds: float) -> float:
    """Rounds per second over whole games played with :meth:`Game.playout`."""
    rng = random.Random(2)
    rounds = 0
    seed = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        game = Game(rules, players, seed, log=False)
        seed += 1
        while not game.over:
            game.playout(rng)
            rounds += 1
    return rounds / (clock() - start)


def api_rounds(rules: Rules, players: int, seconds: float) -> float:
    """Rounds per second through ``legal_actions()`` and ``apply()``."""
    rng = random.Random(3)
    rounds = 0
    seed = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        game = Game(rules, players, seed, log=False)
        seed += 1
        while not game.over:
            current = game.round
            actions = game.legal_actions()
            game.apply(actions[rng.randrange(len(actions))])
            if game.round != current or game.over:
                rounds += 1
    return rounds / (clock() - start)


def simulate_rounds(rules: Rules, players: int, seconds: float) -> float:
    """Rounds per second of ``simulate`` with random bots: new seeded bots and game, logged plays."""
    rounds = 0
    seed = 0
    start = clock()
    deadline = start + seconds
    while clock() < deadline:
        bots = [make_bot("random", seed + seat) for seat in range(players)]
        game = play_out(Game(rules, players, seed, events=False), bots)  # as simulate_cmd plays
        seed += 1
        rounds += sum(1 for log in game.history if log.score is not None)
    return rounds / (clock() - start)


def best(
    run: Callable[[Rules, int, float], float], rules: Rules, players: int, args: argparse.Namespace
) -> float:
    """The best of ``args.repeats`` runs (the least disturbed by other processes)."""
    return max(run(rules, players, args.seconds) for _ in range(args.repeats))


FIGURES: tuple[tuple[str, Callable[[Rules, int, float], float]], ...] = (
    ("search", search_rounds),
    ("games", game_rounds),
    ("api", api_rounds),
    ("simulate", simulate_rounds),
)


def measure(args: argparse.Namespace) -> dict[str, float]:
    """Every figure with the kernel this process runs, as ``{"2 search": rate, ...}``."""
    rules = preset(args.rules)
    rates: dict[str, float] = {}
    for players in (2, 3):
        if players in rules.players:
            for name, run in FIGURES:
                rates[f"{players} {name}"] = best(run, rules, players, args)
    return rates


def measure_in_child(args: argparse.Namespace, pure: bool) -> dict[str, float] | None:
    """The figures measured in a fresh process on the pure or the compiled kernel (None: not built)."""
    env = {k: v for k, v in os.environ.items() if k != "ROPPYAKKEN_PURE"}
    if pure:
        env["ROPPYAKKEN_PURE"] = "1"
    command = [sys.executable, __file__, "--child", "--rules", args.rules, "--clock", args.clock]
    command += ["--seconds", str(args.seconds), "--repeats", str(args.repeats)]
    out = subprocess.run(command, env=env, capture_output=True, text=True, check=True).stdout
    answer = json.loads(out)
    if not pure and not answer["compiled"]:
        return None
    rates: dict[str, float] = answer["rates"]
    return rates


def main() -> None:
    """Print the figures, with the pure-Python kernel and with the compiled one."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each run")
    parser.add_argument("--repeats", type=int, default=3, help="runs per figure (best kept)")
    parser.add_argument("--rules", default="classic", help="preset")
    parser.add_argument("--clock", choices=("cpu", "wall"), default="cpu", help="CPU or wall time")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    global clock
    clock = time.process_time if args.clock == "cpu" else time.perf_counter
    if args.child:
        from roppyakken.kernel import COMPILED

        print(json.dumps({"compiled": COMPILED, "rates": measure(args)}))
        return
    print(f"rules {args.rules}, one core, {args.clock} time, best of {args.repeats} x {args.seconds:g} s")
    pure = measure_in_child(args, pure=True)
    assert pure is not None
    compiled = measure_in_child(args, pure=False)
    if compiled is None:
        print("(the compiled kernel is not built: .venv/bin/python scripts/build_kernel.py)")
    print(f"{'players':>7} {'figure':>8} {'pure':>10} {'compiled':>10} {'ratio':>6} {'of target':>12}")
    for key, rate in pure.items():
        players, name = key.split()
        fast = compiled[key] if compiled else None
        shown = f"{fast:>10,.0f} {fast / rate:>6.2f}" if fast else f"{'-':>10} {'-':>6}"
        target = TARGETS.get(name)
        best = max(rate, fast or 0)
        versus = f"{best / target:>5.2f} of {target / 1000:,.0f}k" if target else f"{'-':>12}"
        print(f"{players:>7} {name:>8} {rate:>10,.0f} {shown} {versus}")


if __name__ == "__main__":
    main()
