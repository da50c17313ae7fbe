"""RULES.md R-8.5 immediate wins, R-9 (end of game, ties, margin, matches), R-10 (presets, house rules)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from roppyakken.actions import Play
from roppyakken.cards import card_id
from roppyakken.engine import Game, RoundLog
from roppyakken.errors import RoppyakkenError, RulesError
from roppyakken.events import GameEnded, LegWon
from roppyakken.game_end import outcome_with, round_outcome
from roppyakken.outcome import Outcome
from roppyakken.outcome import Termination as T
from roppyakken.rules import PRESETS, Rules, load_rules_file, preset
from roppyakken.scoring import PlayerScore, RoundScore, parts_of, scoring_options
from tests.harness.support import m, position

CLASSIC = preset("classic")


def round_score(*yaku: tuple[str, ...], instant: tuple[int, str] | None = None) -> RoundScore:
    players = tuple(PlayerScore(0, tuple((y, 1) for y in ys), (), 0, 0, 0) for ys in yaku)
    return RoundScore(players, False, instant)


def leg_winner(rules: Rules, totals: list[int], score: RoundScore, dealer: int = 0) -> Outcome | None:
    game = Game(rules, len(totals), seed=1)
    game.totals = list(totals)
    game.dealer = dealer
    return game._leg_winner(score)


def test_r9_1_below_target_nobody_wins() -> None:
    assert leg_winner(CLASSIC, [590, 300], round_score((), ())) is None


def test_r9_1_highest_total_at_target_wins() -> None:
    assert leg_winner(CLASSIC, [600, 300], round_score((), ())) == Outcome(0, T.TARGET)
    assert leg_winner(CLASSIC, [650, 700, 100], round_score((), (), ())) == Outcome(1, T.TARGET)


def test_r9_1_several_reached_four_brights_then_seven_ribbons_decide() -> None:
    rules = preset("no-instant-win")
    assert leg_winner(rules, [900, 650], round_score((), ("four-brights",))) == Outcome(
        1, T.TARGET_YAKU, "four-brights"
    )
    assert leg_winner(rules, [900, 650], round_score((), ("seven-ribbons",))) == Outcome(
        1, T.TARGET_YAKU, "seven-ribbons"
    )
    assert leg_winner(rules, [650, 900], round_score(("seven-ribbons",), ("four-brights",))) == Outcome(
        1, T.TARGET_YAKU, "four-brights"
    )
    assert leg_winner(rules, [900, 650], round_score((), ())) == Outcome(0, T.TARGET)


def test_r9_1_an_instant_win_beats_the_totals() -> None:
    assert leg_winner(
        CLASSIC, [100, 900], round_score(("four-brights",), (), instant=(0, "four-brights"))
    ) == Outcome(0, T.INSTANT, "four-brights")


def test_r9_1_tie_for_highest_another_round() -> None:
    assert leg_winner(CLASSIC, [700, 700], round_score((), ())) is None


def test_r9_1_tie_for_highest_play_order_from_this_rounds_dealer() -> None:
    rules = CLASSIC.with_options({"top_tie": "play-order"})
    assert leg_winner(rules, [700, 700, 100], round_score((), (), ()), dealer=1) == Outcome(
        1, T.TIE_PLAY_ORDER
    )
    assert leg_winner(rules, [700, 100, 700], round_score((), (), ()), dealer=1) == Outcome(
        2, T.TIE_PLAY_ORDER
    )
    assert leg_winner(rules, [700, 100, 700], round_score((), (), ()), dealer=0) == Outcome(
        0, T.TIE_PLAY_ORDER
    )


def test_r9_2_win_margin() -> None:
    rules = preset("wikipedia")
    assert leg_winner(rules, [620, 590], round_score((), ())) is None
    assert leg_winner(rules, [621, 590], round_score((), ())) == Outcome(0, T.TARGET)


def test_r9_2_win_margin_over_the_best_of_the_others() -> None:
    """With three seats the margin is over the best other total, wherever the top one sits."""
    rules = preset("wikipedia").with_options({"target": 600})
    assert leg_winner(rules, [590, 300, 620], round_score((), (), ())) is None
    assert leg_winner(rules, [589, 300, 620], round_score((), (), ())) == Outcome(2, T.TARGET)
    assert leg_winner(rules, [300, 621, 590], round_score((), (), ())) == Outcome(1, T.TARGET)
    assert leg_winner(rules, [621, 590, 621], round_score((), (), ())) is None  # tied at the top


def test_r9_3_the_outcome_leaves_the_legs_it_reads() -> None:
    """A leg won gives a new list of legs; the given one stays as it was (copies share it)."""
    rules = preset("marguerite")
    legs = [1, 0]
    outcome = round_outcome(rules, round_score((), ()), [900, 100], legs, 0, 3)
    assert outcome.leg == Outcome(0, T.TARGET) and outcome.legs == [2, 0] and legs == [1, 0]
    options = scoring_options(rules)
    parts = parts_of(round_score((), ()))
    outcome = outcome_with(options, parts, [900, 100], legs, 0, 3)
    assert outcome.legs == [2, 0] and outcome.legs is not legs and legs == [1, 0]
    assert outcome_with(options, parts, [100, 100], legs, 0, 3).legs == [1, 0]


def play_random(game: Game, seed: int) -> Game:
    rng = random.Random(seed)
    while not game.over:
        game.apply(rng.choice(game.legal_actions()))
    return game


def test_r9_3_single_game_ends_at_the_first_winner() -> None:
    game = play_random(Game(CLASSIC, 2, seed=3), 3)
    assert game.winner is not None
    assert game.legs == [0, 0]
    assert game.outcome is not None
    assert max(game.totals) >= 600 or game.outcome.termination is T.INSTANT


@pytest.mark.parametrize("name", ["marguerite", "changara"])
def test_r9_3_first_to_three_legs(name: str) -> None:
    for seed in range(5):
        game = play_random(Game(preset(name), 2, seed=seed), seed)
        legs = [e for e in game.events if isinstance(e, LegWon)]
        assert game.legs[game.winner or 0] == 3 and game.outcome == Outcome(game.winner or 0, T.LEGS)
        assert sum(game.legs) == len(legs)
        # every leg after the first starts with totals at 0: the round after a leg is won
        # adds its own finals to nothing
        leg_rounds = [i for i, log in enumerate(game.history) if _won_a_leg(preset(name), log)]
        assert len(leg_rounds) == len(legs)
        for i in leg_rounds[:-1]:
            nxt = game.history[i + 1]
            assert nxt.totals is not None and nxt.score is not None
            assert nxt.totals == [p.final for p in nxt.score.players]


def _won_a_leg(rules: Rules, log: RoundLog) -> bool:
    """Whether the round of ``log`` ended a leg (its totals reached the target, or an instant win)."""
    assert log.totals is not None and log.score is not None
    return log.score.instant_win is not None or max(log.totals) >= rules.target


def test_r9_3_totals_reset_after_a_leg() -> None:
    game = play_random(Game(preset("changara"), 2, seed=1), 1)
    winners_rounds = []
    for i, log in enumerate(game.history[:-1]):
        assert log.totals is not None and log.score is not None
        nxt = game.history[i + 1]
        assert nxt.totals is not None and nxt.score is not None
        previous = [0, 0] if max(log.totals) >= 300 or log.score.instant_win else log.totals
        assert nxt.totals == [a + p.final for a, p in zip(previous, nxt.score.players, strict=True)]
        winners_rounds.append(i)
    assert winners_rounds


def test_r9_3_rounds_n_plays_exactly_n_rounds() -> None:
    for seed in range(4):
        game = play_random(Game(preset("mocogame"), 2, seed=seed), seed)
        assert len(game.history) >= 12
        if len(game.history) == 12:
            assert game.outcome is not None
            assert game.outcome.termination in (T.MOST_LEGS, T.MOST_LEGS_TOTAL, T.MOST_LEGS_PLAY_ORDER)
        best = max(game.legs)
        assert game.legs[game.winner or 0] == best


def test_r9_3_rounds_n_tie_on_legs_broken_by_total() -> None:
    game = Game(preset("mocogame"), 2, seed=1)
    game.legs = [2, 2]
    game.totals = [300, 450]
    assert game._most_legs() == Outcome(1, T.MOST_LEGS_TOTAL)
    game.totals = [450, 450]
    assert game._most_legs() is None  # another-round: extra rounds until it breaks


def _void_rounds(top_tie: str, rounds: int) -> Rules:
    """Rules under which every round is void (R-7.3), so every ``rounds N`` game ties on legs and totals."""
    return CLASSIC.with_options(
        {
            "match": f"rounds {rounds}",
            "fuke": "all",
            "fuke_threshold": 10_000,  # above any round score: every round is void
            "fuke_exempt": [],
            "instant_win": "off",
            "top_tie": top_tie,
        }
    )


@pytest.mark.parametrize("seed", range(4))
def test_r9_3_reading_rounds_n_tie_on_legs_and_total_by_play_order(seed: int) -> None:
    game = play_random(Game(_void_rounds("play-order", 2), 3, seed=seed), seed)
    assert len(game.history) == 2 and game.legs == [0, 0, 0] and game.totals == [0, 0, 0]
    # the tied player first in play order from that (last) round's dealer: the dealer
    assert game.outcome == Outcome(game.history[-1].dealer, T.MOST_LEGS_PLAY_ORDER)
    assert isinstance(game.events[-1], GameEnded)


def test_r9_3_reading_rounds_n_tie_on_legs_and_total_plays_another_round() -> None:
    game = Game(_void_rounds("another-round", 2), 2, seed=5)
    rng = random.Random(5)
    while not game.over and len(game.history) < 5:
        game.apply(rng.choice(game.legal_actions()))
    # still tied after 2, 3 and 4 rounds: each time another round is dealt
    assert not game.over and game.winner is None and len(game.history) == 5
    assert all(log.score is not None and log.score.fuke for log in game.history[:4])


def test_r9_3_rounds_n_tie_on_both_names_the_play_order_winner() -> None:
    game = Game(preset("mocogame").with_options({"top_tie": "play-order"}), 3, seed=1)
    game.legs, game.totals, game.dealer = [1, 1, 0], [450, 450, 100], 1
    assert game._most_legs() == Outcome(1, T.MOST_LEGS_PLAY_ORDER)
    game.dealer = 2
    assert game._most_legs() == Outcome(0, T.MOST_LEGS_PLAY_ORDER)


def test_r8_5_immediate_instant_win_ends_the_game_at_once() -> None:
    rules = preset("yukbaek")
    game = position(
        rules,
        [["plum-warbler", "iris-bridge"], ["maple-deer", "clover-boar"]],
        table=["plum-chaff-1", "peony-ribbon"],
        pile=["pine-chaff-2", "wisteria-chaff-1", "cherry-chaff-1"],
        captures=[["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"], []],
    )
    events = game.apply(Play(card_id("plum-warbler"), m("plum-chaff-1")))
    del events
    assert game.over and game.outcome == Outcome(0, T.INSTANT, "four-brights")
    assert game.winner == 0 and game.end_reason == "instant:four-brights"  # as the events write it
    assert game.pile_pos == 0  # the turned-up card was never turned


def test_r8_5_immediate_instant_win_in_a_logged_game_records_the_end() -> None:
    game = play_random(Game(preset("yukbaek"), 2, seed=6), 6)  # seed 6: an instant win
    assert game.outcome is not None and game.outcome.termination is T.INSTANT
    assert [e.outcome for e in game.events if isinstance(e, GameEnded)] == [game.outcome]
    last = game.history[-1]
    assert last.score is not None and last.score.instant_win is not None
    assert last.score.instant_win[0] == game.winner


# ---------------------------------------------------------------------


def test_r10_every_preset_differs_from_classic_as_the_table_says() -> None:
    p = {name: preset(name) for name in PRESETS}
    assert (
        p["online"].fuke == "no-willow-paulownia"
        and p["online"].rain_off == "ordered"
        and p["online"].auto_capture_higher
    )
    assert (
        p["wikipedia"].lucky_hands == {"hand-three": 200, "all-chaff": 400}
        and p["wikipedia"].win_margin == 31
    )
    assert p["fuke"].fuke == "all"
    assert (
        p["ten-card"].ten_card_deal
        and p["ten-card"].players == (2,)
        and "triple-hand-three" in p["ten-card"].lucky_hands
    )
    assert p["lightning"].joker == "willow-lightning"
    mg = p["marguerite"]
    assert (mg.yaku["great-three"], mg.yaku["red-poems"], mg.yaku["blue-ribbons"]) == (100, 150, 200)
    assert mg.lucky_hands == {"hand-three": 200, "all-chaff": 400} and mg.declare == "auto"
    assert (mg.rain_off, mg.fuke, mg.fuke_threshold, mg.fuke_exempt) == (
        "end-of-round",
        "cards-only",
        30,
        ("four-brights",),
    )
    assert (mg.joker_wild_on_table, mg.next_dealer, mg.top_tie, mg.match) == (
        "turned-up",
        "rotate",
        "play-order",
        "first-to 3",
    )
    assert p["no-instant-win"].instant_win == "off"
    assert p["sanbyakuken"].target == 300
    ym = p["yamayaku"]
    assert ym.players == (2,) and ym.target == 300 and "four-brights" not in ym.yaku and len(ym.yaku) == 8
    ch = p["changara"]
    assert (
        ch.players == (2,)
        and ch.target == 300
        and ch.match == "first-to 3"
        and ch.table_four == "dealer_takes"
    )
    assert ch.yaku["matsu-kiri-bozu"] == 300 and "four-wisteria" not in ch.yaku and len(ch.yaku) == 15
    yb = p["yukbaek"]
    assert (
        yb.four_brights_needs_warbler
        and yb.seven_ribbons_willow == "require"
        and yb.instant_win == "immediate"
    )
    assert yb.round_scoring == "difference" and yb.lucky_hands == {} and yb.fuke == "off" and yb.target == 600
    sb = p["sambong"]
    assert sb.round_scoring == "round-up" and sb.instant_win == "off" and sb.yaku["seven-ribbons"] == 700
    assert (
        sb.seven_ribbons_extra == 100
        and sb.lucky_hands == {"hand-three": 200, "hand-four": 300}
        and sb.hand_four == "play"
    )
    kh = p["korean-high"]
    assert (
        kh.yaku["cannon"] == 400
        and kh.yaku["ribbon-cannon"] == 400
        and kh.lucky_hands["iris-hand-three"] == 400
        and kh.lucky_hands["hand-four"] == 500
        and kh.hand_four == "play"
    )
    assert p["mocogame"].match == "rounds 12"
    assert p["classic"] == Rules()


@pytest.mark.parametrize("name", ["ten-card", "yamayaku", "changara"])
def test_r10_two_player_presets_refuse_three_players(name: str) -> None:
    with pytest.raises(RulesError, match="2 players only"):
        Game(preset(name), 3)


def test_r10_unknown_preset_is_refused_by_name() -> None:
    with pytest.raises(RulesError, match="unknown preset 'hachi'"):
        preset("hachi")


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_r10_house_rules_file_starts_from_a_preset_and_overrides(tmp_path: Path) -> None:
    rules = load_rules_file(
        write(tmp_path, 'preset = "online"\ntarget = 800\n[yaku]\ncannon = 400\nfour-willow = false\n')
    )
    assert rules.preset == "online" and rules.target == 800 and rules.fuke == "no-willow-paulownia"
    assert rules.yaku["cannon"] == 400 and "four-willow" not in rules.yaku and rules.yaku["four-pine"] == 50


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("targt = 700\n", "unknown rule option 'targt' (did you mean target?)"),
        ("[lucky_hands]\nhand-thre = 100\n", "unknown lucky hand 'hand-thre' (did you mean hand-three?)"),
        ('preset = "classik"\n', "unknown preset 'classik' (did you mean classic?)"),
        (
            'fuke = "sometimes"\n',
            "option 'fuke': 'sometimes' is not one of off, all, no-willow-paulownia, cards-only",
        ),
        ('target = "high"\n', "option 'target': expected a whole number, got 'high'"),
        ("target = true\n", "option 'target': expected a whole number, got true"),
        ("[yaku]\ndragon = 100\n", "unknown yaku 'dragon'"),
        ("[lucky_hands]\nhand-five = 100\n", "unknown lucky hand 'hand-five'"),
        ('match = "best-of 5"\n', "option 'match'"),
        ('preset = "nope"\n', "unknown preset 'nope'"),
        ("target = [\n", "is not valid TOML"),
        ('fuke_exempt = ["dragon"]\n', "option 'fuke_exempt': unknown yaku 'dragon'"),
    ],
)
def test_r10_house_rules_errors_name_the_problem(tmp_path: Path, text: str, message: str) -> None:
    with pytest.raises(RulesError) as info:
        load_rules_file(write(tmp_path, text))
    assert message in str(info.value)
    assert "\n" not in str(info.value)


def test_r10_ten_card_house_rule_with_three_players_is_refused(tmp_path: Path) -> None:
    rules = load_rules_file(write(tmp_path, "ten_card_deal = true\n"))
    with pytest.raises(RulesError, match="ten_card_deal is for 2 players only"):
        rules.check_players(3)
    rules.check_players(2)


def test_r10_missing_rules_file(tmp_path: Path) -> None:
    with pytest.raises(RulesError, match="not found"):
        load_rules_file(tmp_path / "none.toml")


@pytest.mark.parametrize("limit", [1_000, 100_000])
def test_r10_deep_house_rules_are_refused_whatever_the_stack(tmp_path: Path, limit: int) -> None:
    """A deep document is refused before the (recursive) TOML parser sees it, whatever the recursion limit."""
    import sys

    from roppyakken.nesting import nesting_depth
    from roppyakken.rules import MAX_TOML_NESTING

    path = tmp_path / "deep.toml"
    path.write_text("x = " + "[" * 900 + "]" * 900, encoding="utf-8")
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        with pytest.raises(RulesError, match="nests too deeply"):
            load_rules_file(path)
    finally:
        sys.setrecursionlimit(before)
    assert nesting_depth("a = [[1, 2], {b = 3}]  # [[[[") == 2
    assert nesting_depth("s = \"[[[[\" \nt = '{{{{'") == 0
    assert nesting_depth("[yaku]\ncannon = 400\n") == 1 < MAX_TOML_NESTING


@pytest.mark.parametrize(
    ("reason", "outcome"),
    [
        ("target", Outcome(1, T.TARGET)),
        ("target:seven-ribbons", Outcome(1, T.TARGET_YAKU, "seven-ribbons")),
        ("instant:four-brights", Outcome(1, T.INSTANT, "four-brights")),
        ("tie:play-order", Outcome(1, T.TIE_PLAY_ORDER)),
        ("legs", Outcome(1, T.LEGS)),
        ("most-legs", Outcome(1, T.MOST_LEGS)),
        ("most-legs:total", Outcome(1, T.MOST_LEGS_TOTAL)),
        ("most-legs:play-order", Outcome(1, T.MOST_LEGS_PLAY_ORDER)),
    ],
)
def test_r9_an_outcome_is_written_and_read_as_its_reason_string(reason: str, outcome: Outcome) -> None:
    """The events' JSON and the protocol keep the reason strings; the typed value round-trips."""
    assert outcome.reason == reason and Outcome.of(1, reason) == outcome


@pytest.mark.parametrize(
    "reason", ["", "instant:", "target:", "tie", "most-legs:dealer", "legs:four-brights"]
)
def test_r9_a_reason_no_rule_gives_is_refused(reason: str) -> None:
    with pytest.raises(RoppyakkenError, match="unknown end of game"):
        Outcome.of(0, reason)
    with pytest.raises(RoppyakkenError, match="yaku"):
        Outcome(0, T.INSTANT)
    with pytest.raises(RoppyakkenError, match="yaku"):
        Outcome(0, T.TARGET, "four-brights")


def test_r9_every_outcome_has_its_sentence_in_the_terminal() -> None:
    """The terminal's texts are keyed by the typed outcome: one for each termination, and for
    each instant-win yaku where the termination names one."""
    from roppyakken.tui.text import END_REASONS
    from roppyakken.yaku import INSTANT_YAKU

    keys: set[tuple[T, str | None]] = {(t, None) for t in T if not t.names_a_yaku}
    keys |= {(t, slug) for t in T if t.names_a_yaku for slug in INSTANT_YAKU}
    assert set(END_REASONS) == keys
