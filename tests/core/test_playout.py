"""Game.playout: the fast loop searchers use plays exactly like checked apply() calls."""

from __future__ import annotations

import random

import pytest

from roppyakken.engine import DECLARE, PLAY, REDEAL, TAKE, Game
from roppyakken.record import dumps, record_of
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


def _reference_playout(game: Game, rng: random.Random) -> None:
    """Game.playout as the public API plays it: every lucky-hand and redeal decision a
    uniformly random entry of legal_actions(), checked by apply()."""
    start = game.round
    rand = rng.random
    while game.round == start and not game.over:
        if game.phase in (PLAY, TAKE):
            game.random_decision(rand)
        else:
            actions = game.legal_actions()
            game.apply(actions[int(rand() * len(actions))])


FOUR_CONFIGS: list[tuple[str, int, str | None]] = [(name, n, None) for name, n in CONFIGS]
OPTIONAL_FOUR: list[tuple[str, int, str | None]] = [
    (n, 2, "optional") for n, p in CONFIGS if p == 2 and preset(n).hand_four != "optional"
]
"""Presets with a hand four made the holder's call (R-3.4), for the redeal decision: 2 players,
whose 8 or 10 cards hold a four often enough."""


@pytest.mark.parametrize(
    ("name", "players", "hand_four"),
    FOUR_CONFIGS + OPTIONAL_FOUR,
    ids=[f"{n}-{p}p" for n, p in CONFIGS] + [f"{n}-{p}p-optional-four" for n, p, _ in OPTIONAL_FOUR],
)
def test_playout_decides_lucky_hands_and_redeals_as_apply_would(
    name: str, players: int, hand_four: str | None
) -> None:
    """Game.playout makes declarations and redeal calls unchecked: the same draws and choices,
    whole games long, records and events alike."""
    rules = preset(name)
    if hand_four is not None:  # a hand four is the holder's call: the redeal decision
        rules = rules.with_options({"hand_four": hand_four})
    decided = 0
    for seed in range(200 if hand_four else 30):
        fast, reference = Game(rules, players, seed=seed), Game(rules, players, seed=seed)
        a, b = random.Random(seed), random.Random(seed)
        while not fast.over:
            decided += fast.phase in (DECLARE, REDEAL) if hand_four is None else fast.phase == REDEAL
            fast.playout(a)
            _reference_playout(reference, b)
        assert reference.over
        assert dumps(record_of(fast, ["a"] * players)) == dumps(record_of(reference, ["a"] * players))
        assert [repr(e) for e in fast.events] == [repr(e) for e in reference.events]
        assert a.random() == b.random()  # as many draws
    if (rules.declare == "choose" and rules.lucky_hands) or rules.hand_four == "optional":
        assert decided > 0  # the unchecked decisions were exercised
