"""Roppyakken as a single-agent Gymnasium environment against bots (optional extra ``[rl]``).

``env(rules="classic", players=2, opponents="expert")`` returns a
:class:`gymnasium.Env`: the agent plays seat ``seat`` (0), the other seats are bots of
the given level (a level string such as ``"greedy"`` or ``"master:iters=100"``, or one
per opponent), each seeing only its own seat's view.  Observations are
``{"observation": float32 vector, "action_mask": int8 vector}``; actions are the
:data:`~roppyakken.env.core.NUM_ACTIONS` ids.  An illegal action ends the episode with
``illegal_reward`` (default: -1 for ``reward="result"``, minus the target for
``"score"``), as in pgx.  ``vector_env(num_envs, ...)`` runs many games at once
(:class:`gymnasium.vector.SyncVectorEnv`, seeded per game).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from roppyakken.ai.base import Bot, make_bot
from roppyakken.env.core import NUM_ACTIONS, RoppyakkenEnv, action_id
from roppyakken.env.pettingzoo import observation_space
from roppyakken.errors import RoppyakkenError
from roppyakken.rules import Rules

Obs = dict[str, np.ndarray[Any, Any]]


class RoppyakkenGym(gym.Env[Obs, np.int64]):
    """The single-agent environment (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["human", "ansi"], "render_fps": 4}  # noqa: RUF012

    def __init__(
        self,
        rules: str | Rules = "classic",
        players: int = 2,
        opponents: str | Sequence[str] = "expert",
        *,
        seat: int = 0,
        episode: str = "round",
        reward: str = "score",
        render_mode: str | None = None,
        illegal_reward: float | None = None,
    ) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: expected human or ansi, not {render_mode!r}")
        self.game_env = RoppyakkenEnv(rules, players, episode=episode, reward=reward, seed=0)
        if not 0 <= seat < players:
            raise RoppyakkenError(f"seat {seat} is not a seat of a {players}-player game")
        levels = [opponents] * (players - 1) if isinstance(opponents, str) else list(opponents)
        if len(levels) != players - 1:
            raise RoppyakkenError(f"{players - 1} opponents needed, not {len(levels)}")
        for level in levels:
            make_bot(level)  # a one-line error for an unknown level, before playing
        self.levels = levels
        self.seat = seat
        self.render_mode = render_mode
        if illegal_reward is None:
            illegal_reward = -1.0 if reward == "result" else -float(self.game_env.rules.target)
        self.illegal_reward = illegal_reward
        self.observation_space = observation_space(players)  # type: ignore[assignment]
        self.action_space = spaces.Discrete(NUM_ACTIONS)
        self.bots: list[Bot | None] = []

    def _obs(self) -> Obs:
        env = self.game_env
        mask = np.zeros(NUM_ACTIONS, np.int8)
        if not env.done and env.current_player == self.seat:
            mask[env.legal_actions()] = 1
        return {"observation": np.asarray(env.observe(self.seat), np.float32), "action_mask": mask}

    def _opponents_play(self) -> float:
        """Let the bots act until the agent's turn or the end; the agent's reward meanwhile."""
        env = self.game_env
        total = 0.0
        while not env.done and env.current_player != self.seat:
            seat = env.current_player
            bot = self.bots[seat]
            assert bot is not None
            total += env.step(action_id(bot.choose(env.view(seat))))[self.seat]
        return total

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """A new episode: ``seed`` fixes the deals and the bots' choices."""
        super().reset(seed=seed)
        while True:
            game_seed = int(self.np_random.integers(0, 2**62))
            self.game_env.reset(game_seed)
            levels = iter(self.levels)
            self.bots = [
                None if s == self.seat else make_bot(next(levels), game_seed + s)
                for s in range(self.game_env.players)
            ]
            self._opponents_play()
            if not self.game_env.done:  # a round an opponent won outright before any decision: redrawn
                return self._obs(), {}  # no seed here: it would give away the deck

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """The agent's action, then the bots' until the agent's next decision or the end."""
        env = self.game_env
        if env.done:
            raise RoppyakkenError("the episode is over: reset the environment")
        aid = int(action)
        if aid not in env.legal_actions():
            env.done = True
            return self._obs(), float(self.illegal_reward), True, False, {"illegal": True}
        reward = env.step(aid)[self.seat]
        reward += self._opponents_play()
        if self.render_mode == "human":
            self.render()
        return self._obs(), float(reward), env.done, False, {}

    def render(self) -> str | None:
        """Print (``human``) or return (``ansi``) the table as the agent sees it."""
        if self.render_mode is None:
            return None
        text = self.game_env.render(self.seat, ansi=self.render_mode == "ansi")
        if self.render_mode == "ansi":
            return text
        print(text, end="")
        return None


def env(
    rules: str | Rules = "classic",
    players: int = 2,
    opponents: str | Sequence[str] = "expert",
    **kwargs: Any,
) -> RoppyakkenGym:
    """The single-agent environment against ``opponents`` (see the module docstring)."""
    return RoppyakkenGym(rules, players, opponents, **kwargs)


def vector_env(
    num_envs: int,
    rules: str | Rules = "classic",
    players: int = 2,
    opponents: str | Sequence[str] = "expert",
    **kwargs: Any,
) -> gym.vector.SyncVectorEnv:
    """``num_envs`` games at once, stepped together (autoreset; seed with ``reset(seed=…)``)."""
    if num_envs < 1:
        raise RoppyakkenError("vector_env: num_envs must be at least 1")
    return gym.vector.SyncVectorEnv(
        [lambda: env(rules, players, opponents, **kwargs) for _ in range(num_envs)]
    )
