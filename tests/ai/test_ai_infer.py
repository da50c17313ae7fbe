"""Weighted worlds (``master:infer``): the view's round record, its replay, the likelihood.

The round record a view carries must be exactly the public record of the round (what
every seat saw: the dealt table, the cards shown by lucky hands, the plays in order);
replayed from the round's start in any sampled world it must lead to the view's own
position; and the likelihood must rank worlds by how well they explain what the
opponents played.
"""

from __future__ import annotations

import math
import random

import pytest

from roppyakken.actions import PLAY, TAKE, Play, Take
from roppyakken.ai.base import make_bot
from roppyakken.ai.determinize import playout_of
from roppyakken.ai.infer import OpponentModel, WorldPool, log_likelihood, round_start
from roppyakken.ai.master import MasterBot
from roppyakken.engine import Game
from roppyakken.errors import RoppyakkenError
from roppyakken.events import Declared, Played, RoundStarted
from roppyakken.infoset import World, sample_world
from roppyakken.rules import preset
from roppyakken.view import view_of
from tests.harness.expert_games import expert_game_views


def public_record(game: Game) -> tuple[int, list[int], list[tuple[int, str, int, int]]]:
    """The current round's table, shown cards and plays, read from the game's event stream."""
    events = game.events
    start = max(i for i, e in enumerate(events) if isinstance(e, RoundStarted))
    started = events[start]
    assert isinstance(started, RoundStarted)
    shown = [0] * game.players
    plays = []
    for e in events[start:]:
        if isinstance(e, Declared):
            shown[e.seat] |= e.cards
        elif isinstance(e, Played):
            plays.append((e.seat, e.source, e.card, e.captured))
    return started.table, shown, plays


@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("online", 3), ("changara", 2)])
def test_the_view_record_is_the_public_record_of_the_round(name: str, players: int) -> None:
    checked = 0
    for seed in range(3):
        for game, view in expert_game_views(name, players, seed):
            record = view.record
            assert record is not None
            table, shown, plays = public_record(game)
            assert record.table == table
            assert list(record.revealed) == shown
            assert list(record.plays) == plays
            checked += 1
    assert checked > 20


def test_a_game_without_logs_gives_no_record() -> None:
    game = Game(preset("classic"), 2, seed=1, log=False)
    assert view_of(game, game.to_act).record is None


@pytest.mark.parametrize(
    ("name", "players"), [("classic", 2), ("online", 3), ("changara", 2), ("marguerite", 2)]
)
def test_the_round_replays_to_the_view_in_any_sampled_world(name: str, players: int) -> None:
    """From the rebuilt start, the recorded plays lead to the view's position in the world."""
    rng = random.Random(3)
    for seed in range(3):
        for _, view in expert_game_views(name, players, seed):
            world = sample_world(view, rng)
            p = round_start(view, world)
            assert view.record is not None
            for _, source, card, target in view.record.plays:
                if source == "hand" or p.phase == TAKE:
                    p.step(card, target)
            q = playout_of(view, world)
            assert (p.hands, p.table, p.captures, p.orders) == (q.hands, q.table, q.captures, q.orders)
            assert (p.to_act, p.phase, p.turned) == (q.to_act, q.phase, q.turned)
            assert p.pile[p.pile_pos :] == q.pile
            assert [r & h for r, h in zip(p.revealed, p.hands, strict=True)] == list(view.revealed)


def test_worlds_the_experts_plays_rule_out_get_no_weight() -> None:
    """Against the expert with an exact model (tau 0, eps 0), the real world explains every
    past play (finite likelihood), and sampled worlds where the opponent would have played
    otherwise are ruled out; mixed with uniform play (eps), no world is ruled out."""
    exact = OpponentModel(tau=0.0, eps=0.0)
    mixed = OpponentModel(tau=0.0, eps=0.05)
    rng = random.Random(7)
    ruled_out = 0
    for seed in range(4):
        for game, view in expert_game_views("classic", 2, seed)[::3]:
            real = World(tuple(game.hands), tuple(game.pile[game.pile_pos :]))
            best = log_likelihood(view, real, exact)
            assert best > -math.inf
            assert log_likelihood(view, real, mixed) > -math.inf
            for _ in range(10):
                world = sample_world(view, rng)
                if log_likelihood(view, world, exact) == -math.inf:
                    ruled_out += 1
                    assert log_likelihood(view, world, mixed) < log_likelihood(view, real, mixed)
                    assert log_likelihood(view, world, mixed) > -math.inf
    assert ruled_out > 10


def test_an_unlikely_play_costs_likelihood() -> None:
    """The model's probability of a move falls with its value: the expert's choice is the
    likeliest, and an ε-mixed model never rules a legal move out."""
    _, view = expert_game_views("classic", 2, 2)[5]
    world = sample_world(view, random.Random(0))
    p = playout_of(view, world)
    moves = p.moves()
    assert len(moves) > 1
    model = OpponentModel(tau=5.0, eps=0.05)
    probs = [math.exp(model.log_prob(p, moves, m, view.totals)) for m in moves]
    assert sum(probs) == pytest.approx(1.0)
    assert all(x > 0 for x in probs)
    expert = make_bot("expert").choose(view)
    chosen = expert.card if isinstance(expert, Play) else view.turned
    target = expert.target if isinstance(expert, Play | Take) else 0
    assert probs[moves.index((chosen, target))] == max(probs)
    assert min(probs) < max(probs)
    assert model.log_prob(p, moves, (47 if moves[0][0] != 47 else 0, 12345), view.totals) == -math.inf


def test_a_pool_draws_worlds_consistent_with_the_view() -> None:
    _, view = expert_game_views("classic", 2, 1)[9]
    pool = WorldPool(view, random.Random(2), 30, OpponentModel())
    seat = view.seat
    assert seat is not None
    other = 1 - seat
    probs = pool.card_probability(other)
    hidden = view.hand_sizes[other] - view.revealed[other].bit_count()
    assert sum(probs.values()) == pytest.approx(hidden)
    # The seeded pool's Kish effective size: its 30 worlds weigh as about 11 equal ones.
    assert pool.effective_size == pytest.approx(11.135, abs=1e-3)
    rng = random.Random(4)
    for _ in range(20):
        w = pool.draw(rng)
        assert w.hands[seat] == view.hand
        assert w.hands[other] & view.revealed[other] == view.revealed[other]
        assert w.hands[other].bit_count() == view.hand_sizes[other]
        assert len(w.pile) == view.pile_count
        dealt = w.hands[other] & ~view.revealed[other]
        for c in w.pile:
            dealt |= 1 << c
        assert dealt == view.unseen


def test_the_inferring_master_is_legal_and_deterministic() -> None:
    for game, view in expert_game_views("classic", 2, 3)[4:14:3]:
        a = make_bot("master:iters=12:infer=10", 5).choose(view)
        b = make_bot("master:iters=12:infer=10", 5).choose(view)
        assert a == b
        assert a in view.legal
        assert game.is_legal(a)


def test_the_inferring_master_weighs_only_with_a_record() -> None:
    views = expert_game_views("classic", 2, 3)
    bot = MasterBot(1, ms=None, iters=12, infer=10)
    _, late = views[8]
    bot.choose(late)
    assert bot._pool is not None and bot._pool.view is late
    game = Game(preset("classic"), 2, seed=3, log=False)
    while game.phase not in (PLAY, TAKE) or len(game.legal_actions()) < 2:
        game.apply(game.legal_actions()[0])
    bot.choose(view_of(game, game.to_act))
    assert bot._pool is None
    off = MasterBot(1, ms=None, iters=12, infer=0)
    off.choose(late)
    assert off._pool is None
    default = make_bot("master:iters=12")
    assert isinstance(default, MasterBot) and default.infer == 100


@pytest.mark.parametrize("option", ["infer=-1", "infer=1.5", "infer=x"])
def test_bad_inference_options_fail_in_one_line(option: str) -> None:
    with pytest.raises(RoppyakkenError):
        make_bot(f"master:iters=10:{option}")


def test_a_pool_stops_weighing_at_its_deadline() -> None:
    _, view = expert_game_views("classic", 2, 1)[9]
    pool = WorldPool(view, random.Random(2), 1000, OpponentModel(), deadline=0.0, least=5)
    assert len(pool.worlds) == 5
    assert len(WorldPool(view, random.Random(2), 7, OpponentModel()).worlds) == 7
