"""A first end-to-end check: every preset plays to the end and replays."""

from __future__ import annotations

import random

import pytest

from roppyakken.engine import Game
from roppyakken.record import record_of, replay
from roppyakken.rules import PRESETS, preset


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_preset_plays_to_the_end_and_replays(name: str) -> None:
    rules = preset(name)
    for players in rules.players:
        game = Game(rules, players, seed=11)
        rng = random.Random(11)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))
        again, _ = replay(record_of(game))
        assert again.winner == game.winner is not None
        assert again.totals == game.totals
