"""The fast environments: observations written into arrays, and many games stepped at once.

The arrays hold exactly what :func:`roppyakken.env.core.observe_view` gives from the
seat's view (so nothing the seat may not see), the vectorised Gymnasium environment
follows, game by game, the trajectories of single environments with the same seeds,
and both environments still pass their libraries' own checks.
"""

from __future__ import annotations

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from roppyakken.env import RoppyakkenEnv, observe_view
from roppyakken.env import gymnasium as rgym
from roppyakken.env import pettingzoo as rpz
from roppyakken.env.arrays import ObservationWriter, action_mask
from roppyakken.env.core import NUM_ACTIONS
from roppyakken.errors import RoppyakkenError
from tests.harness.env_games import RULE_SETS, random_states

SEATINGS = [
    (name, rules, players) for name, rules in RULE_SETS for players in (2, 3) if players in rules.players
]
"""Every rule set with each player count it seats."""


@pytest.mark.parametrize(("name", "rules", "players"), SEATINGS)
def test_written_observations_are_the_views_observations(name: str, rules: object, players: int) -> None:
    from roppyakken.rules import Rules

    assert isinstance(rules, Rules)
    writer = ObservationWriter(rules, players)
    states = random_states(rules, players, seed=17, episodes=3)
    assert len(states) > 50
    rows = np.full((len(states), writer.size), -7.0, np.float32)
    games = [s.game for s in states]
    for seat in range(players):
        writer.write_rows(games, seat, rows, list(range(len(states))))
        for i, state in enumerate(states):
            expected = np.asarray(observe_view(state.view(seat)), np.float32)
            assert np.array_equal(writer.observation(state.game, seat), expected), (name, i, seat)
            assert np.array_equal(rows[i], expected), (name, i, seat)
            row = np.full(writer.size, -7.0, np.float32)
            writer.write(state.game, seat, row)
            assert np.array_equal(row, expected), (name, i, seat)


def test_the_mask_is_the_legal_ids() -> None:
    env = RoppyakkenEnv("classic", 2, seed=3)
    mask = action_mask(env.legal_ids())
    assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,)
    assert np.flatnonzero(mask).tolist() == env.legal_actions()


@pytest.mark.parametrize("players", [2, 3])
def test_pettingzoo_passes_api_and_seed_tests(players: int) -> None:
    api_test(rpz.env(players=players), num_cycles=200)
    seed_test(lambda: rpz.env(players=players), num_cycles=200)


def test_gymnasium_single_env_passes_check_env() -> None:
    check_env(rgym.env(opponents="random"), skip_render_check=True)


@pytest.mark.parametrize(("players", "opponents"), [(2, "random"), (3, "greedy")])
def test_vector_env_follows_the_single_environments(players: int, opponents: str) -> None:
    """Game ``i`` of ``vector_env(n).reset(seed=s)`` is ``env().reset(seed=s + i)``, step by step."""
    n = 5
    vec = rgym.vector_env(n, players=players, opponents=opponents)
    singles = [rgym.env(players=players, opponents=opponents) for _ in range(n)]
    obs, _ = vec.reset(seed=40)
    single_obs = [e.reset(seed=40 + i)[0] for i, e in enumerate(singles)]
    restart = [False] * n
    rng = np.random.default_rng(8)
    ends = 0
    for _ in range(80):
        for i in range(n):
            assert np.array_equal(obs["observation"][i], single_obs[i]["observation"])
            assert np.array_equal(obs["action_mask"][i], single_obs[i]["action_mask"])
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
        obs, rewards, terminated, truncated, _ = vec.step(np.array(actions))
        for i, e in enumerate(singles):
            if restart[i]:
                single_obs[i], _ = e.reset()
                reward, done = 0.0, False
            else:
                single_obs[i], reward, done, _, _ = e.step(actions[i])
            assert rewards[i] == reward and terminated[i] == done and not truncated[i]
            restart[i] = done
            ends += int(done)
    assert ends >= 10


@pytest.mark.parametrize("players", [2, 3])
def test_the_episodes_after_a_seeded_reset_follow_from_its_seed(players: int) -> None:
    """``reset(seed)`` then episodes reset without a seed (the random opponents' generators going
    on): the same seed gives the same episodes, a different one others."""

    def episodes(seed: int) -> list[bytes]:
        env = rgym.env(players=players, opponents="random")
        obs, _ = env.reset(seed=seed)
        rng = np.random.default_rng(3)
        seen = []
        for _ in range(300):
            seen.append(obs["observation"].tobytes() + obs["action_mask"].tobytes())
            obs, _, done, _, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            if done:
                obs, _ = env.reset()
        return seen

    assert episodes(11) == episodes(11)
    assert episodes(11) != episodes(12)


def test_vector_env_writes_into_the_same_arrays_and_refuses_bad_seeds() -> None:
    vec = rgym.vector_env(3, opponents="random")
    obs, _ = vec.reset(seed=1)
    again, *_ = vec.step(np.array([int(np.flatnonzero(m)[0]) for m in obs["action_mask"]]))
    assert again["observation"] is obs["observation"] and again["action_mask"] is obs["action_mask"]
    assert obs["observation"].shape == (3, ObservationWriter(vec.games[0].game_env.rules, 2).size)
    with pytest.raises(RoppyakkenError, match="2 seeds for 3 games"):
        vec.reset(seed=[1, 2])
    with pytest.raises(RoppyakkenError, match="at least 1"):
        rgym.vector_env(0)


def test_an_illegal_action_in_a_vector_env_ends_that_game_only() -> None:
    vec = rgym.vector_env(2, opponents="random")
    obs, _ = vec.reset(seed=5)
    legal = int(np.flatnonzero(obs["action_mask"][1])[0])
    assert obs["action_mask"][0][NUM_ACTIONS - 1] == 0  # no redeal to call: illegal
    _, rewards, terminated, _, info = vec.step(np.array([NUM_ACTIONS - 1, legal]))
    assert terminated[0] and rewards[0] == -600.0 and info["illegal"].tolist() == [True, False]


@pytest.mark.parametrize(("name", "rules"), RULE_SETS)
def test_fast_ids_and_steps_are_the_engines_legal_actions(name: str, rules: object) -> None:
    """The ids from the engine's moves are those of its legal actions, in their order, and a
    step by id leaves the game as ``apply`` of the legal action does."""
    from roppyakken.engine import GAME_STATE
    from roppyakken.env.core import action_id
    from roppyakken.kernel import ROUND_STATE
    from roppyakken.rules import Rules

    def _state(game: object) -> list[object]:
        return [repr(getattr(game, name)) for name in (*ROUND_STATE, *GAME_STATE)]

    assert isinstance(rules, Rules)
    card_plays = 0
    for players in (2, 3):
        if players not in rules.players:
            continue
        for state in random_states(rules, players, seed=23, episodes=4):
            legal = state.game.legal_actions()
            expected = [action_id(a) for a in legal]
            assert state.legal_ids() == expected, name
            card_plays += bool(state.moves())
            for k in range(len(legal)):
                by_id, by_action = state.clone(), state.clone()
                assert by_id.step(expected[k]) == by_action.step_action(legal[k])
                assert _state(by_id.game) == _state(by_action.game), name
    assert card_plays > 50


def test_game_seeds_are_numpys_integers_below_2_to_the_62() -> None:
    """The single environment draws each game's seed from its generator as
    ``integers(0, 2**62)`` would (the games of a seed are those they were)."""
    env = rgym.env(opponents="random")
    expected = np.random.default_rng(11)
    env.reset(seed=11)
    assert env.game_env.seed == int(expected.integers(0, 2**62))
    for _ in range(200):
        env.start(None)
        assert env.game_env.seed == int(expected.integers(0, 2**62))
