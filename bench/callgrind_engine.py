"""Instruction counts of the engine's two hot figures under callgrind (exact, unlike timings).

Run by hand (not a test; needs valgrind)::

    .venv/bin/python bench/callgrind_engine.py [--players 2]

Prints the instructions of one 2-player search playout (``Game.clone()`` + ``playout()``
of the 64 dealt positions of ``bench/bench_engine.py``, 3,000 playouts) and of one round of
whole games (300 seeded games after a warm-up game), each less an empty run of the same
process (start-up, imports, the positions), every child with ``PYTHONHASHSEED=0`` (the counts
are then the same from run to run).  With the kernel this process would run:
compiled when it is built from the current sources, else pure (``ROPPYAKKEN_PURE=1``).
See bench/RESULTS-engine.md.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile

from roppyakken.engine import Game
from roppyakken.rules import preset

PLAYOUTS = 3000
GAMES = 300


def work(mode: str, players: int) -> int:
    """Run one measured (or, with ``empty``, an unmeasured) workload; return its unit count."""
    rules = preset("classic")
    empty = mode.startswith("empty")
    if mode.endswith("search"):
        positions = []
        for seed in range(64):
            game = Game(rules, players, seed, log=False)
            game.stop_at_round_end = True
            positions.append(game)
        rng = random.Random(1)
        for base in positions:  # warm-up
            base.clone().playout(rng)
        done = 0
        total = 0 if empty else PLAYOUTS
        while done < total:
            for base in positions[: total - done]:
                base.clone().playout(rng)
                done += 1
        return PLAYOUTS
    rng = random.Random(2)
    game = Game(rules, players, 999_999, log=False)  # warm-up
    while not game.over:
        game.playout(rng)
    rounds = 0
    for seed in range(0 if empty else GAMES):
        game = Game(rules, players, seed, log=False)
        while not game.over:
            game.playout(rng)
            rounds += 1
    return rounds


def instructions(mode: str, players: int) -> tuple[int, int]:
    """``(instructions, units)`` of ``mode`` run in a child process under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable]
        command += [__file__, "--child", mode, "--players", str(players)]
        # One hash seed for every child: the str hashes (dict layouts, probe lengths) otherwise
        # differ from process to process, and the counts by up to ~1,500 a round.
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        run = subprocess.run(command, capture_output=True, text=True, check=True, env=env)
    collected = re.search(r"Collected : (\d+)", run.stderr)
    units = re.search(r"^units (\d+)$", run.stdout, re.MULTILINE)
    if collected is None or units is None:
        raise SystemExit(f"callgrind_engine: no count in the output of {mode}:\n{run.stderr[-2000:]}")
    return int(collected.group(1)), int(units.group(1))


def main() -> None:
    """Print the instructions a search playout and a whole-game round take."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2, choices=(2, 3))
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(f"units {work(args.child, args.players)}")
        return
    from roppyakken.kernel import COMPILED

    print(f"{args.players} players, {'compiled' if COMPILED else 'pure'} kernel")
    for name, unit in (("search", "a playout"), ("games", "a round")):
        full, units = instructions(name, args.players)
        empty, _ = instructions(f"empty_{name}", args.players)
        print(f"{name:>7}: {(full - empty) / units:>10,.0f} instructions {unit} ({units} measured)")


if __name__ == "__main__":
    main()
