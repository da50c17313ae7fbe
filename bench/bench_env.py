"""Environment steps per second: the core env, PettingZoo, Gymnasium (single and vectorised).

Run by hand: ``python bench/bench_env.py [--seconds 3] [--games 256]``.  Every step is a
random legal action (from the legal ids or the action mask); a Gymnasium step includes
the opponents' moves (``random`` bots here, to time the environment, not bots).  Each
figure is given per second of wall time and per second of this process's CPU time
(``time.process_time``): on a machine shared with other work the second is the one to
compare, the first what this run got.  The PettingZoo line is the loop of PettingZoo's
own ``performance_benchmark`` (``last()``, a random action of the mask, ``step``).
The ``bare engine`` lines play the same games on the engine alone (seat 0's decisions
counted as agent steps): a bound from above on any environment over this engine.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from roppyakken.actions import OVER, PLAY, TAKE
from roppyakken.engine import Game
from roppyakken.env import RoppyakkenEnv
from roppyakken.env import gymnasium as rgym
from roppyakken.env import pettingzoo as rpz
from roppyakken.env.arrays import ObservationWriter
from roppyakken.indexed import choice_index
from roppyakken.rules import preset


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


def vector(seconds: float, num_envs: int, players: int = 2) -> tuple[Rate, float]:
    """Agent steps (summed over games) of ``vector_env(num_envs)`` against ``random``, and the
    agent steps per CPU second of ``step`` alone.

    Actions are drawn for every game at once from the masks, as a batched agent would: a
    uniform legal action of each game (its legal entries found by one ``flatnonzero`` of the
    masks viewed as booleans, then one uniform index a game); the second figure leaves out
    that draw (the agent's work, not the environment's).
    """
    env = rgym.vector_env(num_envs, players=players, opponents="random")
    obs, _ = env.reset(seed=5)
    rng = np.random.default_rng(5)
    in_step = [0.0]

    def run(more: Callable[[], bool]) -> int:
        steps = 0
        while more():
            actions = uniform_legal(obs["action_mask"], rng)
            cpu = time.process_time()
            env.step(actions)
            in_step[0] += time.process_time() - cpu
            steps += num_envs
        return steps

    rate = timed(seconds, run)
    env.close()
    return rate, rate.steps / max(in_step[0], 1e-9)


def uniform_legal(masks: np.ndarray[Any, Any], rng: np.random.Generator) -> np.ndarray[Any, Any]:
    """A uniformly drawn legal action of each row of ``masks`` (0 for a row with none)."""
    rows, width = masks.shape
    flat = np.flatnonzero(masks.view(np.bool_))
    counts = np.bincount(flat // width, minlength=rows)
    firsts = np.cumsum(counts) - counts
    picks = firsts + (rng.random(rows) * counts).astype(np.int64)
    actions = np.zeros(rows, np.int64)
    some = counts > 0
    actions[some] = flat[picks[some]] % width
    return actions


def engine_bound(seconds: float, players: int, observe: bool) -> Rate:
    """Agent steps of the bare engine: the games of ``gymnasium vs random`` played on a
    :class:`~roppyakken.engine.Game` alone (a new game an episode, every decision a random
    pick among the engine's own moves, seat 0 the agent), with ``observe`` seat 0's
    observation encoded (:meth:`ObservationWriter.encode`: the bytes of its float32 values) at each of its
    decisions.  No environment can step faster on this engine: what it adds is on top.
    """
    rules = preset("classic")
    writer = ObservationWriter(rules, players)
    rng = random.Random(6)
    pick = rng.getrandbits

    def run(more: Callable[[], bool]) -> int:
        agent_steps = 0
        while more():
            for _ in range(20):
                game = Game(rules, players, rng.getrandbits(62), log=False)
                game.stop_at_round_end = True
                while game.phase != OVER:
                    phase = game.phase
                    if game.to_act == 0:
                        agent_steps += 1
                        if observe:
                            writer.encode(game, 0)
                    if phase in (PLAY, TAKE):
                        moves = game.moves()
                        card, target = moves[choice_index(pick, len(moves))]
                        if phase == TAKE:
                            game.take(target)
                        else:
                            game.play_card(card, target)
                    else:
                        legal = game.legal_actions()
                        game.apply(legal[choice_index(pick, len(legal))])
        return agent_steps

    return timed(seconds, run)


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
        rate, in_step = vector(s, args.games, players)
        print(f"{players} players  {label:<29} {rate.text('steps')}  ({in_step:,.0f}/s CPU in step)")
    for players in (2, 3):
        for observe in (False, True):
            label = "bare engine" + (" + observation" if observe else "")
            print(f"{players} players  {label:<29} {engine_bound(s, players, observe).text('steps')}")


if __name__ == "__main__":
    main()
