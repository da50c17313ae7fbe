"""Level ``master``: determinized Monte-Carlo search over the hidden cards.

At each card-play decision the master draws worlds (the cards it cannot see: the other
hands and the pile order) consistent with its seat's view, weighed by how well they
explain what the opponents played this round (:mod:`roppyakken.ai.infer`).  In each world
it plays each candidate move and then the rest of the round, every seat playing as the
``expert`` from its own knowledge in that world (no one sees the sampled hands).  The
round's end is scored by the rules and valued as a chance of winning the game
(:func:`game_value`).

Only the expert's best :data:`WIDTH` moves are searched, all in the same worlds (paired);
moves clearly behind are dropped as the worlds come in, and the master leaves the
expert's choice only when another move leads by more than :data:`CONFIDENCE` standard
errors of the paired differences.  A close call (the expert's two best moves within
:data:`CLOSE` points) gets :data:`SLOW` times the budget.  Lucky-hand declarations and
redeal calls are the expert's.

Level options (``master:ms=230:iters=600``):

``ms``
    time per decision in milliseconds (default 230; the clock is read after every
    rollout, so a decision ends at most one rollout late).
``iters``
    a cap on the rollouts per decision instead: the master then plays the same moves
    for a seed on any machine.  Both may be given.
``infer``
    how many worlds are weighed per decision (default 100; 0 draws the worlds
    uniformly, ignoring the opponents' plays).  With ``ms`` weighing stops after a
    quarter of the budget.

What was tried beside this search and measured no better is in ``bench/RESULTS-bots.md``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Mapping, Sequence
from typing import Final, Self

from roppyakken.actions import Action, CallRedeal, Declare, Play, Take
from roppyakken.ai.determinize import playout_of
from roppyakken.ai.expert import (
    DEFAULT_WEIGHTS,
    ExpertBot,
    Weights,
    expert_rollout,
    move_values,
)
from roppyakken.ai.infer import OpponentModel, WorldPool, declarations_weigh
from roppyakken.ai.playout import yaku_index
from roppyakken.ai.position import Position
from roppyakken.errors import RoppyakkenError
from roppyakken.game_end import round_result
from roppyakken.i18n import N_
from roppyakken.infoset import World, sample_world
from roppyakken.phase import Phase
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore
from roppyakken.view import SeatView

DEFAULT_MS = 230.0
"""The master's default time budget per decision, in milliseconds."""

DEFAULT_INFER = 100
"""How many worlds the master weighs per decision by default."""

WIDTH: Final = 3
"""How many of the expert's best moves are searched."""

CONFIDENCE: Final = 1.0
"""Standard errors by which another move must lead before the expert's choice is left."""

CLOSE: Final = 5.0
"""A decision whose expert's two best moves are within this many points is a close call."""

SLOW: Final = 3.0
"""The budget's factor on a close call."""

TAU: Final = 0.0
"""The opponent model's temperature when worlds are weighed: 0, the expert's choice only."""

EPS: Final = 0.02
"""The opponent model's share of uniform play: no world is ruled out by a player who is not
the expert."""


def _phi(x: float) -> float:
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def standing_value(rules: Rules, totals: Sequence[int], legs: Sequence[int], seat: int) -> float:
    """Estimated chance that ``seat`` wins the game from these totals and legs (no winner yet).

    A round is worth about half the target to each player, give or take as much again;
    the lead in points is compared with the spread of the rounds still to play.
    """
    n = len(totals)
    target = float(rules.target)
    mine = totals[seat]
    best = max(totals[s] for s in range(n) if s != seat)
    match = rules.match_rule
    lead = (mine - best) / target
    if match.kind != "single":
        lead_legs = legs[seat] - max(legs[s] for s in range(n) if s != seat)
        lead += lead_legs * 1.0
    to_go = max(0.0, target - max(mine, best)) / target
    rounds_left = 1.0 + 2.0 * to_go
    if match.kind == "first-to":
        rounds_left += 2.0 * (match.count - 1)
    spread = 0.55 * math.sqrt(rounds_left)
    even = 1.0 / n
    p = _phi(lead / spread)
    return even + (p - 0.5) * 2.0 * (1.0 - even) if p >= 0.5 else even * p / 0.5


def game_value(
    rules: Rules,
    score: RoundScore,
    totals: Sequence[int],
    legs: Sequence[int],
    dealer: int,
    round_index: int,
    seat: int,
) -> float:
    """The value for ``seat`` of a scored round: 1 or 0 if the game ends, else its chance."""
    winner, new_totals, new_legs = round_result(rules, score, totals, legs, dealer, round_index)
    if winner is not None:
        return 1.0 if winner == seat else 0.0
    return standing_value(rules, new_totals, new_legs, seat)


rollout = expert_rollout
"""The master's rollout: :func:`roppyakken.ai.expert.expert_rollout` (play a round to its end,
the first ``depth`` decisions as the expert from each seat's own knowledge, the rest by points
now; compiled with the expert when the compiled modules are built).  The master plays every
decision as the expert."""

ALL: Final = 1 << 30
"""A rollout depth that plays every decision of a round as the expert."""

_OPTIONS: Final = {"ms": float, "iters": int, "infer": int}


class MasterBot:
    """Level ``master``: determinized Monte-Carlo search with expert rollouts (module docstring)."""

    name = "master"

    def __init__(
        self,
        seed: int = 0,
        ms: float | None = DEFAULT_MS,
        iters: int | None = None,
        weights: Weights = DEFAULT_WEIGHTS,
        infer: int = DEFAULT_INFER,
    ) -> None:
        if ms is None and iters is None:
            raise RoppyakkenError(N_("a master needs a budget: ms or iters"))
        self.rng = random.Random(f"master:{seed}")
        self.ms = ms
        self.iters = iters
        self.weights = weights
        self.expert = ExpertBot(seed, weights)
        self.last_rollouts = 0
        self.infer = infer
        self.model = OpponentModel(TAU, EPS, weights)
        self._pool: WorldPool | None = None

    @classmethod
    def from_options(cls, seed: int, options: Mapping[str, str]) -> Self:
        """A master from level options (see the module docstring); one-line errors."""
        kwargs: dict[str, float | int] = {}
        for key, text in options.items():
            kind = _OPTIONS.get(key)
            if kind is None:
                known = ", ".join(_OPTIONS)
                raise RoppyakkenError(
                    N_("bot level master has no option '{key}' (options: {known})"), key=key, known=known
                )
            try:
                value = kind(text)
            except ValueError:
                value = None
            if key == "infer" and (value is None or value < 0):
                raise RoppyakkenError(
                    N_("bot option infer='{value}': expected a number of worlds, 0 or more"), value=text
                )
            elif key != "infer" and (value is None or not value > 0):
                raise RoppyakkenError(
                    N_("bot option {key}='{value}': expected a positive number"), key=key, value=text
                )
            kwargs[key] = value
        ms = kwargs.get("ms", None if "iters" in kwargs else DEFAULT_MS)
        iters = kwargs.get("iters")
        infer = kwargs.get("infer", DEFAULT_INFER)
        return cls(seed, ms=ms, iters=None if iters is None else int(iters), infer=int(infer))

    def choose(self, view: SeatView) -> Action:
        """Search the card-play decisions; declarations and redeals as the expert."""
        legal = view.legal
        first = legal[0]
        if isinstance(first, Declare | CallRedeal) or len(legal) == 1:
            return self.expert.choose(view) if len(legal) > 1 else first
        if isinstance(first, Take):
            moves = [(view.turned, a.target) for a in legal if isinstance(a, Take)]
        else:
            moves = [(a.card, a.target) for a in legal if isinstance(a, Play)]
        return legal[self.search(view, moves)]

    def sample(self, view: SeatView) -> World:
        """One world to play out, consistent with ``view``: drawn from this decision's weighed
        pool, or uniformly without one.

        Benchmarks that measure what hidden information is worth override this to cheat.
        """
        pool = self._pool
        if pool is not None and pool.view is view:
            return pool.draw(self.rng)
        return sample_world(view, self.rng)

    def weigh(self, view: SeatView, deadline: float = math.inf) -> None:
        """Weigh this decision's pool of ``infer`` worlds
        (:class:`~roppyakken.ai.infer.WorldPool`, stopping at ``deadline`` once 16 are
        weighed); none when ``infer`` is 0 or the opponents did nothing to weigh."""
        self._pool = None
        record = view.record
        # Something to weigh: an opponent's play, or which lucky hands the opponents chose to
        # declare.
        if (
            self.infer > 0
            and record is not None
            and (declarations_weigh(view.rules) or any(p[0] != view.seat for p in record.plays))
        ):
            self._pool = WorldPool(view, self.rng, self.infer, self.model, deadline)

    def search(self, view: SeatView, moves: Sequence[tuple[int, int]]) -> int:
        """The index of the best of ``moves`` within the budget (see the module docstring)."""
        clock = time.perf_counter
        start = clock()
        seat = view.seat
        assert seat is not None
        rules = view.rules
        totals, legs = view.totals, view.legs
        dealer, round_index = view.dealer, view.round
        weights = self.weights
        index = yaku_index(rules)

        # The expert's appraisal orders the moves: its choice is the default, and only
        # its best few are searched (the rest rarely win and would thin the samples).
        prior = move_values(Position.of_view(view), moves, view.phase == Phase.PLAY, weights)
        ranked = sorted(range(len(moves)), key=lambda i: -prior[i])
        default = ranked[0]
        active = ranked[:WIDTH]
        factor = SLOW if prior[ranked[0]] - prior[ranked[1]] < CLOSE else 1.0
        deadline = start + factor * self.ms / 1000.0 if self.ms is not None else math.inf
        max_rollouts = int(factor * self.iters) if self.iters is not None else 1 << 60
        if len(active) > 1:
            self.weigh(view, start + (deadline - start) / 4)
        values: list[list[float]] = [[] for _ in moves]
        sums = _Sums(len(moves))
        rollouts = 0
        worlds = 0
        while len(active) > 1 and rollouts + len(active) <= max_rollouts:
            base = playout_of(view, self.sample(view))
            results = []
            for i in active:
                p = base.copy()
                card, target = moves[i]
                p.step(card, target)
                rollout(p, totals, weights, index, ALL)
                score = p.score
                assert score is not None
                results.append(game_value(rules, score, totals, legs, dealer, round_index, seat))
                if clock() >= deadline:
                    break
            rollouts += len(results)
            if len(results) < len(active):
                break  # out of time within this world: its partial results are dropped
            for i, v in zip(active, results, strict=True):
                values[i].append(v)
            sums.add(active, results)
            worlds += 1
            if clock() >= deadline:
                break
            if worlds >= 8:
                active = _prune(active, values, sums)
        self.last_rollouts = rollouts
        if worlds == 0:
            return default
        best = max(active, key=lambda i: sums.total[i])
        if best != default and default in active:
            # Leave the expert's choice only on clear evidence (a paired test).
            mean, se = _paired(values[best], values[default])
            if mean <= CONFIDENCE * se:
                return default
        return best


def _paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """Mean and standard error of the differences ``a[j] - b[j]``."""
    m = len(a)
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(diffs) / m
    var = sum((d - mean) ** 2 for d in diffs) / max(1, m - 1)
    return mean, math.sqrt(var / m)


class _Sums:
    """Running sums of the candidates' rollout values, kept world by world: each one's
    total (added in world order: the same float as ``sum`` of its values) and the sums of
    the products of every two, so that a paired test after each world costs the same however
    many worlds came before."""

    __slots__ = ("cross", "total")

    def __init__(self, n: int) -> None:
        self.total = [0.0] * n
        self.cross = [[0.0] * n for _ in range(n)]

    def add(self, active: Sequence[int], results: Sequence[float]) -> None:
        """Add one world's ``results`` of the ``active`` candidates (in that order)."""
        total, cross = self.total, self.cross
        for i, v in zip(active, results, strict=True):
            total[i] += v
            row = cross[i]
            for j, u in zip(active, results, strict=True):
                row[j] += v * u

    def paired_test(self, i: int, leader: int, m: int) -> float:
        """``mean + 2.5 * (se + 1e-3)`` of the paired differences of ``i`` with ``leader``
        over ``m`` worlds, from the running sums: an estimate, within far less than
        :data:`_SCREEN` of :func:`_paired`'s two-pass figure (values are chances, in [0, 1])."""
        s1 = self.total[i] - self.total[leader]
        ci, cl = self.cross[i], self.cross[leader]
        s2 = ci[i] - 2.0 * ci[leader] + cl[leader]
        mean = s1 / m
        var = max(0.0, (s2 - s1 * s1 / m) / max(1, m - 1))
        return mean + 2.5 * (math.sqrt(var / m) + 1e-3)


_SCREEN = 1e-6
"""How far from 0 the running-sum test must be to decide without the exact two-pass test
(its rounding error is below 1e-7 with values in [0, 1] over up to a million worlds)."""


def _prune(active: list[int], values: list[list[float]], sums: _Sums) -> list[int]:
    """Drop the moves whose paired difference with the leader is clearly negative.

    Every active move has been played in the same worlds, so the comparison is paired.
    With the running ``sums`` (:class:`_Sums`) of ``values``, the test is decided from them
    when it is clear either way, and by the exact :func:`_paired` only near its threshold:
    the same moves are kept as by the exact test alone.
    """
    total = sums.total
    leader = max(active, key=lambda i: total[i])
    lv = values[leader]
    m = len(lv)
    keep = []
    for i in active:
        if i == leader:
            keep.append(i)
            continue
        test = sums.paired_test(i, leader, m)
        if test > _SCREEN:
            keep.append(i)
        elif test >= -_SCREEN:
            mean, se = _paired(values[i], lv)
            if mean + 2.5 * (se + 1e-3) >= 0.0:
                keep.append(i)
    return keep
