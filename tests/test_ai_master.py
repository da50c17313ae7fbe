"""The master's search: budgets, deadline, determinism, and the values it searches for."""

from __future__ import annotations

import math
import random
import time

from roppyakken.actions import PLAY, Play
from roppyakken.ai.base import make_bot
from roppyakken.ai.determinize import game_of, playout_of, sample_world
from roppyakken.ai.master import MasterBot, exact_value, game_value, standing_value
from roppyakken.ai.playout import Playout
from roppyakken.cards import ALL_CARDS, card_id, iter_cards, mask_of
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.scoring import RoundScore
from roppyakken.view import SeatView, view_of

CLASSIC = preset("classic")


def _m(*slugs: str) -> int:
    return mask_of(card_id(s) for s in slugs)


def opening(seed: int, players: int = 2) -> SeatView:
    game = Game(CLASSIC, players, seed=seed)
    while game.phase != PLAY:
        game.apply(game.legal_actions()[0])
    return view_of(game, game.to_act)


def test_stops_at_its_deadline() -> None:
    """A 30 ms budget: the answer comes back well before a second, having searched."""
    bot = MasterBot(seed=1, ms=30)
    for seed in range(3):
        v = opening(seed)
        start = time.perf_counter()
        action = bot.choose(v)
        spent = time.perf_counter() - start
        assert action in v.legal
        assert spent < 0.5
        assert bot.last_rollouts > 0


def test_an_iteration_budget_is_reproducible_and_respected() -> None:
    v = opening(4)
    a = MasterBot(seed=9, ms=None, iters=60)
    b = MasterBot(seed=9, ms=None, iters=60)
    assert a.choose(v) == b.choose(v)
    assert 0 < a.last_rollouts <= 60 * a.slow  # a close call gets `slow` times the budget
    plain = MasterBot(seed=9, ms=None, iters=60, slow=1.0)
    plain.choose(v)
    assert 0 < plain.last_rollouts <= 60


def test_completes_four_brights_for_the_instant_win() -> None:
    """Three brights captured, the fourth on the table: taking it wins the game at the end
    of the round (R-8.5), whatever else is on offer (here the rain man could take a
    50-point card)."""
    mine = [
        "pine-crane",
        "pine-chaff-1",
        "cherry-curtain",
        "cherry-chaff-1",
        "paulownia-phoenix",
        "paulownia-chaff-1",
    ]
    hand = ["pampas-chaff-1", "willow-rainman", "iris-chaff-1"]
    table = ["pampas-moon", "plum-warbler", "maple-chaff-1"]
    opp = ["maple-chaff-2", "clover-chaff-1", "peony-chaff-1"]
    used = _m(*mine, *hand, *table, *opp)
    game = Game.from_position(
        CLASSIC,
        hands=[_m(*hand), _m(*opp)],
        table=_m(*table),
        pile=list(iter_cards(ALL_CARDS & ~used)),
        captures=[_m(*mine), 0],
        orders=[[card_id(s) for s in mine], []],
        declared=[[], []],
        phase=PLAY,
        to_act=0,
        dealer=0,
        totals=[100, 500],
    )
    action = MasterBot(seed=2, ms=None, iters=200).choose(view_of(game, 0))
    assert isinstance(action, Play)
    assert action.target == _m("pampas-moon")


def test_sampled_worlds_are_consistent_with_the_view() -> None:
    rng = random.Random(3)
    for seed in range(5):
        for players in (2, 3):
            v = opening(seed, players)
            w = sample_world(v, rng)
            seen = v.hand | v.table
            for c in v.captures:
                seen |= c
            everything = seen | mask_of(w.pile)
            for s, h in enumerate(w.hands):
                assert h.bit_count() == v.hand_sizes[s]
                everything |= h
            assert everything == ALL_CARDS
            assert len(w.pile) == v.pile_count
            game = game_of(v, w)
            game.card_count_check()
            p = playout_of(v, w)
            assert p.moves() == Playout.from_game(game).moves()


def test_values_are_chances_of_winning() -> None:
    assert standing_value(CLASSIC, [0, 0], [0, 0], 0) == 0.5
    ahead = standing_value(CLASSIC, [500, 100], [0, 0], 0)
    behind = standing_value(CLASSIC, [100, 500], [0, 0], 0)
    assert 0.5 < ahead < 1.0 and 0.0 < behind < 0.5
    assert abs(ahead + behind - 1.0) < 1e-9
    assert abs(standing_value(CLASSIC, [0, 0, 0], [0, 0, 0], 1) - 1 / 3) < 1e-9
    # a round that ends the game is worth 1 or 0
    from roppyakken.scoring import score_round

    caps = [_m("pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"), _m("iris-chaff-1")]
    score = score_round(CLASSIC, caps, [list(iter_cards(c)) for c in caps], [[], []])
    assert game_value(CLASSIC, score, [0, 0], [0, 0], 0, 0, 0) == 1.0
    assert game_value(CLASSIC, score, [0, 0], [0, 0], 0, 0, 1) == 0.0


def test_master_level_plays_three_players() -> None:
    bots = [make_bot("master:iters=24", 1), make_bot("expert", 2), make_bot("greedy", 3)]
    from roppyakken.ai.driver import play_out

    game = play_out(Game(CLASSIC, 3, seed=8), bots)
    assert game.over


def _late_playout(seed: int, cards_left: int) -> Playout:
    """A real 2-player round played by the first legal moves until ``cards_left`` hand cards remain."""
    game = Game(CLASSIC, 2, seed=seed)
    while True:
        if game.phase == PLAY and sum(h.bit_count() for h in game.hands) <= cards_left:
            return Playout.from_game(game)
        game.apply(game.legal_actions()[0])


def _minimax(p: Playout, seat: int) -> float:
    """Plain minimax without pruning, the reference for :func:`exact_value`."""
    if p.ended:
        assert p.score is not None
        return float(p.score.players[seat].final - p.score.players[1 - seat].final)
    values = []
    for card, target in p.moves():
        q = p.copy()
        q.step(card, target)
        values.append(_minimax(q, seat))
    return max(values) if p.to_act == seat else min(values)


def test_exact_endgame_search_is_minimax() -> None:
    """Alpha-beta over the last cards of a known world gives plain minimax's value."""
    for seed in range(6):
        p = _late_playout(seed, 6)
        seat = p.to_act
        before = (list(p.hands), p.table, p.pile_pos)

        def leaf(score: RoundScore, seat: int = seat) -> float:
            return float(score.players[seat].final - score.players[1 - seat].final)

        assert exact_value(p, seat, leaf, -math.inf, math.inf) == _minimax(p, seat)
        assert (list(p.hands), p.table, p.pile_pos) == before  # the search works on copies


def test_master_with_exact_endgames_is_reproducible() -> None:
    v = opening(5)
    a = make_bot("master:iters=30:exact=6", 3)
    b = make_bot("master:iters=30:exact=6", 3)
    assert a.choose(v) == b.choose(v)
    assert a.choose(v) in v.legal
