"""Roppyakken as a single-agent Gymnasium environment against bots (optional extra ``[rl]``).

``env(rules="classic", players=2, opponents="expert")`` returns a
:class:`gymnasium.Env`: the agent plays seat ``seat`` (0), the other seats are bots of
the given level (a level string such as ``"greedy"`` or ``"master:iters=100"``, or one
per opponent), each seeing only its own seat's view.  Observations are
``{"observation": float32 vector, "action_mask": int8 vector}``; actions are the
:data:`~roppyakken.env.core.NUM_ACTIONS` ids.  An illegal action ends the episode with
``illegal_reward`` (default: -1 for ``reward="result"``, minus the target for
``"score"``), as in pgx.

``vector_env(num_envs, ...)`` steps many games at once (:class:`RoppyakkenVectorEnv`): the
opponents' moves inside, observations and masks written into arrays allocated once
(rows ``num_envs``), game ``i`` seeded with ``seed + i`` as a single environment reset
with that seed is, so that each game follows the trajectory of the single environment.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from roppyakken.actions import Action
from roppyakken.ai.base import Bot, RandomBot, make_bot
from roppyakken.env.arrays import ObservationWriter, action_mask
from roppyakken.env.core import NUM_ACTIONS, RoppyakkenEnv, resolve_rules
from roppyakken.env.kernel import (
    ENDED,
    ILLEGAL,
    NOT_CARD_PLAY,
    PLAYED,
    flat_ids,
    play_random,
    step_cards,
    step_games,
)
from roppyakken.env.pettingzoo import observation_space
from roppyakken.errors import RoppyakkenError
from roppyakken.indexed import choice_index
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
        self.draws: list[Callable[[int], int] | None] = []
        """Each seat's bot's ``choice_bits`` (:class:`~roppyakken.ai.base.IndexBot`), if it has one."""
        self._random_only = False
        """Whether :attr:`bots` are all random bots, kept from one episode to the next (see
        :func:`_bot`)."""
        self.writer = ObservationWriter(self.game_env.rules, players)

    def agent_to_act(self) -> bool:
        """Whether the episode runs and the agent is to act."""
        env = self.game_env
        return not env.done and env.current_player == self.seat

    def _obs(self) -> Obs:
        env = self.game_env
        mask = action_mask(env.legal_ids() if self.agent_to_act() else ())
        return {"observation": self.writer.observation(env.game, self.seat), "action_mask": mask}

    def _opponents_play(self) -> float:
        """Let the bots act until the agent's turn or the end; the agent's reward meanwhile."""
        env = self.game_env
        game = env.game
        me = self.seat
        total = 0.0
        draws = self.draws
        while not env.done and game.to_act != me:
            before = game.last_parts
            if play_random(game, me, draws):  # the random seats' card plays, compiled
                total += env._after_step(before)[me]
                continue
            seat = game.to_act
            bits = draws[seat]  # a random bot's draws, made here directly
            if bits is not None:  # a declaration or a redeal (its card plays are played above)
                legal = game.legal_actions()
                total += env.step_action(legal[choice_index(bits, len(legal))])[me]
                continue
            bot = self.bots[seat]
            assert bot is not None
            choose_legal = getattr(bot, "choose_legal", None)  # the same choice, without a view
            action: Action
            if choose_legal is not None:
                action = choose_legal(env.game.legal_actions())
            else:
                action = bot.choose(env.view(seat))
            total += env.step_action(action)[self.seat]
        return total

    def start(self, seed: int | None) -> None:
        """:meth:`reset` without the observation."""
        super().reset(seed=seed)
        while True:
            # self.np_random.integers(0, 2**62), drawn as numpy draws it (the top 62 bits of
            # the generator's next 64) without its per-call overhead (tests/env/test_env_fast.py)
            game_seed = int(self.np_random.bit_generator.random_raw()) >> 2
            self.game_env.reset(game_seed)
            if seed is not None or not self._random_only:
                levels = iter(self.levels)
                old = self.bots or [None] * self.game_env.players
                self.bots = [
                    None if s == self.seat else _bot(next(levels), game_seed + s, old[s], seed is None)
                    for s in range(self.game_env.players)
                ]
                self.draws = [getattr(bot, "choice_bits", None) for bot in self.bots]
                # every opponent random: the next episodes without a seed keep these bots as they are
                self._random_only = all(type(b) is RandomBot for b in self.bots if b is not None)
            self._opponents_play()
            if not self.game_env.done:  # a round an opponent won outright before any decision: redrawn
                return

    def advance(self, action: Any) -> tuple[float, bool, bool]:
        """:meth:`step` without the observation: the reward, whether it ended, whether illegally."""
        env = self.game_env
        if env.done:
            raise RoppyakkenError("the episode is over: reset the environment")
        aid = int(action)
        env._legal = env._moves = None  # (the engine's state changes below, without env.step)
        return self.finish(step_cards(env.game, aid, self.seat, self.draws), aid)

    def finish(self, outcome: int, aid: int) -> tuple[float, bool, bool]:
        """The rest of a step that :func:`~roppyakken.env.kernel.step_cards` began with
        ``outcome``: a decision other than a card play, the reward of a round's end, the
        bots' decisions up to the agent's turn (what :meth:`advance` returns)."""
        env = self.game_env
        if outcome == PLAYED:
            return 0.0, False, False
        if outcome == ILLEGAL or (outcome == NOT_CARD_PLAY and aid not in env.legal_map()):
            env.done = True
            return float(self.illegal_reward), True, True
        if outcome == NOT_CARD_PLAY:
            reward = env.step(aid)[self.seat]
        elif outcome == ENDED:
            reward = env._after_step(None)[self.seat]  # (a round ended: its score is new)
        else:
            reward = 0.0
        reward += self._opponents_play()
        return float(reward), env.done, False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """A new episode: ``seed`` fixes the deals and the bots' choices."""
        self.start(seed)
        return self._obs(), {}  # no seed in the info: it would give away the deck

    def step(self, action: Any) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        """The agent's action, then the bots' until the agent's next decision or the end."""
        reward, done, illegal = self.advance(action)
        if illegal:
            return self._obs(), reward, True, False, {"illegal": True}
        if self.render_mode == "human":
            self.render()
        return self._obs(), reward, done, False, {}

    def render(self) -> str | None:
        """Print (``human``) or return (``ansi``) the table as the agent sees it."""
        if self.render_mode is None:
            return None
        text = self.game_env.render(self.seat, ansi=self.render_mode == "ansi")
        if self.render_mode == "ansi":
            return text
        print(text, end="")
        return None


def _bot(level: str, seed: int, old: Bot | None, go_on: bool) -> Bot:
    """``make_bot(level, seed)``, except for a random bot when ``old`` is one: ``old`` itself,
    its generator going on from where the last episode left it when ``go_on`` (an episode
    after the first of a seed: seeding a Mersenne Twister costs about 4 µs, a tenth of a
    3-player episode's steps), else reseeded with ``seed``."""
    if level == "random" and type(old) is RandomBot:
        if not go_on:
            old.rng.seed(seed)
        return old
    return make_bot(level, seed)


def env(
    rules: str | Rules = "classic",
    players: int = 2,
    opponents: str | Sequence[str] = "expert",
    **kwargs: Any,
) -> RoppyakkenGym:
    """The single-agent environment against ``opponents`` (see the module docstring)."""
    return RoppyakkenGym(rules, players, opponents, **kwargs)


class RoppyakkenVectorEnv(gym.vector.VectorEnv[Obs, np.ndarray[Any, Any], np.ndarray[Any, Any]]):
    """``num_envs`` single-agent games stepped together (see the module docstring).

    Observations and masks are written into the arrays returned (``observation``:
    ``(num_envs, size)`` float32, ``action_mask``: ``(num_envs, 2530)`` int8), the same
    arrays at every step: copy what must be kept.  A game that ends is reset at the
    next step (its action then ignored, its reward 0), as in Gymnasium's ``next_step``
    autoreset.
    """

    metadata: dict[str, Any] = {"autoreset_mode": gym.vector.AutoresetMode.NEXT_STEP}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int,
        rules: str | Rules = "classic",
        players: int = 2,
        opponents: str | Sequence[str] = "random",
        **kwargs: Any,
    ) -> None:
        if num_envs < 1:
            raise RoppyakkenError("vector_env: num_envs must be at least 1")
        rules = resolve_rules(rules)  # one object: the engine's caches keyed by it find it at once
        self.games = [RoppyakkenGym(rules, players, opponents, **kwargs) for _ in range(num_envs)]
        first = self.games[0]
        self.num_envs = num_envs
        self.single_observation_space = first.observation_space
        self.single_action_space = first.action_space
        self.observation_space = gym.vector.utils.batch_space(first.observation_space, num_envs)
        self.action_space = gym.vector.utils.batch_space(first.action_space, num_envs)
        self.writer = first.writer
        self.seat = first.seat
        self.observations = np.zeros((num_envs, first.writer.size), np.float32)
        self.masks = np.zeros((num_envs, NUM_ACTIONS), np.int8)
        self.rewards = np.zeros(num_envs, np.float64)
        self.terminations = np.zeros(num_envs, np.bool_)
        self.truncations = np.zeros(num_envs, np.bool_)
        self._set = np.zeros(0, np.int64)
        self._envs = [g.game_env for g in self.games]
        self._ended = [False] * num_envs
        self._outcomes = [PLAYED] * num_envs

    def _write(self) -> Obs:
        envs = self._envs
        games = [e.game for e in envs]
        self.writer.write_rows(games, self.seat, self.observations, range(self.num_envs))
        masks = self.masks.reshape(-1)
        masks[self._set] = 0  # the entries set at the last step, not the whole array
        others: list[int] = []  # the agent's decisions other than card plays
        flat = np.frombuffer(flat_ids(games, self._ended, self.seat, NUM_ACTIONS, others), np.int64)
        if others:
            more = [i * NUM_ACTIONS + aid for i in others for aid in envs[i].legal_ids()]
            flat = np.concatenate([flat, np.asarray(more, np.int64)])
        masks[flat] = 1
        self._set = flat
        return {"observation": self.observations, "action_mask": self.masks}

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Obs, dict[str, Any]]:
        """Reset every game: game ``i`` with ``seed + i`` (or ``seed[i]``)."""
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [None if seed is None else seed + i for i in range(self.num_envs)]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise RoppyakkenError(f"vector_env: {len(seeds)} seeds for {self.num_envs} games")
        for g, s in zip(self.games, seeds, strict=True):
            g.start(s)
        self._ended = [False] * self.num_envs
        return self._write(), {}

    def step(
        self, actions: Any
    ) -> tuple[Obs, np.ndarray[Any, Any], np.ndarray[Any, Any], np.ndarray[Any, Any], dict[str, Any]]:
        """One action a game (ignored for a game that ended at the last step: it is reset)."""
        illegal: list[int] = []
        n = self.num_envs
        restart = self._ended
        chosen = np.asarray(actions).reshape(n).astype(np.int64).tolist()
        rewards = [0.0] * n
        ended = [False] * n
        games = self.games
        envs = self._envs
        for e in envs:
            e._legal = e._moves = None  # (the engine's state changes below, without env.step)
        outcomes = self._outcomes
        # Every game's card play and its random opponents' at once (compiled); the games
        # that need more (a round's end, another decision, a reset) are finished here.
        rest = step_games(
            [e.game for e in envs], chosen, restart, self.seat, [g.draws for g in games], outcomes
        )
        for i in rest:
            rewards[i], ended[i], was_illegal = games[i].finish(outcomes[i], chosen[i])
            if was_illegal:
                illegal.append(i)
        for i in range(n):
            if restart[i]:
                games[i].start(None)
        self.rewards[:] = rewards
        self.terminations[:] = ended
        self._ended = ended
        infos: dict[str, Any] = {"illegal": np.isin(np.arange(self.num_envs), illegal)} if illegal else {}
        return self._write(), self.rewards, self.terminations, self.truncations, infos


def vector_env(
    num_envs: int,
    rules: str | Rules = "classic",
    players: int = 2,
    opponents: str | Sequence[str] = "expert",
    **kwargs: Any,
) -> RoppyakkenVectorEnv:
    """``num_envs`` games at once, stepped together (autoreset; seed with ``reset(seed=…)``)."""
    return RoppyakkenVectorEnv(num_envs, rules, players, opponents, **kwargs)
