"""Hints: the expert's choice and the best plays, from one seat's view only."""

from __future__ import annotations

import random

import pytest

from roppyakken.actions import Action, Play, Take
from roppyakken.ai.expert import ExpertBot
from roppyakken.ai.hint import REVIEW_ITERS, REVIEW_MIN_LOSS, hint, review
from roppyakken.ai.master import MasterBot
from roppyakken.cards import POINTS, card_id, iter_cards
from roppyakken.engine import Game
from roppyakken.errors import RoppyakkenError
from roppyakken.rules import preset
from roppyakken.view import SeatView, view_of
from tests.harness.hidden_cards import poisoned, positions


@pytest.mark.parametrize(("name", "players"), [("classic", 2), ("online", 3), ("marguerite", 2)])
def test_a_hint_ignores_the_hidden_cards(name: str, players: int) -> None:
    rng = random.Random(3)
    for game in positions(name, players, 4):
        seat = game.to_act
        real = hint(view_of(game, seat), worlds=6, seed=2)
        other = poisoned(game, seat, rng)
        assert view_of(other, seat) == view_of(game, seat)
        assert hint(view_of(other, seat), worlds=6, seed=2) == real


def test_a_hint_names_the_experts_move_and_legal_candidates() -> None:
    for game in positions("classic", 2, 6):
        view = view_of(game, game.to_act)
        h = hint(view, worlds=4, seed=1)
        assert 1 <= len(h.moves) <= 3 and h.worlds == 4
        assert sum(m.expert_choice for m in h.moves) == 1
        assert h.expert.action == ExpertBot(0).choose(view)
        for m in h.moves:
            assert m.action in view.legal
            assert m.points_now == (POINTS[m.card] + sum(POINTS[c] for c in iter_cards(m.target))) * bool(
                m.target
            )
            assert 0.0 <= m.win_chance <= 1.0 and m.risk >= 0.0
            assert all(0.05 <= chance <= 1.0 for _, chance in m.yaku_chances)
        values = [(m.win_chance, m.expected_margin) for m in h.moves]
        assert values == sorted(values, reverse=True)


def test_a_hint_reports_a_yaku_completed_at_once() -> None:
    # The sake cup captured; the moon on the table, the pampas geese in hand: taking the
    # moon completes Moon Viewing at once.
    from tests.harness.support import m, position

    game = position(
        preset("classic"),
        hands=[["pampas-geese", "maple-chaff-1"], ["iris-chaff-1", "peony-chaff-1"]],
        table=["pampas-moon", "clover-chaff-1"],
        captures=[["chrysanthemum-sake", "chrysanthemum-chaff-1"], []],
        pile=["wisteria-chaff-1", "wisteria-chaff-2", "plum-chaff-1", "plum-chaff-2"],
    )
    view = view_of(game, 0)
    h = hint(view, worlds=4, candidates=2, seed=0)
    take_moon = next(mv for mv in h.moves if mv.action == Play(card_id("pampas-geese"), m("pampas-moon")))
    assert take_moon.yaku_now == ("moon-viewing",) and take_moon.points_now == 60
    assert take_moon.expert_choice


def test_a_hint_is_reproducible_by_seed() -> None:
    game = positions("classic", 2, 1)[0]
    view = view_of(game, game.to_act)
    assert hint(view, worlds=5, seed=9) == hint(view, worlds=5, seed=9)


def test_no_hint_without_a_card_to_play() -> None:
    game = Game(preset("classic"), 2, seed=1)
    with pytest.raises(RoppyakkenError, match="no card to play or take"):
        hint(view_of(game, 1 - game.to_act))
    with pytest.raises(RoppyakkenError, match="spectator"):
        hint(view_of(game, None))


def _first_round_decisions(seed: int) -> list[tuple[SeatView, Action]]:
    """Seat 0's card-play decisions with a choice in the first round of a random classic game,
    as it saw them, with the random move it made."""
    game = Game(preset("classic"), 2, seed=seed)
    rng = random.Random(seed)
    decisions: list[tuple[SeatView, Action]] = []
    while not game.over and not game.history[0].score:
        legal = game.legal_actions()
        action = rng.choice(legal)
        if game.to_act == 0 and len(legal) > 1 and isinstance(action, Play | Take):
            decisions.append((view_of(game, 0), action))
        game.apply(action)
    return decisions


def test_a_review_finds_the_costly_moves_of_a_round_from_the_views_alone() -> None:
    decisions = _first_round_decisions(4)
    assert len(decisions) >= 3
    found = review(decisions, top=2, worlds=8, seed=1)
    assert 1 <= len(found) <= 2
    assert [r.loss for r in found] == sorted((r.loss for r in found), reverse=True)
    for r in found:
        assert r.loss > 0 and r.best.action != r.played.action
        assert (r.view, r.played.action) in decisions
        assert decisions[r.index] == (r.view, r.played.action)  # where it is, for the turn number
        assert r.best.action in r.view.legal
        # "what the master would have played": the master's own choice from that view
        master = MasterBot(1 * 1009 + r.index, ms=None, iters=REVIEW_ITERS)
        assert r.best.action == master.choose(r.view)


def test_include_refuses_an_illegal_move() -> None:
    game = positions("classic", 2, 1)[0]
    view = view_of(game, game.to_act)
    illegal = Play(next(c for c in range(48) if not view.hand >> c & 1), 0)  # a card it does not hold
    with pytest.raises(RoppyakkenError, match="not a legal move"):
        hint(view, worlds=2, include=illegal)


def test_the_expected_score_carries_its_own_interval() -> None:
    """What the players see beside the expected round points is that score's interval, not the
    margin's (they were shown the margin's, which is wider: it adds the others' spread)."""
    from roppyakken.ai.offline import move_json
    from roppyakken.tui.screens.hint import move_lines

    differ = 0
    for game in positions("classic", 2, 4):
        h = hint(view_of(game, game.to_act), worlds=12, seed=5)
        for mv in h.moves:
            assert 0.0 <= mv.score_ci95 < float("inf") and 0.0 <= mv.margin_ci95 < float("inf")
            differ += abs(mv.score_ci95 - mv.margin_ci95) > 0.5
            assert move_json(mv)["score_ci95"] == round(mv.score_ci95, 1)
            shown = move_lines(mv, 1)[2]
            assert f"(± {mv.score_ci95:.0f})" in shown, shown
    assert differ


def test_the_review_shows_the_masters_own_move_not_the_hints_favourite() -> None:
    """The review's "what the master would have played" is the master's own move from that view.
    It was the hint's favourite among the expert's three moves, which is another move at some
    turns (about a third on classic): the review named a move the master would not play."""
    decisions = _first_round_decisions(9)
    found = review(decisions, top=len(decisions), worlds=8, seed=1)
    assert found
    favourite_differs = 0
    for r in found:
        master = MasterBot(1 * 1009 + r.index, ms=None, iters=REVIEW_ITERS)
        assert r.best.action == master.choose(r.view) != r.played.action
        assert r.loss >= REVIEW_MIN_LOSS and r.best.win_chance - r.played.win_chance == r.loss
        h = hint(r.view, worlds=8, seed=1 * 1009 + r.index, include=r.played.action)
        favourite_differs += h.moves[0].action != r.best.action
    assert favourite_differs  # this round tells the two apart


def test_a_review_leaves_out_a_move_that_cost_less_than_a_point_of_the_chance_to_win(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A move the master would not play but that gave up less than 1% of the chance to win is no
    mistake to show ("0 points given up (chance to win −0%)"); one that gave up 1% is."""
    from dataclasses import replace

    from roppyakken.ai import hint as hint_module
    from roppyakken.tui.screens.hint import review_text

    decisions = _first_round_decisions(4)[:2]
    real = hint(decisions[0][0], worlds=4, seed=1)
    losses = iter([0.004, 0.012])

    def fake_hint(view: SeatView, **kwargs: object) -> object:
        include = kwargs["include"]
        assert isinstance(include, tuple)
        played, best = include
        loss = next(losses)
        moves = (
            replace(real.moves[0], action=played, win_chance=0.5),
            replace(real.moves[0], action=best, win_chance=0.5 + loss),
        )
        return replace(real, moves=moves)

    class OtherMaster:
        def __init__(self, *args: object, **kwargs: object) -> None:
            pass

        def choose(self, view: SeatView) -> Action:
            played = next(a for v, a in decisions if v == view)
            return next(a for a in view.legal if a != played)

    monkeypatch.setattr(hint_module, "hint", fake_hint)
    monkeypatch.setattr(hint_module, "MasterBot", OtherMaster)
    found = review(decisions, top=3, worlds=4)
    assert [r.index for r in found] == [1] and found[0].loss == pytest.approx(0.012)
    assert "−1%" in review_text(found, [3, 5])
    shown = review_text([replace(found[0], loss=0.01, margin_loss=-3.0)], [3, 5])
    assert "−0%" not in shown and "−1%" in shown and "0 points" in shown
