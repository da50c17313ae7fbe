"""Environment steps per second: the core env, PettingZoo, Gymnasium (single and vectorised).

Run by hand: ``python bench/bench_env.py [--seconds 3] [--games 256]``.  Every step is a
random legal action (from the legal ids or the action mask); a Gymnasium step includes
the opponents' moves (``random`` bots here, to time the environment, not bots).  Each
figure is given per second of wall time and per second of this process's CPU time
(``time.process_time``): on a machine shared with other work the second is the one to
compare, the first what this run got.  The PettingZoo line is the loop of PettingZoo's
own ``performance_benchmark`` (``last()``, a random action of the mask, ``step``).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from roppyakken.env import RoppyakkenEnv
from roppyakken.env import gymnasium as rgym
from roppyakken.env import pettingzoo as rpz


class Rate(NamedTuple):
    """Steps counted, per second of wall time and of CPU time."""

    steps: int
    wall: float
    cpu: float

    def text(self, unit: str) -> str:
        """``'12,345 steps/s (CPU 23,456)'``."""
        return f"{self.wall:>9,.0f} {unit}/s wall  {self.cpu:>9,.0f} {unit}/s CPU"


def timed(seconds: float, run: Callable[[Callable[[], bool]], int]) -> Rate:
    """Run ``run(more)`` (it steps while ``more()``) and measure the steps it returns."""
    wall0, cpu0 = time.perf_counter(), time.process_time()

    def more() -> bool:
        return time.perf_counter() - wall0 < seconds

    steps = run(more)
    wall, cpu = time.perf_counter() - wall0, time.process_time() - cpu0
    return Rate(steps, steps / wall, steps / max(cpu, 1e-9))


def core(seconds: float, players: int) -> Rate:
    """Steps of :class:`RoppyakkenEnv` (legal ids, no observation)."""
    env = RoppyakkenEnv(players=players, seed=1)
    rng = random.Random(1)

    def run(more: Callable[[], bool]) -> int:
        steps = 0
        while more():
            env.reset()
            while not env.done:
                env.step(rng.choice(env.legal_actions()))
                steps += 1
        return steps

    return timed(seconds, run)


def core_observed(seconds: float, players: int) -> Rate:
    """Steps of the core env with the acting seat's observation (list of floats) and mask each step."""
    env = RoppyakkenEnv(players=players, seed=2)
    rng = random.Random(2)

    def run(more: Callable[[], bool]) -> int:
        steps = 0
        while more():
            env.reset()
            while not env.done:
                env.observe(env.current_player)
                env.action_mask()
                env.step(rng.choice(env.legal_actions()))
                steps += 1
        return steps

    return timed(seconds, run)


def pettingzoo(seconds: float, players: int) -> Rate:
    """Turns of the AEC environment, in the loop of PettingZoo's ``performance_benchmark``."""
    env = rpz.env(players=players)
    env.reset(seed=3)
    rng = random.Random(3)

    def run(more: Callable[[], bool]) -> int:
        turns = 0
        while more():
            for agent in env.agent_iter(env.num_agents):
                obs, _, term, trunc, _ = env.last()
                action = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
                env.step(action)
                turns += 1
                if all(env.terminations.values()) or all(env.truncations.values()):
                    env.reset()
                del agent
        return turns

    return timed(seconds, run)


def gymnasium(seconds: float, players: int) -> Rate:
    """Agent steps of the single-agent environment against ``random`` bots."""
    env = rgym.env(players=players, opponents="random")
    box: list[rgym.Obs] = [env.reset(seed=4)[0]]
    rng = np.random.default_rng(4)

    def run(more: Callable[[], bool]) -> int:
        steps = 0
        obs = box[0]
        while more():
            obs, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            steps += 1
            if term or trunc:
                obs, _ = env.reset()
        return steps

    return timed(seconds, run)


def vector(seconds: float, num_envs: int, players: int = 2) -> Rate:
    """Agent steps (summed over games) of ``vector_env(num_envs)`` against ``random``.

    Actions are drawn for every game at once from the masks (a uniform legal action:
    the argmax of random keys over the legal entries), as a batched agent would.
    """
    env = rgym.vector_env(num_envs, players=players, opponents="random")
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)

    def run(more: Callable[[], bool]) -> int:
        steps = 0
        while more():
            keys = rng.random(obs["action_mask"].shape, np.float32) + obs["action_mask"]
            env.step(keys.argmax(axis=1))
            steps += num_envs
        return steps

    rate = timed(seconds, run)
    env.close()
    return rate


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement (3)")
    parser.add_argument("--games", type=int, default=256, help="games of the vectorised environment (256)")
    args = parser.parse_args()
    s = args.seconds
    for players in (2, 3):
        print(f"{players} players  core env, legal ids           {core(s, players).text('steps')}")
        print(f"{players} players  core env, observation + mask  {core_observed(s, players).text('steps')}")
        print(f"{players} players  pettingzoo AEC                {pettingzoo(s, players).text('turns')}")
        print(f"{players} players  gymnasium vs random           {gymnasium(s, players).text('steps')}")
    for players in (2, 3):
        label = f"gymnasium vector, {args.games} games"
        print(f"{players} players  {label:<29} {vector(s, args.games, players).text('steps')}")


if __name__ == "__main__":
    main()
