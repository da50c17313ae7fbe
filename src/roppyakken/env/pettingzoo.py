"""Roppyakken as a PettingZoo AEC environment (optional extra ``[rl]``).

``env(rules="classic", players=2, render_mode=None)`` returns an
:class:`~pettingzoo.AECEnv` with agents ``player_0 .. player_{n-1}`` (the seats), the
:data:`~roppyakken.env.core.NUM_ACTIONS` discrete actions, and observations
``{"observation": float32 vector, "action_mask": int8 vector}`` as in PettingZoo's
classic games.  Each agent only ever observes its own seat's view.  ``render_mode``
``"human"`` prints the table, ``"ansi"`` returns it with colours.  ``episode`` and
``reward`` are those of :class:`~roppyakken.env.core.RoppyakkenEnv`.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from roppyakken.env.arrays import ObservationWriter, action_mask
from roppyakken.env.core import NUM_ACTIONS, RoppyakkenEnv, observation_size
from roppyakken.rules import Rules

OBS_LOW = -50.0
OBS_HIGH = 50.0


def observation_space(players: int) -> spaces.Dict:
    """The observation space of one agent (shared by the gymnasium environment)."""
    return spaces.Dict(
        {
            "observation": spaces.Box(OBS_LOW, OBS_HIGH, (observation_size(players),), np.float32),
            "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
        }
    )


class RoppyakkenAEC(AECEnv):  # type: ignore[misc]
    """The AEC environment (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["human", "ansi"],
        "name": "roppyakken_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: str | Rules = "classic",
        players: int = 2,
        render_mode: str | None = None,
        episode: str = "round",
        reward: str = "score",
    ) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode: expected human or ansi, not {render_mode!r}")
        self.game_env = RoppyakkenEnv(rules, players, episode=episode, reward=reward, seed=0)
        self.render_mode = render_mode
        self.possible_agents = [f"player_{i}" for i in range(players)]
        self.agents = list(self.possible_agents)
        obs_space = observation_space(players)
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self._seat = {a: i for i, a in enumerate(self.possible_agents)}
        self._writer = ObservationWriter(self.game_env.rules, players)
        self._reset_state()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's observation space."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        """The agent's action space."""
        return self.action_spaces[agent]

    def _reset_state(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.agent_selection = self.possible_agents[self.game_env.current_player]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """Start a new episode (``seed`` fixes every deal)."""
        self.game_env.reset(seed)
        self._reset_state()

    def observe(self, agent: str) -> dict[str, Any]:
        """The agent's own view as a vector, and its legal-action mask (zeros off turn)."""
        seat = self._seat[agent]
        env = self.game_env
        mine = not env.done and env.current_player == seat
        mask = action_mask(env.legal_ids() if mine else ())
        return {"observation": self._writer.observation(env.game, seat), "action_mask": mask}

    def step(self, action: int | None) -> None:
        """Apply the selected agent's action (``None`` for an agent that is done)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise ValueError(f"{agent} must act: None is only for agents that are done")
        env = self.game_env
        self._cumulative_rewards[agent] = 0.0
        rewards = env.step(int(action))
        for seat, a in enumerate(self.possible_agents):
            self.rewards[a] = rewards[seat]
        if env.done:
            for a in self.agents:
                self.terminations[a] = True
        else:
            self.agent_selection = self.possible_agents[env.current_player]
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        """Print (``human``) or return (``ansi``) the table, every hand shown."""
        if self.render_mode is None:
            return None
        text = self.game_env.render(ansi=self.render_mode == "ansi")
        if self.render_mode == "ansi":
            return text
        print(text, end="")
        return None

    def close(self) -> None:
        """Nothing to release."""


def env(
    rules: str | Rules = "classic",
    players: int = 2,
    render_mode: str | None = None,
    episode: str = "round",
    reward: str = "score",
) -> RoppyakkenAEC:
    """The AEC environment for ``players`` under ``rules`` (a preset name or :class:`Rules`)."""
    return RoppyakkenAEC(rules, players, render_mode, episode, reward)
