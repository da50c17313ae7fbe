"""RULES.md R-1 (deck), R-2 (players, seats, dealer), R-3 (the deal)."""

from __future__ import annotations

import random
import struct

import pytest

from roppyakken import engine
from roppyakken.actions import DECLARE, PLAY, REDEAL, CallRedeal, Declare, Play
from roppyakken.cards import (
    ALL_CARDS,
    KIND,
    MONTH,
    MONTH_MASK,
    NUM_CARDS,
    POINTS,
    SLUGS,
    card_id,
    iter_cards,
    points_of,
)
from roppyakken.engine import Game, deal_pattern, deal_sizes, seeded_deck
from roppyakken.errors import RoppyakkenError, RulesError
from roppyakken.events import DealerTookFour, FirstDealerDrawn, Redealt
from roppyakken.rules import preset
from tests.harness.support import dealt, ids, m

CLASSIC = preset("classic")


def test_r1_1_deck_has_48_cards_in_canonical_order() -> None:
    assert len(SLUGS) == len(set(SLUGS)) == 48
    assert SLUGS[0] == "pine-crane" and SLUGS[47] == "paulownia-chaff-2"
    for card, slug in enumerate(SLUGS):
        assert card_id(slug) == card
        assert MONTH[card] == card // 4 + 1
    assert SLUGS[40:44] == ("willow-rainman", "willow-swallow", "willow-ribbon", "willow-lightning")
    assert [KIND[c] for c in range(4)] == ["bright", "ribbon", "chaff", "chaff"]
    assert KIND[card_id("willow-lightning")] == "chaff"
    assert KIND[card_id("paulownia-yellow")] == "chaff"


def test_r1_1_unknown_slug_is_refused_by_name() -> None:
    with pytest.raises(RoppyakkenError, match="unknown card 'pine-dragon'"):
        card_id("pine-dragon")


def test_r1_2_card_points_total_490() -> None:
    assert points_of(ALL_CARDS) == 490
    brights = [c for c in range(48) if KIND[c] == "bright"]
    assert len(brights) == 5 and all(POINTS[c] == 50 for c in brights)
    assert POINTS[card_id("plum-warbler")] == 50
    animals = [c for c in range(48) if KIND[c] == "animal" and SLUGS[c] != "plum-warbler"]
    assert len(animals) == 8 and all(POINTS[c] == 10 for c in animals)
    ribbons = [c for c in range(48) if KIND[c] == "ribbon"]
    assert len(ribbons) == 10 and all(POINTS[c] == 10 for c in ribbons)
    assert POINTS[card_id("paulownia-yellow")] == 10
    zero = [c for c in range(48) if POINTS[c] == 0]
    assert len(zero) == 23


def test_r2_1_play_passes_to_the_next_seat() -> None:
    game = Game(CLASSIC, 3, seed=5)
    while game.phase != PLAY:
        game.apply(game.legal_actions()[0])
    first = game.to_act
    assert first == game.dealer
    game.apply(game.legal_actions()[0])
    while game.phase != PLAY:
        game.apply(game.legal_actions()[0])
    assert game.to_act == (first + 1) % 3


@pytest.mark.parametrize("players", [2, 3])
def test_r2_2_first_dealer_holds_the_earliest_month_ties_draw_again(players: int) -> None:
    redraws = 0
    for seed in range(300):
        game = Game(CLASSIC, players, seed=seed)
        (drawn,) = [e for e in game.events if isinstance(e, FirstDealerDrawn)]
        assert drawn.dealer == game.dealer
        contenders = list(range(players))
        for step in range(max(len(d) for d in drawn.draws)):
            months = {s: MONTH[drawn.draws[s][step]] for s in contenders}
            earliest = min(months.values())
            contenders = [s for s in contenders if months[s] == earliest]
            redraws += len(contenders) > 1
        assert contenders == [game.dealer]
    assert redraws > 0  # ties happened and were drawn again


def _keys(keys: list[int]) -> bytes:
    """The digest that gives card ``c`` the 32-bit key ``keys[c]`` (FORMATS.md §3: big-endian)."""
    return struct.pack(f">{NUM_CARDS}I", *keys)


def test_r2_2_the_draw_takes_the_top_cards_of_the_seeded_deck() -> None:
    """``shuffled_top`` (the first-dealer draw's cards) is the top of ``shuffled_by``'s deck."""
    for seed in range(200):
        label = f"roppyakken:{seed}:first-dealer:0"
        for count in (1, 2, 3):
            assert engine.shuffled_top(label, count) == engine.shuffled_by(label)[:count]
    # Equal keys (about one deck in four million): the lower card id first, as the stable sort.
    tied = [7] * NUM_CARDS
    tied[30] = tied[12] = tied[40] = 3
    tied[5] = 5
    assert engine.deck_by_digest(_keys(tied))[:5] == [12, 30, 40, 5, 0]
    for count in (1, 2, 3, 4, 5):
        assert engine.top_by_digest(_keys(tied), count) == engine.deck_by_digest(_keys(tied))[:count]


def test_r3_2_the_deck_is_the_cards_sorted_by_their_keys() -> None:
    """``deck_by_digest`` (the seeded deck's sort, done on floats) orders the cards as a stable
    sort by key does, over the whole 32-bit range of keys, ties included."""
    rng = random.Random(5)
    extremes = [0, 1, 2**31 - 1, 2**31, 2**32 - 2, 2**32 - 1]
    for trial in range(300):
        if trial % 3 == 0:
            keys = [rng.choice(extremes) for _ in range(NUM_CARDS)]
        elif trial % 3 == 1:
            keys = [rng.randrange(4) << rng.choice((0, 16, 30)) for _ in range(NUM_CARDS)]
        else:
            keys = [rng.getrandbits(32) for _ in range(NUM_CARDS)]
        assert engine.deck_by_digest(_keys(keys)) == sorted(range(NUM_CARDS), key=keys.__getitem__)


def _round_scores_game(scores: list[int], dealer: int, next_dealer: str = "top-scorer") -> int:
    """The next dealer after a round with these round scores (R-2.3)."""
    from roppyakken.scoring import PlayerScore, RoundScore

    game = Game(CLASSIC.with_options({"next_dealer": next_dealer}), len(scores), seed=1)
    game.dealer = dealer
    players = tuple(PlayerScore(s, (), (), s, s, s) for s in scores)
    return game._next_dealer(RoundScore(players, False, None))


def test_r2_3_top_scorer_deals_next() -> None:
    assert _round_scores_game([100, 300, 200], dealer=0) == 1
    assert _round_scores_game([100, 300], dealer=1) == 1


def test_r2_3_tie_reading_previous_dealer_keeps_the_deal() -> None:
    assert _round_scores_game([300, 300, 100], dealer=0) == 0
    assert _round_scores_game([300, 300, 100], dealer=1) == 1


def test_r2_3_tie_reading_first_tied_after_previous_dealer() -> None:
    assert _round_scores_game([300, 100, 300], dealer=1) == 2
    assert _round_scores_game([300, 300, 100], dealer=2) == 0


def test_r2_3_rotate_passes_the_deal_even_after_a_void_round() -> None:
    assert _round_scores_game([0, 500, 0], dealer=0, next_dealer="rotate") == 1
    assert _round_scores_game([0, 0, 0], dealer=2, next_dealer="rotate") == 0


def test_r2_3_next_dealer_in_a_played_game_is_the_round_top_scorer() -> None:
    import random

    checked = 0
    for seed in range(40):
        game = Game(CLASSIC, 2, seed=seed)
        rng = random.Random(seed)
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))
        for before, after in zip(game.history, game.history[1:], strict=False):
            assert before.score is not None
            scores = [p.round_score for p in before.score.players]
            best = max(scores)
            expected = before.dealer if scores[before.dealer] == best else scores.index(best)
            assert after.dealer == expected
            checked += 1
    assert checked > 10


@pytest.mark.parametrize(
    ("name", "players", "sizes"),
    [("classic", 2, (8, 8)), ("classic", 3, (7, 6)), ("ten-card", 2, (10, 8))],
)
def test_r3_1_deal_sizes(name: str, players: int, sizes: tuple[int, int]) -> None:
    rules = preset(name)
    assert deal_sizes(rules, players) == sizes
    game = Game(rules, players, seed=3)
    hand, table = sizes
    assert all(h.bit_count() == hand for h in game.hands)
    assert game.table.bit_count() + sum(c.bit_count() for c in game.captures) == table
    assert len(game.pile) == 48 - players * hand - table


def test_r3_1_ten_card_deal_empties_the_pile() -> None:
    import random

    game = Game(preset("ten-card"), 2, seed=4)
    rng = random.Random(4)
    start = game.round
    while game.round == start and not game.over:
        game.apply(rng.choice(game.legal_actions()))
    assert game.history[start].score is not None
    assert len(game.history[start].pile) == 20


def test_r3_1_ten_card_deal_refuses_three_players() -> None:
    with pytest.raises(RulesError, match="ten_card_deal is for 2 players only"):
        Game(CLASSIC.with_options({"ten_card_deal": True}), 3)
    with pytest.raises(RulesError, match="2 players only"):
        Game(preset("ten-card"), 3)


def test_r3_2_deal_pattern_two_players() -> None:
    assert deal_pattern(CLASSIC, 2) == [(0, 4), (1, 4), (-1, 4), (0, 4), (1, 4), (-1, 4)]


def test_r3_2_deal_pattern_three_players() -> None:
    assert deal_pattern(CLASSIC, 3) == [(0, 4), (1, 4), (2, 4), (-1, 3), (0, 3), (1, 3), (2, 3), (-1, 3)]


def test_r3_2_reading_ten_card_pattern() -> None:
    assert deal_pattern(preset("ten-card"), 2) == [(0, 5), (1, 5), (-1, 4), (0, 5), (1, 5), (-1, 4)]


def test_r3_2_same_deck_same_deal_starting_after_the_dealer() -> None:
    first = [0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44]
    second = [c + 1 for c in first]
    deck = first + second + [c for c in range(48) if c not in first + second]
    game = Game(CLASSIC, 2, seed=1, deck_source=lambda r, a: deck, first_dealer=0)
    # Seat 1 (after the dealer) gets 4, then the dealer 4, the table 4, and again.
    assert game.hands[1] == sum(1 << c for c in [0, 4, 8, 12, 1, 5, 9, 13])
    assert game.hands[0] == sum(1 << c for c in [16, 20, 24, 28, 17, 21, 25, 29])
    assert game.table == sum(1 << c for c in [32, 36, 40, 44, 33, 37, 41, 45])
    assert game.pile == deck[24:]
    assert Game(CLASSIC, 2, seed=77).hands == Game(CLASSIC, 2, seed=77).hands


def test_r3_3_table_four_redeals_by_default() -> None:
    deck = list(range(48))  # the table gets 8-11: all four cherry cards
    calls: list[int] = []

    def source(index: int, attempt: int) -> list[int]:
        calls.append(attempt)
        return deck if attempt == 0 else seeded_deck(5, index, attempt)

    game = Game(CLASSIC, 2, seed=1, deck_source=source, first_dealer=0)
    assert calls == [0, 1]
    assert any(isinstance(e, Redealt) and e.reason == "table-four" and e.month == 3 for e in game.events)
    assert game.dealer == 0


def test_r3_3_dealer_takes_the_four_in_changara() -> None:
    rules = preset("changara")
    game = dealt(
        rules,
        [
            [
                "pine-crane",
                "pine-ribbon",
                "plum-warbler",
                "plum-ribbon",
                "iris-bridge",
                "iris-ribbon",
                "clover-boar",
                "clover-ribbon",
            ],
            [
                "wisteria-cuckoo",
                "wisteria-ribbon",
                "peony-butterflies",
                "peony-ribbon",
                "maple-deer",
                "maple-ribbon",
                "pampas-moon",
                "pampas-geese",
            ],
        ],
        [
            "cherry-curtain",
            "cherry-ribbon",
            "cherry-chaff-1",
            "cherry-chaff-2",
            "willow-swallow",
            "paulownia-phoenix",
            "chrysanthemum-sake",
            "pine-chaff-1",
        ],
        dealer=1,
    )
    assert game.captures[1] == MONTH_MASK[3]
    assert not game.table & MONTH_MASK[3]
    assert any(isinstance(e, DealerTookFour) and e.seat == 1 for e in game.events)


def _four_in_hand_deal(rules_name: str, **options: object) -> Game:
    rules = preset(rules_name).with_options(options) if options else preset(rules_name)
    return dealt(
        rules,
        [
            [
                "pine-crane",
                "pine-ribbon",
                "pine-chaff-1",
                "pine-chaff-2",
                "iris-bridge",
                "plum-ribbon",
                "clover-boar",
                "maple-ribbon",
            ],
            [
                "wisteria-cuckoo",
                "wisteria-ribbon",
                "peony-butterflies",
                "peony-ribbon",
                "maple-deer",
                "cherry-ribbon",
                "pampas-moon",
                "pampas-geese",
            ],
        ],
        [
            "cherry-curtain",
            "iris-ribbon",
            "plum-chaff-1",
            "clover-chaff-2",
            "willow-swallow",
            "paulownia-phoenix",
            "chrysanthemum-sake",
            "maple-chaff-1",
        ],
    )


def test_r3_4_hand_four_redeals_by_default() -> None:
    game = _four_in_hand_deal("classic")
    assert any(
        isinstance(e, Redealt) and e.reason == "hand-four" and e.seat == 0 and e.month == 1
        for e in game.events
    )
    assert game.hands[0] != m(
        "pine-crane",
        "pine-ribbon",
        "pine-chaff-1",
        "pine-chaff-2",
        "iris-bridge",
        "plum-ribbon",
        "clover-boar",
        "maple-ribbon",
    )


def test_r3_4_optional_holder_may_play_on() -> None:
    game = _four_in_hand_deal("classic", hand_four="optional")
    assert game.phase == REDEAL and game.to_act == 0
    assert set(game.legal_actions()) == {CallRedeal(True), CallRedeal(False)}
    game.apply(CallRedeal(False))
    assert game.phase == PLAY  # the decision comes before lucky hands; none are held
    assert game.hands[0] & MONTH_MASK[1] == MONTH_MASK[1]


def test_r3_4_optional_holder_may_call_the_redeal() -> None:
    game = _four_in_hand_deal("classic", hand_four="optional")
    before = game.hands[0]
    events = game.apply(CallRedeal(True))
    assert any(isinstance(e, Redealt) and e.seat == 0 for e in events)
    assert game.hands[0] != before and game.round == 0 and game.dealer == 0


@pytest.mark.parametrize("name", ["sambong", "korean-high"])
def test_r3_4_play_keeps_the_deal_and_scores_hand_four(name: str) -> None:
    game = _four_in_hand_deal(name)  # korean-high sets hand_four = play too
    assert not any(isinstance(e, Redealt) for e in game.events)
    assert game.phase == DECLARE and game.to_act == 0
    assert Declare(("hand-four",)) in game.legal_actions()


def test_r3_5_three_of_a_month_on_the_table_is_a_stack() -> None:
    from roppyakken.engine import stacks_of

    table = m("pine-crane", "pine-chaff-1", "pine-chaff-2", "plum-warbler", "plum-chaff-1")
    assert stacks_of(table) == [m("pine-crane", "pine-chaff-1", "pine-chaff-2")]
    game = dealt(
        CLASSIC,
        [
            [
                "pine-ribbon",
                "plum-ribbon",
                "cherry-ribbon",
                "wisteria-ribbon",
                "iris-ribbon",
                "peony-ribbon",
                "clover-ribbon",
                "maple-ribbon",
            ],
            [
                "wisteria-cuckoo",
                "iris-bridge",
                "peony-butterflies",
                "clover-boar",
                "maple-deer",
                "pampas-geese",
                "chrysanthemum-sake",
                "cherry-chaff-1",
            ],
        ],
        [
            "pine-crane",
            "pine-chaff-1",
            "pine-chaff-2",
            "plum-warbler",
            "cherry-curtain",
            "pampas-moon",
            "paulownia-phoenix",
            "willow-swallow",
        ],
    )
    stack_plays = [
        a for a in game.legal_actions() if isinstance(a, Play) and a.card == card_id("pine-ribbon")
    ]
    assert stack_plays == [Play(card_id("pine-ribbon"), m("pine-crane", "pine-chaff-1", "pine-chaff-2"))]
    assert list(iter_cards(stack_plays[0].target)) == ids("pine-crane", "pine-chaff-1", "pine-chaff-2")
