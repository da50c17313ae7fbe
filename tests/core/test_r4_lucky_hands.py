"""RULES.md R-4: lucky hands (teyaku), their exclusivity and their declaration."""

from __future__ import annotations

import pytest

from roppyakken.actions import DECLARE, PLAY, Declare
from roppyakken.cards import POINTS
from roppyakken.events import Declared
from roppyakken.rules import preset
from roppyakken.view import view_of
from roppyakken.yaku import lucky_hands_held
from tests.harness.support import dealt, m

CLASSIC = preset("classic")


def held(rules_name: str, *slugs: str, **options: object) -> dict[str, int]:
    rules = preset(rules_name).with_options(options) if options else preset(rules_name)
    return {h.slug: h.points for h in lucky_hands_held(rules, m(*slugs))}


ALL_CHAFF = ("pine-chaff-1", "plum-chaff-1", "cherry-chaff-1", "wisteria-chaff-1", "iris-chaff-1",
             "peony-chaff-1", "clover-chaff-1", "willow-lightning")  # fmt: skip


def test_a_lucky_hand_is_made_once_and_shared() -> None:
    """Two hands with the same triple hold the same (immutable) LuckyHand object, not two equal
    ones (made once: a frozen dataclass's ``__init__`` is interpreted even compiled); the kept
    hands are bounded."""
    import sys

    from roppyakken import yaku

    first = lucky_hands_held(CLASSIC, m("pine-crane", "pine-ribbon", "pine-chaff-1", "maple-deer"))
    other = lucky_hands_held(CLASSIC, m("pine-crane", "pine-ribbon", "pine-chaff-1", "willow-swallow"))
    assert [h.slug for h in first] == ["hand-three"] and first[0] is other[0]
    kept = sys.modules[yaku.lucky_hands_held.__module__]._HANDS  # the module that runs
    for n in range(yaku.HANDS_KEPT + 5):
        yaku._lucky_hand("all-chaff", 400, n)
        assert 0 < len(kept) <= yaku.HANDS_KEPT


def test_r4_1_all_chaff_400() -> None:
    assert held("classic", *ALL_CHAFF) == {"all-chaff": 400}


def test_r4_1_paulownia_yellow_breaks_all_chaff() -> None:
    hand = (*ALL_CHAFF[:-1], "paulownia-yellow")
    assert held("classic", *hand) == {}


def test_r4_1_hand_three_200() -> None:
    hand = ("pine-crane", "pine-ribbon", "pine-chaff-1", "plum-warbler", "cherry-ribbon",
            "iris-bridge", "maple-deer", "willow-swallow")  # fmt: skip
    assert held("classic", *hand) == {"hand-three": 200}


DOUBLE = ("pine-crane", "pine-ribbon", "pine-chaff-1", "plum-warbler", "plum-ribbon", "plum-chaff-1",
          "maple-deer", "willow-swallow")  # fmt: skip


def test_r4_1_double_hand_three_400() -> None:
    assert held("classic", *DOUBLE) == {"double-hand-three": 400}


def test_r4_2_double_disabled_two_triples_score_hand_three_once() -> None:
    assert held("wikipedia", *DOUBLE) == {"hand-three": 200}
    assert held("marguerite", *DOUBLE) == {"hand-three": 200}


def test_r4_2_hand_three_and_all_chaff_are_judged_independently() -> None:
    # No month has three 0-point cards, so an all-chaff hand never holds a triple: each
    # is judged on its own, and a hand with a triple of scoring cards is never all chaff.
    zero_months = [
        m for m in range(1, 13) if sum(1 for c in range((m - 1) * 4, m * 4) if POINTS[c] == 0) >= 3
    ]
    assert zero_months == []
    assert held("classic", *ALL_CHAFF) == {"all-chaff": 400}
    assert "all-chaff" not in held("classic", *DOUBLE)


def test_r4_1_triple_hand_three_in_ten_card_deal_600() -> None:
    hand = ("pine-crane", "pine-ribbon", "pine-chaff-1", "plum-warbler", "plum-ribbon", "plum-chaff-1",
            "maple-deer", "maple-ribbon", "maple-chaff-1", "willow-swallow")  # fmt: skip
    assert held("ten-card", *hand) == {"triple-hand-three": 600}
    assert held("classic", *hand) == {"double-hand-three": 400}


FOUR = ("pine-crane", "pine-ribbon", "pine-chaff-1", "pine-chaff-2", "plum-warbler", "plum-ribbon",
        "plum-chaff-1", "willow-swallow")  # fmt: skip


def test_r4_1_hand_four_scores_only_with_hand_four_play() -> None:
    assert held("sambong", *FOUR) == {"hand-four": 300, "hand-three": 200}
    assert held("korean-high", *FOUR) == {"hand-three": 300, "hand-four": 500}  # the preset plays
    assert held("korean-high", *FOUR, hand_four="redeal") == {"hand-three": 300}
    assert held("classic", *FOUR, hand_four="play") == {"hand-three": 200}  # no hand-four value


def test_r4_2_reading_a_hand_four_month_is_not_also_a_hand_three() -> None:
    hand = ("pine-crane", "pine-ribbon", "pine-chaff-1", "pine-chaff-2", "plum-warbler", "cherry-ribbon",
            "iris-bridge", "willow-swallow")  # fmt: skip
    assert held("sambong", *hand) == {"hand-four": 300}


def test_r4_3_iris_hands_replace_hand_three_and_hand_four() -> None:
    iris3 = ("iris-bridge", "iris-ribbon", "iris-chaff-1", "plum-warbler", "cherry-ribbon", "pine-crane",
             "maple-deer", "willow-swallow")  # fmt: skip
    assert held("korean-high", *iris3) == {"iris-hand-three": 400}
    assert held("classic", *iris3) == {"hand-three": 200}
    iris4 = ("iris-bridge", "iris-ribbon", "iris-chaff-1", "iris-chaff-2", "plum-warbler", "cherry-ribbon",
             "pine-crane", "willow-swallow")  # fmt: skip
    assert held("korean-high", *iris4) == {"iris-hand-four": 600}


HANDS = [
    [
        "pine-crane",
        "pine-ribbon",
        "pine-chaff-1",
        "plum-warbler",
        "cherry-ribbon",
        "iris-bridge",
        "maple-deer",
        "willow-swallow",
    ],
    [
        "wisteria-cuckoo",
        "wisteria-ribbon",
        "peony-butterflies",
        "peony-ribbon",
        "maple-ribbon",
        "cherry-chaff-1",
        "pampas-moon",
        "pampas-geese",
    ],
]
TABLE = [
    "cherry-curtain",
    "iris-ribbon",
    "plum-chaff-1",
    "clover-chaff-2",
    "willow-ribbon",
    "paulownia-phoenix",
    "chrysanthemum-sake",
    "maple-chaff-1",
]


def test_r4_1_declare_by_choice_offers_every_subset() -> None:
    game = dealt(CLASSIC, HANDS, TABLE, dealer=1)
    assert game.phase == DECLARE and game.to_act == 0
    assert set(game.legal_actions()) == {Declare(()), Declare(("hand-three",))}
    assert view_of(game, 0).lucky_hands[0].slug == "hand-three"


def test_r4_1_declaring_reveals_the_cards_and_scores_them() -> None:
    game = dealt(CLASSIC, HANDS, TABLE, dealer=1)
    events = game.apply(Declare(("hand-three",)))
    (decl,) = [e for e in events if isinstance(e, Declared)]
    assert decl.cards == m("pine-crane", "pine-ribbon", "pine-chaff-1")
    assert game.phase == PLAY and game.to_act == 1  # the dealer plays first
    other = view_of(game, 1)
    assert other.revealed[0] == m("pine-crane", "pine-ribbon", "pine-chaff-1")
    assert other.declared[0] == ("hand-three",)
    assert other.unseen & m("pine-crane") == 0


def test_r4_1_hiding_a_lucky_hand_reveals_nothing_and_scores_nothing() -> None:
    import random

    game = dealt(CLASSIC, HANDS, TABLE, dealer=1)
    game.apply(Declare(()))
    assert view_of(game, 1).revealed[0] == 0
    rng = random.Random(1)
    while game.round == 0 and not game.over:
        game.apply(rng.choice(game.legal_actions()))
    score = game.history[0].score
    assert score is not None and score.players[0].lucky_hands == ()


def test_r4_1_declared_points_count_in_the_round_score() -> None:
    import random

    game = dealt(CLASSIC, HANDS, TABLE, dealer=1)
    game.apply(Declare(("hand-three",)))
    rng = random.Random(2)
    while game.round == 0 and not game.over:
        game.apply(rng.choice(game.legal_actions()))
    score = game.history[0].score
    assert score is not None
    p = score.players[0]
    assert p.lucky_hands == (("hand-three", 200),)
    assert p.round_score == p.card_points + sum(v for _, v in p.yaku) + 200


def test_r4_1_declare_auto_declares_for_the_player() -> None:
    game = dealt(preset("marguerite"), HANDS, TABLE, dealer=1)
    assert game.phase == PLAY
    assert game.declared[0] == ["hand-three"]
    assert any(isinstance(e, Declared) and e.seat == 0 for e in game.events)


def test_r4_1_declaring_a_hand_not_held_is_refused() -> None:
    from roppyakken.errors import IllegalActionError

    game = dealt(CLASSIC, HANDS, TABLE, dealer=1)
    with pytest.raises(IllegalActionError, match="does not hold lucky hand 'all-chaff'"):
        game.apply(Declare(("all-chaff",)))
    assert game.phase == DECLARE and game.declared[0] == []


def test_r4_1_declarations_go_in_play_order_starting_with_the_dealer() -> None:
    hands = [
        [
            "pine-crane",
            "pine-ribbon",
            "pine-chaff-1",
            "plum-warbler",
            "cherry-ribbon",
            "iris-bridge",
            "maple-deer",
        ],
        [
            "wisteria-cuckoo",
            "wisteria-ribbon",
            "wisteria-chaff-1",
            "peony-ribbon",
            "maple-ribbon",
            "cherry-chaff-1",
            "pampas-moon",
        ],
        [
            "clover-boar",
            "clover-ribbon",
            "clover-chaff-1",
            "iris-ribbon",
            "maple-chaff-2",
            "cherry-chaff-2",
            "pampas-geese",
        ],
    ]
    table = [
        "cherry-curtain",
        "plum-chaff-1",
        "willow-ribbon",
        "paulownia-phoenix",
        "chrysanthemum-sake",
        "maple-chaff-1",
    ]
    game = dealt(CLASSIC, hands, table, dealer=1)
    order = []
    while game.phase == DECLARE:
        order.append(game.to_act)
        game.apply(Declare(()))
    assert order == [1, 2, 0]
