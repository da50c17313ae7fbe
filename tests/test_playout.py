"""Game.playout: the fast loop searchers use plays exactly like checked apply() calls."""

from __future__ import annotations

import random

import pytest

from roppyakken.engine import Game
from roppyakken.rules import PRESETS, preset
from roppyakken.view import view_of

CONFIGS = [(name, n) for name in PRESETS for n in (2, 3) if n in preset(name).players]


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{n}-{p}p" for n, p in CONFIGS])
def test_fast_playout_equals_checked_playout(name: str, players: int) -> None:
    rules = preset(name)
    for seed in range(40):
        checked = Game(rules, players, seed=seed)  # logged: every choice goes through apply()
        fast = checked.clone()  # no log
        checked.stop_at_round_end = fast.stop_at_round_end = True
        checked.playout(random.Random(seed))
        fast.playout(random.Random(seed))
        assert fast.captures == checked.captures
        assert fast.orders == checked.orders
        assert fast.table == checked.table and fast.hands == checked.hands
        assert fast.last_score == checked.last_score
        assert fast.totals == checked.totals and fast.winner == checked.winner


def test_playout_from_a_mid_round_copy_leaves_the_original_alone() -> None:
    game = Game(preset("classic"), 2, seed=3)
    rng = random.Random(3)
    for _ in range(6):
        game.apply(rng.choice(game.legal_actions()))
    before = view_of(game, 0).to_json()
    copy = game.clone()
    copy.stop_at_round_end = True
    copy.playout(random.Random(1))
    copy.card_count_check()
    assert view_of(game, 0).to_json() == before
    assert copy.last_score is not None
