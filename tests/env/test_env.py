"""The research environment: action ids, masks, observations, rewards, episodes, wrappers."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test

from roppyakken.actions import CallRedeal, Declare, Play, Take
from roppyakken.cards import SLUGS
from roppyakken.env import (
    DECLARE_BASE,
    NUM_ACTIONS,
    REDEAL_BASE,
    TAKE_BASE,
    RoppyakkenEnv,
    action_id,
    decode,
    describe_action,
    observation_layout,
    observation_size,
)
from roppyakken.env import gymnasium as rgym
from roppyakken.env import pettingzoo as rpz
from roppyakken.errors import RoppyakkenError
from roppyakken.rules import Rules, preset
from tests.harness.env_games import RULE_SETS, random_states
from tests.harness.support import ROOT


@pytest.mark.parametrize(("name", "rules"), RULE_SETS)
def test_action_ids_round_trip_and_mask_is_exactly_the_legal_actions(name: str, rules: Rules) -> None:
    kinds: Counter[str] = Counter()
    states = 0
    for players in (2, 3):
        if players not in rules.players:
            continue
        for env in random_states(rules, players, seed=len(name) * 7 + players, episodes=30):
            legal = env.game.legal_actions()
            ids = [action_id(a) for a in legal]
            assert len(set(ids)) == len(ids), "two legal actions share an id"
            assert all(0 <= i < NUM_ACTIONS for i in ids)
            for a, i in zip(legal, ids, strict=True):
                assert decode(i, legal) == a
                assert env.action(i) == a
                describe_action(i)
                kinds[type(a).__name__] += 1
            mask = env.action_mask()
            assert [i for i in range(NUM_ACTIONS) if mask[i]] == sorted(ids) == env.legal_actions()
            states += 1
    assert states > 1000
    assert kinds["Play"] and kinds["Take"]
    if rules.declare == "choose" and rules.lucky_hands:
        assert kinds["Declare"]
    if rules.hand_four == "optional":
        assert kinds["CallRedeal"]


def test_action_id_ranges_per_kind() -> None:
    assert action_id(Play(0, 0)) == 48
    assert action_id(Play(47, 1 << 44 | 1 << 45)) == 47 * 49 + 44
    assert action_id(Take(1 << 5)) == TAKE_BASE + 5
    assert action_id(Declare(())) == DECLARE_BASE
    assert action_id(Declare(("all-chaff", "hand-three"))) == DECLARE_BASE + 3
    assert action_id(CallRedeal(False)) == REDEAL_BASE
    assert action_id(CallRedeal(True)) == REDEAL_BASE + 1 == NUM_ACTIONS - 1


def test_illegal_id_is_refused_in_one_line_and_changes_nothing() -> None:
    env = RoppyakkenEnv(seed=4)
    before = env.observe(env.current_player)
    illegal = next(i for i in range(NUM_ACTIONS) if i not in env.legal_actions())
    with pytest.raises(RoppyakkenError, match="not legal now"):
        env.step(illegal)
    with pytest.raises(RoppyakkenError, match="out of range"):
        env.step(NUM_ACTIONS)
    assert env.observe(env.current_player) == before


def test_observation_layout_adds_up() -> None:
    for players in (2, 3):
        env = RoppyakkenEnv(players=players, seed=1)
        layout = observation_layout(players)
        assert len(env.observe(0)) == observation_size(players) == layout[-1][1] + layout[-1][2]
        names = [n for n, _, _ in layout]
        assert names[:3] == ["hand", "table", "captures"]
        hand = layout[0]
        obs = env.observe(0)
        assert sum(obs[hand[1] : hand[1] + hand[2]]) == env.game.hands[0].bit_count()


@pytest.mark.parametrize("players", [2, 3])
def test_observations_never_reveal_hidden_cards(players: int) -> None:
    """Worlds that differ only in the cards a seat cannot see give it the same observation."""
    rules = preset("korean-high")  # lucky hands revealed, so revealed cards are exercised
    rng = random.Random(9)
    compared = differing = 0
    for env in random_states(rules, players, seed=players, episodes=6)[::3]:
        if env.game.phase not in ("play", "take"):
            continue
        for seat in range(players):
            mine = env.observe(seat)
            for _ in range(2):
                other = env.sample(seat, rng)
                assert other.observe(seat) == mine
                assert other.game.hands[seat] == env.game.hands[seat]
                compared += 1
                if other.game.hands != env.game.hands:
                    differing += 1
    assert compared > 100 and differing > compared // 2


def test_episodes_are_determined_by_their_seed() -> None:
    def run(seed: int) -> tuple[list[list[float]], list[float]]:
        env = RoppyakkenEnv(players=3, episode="match", seed=123)
        env.reset(seed)
        rng = random.Random(5)
        trace = []
        while not env.done:
            trace.append(env.observe(env.current_player))
            env.step(rng.choice(env.legal_actions()))
        return trace, env.returns

    assert run(77) == run(77)
    assert run(77) != run(78)
    a, b = RoppyakkenEnv(seed=3), RoppyakkenEnv(seed=3)
    for _ in range(3):
        a.reset()
        b.reset()
        assert a.seed == b.seed and a.observe(0) == b.observe(0)


@pytest.mark.parametrize("players", [2, 3])
def test_rewards_are_zero_sum_and_follow_the_round_score(players: int) -> None:
    env = RoppyakkenEnv(players=players, seed=players)
    rng = random.Random(0)
    for _ in range(30):
        env.reset()
        while not env.done:
            rewards = env.step(rng.choice(env.legal_actions()))
        score = env.game.last_score
        assert score is not None
        finals = [p.final for p in score.players]
        assert abs(sum(rewards)) < 1e-9
        assert rewards[0] == pytest.approx(finals[0] - sum(finals[1:]) / (players - 1))
        assert env.returns == rewards
    result = RoppyakkenEnv(players=players, episode="match", reward="result", seed=1)
    while not result.done:
        result.step(rng.choice(result.legal_actions()))
    winner = result.game.winner
    assert winner is not None and result.returns[winner] == 1.0
    assert abs(sum(result.returns)) < 1e-9


def test_clone_is_independent() -> None:
    env = RoppyakkenEnv(seed=8)
    copy = env.clone()
    copy.step(copy.legal_actions()[0])
    assert copy.observe(0) != env.observe(0)
    env.step(env.legal_actions()[0])
    assert copy.observe(0) == env.observe(0)


def test_render_hides_other_hands_from_a_seat() -> None:
    env = RoppyakkenEnv(seed=2)
    hidden = env.game.hands[1]
    card = (hidden & -hidden).bit_length() - 1
    assert SLUGS[card] in env.render()
    assert SLUGS[card] not in env.render(0)
    assert "\x1b[" in env.render(ansi=True)


@pytest.mark.parametrize("players", [2, 3])
def test_pettingzoo_api(players: int) -> None:
    api_test(rpz.env(players=players), num_cycles=300)
    api_test(rpz.env(players=players, episode="match", reward="result"), num_cycles=300)


def test_pettingzoo_ansi_render() -> None:
    e = rpz.env(render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and "table:" in text


@pytest.mark.parametrize(("players", "opponents"), [(2, "expert"), (3, "greedy"), (2, "random")])
def test_gymnasium_check_env(players: int, opponents: str) -> None:
    check_env(rgym.env(players=players, opponents=opponents), skip_render_check=True)
    check_env(rgym.env(players=players, opponents=opponents, render_mode="ansi"))


def test_gymnasium_illegal_action_ends_the_episode() -> None:
    e = rgym.env(opponents="random")
    obs, _ = e.reset(seed=3)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    _, reward, terminated, _, info = e.step(illegal)
    assert terminated and info["illegal"] and reward == -600.0


def test_gymnasium_bad_opponent_is_one_line() -> None:
    with pytest.raises(RoppyakkenError, match="unknown bot level"):
        rgym.env(opponents="grandmaster")


def test_vector_env_steps_many_games() -> None:
    v = rgym.vector_env(4, opponents="greedy")
    obs, _ = v.reset(seed=11)
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(120):
        actions = [int(rng.choice(np.flatnonzero(m))) if m.any() else 0 for m in obs["action_mask"]]
        obs, _, term, _trunc, _ = v.step(np.array(actions))
        episodes += int(term.sum())
        assert obs["observation"].shape == (4, observation_size(2))
    assert episodes >= 8
    v.close()


def test_research_page_training_loop_runs() -> None:
    """The 20-line loop of docs/RESEARCH.md runs as printed (for a few episodes)."""

    text = (ROOT / "docs" / "RESEARCH.md").read_text(encoding="utf-8")
    section = text[text.index("## A training loop in 20 lines") :]
    code = section[section.index("```python\n") + 10 : section.index("\n```", section.index("```python"))]
    assert len(code.strip().splitlines()) <= 22
    assert "range(2000)" in code
    namespace: dict[str, object] = {}
    exec(code.replace("range(2000)", "range(4)"), namespace)
    weights = namespace["W"]
    assert isinstance(weights, np.ndarray) and weights.shape[1] == 2530
    # Four seeded episodes against a seeded greedy bot: the same updates on every run.
    assert np.count_nonzero(weights) == 3405
    assert float(np.abs(weights).sum()) == pytest.approx(71.51562594, rel=1e-8)


def test_bench_env_measures_every_environment() -> None:
    import importlib.util

    path = ROOT / "bench" / "bench_env.py"
    spec = importlib.util.spec_from_file_location("bench_env", path)
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    vector, in_step = bench.vector(0.05, 4, 3)
    rates = [
        bench.core(0.05, 2),
        bench.core_observed(0.05, 3),
        bench.pettingzoo(0.05, 2),
        bench.gymnasium(0.05, 3),
        bench.engine_bound(0.05, 2, False),
        bench.engine_bound(0.05, 3, True),
        vector,
    ]
    for rate in rates:
        assert rate.steps > 0 and rate.wall > 0 and rate.cpu > 0
    assert vector.steps % 4 == 0 and in_step > 0
    # The batched agent's draw: a legal action of each game, every legal one in time, 0 for none.
    import numpy as np

    masks = np.zeros((3, NUM_ACTIONS), np.int8)
    masks[0, [5, 70, 2400]] = 1
    masks[2, NUM_ACTIONS - 1] = 1
    rng = np.random.default_rng(1)
    drawn = [bench.uniform_legal(masks, rng).tolist() for _ in range(60)]
    assert {d[0] for d in drawn} == {5, 70, 2400}
    assert {d[1] for d in drawn} == {0} and {d[2] for d in drawn} == {NUM_ACTIONS - 1}


def test_core_env_imports_neither_bots_nor_third_party_packages() -> None:
    import subprocess
    import sys

    code = (
        "import sys, roppyakken.env, roppyakken.infoset\n"
        "bad = [m for m in sys.modules if m.startswith('roppyakken.ai') or m.split('.')[0] in "
        "('numpy', 'gymnasium', 'pettingzoo')]\n"
        "assert not bad, bad\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_gymnasium_gives_the_agent_only_its_own_view() -> None:
    e = rgym.env(opponents="greedy", seat=1)
    obs, info = e.reset(seed=21)
    assert info == {}  # not even the seed: it would give away the deck
    core = e.game_env
    assert core.current_player == 1
    assert np.array_equal(obs["observation"], np.asarray(core.observe(1), np.float32))
    mask = np.flatnonzero(obs["action_mask"]).tolist()
    assert mask == core.legal_actions()


def test_pettingzoo_human_render_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    e = rpz.env(render_mode="human")
    e.reset(seed=2)
    obs, *_ = e.last()
    e.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert "table:" in capsys.readouterr().out
