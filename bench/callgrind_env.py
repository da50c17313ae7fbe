"""Instruction counts of the environments under callgrind (exact, unlike timings on a busy machine).

Run by hand (not a test; needs valgrind)::

    .venv/bin/python bench/callgrind_env.py [--players 2]

Prints the instructions of one PettingZoo turn (5,000 turns of the loop of PettingZoo's
``performance_benchmark``, as ``bench/bench_env.py`` runs it) and of one agent step of
``vector_env(256)`` against ``random`` bots (20 steps of 256 games, each action a uniform
legal one drawn from the masks as ``bench_env.uniform_legal`` draws it), each less the same
process with a count of 0 (start-up, imports, the first reset), every child with
``PYTHONHASHSEED=0``.  With the modules this process would run: compiled when they are
built from the current sources, else pure (``ROPPYAKKEN_PURE=1``).  See bench/RESULTS-env.md.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_env import uniform_legal
from roppyakken.env import gymnasium as rgym
from roppyakken.env import pettingzoo as rpz

TURNS = 5000
STEPS = 20
GAMES = 256


def pettingzoo_turns(turns: int, players: int) -> None:
    """``turns`` turns of the AEC environment in PettingZoo's benchmark loop."""
    env = rpz.env(players=players)
    env.reset(seed=3)
    rng = random.Random(3)
    done = 0
    while done < turns:
        for _agent in env.agent_iter(env.num_agents):
            obs, _, term, trunc, _ = env.last()
            action = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            env.step(action)
            done += 1
            if all(env.terminations.values()) or all(env.truncations.values()):
                env.reset()
            if done >= turns:
                break


def vector_steps(steps: int, players: int) -> None:
    """``steps`` steps of ``vector_env(256)`` against ``random``."""
    env = rgym.vector_env(GAMES, players=players, opponents="random")
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(steps):
        obs, *_ = env.step(uniform_legal(obs["action_mask"], rng))


def instructions(mode: str, count: int, players: int) -> int:
    """Instructions of this script run as a child in ``mode`` with ``count``, under callgrind."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "callgrind.out")
        env = {**os.environ, "PYTHONHASHSEED": "0"}
        command = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable]
        command += [__file__, "--child", mode, str(count), "--players", str(players)]
        done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        found = re.search(r"Collected : (\d+)", done.stderr)
        assert found is not None, done.stderr
        return int(found.group(1))


def main() -> None:
    """Print the counts (or, as ``--child``, run one workload)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--child", nargs=2, metavar=("MODE", "COUNT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        mode, count = args.child[0], int(args.child[1])
        (pettingzoo_turns if mode == "pettingzoo" else vector_steps)(count, args.players)
        return
    for mode, count, units, unit in (
        ("pettingzoo", TURNS, TURNS, "PettingZoo turn"),
        ("vector", STEPS, STEPS * GAMES, "vector_env(256) agent step"),
    ):
        per = (instructions(mode, count, args.players) - instructions(mode, 0, args.players)) / units
        print(f"{args.players} players  {unit:<28} {per:>10,.0f} instructions")


if __name__ == "__main__":
    main()
