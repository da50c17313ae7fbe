"""The opponent model fitted to each opponent (``master:model=fit|map``, :class:`ModelFit`).

The greedy candidate must be exactly what ``greedy`` plays; the fit must pick the
model that played (greedy against ``greedy``'s plays, the expert against the
``expert``'s) from the seat's view alone, carry its evidence from round to round of a
game and start afresh with a new game; and the fitted master must answer the same
when the cards its seat never saw are dealt again.
"""

from __future__ import annotations

import math
import random

import pytest

from roppyakken.actions import PLAY, TAKE, Play, Take
from roppyakken.ai.base import make_bot
from roppyakken.ai.determinize import playout_of
from roppyakken.ai.infer import (
    CANDIDATES,
    ModelFit,
    OpponentModel,
    WorldPool,
    decision_log_probs,
    greedy_values,
    log_likelihood,
    seat_log_likelihoods,
)
from roppyakken.ai.master import MasterBot
from roppyakken.engine import Game
from roppyakken.errors import RoppyakkenError
from roppyakken.infoset import World, sample_world
from roppyakken.rules import preset
from roppyakken.view import SeatView, view_of
from tests.test_ai_hidden import poisoned, positions
from tests.test_bench_smoke import _load

GREEDY = 1
EXPERT = 0


def fitted(opponent: str, seed: int, pool: int = 20, mode: str = "mix") -> tuple[ModelFit, int]:
    """A fit at seat 0 (``expert`` plays it) against ``opponent`` at seat 1, weighed at each of
    seat 0's card-play decisions of a seeded classic game; and the rounds dealt."""
    game = Game(preset("classic"), 2, seed=seed)
    bots = [make_bot("expert", seed), make_bot(opponent, seed + 1)]
    fit = ModelFit(mode=mode)
    rng = random.Random(seed)
    while not game.over:
        seat = game.to_act
        view = view_of(game, seat)
        record = view.record
        theirs = record is not None and any(p[0] == 1 for p in record.plays)
        if seat == 0 and game.phase in (PLAY, TAKE) and theirs:
            WorldPool(view, rng, pool, fit)
        game.apply(bots[seat].choose(view))
    return fit, game.round + 1


def test_the_greedy_candidate_is_what_greedy_plays() -> None:
    """At each of ``greedy``'s decisions, in the real world, the greedy values' best moves
    hold greedy's choice, and the tau-0 greedy model gives it its share of the ties."""
    model = OpponentModel(0.0, 0.0, policy="greedy")
    checked = 0
    for seed in range(3):
        game = Game(preset("classic"), 2, seed=seed)
        bots = [make_bot("greedy", seed), make_bot("greedy", seed + 1)]
        while not game.over:
            view = view_of(game, game.to_act)
            action = bots[game.to_act].choose(view)
            if game.phase in (PLAY, TAKE) and len(view.legal) > 1:
                real = World(tuple(game.hands), tuple(game.pile[game.pile_pos :]))
                p = playout_of(view, real)
                moves = p.moves()
                assert isinstance(action, Play | Take)
                move = (action.card if isinstance(action, Play) else view.turned, action.target)
                values = greedy_values(p, moves)
                top = max(values)
                best = [m for m, v in zip(moves, values, strict=True) if v == top]
                assert move in best
                assert decision_log_probs(p, moves, move, view.totals, (model,))[0] == pytest.approx(
                    -math.log(len(best))
                )
                checked += 1
            game.apply(action)
    assert checked > 40


def test_one_replay_gives_each_seat_and_model_its_likelihood() -> None:
    """The per-seat, per-model log-likelihoods add up to each model's whole likelihood."""
    game = Game(preset("online"), 3, seed=4)
    bots = [make_bot("expert", s) for s in range(3)]
    rng = random.Random(1)
    checked = 0
    while not game.over and checked < 10:
        view = view_of(game, game.to_act)
        if game.phase in (PLAY, TAKE) and view.record is not None and len(view.record.plays) > 3:
            world = sample_world(view, rng)
            table = seat_log_likelihoods(view, world, CANDIDATES)
            assert view.seat is not None
            assert table[view.seat] == [0.0] * len(CANDIDATES)
            for j, model in enumerate(CANDIDATES):
                assert sum(row[j] for row in table) == pytest.approx(log_likelihood(view, world, model))
            checked += 1
        game.apply(bots[game.to_act].choose(view))
    assert checked == 10


@pytest.mark.parametrize(("opponent", "model"), [("greedy", GREEDY), ("expert", EXPERT)])
def test_the_fit_picks_the_model_that_played(opponent: str, model: int) -> None:
    """Over a seeded game, the opponent's plays make the model it follows the most probable."""
    for seed in (3, 11):
        fit, _ = fitted(opponent, seed)
        post = fit.posterior(1)
        assert max(range(len(post)), key=lambda j: post[j]) == model, (seed, post)
        assert post[model] > 0.9


def test_the_evidence_is_carried_across_rounds_and_reset_by_a_new_game() -> None:
    """A round's latest evidence joins the carried total when the next round starts; a new
    game (an earlier round) starts from nothing."""
    views: list[SeatView] = []
    game = Game(preset("classic"), 2, seed=3)
    bots = [make_bot("expert", 3), make_bot("greedy", 4)]
    while not game.over:
        view = view_of(game, game.to_act)
        record = view.record
        theirs = record is not None and any(p[0] == 1 for p in record.plays)
        if game.to_act == 0 and game.phase in (PLAY, TAKE) and theirs:
            views.append(view)
        game.apply(bots[game.to_act].choose(view))
    rounds = sorted({v.round for v in views})
    assert len(rounds) >= 2
    first = [v for v in views if v.round == rounds[0]]
    second = [v for v in views if v.round == rounds[1]]
    fit = ModelFit()
    rng = random.Random(0)
    WorldPool(first[0], rng, 10, fit)
    WorldPool(first[-1], rng, 10, fit)
    end_of_first = fit.log_evidence(1)
    assert fit.log_evidence(0) == [0.0] * len(CANDIDATES)  # the seat's own plays are no evidence
    assert end_of_first != [0.0] * len(CANDIDATES)
    WorldPool(second[0], rng, 10, fit)
    latest = fit._latest[1]
    assert fit.log_evidence(1) == pytest.approx([a + b for a, b in zip(end_of_first, latest, strict=True)])
    WorldPool(first[0], rng, 10, fit)  # an earlier round: another game
    assert fit._carried[1] == [0.0] * len(CANDIDATES)


def test_the_map_fit_weighs_by_the_most_probable_model_alone() -> None:
    """With ``map`` the pool's weights are the chosen model's likelihoods; with the mixture
    every world keeps some weight from each model."""
    _, view = [(g, view_of(g, g.to_act)) for g in positions("classic", 2, 12)][-1]
    assert view.record is not None
    fit = ModelFit(mode="map")
    pool = WorldPool(view, random.Random(2), 12, fit)
    if any(p[0] != view.seat for p in view.record.plays):
        ev = fit.log_evidence(1 - (view.seat or 0))
        best = CANDIDATES[max(range(len(ev)), key=lambda j: ev[j])]
        logs = [log_likelihood(view, w, best) for w in pool.worlds]
        top = max(logs)
        assert pool.weights == pytest.approx([math.exp(v - top) for v in logs])


def test_the_fitted_master_ignores_the_hidden_cards() -> None:
    """The fitted masters (evidence carried from an earlier position of the game) answer the
    same, and fit the same evidence, when the cards their seat never saw are dealt again."""
    rng = random.Random(5)
    checked = 0
    for game in positions("classic", 2, 10):
        seat = game.to_act
        real = view_of(game, seat)
        assert real.record is not None
        if not any(p[0] != seat for p in real.record.plays):
            continue
        fake = view_of(poisoned(game, seat, rng), seat)
        assert fake == real
        for level in ("master:iters=6:infer=8:model=fit", "master:iters=6:infer=8:model=map"):
            a, b = make_bot(level, 3), make_bot(level, 3)
            assert isinstance(a, MasterBot) and isinstance(b, MasterBot)
            assert a.choose(real) == b.choose(fake), level
            assert isinstance(a.model, ModelFit) and isinstance(b.model, ModelFit)
            assert a.model.log_evidence(1 - seat) == b.model.log_evidence(1 - seat)
        checked += 1
    assert checked >= 4


def test_model_options() -> None:
    bot = make_bot("master:iters=10:model=fit")
    assert isinstance(bot, MasterBot) and isinstance(bot.model, ModelFit) and bot.model.mode == "mix"
    bot = make_bot("master:iters=10:model=map")
    assert isinstance(bot, MasterBot) and isinstance(bot.model, ModelFit) and bot.model.mode == "map"
    bot = make_bot("master:iters=10:model=greedy:tau=1")
    assert isinstance(bot, MasterBot) and bot.model == OpponentModel(1.0, 0.02, policy="greedy")
    with pytest.raises(RoppyakkenError):
        make_bot("master:iters=10:model=oracle")
    with pytest.raises(ValueError):
        ModelFit(mode="vote")


def test_the_infer_bench_prints_the_fits(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("bench_infer")
    argv = [
        "--games",
        "1",
        "--pool",
        "6",
        "--model",
        "greedy:0:0.02",
        "--model",
        "fit",
        "--bots",
        "expert,greedy",
    ]
    assert bench.main(argv) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[2].startswith("  greedy tau 0 eps 0.02: 0.") and out[3].startswith("  fit: 0.")
    assert out[4].startswith("    most probable model at each game's end: expert 0/0.02: ")
