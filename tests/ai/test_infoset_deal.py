"""The sampler's worlds agree with what the seat saw of the deal (R-3.4, R-4.1).

Before play every seat saw whether a redeal was called and which lucky hands each
player declared, with their cards.  With ``hand_four = redeal`` no dealt hand held four
of a month; with ``declare = auto`` every dealt hand's lucky hands were declared, so an
opponent who declared none held none; with ``declare = choose`` a lucky hand may have
been kept hidden, a choice the opponent model weighs.  The real world must always pass
(the constraint never rules the truth out), the sampler must never return a world that
fails, and the plain uniform split must fail sometimes (so these tests can fail).
"""

from __future__ import annotations

import math
import random

import pytest

from roppyakken.actions import PLAY, TAKE
from roppyakken.ai.base import make_bot
from roppyakken.ai.infer import OpponentModel, seat_log_likelihoods
from roppyakken.ai.master import MasterBot
from roppyakken.cards import MONTH_MASK, full_months
from roppyakken.engine import Game
from roppyakken.infoset import World, _draw_world, deal_consistent, dealt_hands, sample_world
from roppyakken.rules import preset
from roppyakken.view import SeatView, view_of
from roppyakken.yaku import lucky_hands_held
from tests.harness.expert_games import expert_game_views


def decisions(name: str, players: int, games: int) -> list[tuple[Game, SeatView]]:
    """Every card-play decision of ``games`` seeded expert games (a copy of the game, the view)."""
    return [d for seed in range(games) for d in expert_game_views(name, players, seed)]


def real_world(game: Game) -> World:
    """The world as it really is at this point of ``game``."""
    return World(tuple(game.hands), tuple(game.pile[game.pile_pos :]))


CASES = [
    ("classic", 2),
    ("classic", 3),
    ("marguerite", 2),
    ("marguerite", 3),
    ("korean-high", 2),
    ("ten-card", 2),
]


@pytest.mark.parametrize(("name", "players"), CASES)
def test_the_real_world_is_always_consistent_with_the_deal(name: str, players: int) -> None:
    seen = 0
    for game, view in decisions(name, players, 12):
        assert deal_consistent(view, real_world(game)), (name, players, game.round)
        # The dealt hands rebuilt from the record are the hands as dealt.
        assert dealt_hands(view, real_world(game)) == game.history[-1].hands
        seen += 1
    assert seen > 100


def test_automatic_declarations_rule_out_undeclared_lucky_hands() -> None:
    rng = random.Random(5)
    plain_bad = 0
    checked = 0
    for _, view in decisions("marguerite", 2, 10)[::3]:
        opponent = 1 - view.seat if view.seat is not None else 1
        for _ in range(30):
            world = sample_world(view, rng)
            hand = dealt_hands(view, world)[opponent]
            held = {h.slug for h in lucky_hands_held(view.rules, hand)}
            assert held == set(view.declared[opponent]), (held, view.declared[opponent])
            assert not full_months(hand)  # hand_four = redeal
            checked += 1
            if not deal_consistent(view, _draw_world(view, rng)):
                plain_bad += 1
    assert checked > 500
    # About one plain draw in twelve gives the opponent a lucky hand it did not declare.
    assert plain_bad > checked // 40


def test_a_declared_hand_shows_its_cards_and_no_other_triple_is_first() -> None:
    # Find marguerite decisions where the opponent declared a hand-three: every sampled
    # world must give it exactly the triple it showed as its first (R-4.2: one triple
    # scores, the first month's), never a lower month's triple hidden in its hand.
    rng = random.Random(9)
    found = 0
    for _, view in decisions("marguerite", 2, 60):
        assert view.record is not None and view.seat is not None
        opponent = 1 - view.seat
        if "hand-three" not in view.declared[opponent]:
            continue
        found += 1
        shown = view.record.revealed[opponent]
        first = min(m for m in range(1, 13) if shown & MONTH_MASK[m])
        for _ in range(20):
            hand = dealt_hands(view, sample_world(view, rng))[opponent]
            lower = [m for m in range(1, first) if (hand & MONTH_MASK[m]).bit_count() >= 3]
            assert not lower, (first, lower)
        if found >= 20:
            break
    assert found >= 5


def test_chosen_declarations_are_weighed_by_the_model() -> None:
    # Classic declares by choice: a world where the opponent kept a hand-three hidden is
    # possible, but the expert would have declared it: keeping it is one of two subsets,
    # eps / 2, where a world in which it held none had no decision to make.  Taken before
    # the opponent's first card play, where the declaration is the whole likelihood.
    rng = random.Random(3)
    expert, uniform = OpponentModel(0.0, 0.02), OpponentModel(0.0, 1.0)
    gap = math.log(0.02 / 2)
    checked = 0
    for _, view in decisions("classic", 2, 40):
        assert view.seat is not None and view.record is not None
        opponent = 1 - view.seat
        if view.declared[opponent] or any(p[0] == opponent for p in view.record.plays):
            continue
        hidden_hand = plain = None
        for _ in range(400):
            world = sample_world(view, rng)
            held = lucky_hands_held(view.rules, dealt_hands(view, world)[opponent])
            if [h.slug for h in held] == ["hand-three"] and hidden_hand is None:
                hidden_hand = world
            elif not held and plain is None:
                plain = world
            if hidden_hand and plain:
                break
        assert hidden_hand is not None and plain is not None
        with_hidden = [seat_log_likelihoods(view, hidden_hand, m)[opponent] for m in (expert, uniform)]
        without = [seat_log_likelihoods(view, plain, m)[opponent] for m in (expert, uniform)]
        assert without == [0.0, 0.0]
        assert with_hidden[0] == pytest.approx(gap)
        assert with_hidden[1] == pytest.approx(-math.log(2))  # any subset alike: keeping it is 1 of 2
        checked += 1
    assert checked >= 10


def test_a_view_without_a_record_rules_nothing_out() -> None:
    game = Game(preset("marguerite"), 2, seed=4, log=False)
    bots = [make_bot("expert", s) for s in range(2)]
    while game.phase not in (PLAY, TAKE):
        game.apply(bots[game.to_act].choose(view_of(game, game.to_act)))
    view = view_of(game, game.to_act)
    assert view.record is None
    rng = random.Random(1)
    assert all(deal_consistent(view, _draw_world(view, rng)) for _ in range(50))


@pytest.mark.parametrize(("name", "weighs"), [("classic", True), ("yukbaek", False), ("marguerite", False)])
def test_the_first_decision_is_weighed_only_where_declarations_were_a_choice(name: str, weighs: bool) -> None:
    # Before any opponent has played, only chosen declarations (classic) tell something;
    # yukbaek has no lucky hands and marguerite declares them automatically (the sampler's
    # business): there the master samples afresh, as without inference.
    for _, view in decisions(name, 2, 6):
        assert view.record is not None
        if any(p[0] != view.seat for p in view.record.plays) or len(view.legal) < 2:
            continue
        bot = MasterBot(1, ms=None, iters=12, infer=10)
        bot.choose(view)
        assert (bot._pool is not None) == weighs, name
        return
    raise AssertionError(f"no first decision with a choice in {name}")
