"""A pool of weighed worlds that grows with the budget (``master:grow``, issue 14).

With ``grow=R`` the master keeps about ``R`` weighed hand assignments for every world its
rollouts drew: when the draws catch up, it weighs a quarter more into the pool
(:meth:`~roppyakken.ai.infer.WorldPool.grow`), so four times the rollouts see about four
times the hands instead of replaying the same hundred.  Growing must give the pool a
single weighing of all its worlds would give, stay reproducible for a seed, stop at the
decision's deadline, and read nothing but the seat's view.
"""

from __future__ import annotations

import random
import time

import pytest

from roppyakken.ai.base import make_bot
from roppyakken.ai.infer import ModelFit, OpponentModel, WorldPool
from roppyakken.ai.master import MasterBot
from roppyakken.errors import RoppyakkenError
from roppyakken.view import SeatView, view_of
from tests.test_ai_hidden import poisoned, positions
from tests.test_ai_infer import expert_game_views


def late_views(count: int) -> list[SeatView]:
    """Card-play views of expert games on ``marguerite`` after the opponent's plays."""
    out = []
    for game, view in expert_game_views("marguerite", 2, 7)[6:]:
        if (
            len(view.legal) > 2
            and view.record is not None
            and any(p[0] != view.seat for p in view.record.plays)
        ):
            out.append(view)
            if len(out) >= count:
                break
        assert game.to_act == view.seat
    return out


@pytest.mark.parametrize("fit", [False, True])
def test_a_grown_pool_is_the_pool_weighed_at_once(fit: bool) -> None:
    view = late_views(1)[0]

    def model() -> OpponentModel | ModelFit:
        return ModelFit() if fit else OpponentModel(0.0, 0.02)

    whole = WorldPool(view, random.Random(3), 50, model())
    rng = random.Random(3)
    grown = WorldPool(view, rng, 30, model())
    assert len(grown.worlds) == 30
    assert grown.grow(rng, 20) == 20
    assert grown.worlds == whole.worlds
    assert grown.weights == whole.weights
    assert grown.cumulative == whole.cumulative
    assert grown.effective_size == whole.effective_size


def test_a_pool_grows_no_further_past_its_deadline() -> None:
    view = late_views(1)[0]
    rng = random.Random(1)
    pool = WorldPool(view, rng, 20, OpponentModel(0.0, 0.02))
    weights = list(pool.weights)
    assert pool.grow(rng, 50, deadline=0.0) == 0
    assert len(pool.worlds) == 20 and pool.weights == weights
    assert pool.grow(rng, 50, deadline=0.0, least=4) == 4
    assert len(pool.worlds) == 24


def test_draws_are_counted() -> None:
    view = late_views(1)[0]
    pool = WorldPool(view, random.Random(1), 10, OpponentModel(0.0, 0.02))
    rng = random.Random(2)
    for _ in range(7):
        pool.draw(rng)
    assert pool.draws == 7


def test_the_pool_grows_with_the_budget_and_only_with_grow() -> None:
    for view in late_views(3):
        sizes = {}
        for iters in (60, 240):
            bot = MasterBot(4, ms=None, iters=iters, infer=20, grow=1.0)
            bot.choose(view)
            pool = bot._pool
            assert pool is not None and pool.view is view
            # ``grow`` weighed worlds per draw: never fewer than the draws before the last
            assert len(pool.worlds) >= pool.draws - 1
            assert len(pool.worlds) <= max(20, 1.25 * pool.draws + 16)
            sizes[iters] = len(pool.worlds)
            fixed = MasterBot(4, ms=None, iters=iters, infer=20)
            fixed.choose(view)
            assert fixed._pool is not None and len(fixed._pool.worlds) == 20
            if iters == 240:
                assert fixed._pool.draws > 20  # more draws than hands: what grow is for
        assert sizes[240] > 2 * sizes[60]


def test_a_growing_master_is_deterministic_for_a_seed() -> None:
    for view in late_views(3):
        a = MasterBot(9, ms=None, iters=90, infer=10, grow=1.0)
        b = MasterBot(9, ms=None, iters=90, infer=10, grow=1.0)
        assert a.choose(view) == b.choose(view)
        assert a._pool is not None and b._pool is not None
        assert a._pool.worlds == b._pool.worlds and a._pool.weights == b._pool.weights
        assert a.last_rollouts == b.last_rollouts


def test_a_growing_master_keeps_its_deadline() -> None:
    view = late_views(1)[0]
    bot = MasterBot(2, ms=40.0, infer=20, grow=4.0)
    start = time.perf_counter()
    bot.choose(view)
    spent = time.perf_counter() - start
    # the slowest budget is a close call's, slow (3) times ms; a rollout or a weighed world
    # may run past it, a few milliseconds (a generous margin for a loaded machine)
    assert spent < 3 * 0.040 + 0.25
    assert bot._pool is not None and len(bot._pool.worlds) > 20


def test_growing_reads_only_the_seats_view() -> None:
    """Poisoning the cards the seat has not seen changes neither the move nor the pool."""
    rng = random.Random(5)
    with_plays = 0
    for game in positions("marguerite", 2, 10):
        seat = game.to_act
        real = view_of(game, seat)
        fake = view_of(poisoned(game, seat, rng), seat)
        assert fake == real
        a = MasterBot(3, ms=None, iters=40, infer=6, grow=1.0)
        b = MasterBot(3, ms=None, iters=40, infer=6, grow=1.0)
        assert a.choose(real) == b.choose(fake)
        if a._pool is not None:
            with_plays += 1
            assert b._pool is not None
            assert a._pool.worlds == b._pool.worlds and a._pool.weights == b._pool.weights
            assert len(a._pool.worlds) > 6
    assert with_plays >= 3


@pytest.mark.parametrize("option", ["grow=-1", "grow=x"])
def test_bad_grow_options_fail_in_one_line(option: str) -> None:
    with pytest.raises(RoppyakkenError):
        make_bot(f"master:iters=10:{option}")


def test_grow_is_a_level_option() -> None:
    bot = make_bot("master:iters=10:grow=1.5")
    assert isinstance(bot, MasterBot) and bot.grow == 1.5
