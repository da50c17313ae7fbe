"""The guided first game: every step played through the engine, every explanation's claim
checked against the engine's state, in both branches of the declaration."""

from __future__ import annotations

import pytest

from roppyakken import preset, tutorial
from roppyakken.actions import DECLARE, OVER, PLAY, TAKE, Declare, Play, action_from_json
from roppyakken.cards import KIND, POINTS, card_id, iter_cards, mask_of
from roppyakken.engine import Game
from roppyakken.i18n import _, set_language
from roppyakken.scoring import score_round
from roppyakken.tutorial import LEARNER, OPPONENT, STEPS, Lesson

DECLARES = [Declare(("hand-three",)), Declare(())]


def _m(*slugs: str) -> int:
    return mask_of([card_id(s) for s in slugs])


def _has(mask: int, *slugs: str) -> bool:
    want = _m(*slugs)
    return mask & want == want


def _yaku_now(game: Game, seat: int) -> dict[str, int]:
    """The yaku ``seat``'s captures would score if the round ended now."""
    score = score_round(game.rules, game.captures, game.orders, game.declared)
    return dict(score.players[seat].yaku)


def _targets(game: Game, slug: str, from_pile: bool = False) -> set[int]:
    return set(game.targets(card_id(slug), from_pile))


def _before(step: str, game: Game) -> None:
    """What each step's message claims about the position it is shown in."""
    rules = game.rules
    hand = game.hands[LEARNER]
    if step == "welcome":
        assert game.phase == DECLARE and game.to_act == LEARNER and game.dealer == LEARNER
        assert game.players == 2
    elif step == "lucky-hand":
        assert [h.slug for h in game.held_lucky_hands(LEARNER)] == ["hand-three"]
        assert _has(hand, "peony-ribbon", "peony-chaff-1", "peony-chaff-2")
        assert rules.lucky_hands["hand-three"] == 200
        assert game.held_lucky_hands(OPPONENT) == []
    elif step == "match-month":
        assert game.phase == PLAY and game.to_act == LEARNER
        assert _targets(game, "pampas-chaff-1") == {_m("pampas-moon")}
        assert KIND[card_id("pampas-moon")] == "bright" and POINTS[card_id("pampas-moon")] == 50
    elif step == "choose-capture":
        assert _targets(game, "cherry-chaff-1") == {_m("cherry-curtain"), _m("cherry-ribbon")}
        assert POINTS[card_id("cherry-curtain")] == 50 and POINTS[card_id("cherry-ribbon")] == 10
    elif step == "turned-up":
        assert game.phase == TAKE and game.to_act == LEARNER
        assert game.turned == card_id("pine-chaff-2")
        assert _targets(game, "pine-chaff-2", True) == {_m("pine-crane"), _m("pine-ribbon")}
        assert KIND[card_id("pine-crane")] == "bright"
    elif step == "yaku":
        assert rules.yaku["four-brights"] == 600
        assert game.table >> card_id("paulownia-phoenix") & 1
        assert not any(c // 4 + 1 == 12 for c in iter_cards(hand))
        assert _targets(game, "willow-rainman") >= {_m("paulownia-phoenix")}
    elif step == "joker":
        assert rules.joker == "willow-rainman" and hand >> card_id("willow-rainman") & 1
        for target in _targets(game, "willow-rainman"):
            cards = list(iter_cards(target))
            assert len(cards) == 1
            assert cards[0] // 4 + 1 == 11 or POINTS[cards[0]] > 0
    elif step == "keep-capturing":
        butterflies = card_id("peony-butterflies")
        assert KIND[butterflies] == "animal" and POINTS[butterflies] == 10
        assert _targets(game, "peony-ribbon") == {_m("peony-butterflies")}
    elif step == "build-yaku":
        assert _targets(game, "clover-chaff-1") == {_m("clover-boar")}
    elif step == "turned-up-helps":
        assert _targets(game, "iris-chaff-1") == {_m("iris-ribbon")}
    elif step == "no-match":
        assert _targets(game, "peony-chaff-1") == set()
    elif step == "last-card":
        assert hand == _m("peony-chaff-2")
        assert _targets(game, "peony-chaff-2") == {_m("peony-chaff-1")}
    elif step == "round-end":
        assert game.over and game.hands == [0, 0]
    elif step == "instant-win":
        assert game.over and rules.instant_win == "end-of-round"
        assert "seven-ribbons" in rules.yaku


def _after(step: str, game: Game, declared: Declare) -> None:
    """What each step's explanation claims once it is done."""
    caught = game.captures[LEARNER]
    if step == "welcome":
        fifty = {c for c in range(48) if POINTS[c] == 50}
        assert fifty == {c for c in range(48) if KIND[c] == "bright"} | {card_id("plum-warbler")}
        assert {POINTS[c] for c in range(48) if KIND[c] in ("animal", "ribbon") and c not in fifty} == {10}
        assert {c for c in range(48) if KIND[c] == "chaff" and POINTS[c]} == {card_id("paulownia-yellow")}
    elif step == "lucky-hand":
        assert game.declared[LEARNER] == list(declared.hands)
        shown = game.revealed[LEARNER]
        assert (shown == _m("peony-ribbon", "peony-chaff-1", "peony-chaff-2")) == bool(declared.hands)
    elif step == "match-month":
        assert _has(caught, "pampas-chaff-1", "pampas-moon")
        assert game.table >> card_id("plum-chaff-2") & 1
        assert game.captures[OPPONENT] == 0 and len(game.plays) == 4  # the opponent has played
        assert game.phase == PLAY and game.to_act == LEARNER
    elif step == "choose-capture":
        assert _has(caught, "cherry-chaff-1", "cherry-curtain")
        assert game.table >> card_id("cherry-ribbon") & 1
        assert game.phase == TAKE and game.turned == card_id("pine-chaff-2")
    elif step == "turned-up":
        assert _has(caught, "pine-chaff-2", "pine-crane")
        brights = {c for c in iter_cards(caught) if KIND[c] == "bright"}
        assert brights == set(iter_cards(_m("pine-crane", "cherry-curtain", "pampas-moon")))
    elif step == "yaku":
        assert "four-brights" not in _yaku_now(game, LEARNER)
    elif step == "joker":
        assert _has(caught, "willow-rainman", "paulownia-phoenix")
        yaku = _yaku_now(game, LEARNER)
        assert yaku["four-brights"] == 600 and yaku["matsu-kiri-bozu"] == 150
    elif step == "keep-capturing":
        assert _has(caught, "peony-butterflies")
        assert game.rules.yaku["boar-deer-butterflies"] == 300
    elif step == "build-yaku":
        assert _has(caught, "peony-butterflies", "clover-boar")
        assert not caught >> card_id("maple-deer") & 1
    elif step == "turned-up-helps":
        assert _has(caught, "wisteria-ribbon", "wisteria-chaff-2")
        assert _has(game.captures[OPPONENT], "maple-deer")
    elif step == "no-match":
        assert game.table >> card_id("peony-chaff-1") & 1
    elif step == "last-card":
        assert _has(caught, "pampas-moon", "pampas-geese", "pampas-chaff-1", "pampas-chaff-2")
        assert _has(caught, "peony-chaff-1", "peony-chaff-2")
        assert game.over  # the opponent's last card ended the round
    elif step == "round-end":
        score = game.last_score
        assert score is not None
        for seat in (LEARNER, OPPONENT):
            player = score.players[seat]
            points = sum(POINTS[c] for c in iter_cards(game.captures[seat]))
            assert player.card_points == points
            total = points + sum(v for _, v in player.yaku) + sum(v for _, v in player.lucky_hands)
            assert player.round_score == total
            assert game.totals[seat] == player.final
        lucky = dict(score.players[LEARNER].lucky_hands)
        assert lucky == ({"hand-three": 200} if declared.hands else {})
        assert game.table and not game.table & (game.captures[0] | game.captures[1])
    elif step == "instant-win":
        score = game.last_score
        assert score is not None and score.instant_win == (LEARNER, "four-brights")
        assert game.winner == LEARNER and game.end_reason == "instant:four-brights"
        assert game.phase == OVER


@pytest.mark.parametrize("declared", DECLARES, ids=["declared", "kept-secret"])
def test_every_step_plays_through_the_engine_and_its_claims_hold(declared: Declare) -> None:
    lesson = Lesson()
    seen: list[str] = []
    while (step := lesson.step) is not None:
        game = lesson.game
        _before(step.id, game)
        if step.accepts:
            assert not lesson.acknowledge()  # a step that waits for a move is not skipped
            wanted = declared if step.id == "lucky-hand" else step.accepts[0]
            assert all(game.is_legal(a) for a in step.accepts), step.id
            assert game.to_act == LEARNER
            wrong = next((a for a in game.legal_actions() if a not in step.accepts), None)
            if wrong is not None:
                index = lesson.index
                assert lesson.attempt(wrong) is None and lesson.index == index
            assert lesson.attempt(wanted) is not None
        else:
            assert lesson.acknowledge()
        _after(step.id, game, declared)
        seen.append(step.id)
    assert seen == [s.id for s in STEPS]
    assert lesson.done and lesson.game.over


def test_the_steps_cover_what_a_newcomer_must_learn() -> None:
    ids = [s.id for s in STEPS]
    for needed in ("match-month", "choose-capture", "turned-up", "joker", "lucky-hand", "yaku"):
        assert needed in ids
    assert ids[-2:] == ["round-end", "instant-win"]
    assert any(isinstance(a, Declare) for s in STEPS for a in s.accepts)
    assert any(isinstance(a, Play) and a.target == 0 for s in STEPS for a in s.accepts)


def test_the_deck_deals_what_the_script_says() -> None:
    game = tutorial.new_game()
    assert [game.hands[s] == _m(*tutorial.HANDS[s]) for s in (0, 1)] == [True, True]
    assert game.table == _m(*tutorial.TABLE)
    assert sorted(tutorial.deck()) == list(range(48))


@pytest.mark.parametrize("lang", ["ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant"])
def test_every_message_is_translated(lang: str) -> None:
    set_language(lang)
    try:
        for step in STEPS:
            for message in (step.message, step.explanation):
                assert _(message) != message, (lang, message)
    finally:
        set_language("en")


def test_the_json_form_replays_the_same_game() -> None:
    data = tutorial.tutorial_json()
    assert [s["id"] for s in data["steps"]] == [s.id for s in STEPS]
    deck = [card_id(slug) for slug in data["deck"]]
    game = Game(
        preset(data["preset"]), data["players"], deck_source=lambda r, a: deck, first_dealer=data["dealer"]
    )
    mine = iter(action_from_json(a[0]) for a in (s["accepts"] for s in data["steps"]) if a)
    theirs = iter(action_from_json(a) for a in data["opponent"])
    while not game.over:
        game.apply(next(mine if game.to_act == data["learner"] else theirs))
    lesson = Lesson()
    for step in STEPS:
        assert lesson.attempt(step.accepts[0]) is not None if step.accepts else lesson.acknowledge()
    assert game.captures == lesson.game.captures and game.totals == lesson.game.totals
