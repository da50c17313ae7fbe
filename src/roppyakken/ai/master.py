"""Level ``master``: searches over the hidden cards with determinized Monte-Carlo.

At each card-play decision the master samples the cards it cannot see
(:func:`roppyakken.infoset.sample_world`: the other hands and the pile order,
uniformly among those consistent with everything its seat has seen), weighs them by
how well they explain what the opponents played this round (``infer``, below:
:mod:`roppyakken.ai.infer`), and in each world drawn by weight plays each candidate
move followed by the rest of the round, every seat (itself included) then playing as
the ``expert`` does from its own knowledge in that world — no one peeks at the sampled
hands.  The end of the round is scored by the rules
(fuke, instant wins, round scoring) and valued as a chance of winning the game
(:func:`game_value`: 1 or 0 if the round ends the game, else an estimate from the
totals and legs).

The expert's appraisal orders the moves: its choice is the default and only its best
few (``width``, 3) are searched.  Every candidate is played in the same worlds (common
random numbers), candidates that fall clearly behind are dropped, and the master
leaves the expert's choice only when another move is ahead by more than
``confidence`` (1.0) standard errors of the paired differences.  Lucky-hand
declarations and redeal calls are the expert's.

Budget, as level options: ``master:ms=230`` is a time limit per decision in
milliseconds (the default, 230; the clock is checked after every rollout, so the
master stops at its deadline, at most one rollout — a few milliseconds — late);
``master:iters=600`` caps the number of rollouts instead, which makes the master fully
reproducible for a seed on any machine.  Both may be given.  A close call — the
expert's two best moves within ``close`` (5) points of each other, about a quarter of
the decisions — gets ``slow`` (3) times the budget: most decisions take 230 ms, close
calls 690 ms.  Experiments: ``rollout=expert|mixed|greedy`` and ``depth=N`` (mixed:
the first N decisions of each rollout as the expert, the rest by points now),
``width=N``, ``confidence=Z``, ``close=POINTS``, ``slow=FACTOR``, and ``exact=N``
(2 players: once the hands hold N cards or fewer in all, each rollout's world is
solved to the end by alpha-beta, :func:`exact_value`, the searching seat maximizing
its value and the other seat minimizing it; measured in ``bench/RESULTS-bots.md``),
``search=flat|tree|ismcts`` with ``uct=C`` (0.25): ``tree`` searches the seat's own
later decisions in each candidate's rollouts by a tree instead of leaving them to the
expert, ``ismcts`` is plain single-observer ISMCTS (:mod:`roppyakken.ai.ismcts`);
``infer=N`` (100; 0 turns it off, the uniform sampler) weighs the sampled worlds by
what the opponents played this round (:mod:`roppyakken.ai.infer`): a pool of ``N``
worlds is weighed once a decision by the likelihood of the opponents' past plays under
the expert's values as a softmax of temperature ``tau`` points (0: the expert's choice
only) mixed with ``eps`` (0.02) of uniform play (with ``ms``, weighing stops after a
quarter of the budget), and every rollout's world is drawn from it by weight, its pile
reshuffled (``bench/RESULTS-bots.md``: +11.3 a round over ``marguerite`` matches against
``expert``, paired with the uniform sampler on the same deals).  ``model=expert|greedy|fit|map``
(``expert``) picks the opponent model: one fixed model (the expert's or greedy's values
with ``tau`` and ``eps``), or fitted to each opponent from its own plays, carried across the
game's rounds (:class:`~roppyakken.ai.infer.ModelFit`: the expert, greedy, a softer expert
and uniform play, weighed by their evidence), worlds weighed by the posterior mixture
(``fit``) or by the most probable model (``map``): against ``greedy`` +6.9% of
``classic`` games paired with the default, against ``expert`` −11 a round over
``marguerite`` matches, within the noise; not the default, ``bench/RESULTS-bots.md``).
``grow=R`` (0: off, the fixed pool) lets that pool grow with the budget: it keeps about
``R`` weighed worlds for every world drawn, weighing a quarter more into it whenever the
draws catch up (until the decision's deadline), so that more rollouts see more hands
instead of replaying the same ``N`` (:meth:`~roppyakken.ai.infer.WorldPool.grow`; a
weighed world costs about a rollout; measured in ``bench/RESULTS-bots.md``).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Self

from roppyakken.actions import Action, CallRedeal, Declare, Play, Take
from roppyakken.ai.determinize import playout_of
from roppyakken.ai.expert import (
    DEFAULT_WEIGHTS,
    ExpertBot,
    Weights,
    expert_rollout,
    move_values,
)
from roppyakken.ai.infer import ModelFit, OpponentModel, WorldPool, declarations_weigh
from roppyakken.ai.ismcts import Node, back_up, descend, select, unpaired
from roppyakken.ai.playout import ENDED, Playout, yaku_index
from roppyakken.ai.position import Position
from roppyakken.errors import RoppyakkenError
from roppyakken.game_end import round_result
from roppyakken.infoset import World, sample_world
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore
from roppyakken.view import SeatView

DEFAULT_MS = 230.0
"""The master's default time budget per decision, in milliseconds."""


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
now; compiled with the expert when the compiled modules are built)."""


def exact_value(
    p: Playout, seat: int, leaf: Callable[[RoundScore], float], alpha: float, beta: float
) -> float:
    """The value for ``seat`` of ``p`` played to the end with every card known (a sampled
    world): ``seat`` maximizes, the other seat minimizes (2 players), alpha-beta pruned.

    Used for the last few cards of a round, where the tree is small."""
    if p.phase == ENDED:
        score = p.score
        assert score is not None
        return leaf(score)
    maximize = p.to_act == seat
    best = -math.inf if maximize else math.inf
    for card, target in p.moves():
        q = p.copy()
        q.step(card, target)
        v = exact_value(q, seat, leaf, alpha, beta)
        if maximize:
            if v > best:
                best = v
            if best > alpha:
                alpha = best
        else:
            if v < best:
                best = v
            if best < beta:
                beta = best
        if alpha >= beta:
            break
    return best


ROLLOUTS = ("expert", "mixed", "greedy")
"""The rollout policies: all expert, expert then points-now, all points-now."""

_OPTIONS: dict[str, tuple[type, float]] = {
    "ms": (float, 0.0),
    "iters": (int, 1),
    "rollout": (str, 0),
    "depth": (int, 0),
    "width": (int, 1),
    "confidence": (float, 0.0),
    "close": (float, 0.0),
    "slow": (float, 1.0),
    "exact": (int, 0),
    "search": (str, 0),
    "uct": (float, 0.0),
    "infer": (int, 0),
    "tau": (float, 0.0),
    "eps": (float, 0.0),
    "model": (str, 0),
    "grow": (float, 0.0),
}

MODELS = ("expert", "greedy", "fit", "map")
"""The opponent models of ``infer``: one fixed model (the expert's or greedy's values, ``tau``
and ``eps``), or fitted to each opponent (:class:`~roppyakken.ai.infer.ModelFit`) and
weighing worlds by the posterior mixture (``fit``) or the most probable model (``map``)."""

SEARCHES = ("flat", "tree", "ismcts")
"""The searches: flat determinized Monte-Carlo (the default), the flat root with a tree of
the seat's later decisions, plain single-observer ISMCTS (:mod:`roppyakken.ai.ismcts`)."""


class MasterBot:
    """Level ``master``: determinized Monte-Carlo search with expert rollouts (module docstring)."""

    name = "master"

    def __init__(
        self,
        seed: int = 0,
        ms: float | None = DEFAULT_MS,
        iters: int | None = None,
        weights: Weights = DEFAULT_WEIGHTS,
        rollout: str = "expert",
        depth: int = 4,
        width: int = 3,
        confidence: float = 1.0,
        close: float = 5.0,
        slow: float = 3.0,
        exact: int = 0,
        search: str = "flat",
        uct: float = 0.25,
        infer: int = 100,
        tau: float = 0.0,
        eps: float = 0.02,
        model: str = "expert",
        grow: float = 0.0,
    ) -> None:
        if ms is None and iters is None:
            raise RoppyakkenError("a master needs a budget: ms or iters")
        self.rng = random.Random(f"master:{seed}")
        self.ms = ms
        self.iters = iters
        self.weights = weights
        self.expert = ExpertBot(seed, weights)
        self.last_rollouts = 0
        self.rollout = rollout
        self.depth = depth
        self.width = width
        self.confidence = confidence
        self.close = close
        self.slow = slow
        self.exact = exact
        self.search_kind = search
        self.uct = uct
        if not 0.0 <= eps <= 1.0:
            raise RoppyakkenError(f"bot option eps={eps}: expected a share between 0 and 1")
        if model not in MODELS:
            raise RoppyakkenError(f"bot option model: expected {', '.join(MODELS)}, not {model!r}")
        self.infer = infer
        self.model_kind = model
        self.model: OpponentModel | ModelFit
        if model in ("fit", "map"):
            # Fitted per opponent: the fit persists through the game (evidence carried
            # from round to round) and starts afresh with a new one.
            self.model = ModelFit(mode="mix" if model == "fit" else "map")
        else:
            self.model = OpponentModel(tau, eps, weights, policy=model)
        if not grow >= 0.0:
            raise RoppyakkenError(f"bot option grow={grow}: expected a number of draws, 0 or more")
        self.grow = grow
        self._pool: WorldPool | None = None
        self._deadline = math.inf

    @classmethod
    def from_options(cls, seed: int, options: Mapping[str, str]) -> Self:
        """A master from level options (see the module docstring); one-line errors."""
        kwargs: dict[str, Any] = {}
        for key, text in options.items():
            if key not in _OPTIONS:
                known = ", ".join(_OPTIONS)
                raise RoppyakkenError(f"bot level master has no option {key!r} (options: {known})")
            if key in ("rollout", "search", "model"):
                allowed = {"rollout": ROLLOUTS, "search": SEARCHES, "model": MODELS}[key]
                if text not in allowed:
                    raise RoppyakkenError(f"bot option {key}: expected {', '.join(allowed)}, not {text!r}")
                kwargs[key] = text
                continue
            kind, low = _OPTIONS[key]
            try:
                value = kind(text)
            except ValueError:
                value = None
            if value is None or not value >= low or (key in ("ms", "iters") and not value > 0):
                raise RoppyakkenError(f"bot option {key}={text!r}: expected a positive number")
            kwargs[key] = value
        if "iters" in kwargs and "ms" not in kwargs:
            kwargs["ms"] = None
        return cls(seed, **kwargs)

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
        """One world to play out, consistent with ``view``: drawn uniformly, or with
        ``infer`` by how well it explains the opponents' plays (this decision's pool,
        with ``grow`` weighing more worlds into it first when the draws have caught up).

        Benchmarks that measure what hidden information is worth override this to cheat.
        """
        pool = self._pool
        if pool is not None and pool.view is view:
            if self.grow > 0.0 and self.grow * pool.draws >= len(pool.worlds):
                # ``grow``: the pool keeps ``grow`` weighed worlds per world drawn; when the
                # draws catch up, a quarter more are weighed into it (until the decision's
                # deadline), so the hands the rollouts see keep growing with the budget.
                pool.grow(self.rng, max(16, len(pool.worlds) // 4), self._deadline)
            return pool.draw(self.rng)
        return sample_world(view, self.rng)

    def weigh(self, view: SeatView, deadline: float = math.inf) -> None:
        """With ``infer`` (a pool size), weigh this decision's pool of worlds
        (:class:`~roppyakken.ai.infer.WorldPool`, stopping at ``deadline`` once 16 are
        weighed); without it, or without a round record, none."""
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
        depth = {"greedy": 0, "expert": 1 << 30}.get(self.rollout, self.depth)
        exact = self.exact if view.players == 2 else 0

        def leaf(score: RoundScore) -> float:
            return game_value(rules, score, totals, legs, dealer, round_index, seat)

        def finish(p: Playout, left: int) -> None:
            rollout(p, totals, weights, index, left)

        # The expert's appraisal orders the moves: its choice is the default, and only
        # its best few are searched (the rest rarely win and would thin the samples).
        prior = move_values(Position.of_view(view), moves, view.phase == "play", weights)
        ranked = sorted(range(len(moves)), key=lambda i: -prior[i])
        default = ranked[0]
        active = ranked[: self.width]
        # A close call (the expert's two best moves within ``close`` points) gets
        # ``slow`` times the budget; the rest, most decisions, get the plain budget.
        factor = self.slow if prior[ranked[0]] - prior[ranked[1]] < self.close else 1.0
        deadline = start + factor * self.ms / 1000.0 if self.ms is not None else math.inf
        max_rollouts = int(factor * self.iters) if self.iters is not None else 1 << 60
        self._deadline = deadline
        if len(active) > 1:
            # With ``infer``: this decision's weighted worlds, in at most a quarter of the time.
            self.weigh(view, start + (deadline - start) / 4)
        if self.search_kind == "ismcts" and len(active) > 1:
            return self._ismcts(view, moves, active, deadline, max_rollouts, leaf, index, depth, finish)
        trees = {i: Node() for i in active} if self.search_kind == "tree" else None
        width = self.width
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
                if trees is not None:
                    path: list[Node] = []
                    descend(p, trees[i], seat, totals, weights, index, depth, width, self.uct, path, finish)
                    results.append(back_up(p, path, leaf))
                elif rollout(p, totals, weights, index, depth, exact):
                    results.append(exact_value(p, seat, leaf, -math.inf, math.inf))
                else:
                    score = p.score
                    assert score is not None
                    results.append(leaf(score))
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
            if mean <= self.confidence * se:
                return default
        return best

    def _ismcts(
        self,
        view: SeatView,
        moves: Sequence[tuple[int, int]],
        active: list[int],
        deadline: float,
        max_rollouts: int,
        leaf: Callable[[RoundScore], float],
        index: list[list[tuple[int, int]]],
        depth: int,
        finish: Callable[[Playout, int], None],
    ) -> int:
        """Plain SO-ISMCTS (``search=ismcts``): one world and one root candidate an iteration;
        ``finish(p, left)`` plays a playout out once it leaves the tree (the search's rollout)."""
        clock = time.perf_counter
        seat = view.seat
        assert seat is not None
        totals, weights = view.totals, self.weights
        root = Node()
        candidates = [moves[i] for i in active]  # the expert's order: tried first in it
        rollouts = 0
        while rollouts < max_rollouts:
            p = playout_of(view, self.sample(view))
            move = select(root, candidates, self.uct)
            node = root.children[move]
            p.step(*move)
            path = [node]
            if node.n == 0:
                finish(p, depth)
            else:
                descend(p, node, seat, totals, weights, index, depth, self.width, self.uct, path, finish)
            back_up(p, path, leaf)
            rollouts += 1
            if clock() >= deadline:
                break
        self.last_rollouts = rollouts
        default = candidates[0]
        tried = [m for m in candidates if m in root.children and root.children[m].n > 0]
        if not tried:
            return active[0]
        best = max(tried, key=lambda m: (root.children[m].n, root.children[m].mean()))
        if best != default and default in root.children:
            mean, se = unpaired(root.children[best], root.children[default])
            if mean <= self.confidence * se:
                best = default
        return active[candidates.index(best)]


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
    the products of every two, so that a paired test need not go over all the worlds
    again after each one (it did: quadratic in the worlds of a decision)."""

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
