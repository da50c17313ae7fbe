"""The master's tree searches (``search=tree`` and ``search=ismcts``): the tree's rules,
determinism for a seed, legal answers, and the level options."""

from __future__ import annotations

import time

import pytest

from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import play_out
from roppyakken.ai.ismcts import Node, select, unpaired
from roppyakken.ai.master import MasterBot
from roppyakken.engine import Game
from roppyakken.errors import RoppyakkenError
from roppyakken.rules import preset
from tests.test_ai_master import opening

CLASSIC = preset("classic")


def test_select_tries_each_candidate_first_in_the_given_order() -> None:
    root = Node()
    a, b, c = (1, 0), (2, 0), (3, 4)
    assert select(root, [b, a, c], 0.25) == b
    root.children[b].add(0.5)
    assert select(root, [b, a, c], 0.25) == a
    root.children[a].add(0.5)
    assert select(root, [b, a, c], 0.25) == c
    root.children[c].add(0.5)
    assert [root.children[m].avail for m in (a, b, c)] == [2, 3, 1]


def test_select_by_ucb_counts_only_available_moves() -> None:
    root = Node()
    good, bad, rare = (1, 0), (2, 0), (3, 0)
    for m, values in ((good, [0.9] * 10), (bad, [0.1] * 10), (rare, [0.5])):
        child = Node()
        for v in values:
            child.add(v)
        child.avail = 20
        root.children[m] = child
    assert select(root, [good, bad], 0.0) == good  # no exploration: the better mean
    # A move tried once out of many chances gets the exploration bonus and is chosen.
    assert select(root, [good, bad, rare], 1.0) == rare
    assert [root.children[m].avail for m in (good, bad, rare)] == [22, 22, 21]


def test_unpaired_difference() -> None:
    a, b = Node(), Node()
    for v in (1.0, 0.0, 1.0, 0.0):
        a.add(v)
    for v in (0.0, 0.0, 0.5, 0.5):
        b.add(v)
    mean, se = unpaired(a, b)
    assert mean == pytest.approx(0.25)
    assert se == pytest.approx(((1 / 3) / 4 + (1 / 12) / 4) ** 0.5)


@pytest.mark.parametrize("search", ["tree", "ismcts"])
def test_a_rollout_budget_is_reproducible_legal_and_respected(search: str) -> None:
    for seed in range(3):
        v = opening(seed)
        a = make_bot(f"master:iters=40:slow=1:search={search}", 7)
        b = make_bot(f"master:iters=40:slow=1:search={search}", 7)
        choice = a.choose(v)
        assert choice == b.choose(v)
        assert choice in v.legal
        assert isinstance(a, MasterBot)
        assert 0 < a.last_rollouts <= 40


@pytest.mark.parametrize("search", ["tree", "ismcts"])
def test_tree_searches_play_whole_games(search: str) -> None:
    for players in (2, 3):
        bots = [make_bot(f"master:iters=12:search={search}", 1)] + [
            make_bot("expert", 2 + i) for i in range(players - 1)
        ]
        game = play_out(Game(preset("marguerite") if players == 2 else CLASSIC, players, seed=3), bots)
        assert game.over


def test_tree_searches_stop_at_their_deadline() -> None:
    for search in ("tree", "ismcts"):
        bot = MasterBot(seed=1, ms=30, search=search)
        v = opening(2)
        start = time.perf_counter()
        assert bot.choose(v) in v.legal
        assert time.perf_counter() - start < 0.5
        assert bot.last_rollouts > 0


def test_search_option_is_checked() -> None:
    with pytest.raises(RoppyakkenError, match="search: expected flat, tree, ismcts"):
        make_bot("master:search=deep")
    with pytest.raises(RoppyakkenError, match="uct"):
        make_bot("master:uct=-1")
