"""The engine keeps a round's score as plain fields and builds the public RoundScore when read.

``Game.last_score`` is a property over :class:`roppyakken.scoring.ScoreParts`: the named
tuples are built at the first read, then the same object is given until the next round is
scored (``env/core.py`` compares scores by identity); copies, pickles and the public
end-of-game functions see the same score as before.  On the pure and the compiled kernel alike.
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

from roppyakken.engine import Game
from roppyakken.game_end import dealer_after, next_dealer, outcome_with
from roppyakken.rules import preset
from roppyakken.scoring import RoundScore, parts_of, score_round, scoring_options


def _scored(seed: int, players: int = 2, name: str = "classic") -> Game:
    game = Game(preset(name), players, seed=seed, log=False)
    game.stop_at_round_end = True
    game.playout(random.Random(seed))
    return game


@pytest.mark.parametrize("seed", range(6))
def test_a_playout_does_not_build_the_public_score_until_it_is_read(seed: int) -> None:
    game = _scored(seed)
    parts = game.last_parts
    assert parts is not None and parts._public is None  # not built by the playout
    score = game.last_score
    assert isinstance(score, RoundScore)
    assert parts._public is score and game.last_score is score  # built once, then the same


@pytest.mark.parametrize("players", [2, 3])
@pytest.mark.parametrize("name", ["classic", "marguerite"])
def test_the_public_score_is_the_score_of_the_captures(players: int, name: str) -> None:
    checked = 0
    for seed in range(20):
        game = _scored(seed, players, name)
        if game.round > 0:  # a leg won: the next round is dealt already
            continue
        expected = score_round(game.rules, game.captures, game.orders, game.declared)
        checked += 1
        assert game.last_score == expected
    assert checked >= 10


def test_a_new_round_scored_gives_a_new_score_object() -> None:
    game = Game(preset("classic"), 2, seed=3, log=False)
    rng = random.Random(3)
    assert game.last_score is None
    game.playout(rng)
    first = game.last_score
    assert first is not None
    if not game.over:
        game.playout(rng)
        assert game.last_score is not first


def test_clones_copies_and_pickles_keep_the_score() -> None:
    game = _scored(4)
    score = game.last_score
    assert game.clone().last_score is score  # the clone shares the parts
    for other in (copy.copy(game), copy.deepcopy(game), pickle.loads(pickle.dumps(game))):
        assert other.last_score == score
    fresh = Game(preset("classic"), 2, seed=1)
    fresh.last_score = score  # the setter keeps the given score itself
    assert fresh.last_score is score
    fresh.last_score = None
    assert fresh.last_score is None


def test_parts_of_a_public_score_give_it_back_and_decide_alike() -> None:
    """The end of the game reads the engine's parts and a public score alike (both reach the
    target: the instant-win yaku break the tie, read from either)."""
    rules = preset("classic").with_options({"top_tie": "play-order"})
    options = scoring_options(rules)
    decided = set()
    for seed in range(40):
        game = _scored(seed)
        parts = game.last_parts
        score = game.last_score
        assert parts is not None and score is not None
        back = parts_of(score)
        assert back.public() is score
        assert [(tuple(s.yaku), s.round_score, s.final) for s in back.seats] == [
            (p.yaku, p.round_score, p.final) for p in score.players
        ]
        for totals in ([590, 300], [600, 300], [700, 700], [700, 650], [650, 700]):
            for dealer in (0, 1):
                expected = outcome_with(options, score, totals, [0, 0], dealer, 0)
                assert outcome_with(options, parts, totals, [0, 0], dealer, 0) == expected
                assert outcome_with(options, back, totals, [0, 0], dealer, 0) == expected
                decided.add(expected.leg)
                assert dealer_after(False, parts, dealer, 2) == next_dealer(rules, score, dealer, 2)
    assert len(decided) >= 3  # the cases differ
