"""Which choices of target change nothing (roppyakken.choices), for the front ends' automatic answers."""

from __future__ import annotations

import random

from roppyakken.actions import Play, Take
from roppyakken.cards import POINTS, card_id, iter_cards, points_of
from roppyakken.choices import automatic, captured_by, choices
from roppyakken.engine import Game
from roppyakken.phase import Phase
from roppyakken.rules import preset
from roppyakken.view import SeatView, view_of


def _views(seeds: range, name: str = "classic", players: int = 2) -> list[SeatView]:
    """The acting seat's view at every decision of random games."""
    out = []
    for seed in seeds:
        game = Game(preset(name), players, seed)
        rng = random.Random(seed)
        while not game.over:
            out.append(view_of(game, game.to_act))
            game.apply(rng.choice(game.legal_actions()))
    return out


VIEWS = _views(range(40))


def test_equivalent_choices_capture_the_same_points_and_yaku_cards() -> None:
    found = 0
    for view in VIEWS:
        listed = choices(view)
        assert [c.action for c in listed] == list(view.legal)
        for index, choice in enumerate(listed):
            assert choice.points == points_of(captured_by(view, choice.action))
            if choice.same_as is None:
                continue
            found += 1
            first = listed[choice.same_as]
            assert choice.same_as < index and first.same_as is None
            assert type(first.action) is type(choice.action)
            if isinstance(choice.action, Play):
                assert isinstance(first.action, Play) and first.action.card == choice.action.card
            assert first.points == choice.points
            assert [(s.slug, s.after) for s in first.steps] == [(s.slug, s.after) for s in choice.steps]
    assert found > 10, "random games meet equivalent targets"


def test_targets_of_different_worth_are_never_equivalent() -> None:
    differing = 0
    for view in VIEWS:
        listed = choices(view)
        for i, a in enumerate(listed):
            for b in listed[i + 1 :]:
                if a.points != b.points or [s.slug for s in a.steps] != [s.slug for s in b.steps]:
                    differing += 1
                    assert b.same_as != i
    assert differing > 10


def test_a_turned_card_between_two_chaff_is_taken_automatically() -> None:
    takes = [v for v in VIEWS if v.legal and all(isinstance(a, Take) for a in v.legal)]
    assert takes, "random games meet turned-up cards with several targets"
    auto = 0
    for view in takes:
        action = automatic(view)
        worths = {points_of(a.target) for a in view.legal if isinstance(a, Take)}
        if action is None:
            assert len(worths) > 1 or any(c.steps for c in choices(view))
        else:
            auto += 1
            assert action == view.legal[0]
            assert len(worths) == 1
    assert auto >= 1
    # Plays are never answered for the player: only the turned-up card's target.
    plays = [v for v in VIEWS if any(isinstance(a, Play) for a in v.legal)]
    assert all(automatic(v) is None for v in plays)


def test_the_choice_shows_the_yaku_it_advances() -> None:
    # The Chrysanthemum sake cup can take the ribbon or a chaff: only the ribbon advances
    # Blue Ribbons and Seven Ribbons, so the two are not equivalent.
    game = Game(preset("classic"), 2, 3)
    view = view_of(game, game.to_act)
    ribbon, chaff, sake = (
        card_id(s) for s in ("chrysanthemum-ribbon", "chrysanthemum-chaff-1", "chrysanthemum-sake")
    )
    view = _with(view, table=(1 << ribbon) | (1 << chaff), hand=1 << sake)
    listed = choices(view)
    by_target = {next(iter_cards(c.action.target)): c for c in listed if isinstance(c.action, Play)}
    assert by_target[ribbon].same_as is None and by_target[chaff].same_as is None
    assert by_target[ribbon].points == POINTS[sake] + POINTS[ribbon]
    assert {s.slug for s in by_target[ribbon].steps} >= {"blue-ribbons", "seven-ribbons"}
    assert "blue-ribbons" not in {s.slug for s in by_target[chaff].steps}


def _with(view: SeatView, *, table: int, hand: int) -> SeatView:
    """A view where ``hand`` holds one card whose month is on ``table`` (plays listed by hand)."""
    from dataclasses import replace

    card = next(iter_cards(hand))
    legal = tuple(Play(card, 1 << t) for t in iter_cards(table))
    return replace(view, hand=hand, table=table, legal=legal, phase=Phase.PLAY)
