"""The searchers' fast round copy (ai/playout.py) agrees with the engine, for every preset."""

from __future__ import annotations

import random

import pytest

from roppyakken.actions import PLAY, TAKE, Play, Take
from roppyakken.ai.playout import Playout, round_result
from roppyakken.engine import Game
from roppyakken.rules import PRESETS, preset


def _engine_action(game: Game, card: int, target: int) -> Play | Take:
    return Take(target) if game.phase == TAKE else Play(card, target)


@pytest.mark.parametrize("name", list(PRESETS))
def test_playout_follows_the_engine_through_whole_games(name: str) -> None:
    """Same moves, same captures, same round scores, same game result (R-5 to R-9)."""
    rules = preset(name)
    for players in rules.players:
        for seed in range(3):
            game = Game(rules, players, seed=seed)
            rng = random.Random(seed)
            playout: Playout | None = None
            while not game.over:
                if game.phase in (PLAY, TAKE) and playout is None:
                    playout = Playout.from_game(game)
                    totals, legs = list(game.totals), list(game.legs)
                    dealer, round_index = game.dealer, game.round
                if playout is None:
                    game.apply(rng.choice(game.legal_actions()))
                    continue
                moves = playout.moves()
                engine_moves = [
                    (a.card if isinstance(a, Play) else game.turned, a.target)
                    for a in game.legal_actions()
                    if isinstance(a, Play | Take)
                ]
                assert moves == engine_moves
                card, target = rng.choice(moves)
                playout.step(card, target)
                round_before = game.round
                game.apply(_engine_action(game, card, target))
                if playout.ended:
                    assert game.round != round_before or game.over
                    assert playout.score == game.last_score
                    assert playout.score is not None
                    winner, new_totals, new_legs = round_result(
                        rules, playout.score, totals, legs, dealer, round_index
                    )
                    assert winner == game.winner
                    assert new_legs == game.legs
                    assert new_totals == game.totals
                    playout = None
                else:
                    assert game.round == round_before
                    assert playout.hands == game.hands
                    assert playout.table == game.table
                    assert playout.captures == game.captures
                    assert playout.orders == game.orders
                    assert playout.to_act == game.to_act
                    assert playout.phase == game.phase


def test_copy_is_independent() -> None:
    game = Game(preset("classic"), 2, seed=4)
    while game.phase != PLAY:
        game.apply(game.legal_actions()[0])
    p = Playout.from_game(game)
    q = p.copy()
    card, target = q.moves()[0]
    q.step(card, target)
    assert p.hands == game.hands
    assert p.captures == game.captures
    assert q.hands != p.hands
