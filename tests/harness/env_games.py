"""Rule sets and seeded random environment states that the environment tests share."""

from __future__ import annotations

import random

from roppyakken.env import (
    RoppyakkenEnv,
)
from roppyakken.rules import Rules, from_options, preset

RULE_SETS: list[tuple[str, Rules]] = [
    ("classic", preset("classic")),
    ("optional-four", from_options("classic", {"hand_four": "optional"})),
    ("korean-high", preset("korean-high")),
    ("sambong", preset("sambong")),
    ("yukbaek", preset("yukbaek")),
]


def random_states(rules: Rules, players: int, seed: int, episodes: int) -> list[RoppyakkenEnv]:
    """Clones of every decision state of ``episodes`` random match episodes."""
    env = RoppyakkenEnv(rules, players, episode="match", seed=seed)
    rng = random.Random(seed)
    states = []
    for _ in range(episodes):
        env.reset()
        while not env.done:
            states.append(env.clone())
            env.step(rng.choice(env.legal_actions()))
    return states
