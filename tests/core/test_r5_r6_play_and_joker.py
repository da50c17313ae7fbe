"""RULES.md R-5 (play: targets, captures, stacks, turned-up card) and R-6 (the joker)."""

from __future__ import annotations

import pytest

from roppyakken.actions import PLAY, TAKE, Play, Take
from roppyakken.cards import card_id
from roppyakken.engine import capture_targets
from roppyakken.errors import IllegalActionError
from roppyakken.rules import preset
from tests.harness.support import ids, m, position

CLASSIC = preset("classic")


def targets(
    table: list[str], card: str, source: str = "hand", rules_name: str = "classic", **options: object
) -> list[list[str]]:
    rules = preset(rules_name).with_options(options) if options else preset(rules_name)
    from roppyakken.cards import slugs_of

    return [slugs_of(t) for t in capture_targets(rules, m(*table), card_id(card), source == "pile")]


# ---------------------------------------------------------------------


def test_r5_2_a_card_with_no_target_is_added_to_the_table() -> None:
    assert targets(["plum-warbler", "maple-deer"], "pine-crane") == []
    game = position(
        CLASSIC,
        [["pine-crane", "iris-bridge"], ["cherry-curtain"]],
        table=["plum-warbler"],
        pile=["maple-deer", "peony-ribbon"],
    )
    game.apply(Play(card_id("pine-crane"), 0))
    assert game.table & m("pine-crane")


def test_r5_2_a_card_with_a_target_must_capture() -> None:
    game = position(
        CLASSIC,
        [["pine-crane", "iris-bridge"], ["cherry-curtain"]],
        table=["pine-chaff-1"],
        pile=["maple-deer"],
    )
    with pytest.raises(IllegalActionError, match="pine-crane must capture: it can take pine-chaff-1"):
        game.apply(Play(card_id("pine-crane"), 0))
    assert game.table == m("pine-chaff-1") and game.hands[0] == m("pine-crane", "iris-bridge")
    game.apply(Play(card_id("pine-crane"), m("pine-chaff-1")))
    assert game.captures[0] & m("pine-crane", "pine-chaff-1") == m("pine-crane", "pine-chaff-1")


def test_r5_2_any_card_may_be_played_even_one_that_cannot_capture() -> None:
    game = position(
        CLASSIC,
        [["pine-crane", "iris-bridge"], ["cherry-curtain"]],
        table=["pine-chaff-1"],
        pile=["maple-deer"],
    )
    plays = {a for a in game.legal_actions() if isinstance(a, Play)}
    assert Play(card_id("iris-bridge"), 0) in plays
    assert Play(card_id("pine-crane"), m("pine-chaff-1")) in plays


def test_r5_3_two_of_the_month_the_player_chooses() -> None:
    assert targets(["pine-crane", "pine-chaff-1"], "pine-ribbon") == [["pine-crane"], ["pine-chaff-1"]]


def test_r5_3_auto_capture_higher_takes_the_higher_without_asking() -> None:
    assert targets(["pine-crane", "pine-chaff-1"], "pine-ribbon", "hand", "online") == [["pine-crane"]]
    assert targets(["pine-chaff-2", "pine-chaff-1"], "pine-ribbon", "hand", "online") == [
        ["pine-chaff-1"],
        ["pine-chaff-2"],
    ]


def test_r5_3_reading_auto_capture_higher_counts_the_joker_as_a_willow() -> None:
    # The Rain Man is a card of its own month: two Willow cards are a pair for
    # so the higher one is taken without asking, whether it is played or turned up.
    table = ["willow-swallow", "willow-lightning"]
    assert targets(table, "willow-rainman", "hand", "online") == [["willow-swallow"]]
    assert targets(table, "willow-rainman", "pile", "online") == [["willow-swallow"]]
    assert targets(table, "willow-rainman", "hand", "classic") == [["willow-swallow"], ["willow-lightning"]]
    # Its wild targets are not cards of the month: they stay choices beside it.
    table = ["willow-swallow", "willow-lightning", "pampas-moon", "pine-chaff-1"]
    assert targets(table, "willow-rainman", "hand", "online") == [["pampas-moon"], ["willow-swallow"]]
    # Equal points leave the choice, as for any pair.
    table = ["willow-ribbon", "maple-ribbon"]
    assert targets(table, "willow-rainman", "hand", "online") == [["maple-ribbon"], ["willow-ribbon"]]


def test_r5_3_reading_a_wild_joker_stays_a_choice_beside_the_higher_card() -> None:
    table = ["clover-chaff-1", "clover-ribbon", "willow-rainman"]
    assert targets(table, "clover-boar", "hand", "online") == [["clover-ribbon"], ["willow-rainman"]]
    assert targets(table, "clover-boar", "hand", "classic") == [
        ["clover-ribbon"],
        ["clover-chaff-1"],
        ["willow-rainman"],
    ]
    # Two chaff of equal points: both stay, beside the joker.
    table = ["clover-chaff-1", "clover-chaff-2", "willow-rainman"]
    assert targets(table, "clover-boar", "hand", "online") == [
        ["clover-chaff-1"],
        ["clover-chaff-2"],
        ["willow-rainman"],
    ]


def test_r5_3_reading_the_joker_in_a_pair_of_its_month_is_the_higher_card() -> None:
    table = ["willow-rainman", "willow-swallow"]
    assert targets(table, "willow-ribbon", "hand", "online") == [["willow-rainman"]]


def test_r5_4_a_stack_is_taken_whole_and_no_wild_target_instead() -> None:
    table = ["pine-crane", "pine-chaff-1", "pine-chaff-2", "willow-rainman"]
    assert targets(table, "pine-ribbon") == [["pine-crane", "pine-chaff-1", "pine-chaff-2"]]
    game = position(
        CLASSIC, [["pine-ribbon", "iris-bridge"], ["cherry-curtain"]], table=table, pile=["maple-deer"]
    )
    game.apply(Play(card_id("pine-ribbon"), m("pine-crane", "pine-chaff-1", "pine-chaff-2")))
    assert game.captures[0] & 0b1111 == 0b1111  # four pine cards captured


def test_r5_5_the_turned_up_card_with_two_targets_is_the_players_choice() -> None:
    game = position(
        CLASSIC,
        [["iris-bridge", "clover-boar"], ["cherry-curtain", "wisteria-ribbon"]],
        table=["maple-deer", "maple-chaff-1"],
        pile=["maple-ribbon", "peony-ribbon", "plum-ribbon"],
    )
    game.apply(Play(card_id("iris-bridge"), 0))
    assert game.phase == TAKE and game.to_act == 0 and game.turned == card_id("maple-ribbon")
    assert set(game.legal_actions()) == {Take(m("maple-deer")), Take(m("maple-chaff-1"))}
    with pytest.raises(IllegalActionError):
        game.apply(Play(card_id("clover-boar"), 0))
    game.apply(Take(m("maple-deer")))
    assert game.captures[0] == m("maple-ribbon", "maple-deer")
    assert game.phase == PLAY and game.to_act == 1


def test_r5_5_a_single_target_of_the_turned_up_card_is_taken_automatically() -> None:
    game = position(
        CLASSIC,
        [["iris-bridge", "clover-boar"], ["cherry-curtain", "wisteria-ribbon"]],
        table=["maple-deer"],
        pile=["maple-ribbon", "peony-ribbon", "plum-ribbon"],
    )
    game.apply(Play(card_id("iris-bridge"), 0))
    assert game.phase == PLAY and game.to_act == 1
    assert game.captures[0] == m("maple-ribbon", "maple-deer")


def test_r5_6_reading_captures_are_recorded_in_order_played_card_first() -> None:
    game = position(
        CLASSIC,
        [["iris-bridge", "clover-boar"], ["cherry-curtain", "wisteria-ribbon"]],
        table=["iris-chaff-1", "maple-deer"],
        pile=["maple-ribbon", "peony-ribbon", "plum-ribbon"],
    )
    game.apply(Play(card_id("iris-bridge"), m("iris-chaff-1")))
    assert game.orders[0] == ids("iris-bridge", "iris-chaff-1", "maple-ribbon", "maple-deer")


def test_r5_1_the_round_ends_when_every_hand_is_empty() -> None:
    game = position(
        CLASSIC,
        [["iris-bridge"], ["cherry-curtain"]],
        table=["maple-deer"],
        pile=["pine-chaff-1", "plum-chaff-1"],
    )
    game.stop_at_round_end = True
    game.apply(Play(card_id("iris-bridge"), 0))
    assert not game.over
    game.apply(Play(card_id("cherry-curtain"), 0))
    assert game.over and game.last_score is not None


# ---------------------------------------------------------------------


def test_r6_1_joker_options() -> None:
    assert preset("classic").joker_card == card_id("willow-rainman")
    assert preset("lightning").joker_card == card_id("willow-lightning")
    assert CLASSIC.with_options({"joker": "none"}).joker_card == -1


def test_r6_2_joker_takes_a_willow_or_any_single_scoring_card() -> None:
    table = ["willow-lightning", "pampas-moon", "pine-chaff-1", "maple-ribbon"]
    assert targets(table, "willow-rainman") == [["pampas-moon"], ["maple-ribbon"], ["willow-lightning"]]


def test_r6_2_joker_never_takes_a_card_out_of_a_stack() -> None:
    table = ["pine-crane", "pine-chaff-1", "pine-chaff-2", "maple-ribbon"]
    assert targets(table, "willow-rainman") == [["maple-ribbon"]]
    assert targets(["pine-crane", "pine-chaff-1", "pine-chaff-2"], "willow-rainman") == []


def test_r6_3_joker_takes_willow_stack() -> None:
    table = ["willow-swallow", "willow-ribbon", "willow-lightning", "pampas-moon"]
    assert targets(table, "willow-rainman") == [["willow-swallow", "willow-ribbon", "willow-lightning"]]


def test_r6_3_lightning_joker_takes_willow_stack() -> None:
    table = ["willow-rainman", "willow-swallow", "willow-ribbon", "pampas-moon"]
    assert targets(table, "willow-lightning", "hand", "lightning") == [
        ["willow-rainman", "willow-swallow", "willow-ribbon"]
    ]


def test_r6_1_joker_keeps_its_month_and_points() -> None:
    assert targets(["willow-rainman"], "willow-swallow") == [["willow-rainman"]]
    assert targets(["willow-lightning"], "willow-swallow", "hand", "lightning") == [["willow-lightning"]]
    # With no joker, the Rain Man is an ordinary Willow card and takes nothing else.
    assert targets(["pampas-moon"], "willow-rainman", "hand", "classic", joker="none") == []


def test_r6_4_joker_on_table_is_a_wild_target_for_scoring_cards() -> None:
    assert targets(["willow-rainman"], "maple-ribbon") == [["willow-rainman"]]
    assert targets(["willow-rainman", "maple-chaff-1"], "maple-ribbon") == [
        ["maple-chaff-1"],
        ["willow-rainman"],
    ]
    assert targets(["willow-rainman"], "maple-chaff-1") == []  # 0-point cards cannot


def test_r6_4_turned_up_mode_only_turned_up_cards_take_it_wild() -> None:
    assert targets(["willow-rainman"], "maple-ribbon", "hand", "marguerite") == []
    assert targets(["willow-rainman"], "maple-ribbon", "pile", "marguerite") == [["willow-rainman"]]
    assert targets(["willow-rainman"], "willow-swallow", "hand", "marguerite") == [["willow-rainman"]]


def test_r6_4_off_mode_only_willow_cards_take_it() -> None:
    assert targets(["willow-rainman"], "maple-ribbon", "pile", "classic", joker_wild_on_table="off") == []
    assert targets(["willow-rainman"], "willow-ribbon", "pile", "classic", joker_wild_on_table="off") == [
        ["willow-rainman"]
    ]


def test_r6_4_joker_in_a_willow_stack_is_taken_only_with_the_stack() -> None:
    table = ["willow-rainman", "willow-swallow", "willow-ribbon"]
    assert targets(table, "maple-ribbon") == []
    assert targets(table, "willow-lightning") == [["willow-rainman", "willow-swallow", "willow-ribbon"]]


def test_r6_5_reading_wild_targets_oblige_a_capture() -> None:
    game = position(
        CLASSIC,
        [["maple-ribbon", "iris-chaff-1"], ["cherry-curtain"]],
        table=["willow-rainman"],
        pile=["pine-chaff-1"],
    )
    assert Play(card_id("maple-ribbon"), 0) not in game.legal_actions()
    with pytest.raises(IllegalActionError, match="must capture"):
        game.apply(Play(card_id("maple-ribbon"), 0))


def test_r6_2_joker_played_from_hand_captures_its_wild_target() -> None:
    game = position(
        CLASSIC,
        [["willow-rainman", "iris-chaff-1"], ["cherry-curtain"]],
        table=["pampas-moon", "pine-chaff-1"],
        pile=["plum-chaff-1"],
    )
    game.apply(Play(card_id("willow-rainman"), m("pampas-moon")))
    assert game.captures[0] & m("willow-rainman", "pampas-moon") == m("willow-rainman", "pampas-moon")
    assert game.table & m("pine-chaff-1")
