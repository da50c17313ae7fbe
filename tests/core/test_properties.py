"""Property tests (hypothesis) for scoring and records."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from roppyakken.cards import ALL_CARDS, points_of
from roppyakken.engine import Game, capture_targets
from roppyakken.record import record_of, replay
from roppyakken.rules import PRESETS, preset

masks = st.integers(min_value=0, max_value=ALL_CARDS)
cards = st.integers(min_value=0, max_value=47)
# Presets whose yaku only grow with more cards: no rain-off (a Willow card can wash
# viewing yaku away, R-8.3).
MONOTONE = [name for name in PRESETS if preset(name).rain_off == "off"]


@given(masks, cards)
def test_adding_a_card_never_lowers_card_points(mask: int, card: int) -> None:
    assert points_of(mask | 1 << card) >= points_of(mask)


@given(masks, cards, st.sampled_from(MONOTONE))
def test_adding_a_card_never_lowers_yaku_points_without_rain_off(mask: int, card: int, name: str) -> None:
    table = preset(name).table
    before = sum(p for _, p in table.evaluate(mask))
    after = sum(p for _, p in table.evaluate(mask | 1 << card))
    assert after >= before


@given(masks, cards, st.booleans(), st.sampled_from(list(PRESETS)))
def test_targets_are_disjoint_table_subsets_in_id_order(
    table: int, card: int, from_pile: bool, name: str
) -> None:
    table &= ~(1 << card)
    for month in range(12):  # four of a month never lie on the table
        if table >> (4 * month) & 15 == 15:
            table &= ~(1 << (4 * month))
    choices = capture_targets(preset(name), table, card, from_pile)
    for target in choices:
        assert target and target & table == target
    for i, first in enumerate(choices):  # env/core.py names a target by its lowest card
        for second in choices[i + 1 :]:
            assert not first & second, (bin(first), bin(second))
    lows = [(t & -t).bit_length() for t in choices]
    assert lows == sorted(lows) and len(set(lows)) == len(lows)


@settings(max_examples=40, deadline=None)
@given(st.integers(min_value=0, max_value=2**40), st.sampled_from(list(PRESETS)), st.integers(0, 60))
def test_record_round_trip_at_any_point(seed: int, name: str, steps: int) -> None:
    rules = preset(name)
    players = 3 if 3 in rules.players and seed % 2 else 2
    game = Game(rules, players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
    again, _ = replay(json.loads(json.dumps(record_of(game))))
    assert again.phase == game.phase and again.to_act == game.to_act
    assert again.hands == game.hands and again.captures == game.captures and again.totals == game.totals
    assert again.legal_actions() == game.legal_actions()
