"""Bots never see hidden cards: their choices depend on their seat's view alone.

Each test poisons what a seat cannot see — the other hands and the pile order are
swapped for other cards from the same unseen set — and checks that nothing changes:
the views are equal and every bot, with the same seed, answers the same.  If a bot
read hidden cards (through the game, a cached reference, or anything else), its
answers would follow the poison.
"""

from __future__ import annotations

import random

import pytest

from roppyakken.actions import DECLARE, REDEAL
from roppyakken.ai.base import make_bot
from roppyakken.ai.determinize import World, playout_of, sample_world
from roppyakken.ai.position import Position
from roppyakken.cards import iter_cards
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.view import SeatView, view_of
from tests.harness.hidden_cards import poisoned, positions

LEVELS = (
    "random",
    "greedy",
    "expert",
    "master:iters=6",
    "master:iters=6:infer=0",
    "master:iters=6:infer=8",
)


@pytest.mark.parametrize(
    ("name", "players"), [("classic", 2), ("classic", 3), ("marguerite", 2), ("online", 3)]
)
def test_choices_ignore_the_hidden_cards(name: str, players: int) -> None:
    rng = random.Random(5)
    with_plays = 0  # positions whose record holds plays (the inferring master weighs those)
    for game in positions(name, players, 8):
        seat = game.to_act
        real = view_of(game, seat)
        for _ in range(2):
            other = poisoned(game, seat, rng)
            fake = view_of(other, seat)
            assert fake == real
            assert real.record is not None
            with_plays += bool(real.record.plays)
            assert other.hands != game.hands or other.pile != game.pile[game.pile_pos :]
            for level in LEVELS:
                assert make_bot(level, 3).choose(real) == make_bot(level, 3).choose(fake), level
    assert with_plays >= 8


def test_a_search_world_keeps_what_the_seat_saw_and_nothing_else() -> None:
    """A sampled world keeps the seat's hand and the public cards, and each rollout
    decision sees only its own seat's knowledge (:meth:`Position.of_playout`)."""
    rng = random.Random(2)
    for game in positions("classic", 3, 10):
        seat = game.to_act
        v = view_of(game, seat)
        world = sample_world(v, rng)
        assert world.hands[seat] == game.hands[seat]
        for s in range(3):
            assert world.hands[s].bit_count() == game.hands[s].bit_count()
        p = playout_of(v, world)
        q = playout_of(v, World(world.hands, tuple(reversed(world.pile))))
        for s in range(3):
            a = Position.of_playout(p, s, v.totals)
            b = Position.of_playout(q, s, v.totals)
            assert (a.hand, a.table, a.unseen, tuple(a.hand_sizes), a.pile_count) == (
                b.hand,
                b.table,
                b.unseen,
                tuple(b.hand_sizes),
                b.pile_count,
            )


def test_views_carry_no_hidden_card() -> None:
    """The view itself: its unseen set is exactly the other hands (less revealed) and the pile."""
    for game in positions("classic", 2, 10):
        seat = game.to_act
        v: SeatView = view_of(game, seat)
        hidden = 0
        for s in range(game.players):
            if s != seat:
                hidden |= game.hands[s] & ~game.revealed[s]
        for c in game.pile[game.pile_pos :]:
            hidden |= 1 << c
        assert v.unseen == hidden
        assert not any(v.hand >> c & 1 for c in iter_cards(hidden))


@pytest.mark.parametrize("phase", [DECLARE, REDEAL])
def test_decisions_before_play_ignore_hidden_cards(phase: str) -> None:
    """Lucky-hand declarations (R-4.1) and redeal calls (R-3.4) too."""
    rules = preset("classic")
    if phase == REDEAL:
        rules = rules.with_options({"hand_four": "optional"})
    rng = random.Random(1)
    found = 0
    for seed in range(2000):
        game = Game(rules, 2, seed=seed)
        if game.phase != phase:
            continue
        found += 1
        seat = game.to_act
        real = view_of(game, seat)
        fake = view_of(poisoned(game, seat, rng), seat)
        assert fake == real
        for level in LEVELS:
            assert make_bot(level, 1).choose(real) == make_bot(level, 1).choose(fake)
        if found >= 4:
            break
    assert found >= 4
