"""Environment steps per second: the core env, PettingZoo, Gymnasium (single and vector).

Run by hand: ``python bench/bench_env.py [--seconds 3]``.  Every step is a random legal
action (from the legal ids or the action mask); a step of the Gymnasium environment
includes the opponents' moves (``random`` bots here, to time the environment, not bots).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

from roppyakken.env import RoppyakkenEnv
from roppyakken.env import gymnasium as rgym
from roppyakken.env import pettingzoo as rpz


def core(seconds: float, players: int) -> tuple[float, float]:
    """Steps and rounds per second of :class:`RoppyakkenEnv` (legal ids, no observation)."""
    env = RoppyakkenEnv(players=players, seed=1)
    rng = random.Random(1)
    steps = rounds = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        while not env.done:
            env.step(rng.choice(env.legal_actions()))
            steps += 1
        rounds += 1
    spent = time.perf_counter() - start
    return steps / spent, rounds / spent


def core_observed(seconds: float, players: int) -> float:
    """Steps per second of the core env with the acting seat's observation each step."""
    env = RoppyakkenEnv(players=players, seed=2)
    rng = random.Random(2)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        while not env.done:
            env.observe(env.current_player)
            env.action_mask()
            env.step(rng.choice(env.legal_actions()))
            steps += 1
    return steps / (time.perf_counter() - start)


def pettingzoo(seconds: float, players: int) -> float:
    """Steps per second of the AEC environment (``last()`` then a masked random action)."""
    env = rpz.env(players=players)
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        env.reset()
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            action = None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"])))
            env.step(action)
            steps += 1
            del agent
    return steps / (time.perf_counter() - start)


def gymnasium(seconds: float, players: int) -> float:
    """Agent steps per second of the single-agent environment against ``random`` bots."""
    env = rgym.env(players=players, opponents="random")
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        obs, _, term, trunc, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        steps += 1
        if term or trunc:
            obs, _ = env.reset()
    return steps / (time.perf_counter() - start)


def vector(seconds: float, num_envs: int) -> float:
    """Agent steps per second (summed over games) of ``vector_env(num_envs)`` against ``random``."""
    env = rgym.vector_env(num_envs, opponents="random")
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
        obs, *_ = env.step(np.array(actions))
        steps += num_envs
    env.close()
    return steps / (time.perf_counter() - start)


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds per measurement")
    args = parser.parse_args()
    s = args.seconds
    for players in (2, 3):
        steps, rounds = core(s, players)
        rate = f"{steps:>9,.0f} steps/s  ({rounds:,.0f} rounds/s)"
        print(f"{players} players  core env, legal ids          {rate}")
        print(f"{players} players  core env, observation + mask {core_observed(s, players):>9,.0f} steps/s")
        print(f"{players} players  pettingzoo AEC               {pettingzoo(s, players):>9,.0f} steps/s")
        print(f"{players} players  gymnasium vs random          {gymnasium(s, players):>9,.0f} agent steps/s")
    print(f"2 players  gymnasium vector, 8 games     {vector(s, 8):>9,.0f} agent steps/s")


if __name__ == "__main__":
    main()
