"""Games dealt from seeds committed with a salt, as a committed record holds them."""

from __future__ import annotations

import random

from roppyakken.actions import CallRedeal
from roppyakken.engine import Game
from roppyakken.rules import Rules

SALT = "0f" * 16


def played(rules: Rules, seed: int, call_redeals: bool = False, players: int = 2) -> Game:
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    while not game.over:
        legal = game.legal_actions()
        if call_redeals and CallRedeal(True) in legal:
            game.apply(CallRedeal(True))
        else:
            game.apply(rng.choice(legal))
    return game
