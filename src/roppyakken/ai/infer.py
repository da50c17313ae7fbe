"""Weighted worlds: the hidden cards drawn by how well they explain the opponents' plays.

:func:`roppyakken.infoset.sample_world` draws the cards a seat cannot see uniformly,
ignoring everything the opponents did.  But a player who had a capture and discarded
instead, or took one card and left another, tells something about its hand.  Here each
candidate world is replayed from the round's start (:func:`round_start`, from the
view's public :class:`~roppyakken.view.RoundRecord`), and at each of the opponents' past
card-play decisions the probability of what they actually played is taken under a model
of them (:class:`OpponentModel`): the ``expert``'s values of the moves
(:func:`~roppyakken.ai.expert.move_values`, from that seat's own knowledge in that
world) as a softmax of temperature ``tau`` points, mixed with the uniform choice
(``eps``) so that no world is ever ruled out by a player who is not the expert.  With
``declare = choose`` the lucky hands each opponent declared (or kept hidden) are one
more such decision (:meth:`OpponentModel.declare_log_prob`).

A world's weight depends only on the opponents' hands (their past decisions never saw
the pile), so :class:`WorldPool` weighs a pool of hand assignments once per decision
and then draws worlds from it by weight, each with a freshly shuffled pile.
Everything here reads the seat's view and nothing else.
"""

from __future__ import annotations

import math
import random
import time
from bisect import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import accumulate

from roppyakken.actions import PLAY, TAKE
from roppyakken.ai.expert import DEFAULT_WEIGHTS, Weights, declare_choice, move_values
from roppyakken.ai.greedy import move_values as greedy_move_values
from roppyakken.ai.playout import Playout
from roppyakken.ai.position import Position
from roppyakken.cards import iter_cards
from roppyakken.infoset import World, sample_world
from roppyakken.rules import Rules
from roppyakken.view import SeatView
from roppyakken.yaku import LuckyHand, lucky_hands_held

POLICIES = ("expert", "greedy", "uniform")
"""The move values a model can read: the ``expert``'s appraisal, ``greedy``'s points now
(exactly :class:`~roppyakken.ai.greedy.GreedyBot`'s values), or none (every move alike)."""


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """How likely an opponent's move is: a policy's values as a softmax, ε-mixed with uniform.

    ``tau`` is the softmax temperature in points (small: the opponent plays the policy's
    choice, ties shared; large: any move), ``eps`` the share of uniformly random play,
    ``policy`` whose values (:data:`POLICIES`; the ``expert``'s by default).
    """

    tau: float = 10.0
    eps: float = 0.1
    weights: Weights = DEFAULT_WEIGHTS
    policy: str = "expert"

    def log_prob(
        self, p: Playout, moves: list[tuple[int, int]], move: tuple[int, int], totals: Sequence[int]
    ) -> float:
        """The log-probability that the seat to act in ``p`` plays ``move`` (one of ``moves``),
        judged from that seat's knowledge in ``p`` (``totals``: the game's, for the round)."""
        return decision_log_probs(p, moves, move, totals, (self,))[0]

    def declare_log_prob(self, held: Sequence[LuckyHand], declared: Sequence[str]) -> float:
        """The log-probability that a seat holding the lucky hands ``held`` declared the
        ones ``declared`` (R-4.1 ``choose``: any subset may be declared), ε-mixed with a
        uniform choice of subset: the expert declares as :func:`declare_choice` does,
        ``greedy`` every one, the uniform model any subset alike."""
        subsets = 1 << len(held)
        if self.policy == "uniform":
            return -math.log(subsets)
        if self.policy == "greedy":
            choice = {h.slug for h in held}
        else:
            choice = set(declare_choice([(h.slug, h.points, h.cards) for h in held], self.weights))
        soft = 1.0 if choice == set(declared) else 0.0
        prob = (1.0 - self.eps) * soft + self.eps / subsets
        return math.log(prob) if prob > 0 else -math.inf

    def prob_of(self, values: Sequence[float], k: int) -> float:
        """The probability of the ``k``-th move given the moves' ``values`` under this policy."""
        n = len(values)
        top = max(values)
        if self.tau > 0:
            exps = [math.exp((v - top) / self.tau) for v in values]
            soft = exps[k] / sum(exps)
        else:
            best = [i for i, v in enumerate(values) if v >= top - 1e-9]
            soft = 1.0 / len(best) if k in best else 0.0
        return (1.0 - self.eps) * soft + self.eps / n


def greedy_values(p: Playout, moves: Sequence[tuple[int, int]]) -> list[float]:
    """:class:`~roppyakken.ai.greedy.GreedyBot`'s values of ``moves`` for the seat to act in
    ``p``, from that seat's knowledge there (:func:`roppyakken.ai.greedy.move_values`)."""
    seat = p.to_act
    unseen = Position.of_playout(p, seat, [0] * p.players).unseen
    return greedy_move_values(p.rules, p.captures[seat], list(p.orders[seat]), unseen, moves)


def decision_log_probs(
    p: Playout,
    moves: list[tuple[int, int]],
    move: tuple[int, int],
    totals: Sequence[int],
    models: Sequence[OpponentModel],
) -> list[float]:
    """For each of ``models``, the log-probability that the seat to act in ``p`` plays
    ``move``; each policy's values are computed once for all the models reading them."""
    n = len(moves)
    if n <= 1:
        return [0.0] * len(models)
    try:
        k = moves.index(move)
    except ValueError:
        return [-math.inf] * len(models)  # not even legal in this world (cannot happen for a consistent one)
    values: dict[tuple[str, Weights], list[float]] = {}
    out = []
    for model in models:
        if model.policy == "uniform":
            out.append(-math.log(n))
            continue
        key = (model.policy, model.weights)
        vals = values.get(key)
        if vals is None:
            if model.policy == "greedy":
                vals = greedy_values(p, moves)
            else:
                pos = Position.of_playout(p, p.to_act, totals)
                vals = move_values(pos, moves, p.phase == PLAY, model.weights)
            values[key] = vals
        prob = model.prob_of(vals, k)
        out.append(math.log(prob) if prob > 0 else -math.inf)
    return out


def round_start(view: SeatView, world: World) -> Playout:
    """The round of ``world`` at the start of its card play, rebuilt from the view's record.

    Each hand held its cards in ``world`` and those its seat played from hand; the
    pile's top held the cards turned up so far, in order (and the card turned up now);
    the table and captures are the dealt table less a dealer's four (R-3.3).
    """
    record = view.record
    if record is None:
        raise ValueError("the view carries no round record to replay")
    n = view.players
    played = [0] * n
    taken = [0] * n
    taken_count = [0] * n
    turned_up: list[int] = []
    for seat, source, card, target in record.plays:
        if source == "hand":
            played[seat] |= 1 << card
        else:
            turned_up.append(card)
        if target:
            taken[seat] |= (1 << card) | target
            taken_count[seat] += 1 + target.bit_count()
    captures = [view.captures[s] & ~taken[s] for s in range(n)]
    orders = [view.capture_orders[s][: len(view.capture_orders[s]) - taken_count[s]] for s in range(n)]
    start_taken = 0
    for c in captures:
        start_taken |= c
    table = record.table & ~start_taken
    hands = [world.hands[s] | played[s] for s in range(n)]
    pile = turned_up + ([view.turned] if view.turned >= 0 else []) + list(world.pile)
    return Playout(
        view.rules, hands, table, pile, captures, orders, view.declared, record.revealed, view.dealer, PLAY
    )


def declarations_weigh(rules: Rules) -> bool:
    """Whether the opponents' lucky-hand declarations say something a model can weigh: they
    were a choice (``declare = choose``, R-4.1) and the rules have lucky hands to declare."""
    return rules.declare == "choose" and bool(rules.lucky_hands)


def log_likelihood(view: SeatView, world: World, model: OpponentModel) -> float:
    """The log-probability of the opponents' past card-play decisions in ``world`` under ``model``.

    The round is replayed from its start (:func:`round_start`); each opponent decision
    with a choice (a card from hand, or the target of a turned-up card) adds the log of
    the model's probability of what was actually played.  The seat's own decisions and
    forced moves add nothing.
    """
    return sum(row[0] for row in seat_log_likelihoods(view, world, (model,)))


def seat_log_likelihoods(view: SeatView, world: World, models: Sequence[OpponentModel]) -> list[list[float]]:
    """Per seat and per model, the log-probability of that seat's past decisions (its card
    plays and, with ``declare = choose``, its declarations) in ``world``
    (:func:`log_likelihood` split by seat, every model in one replay; the view's own seat
    gets zeros)."""
    n_models = len(models)
    out = [[0.0] * n_models for _ in range(view.players)]
    record = view.record
    if record is None:
        return out
    me = view.seat
    p = round_start(view, world)
    if declarations_weigh(view.rules):
        # The declarations were decisions too: a seat whose dealt hand (its hand at
        # the round's start) held a lucky hand chose which to declare (with ``auto`` the
        # sampler already rules out the worlds that disagree with what was declared).
        for seat, hand in enumerate(p.hands):
            if seat != me:
                held = lucky_hands_held(view.rules, hand)
                if held:
                    row = out[seat]
                    for j, model in enumerate(models):
                        row[j] += model.declare_log_prob(held, view.declared[seat])
    totals = view.totals
    for seat, source, card, target in record.plays:
        if source == "hand" or p.phase == TAKE:
            if p.to_act != seat or (source == "hand") != (p.phase == PLAY):
                raise ValueError("the round record does not replay in this world")
            if seat != me:
                moves = p.moves()
                if len(moves) > 1:
                    row = out[seat]
                    for j, lp in enumerate(decision_log_probs(p, moves, (card, target), totals, models)):
                        row[j] += lp
            p.step(card, target)
        # else: a turned-up card with one way to go, already played by the step before
    return out


def _log_mean_exp(values: Sequence[float]) -> float:
    top = max(values)
    if top == -math.inf:
        return -math.inf
    return top + math.log(sum(math.exp(v - top) for v in values) / len(values))


CANDIDATES = (
    OpponentModel(0.0, 0.02),
    OpponentModel(0.0, 0.02, policy="greedy"),
    OpponentModel(5.0, 0.1),
    OpponentModel(0.0, 1.0, policy="uniform"),
)
"""The models :class:`ModelFit` chooses among: the expert's choice, greedy's choice, a softer
expert (``tau`` 5 points, ``eps`` 0.1) and uniform play."""


class ModelFit:
    """The opponent model fitted to each opponent from its own plays, carried across a game.

    For each opponent seat, the evidence for each candidate model (:data:`CANDIDATES`) is
    the marginal likelihood of that seat's observed decisions: the mean over a weighed
    pool of each world's likelihood (:meth:`observe`).  A round's latest evidence is
    added to the seat's total when the next round of the same game starts; a new game
    (its leg and round before the last, another seat or player count) starts afresh (a
    new game at the same first round has nothing carried yet either).
    ``mode`` ``"mix"`` weighs a world by the posterior mixture of the models (Bayesian
    model averaging, the candidates equally likely a priori), ``"map"`` by the most
    probable model alone.  Everything here reads the seat's views, nothing else.
    """

    def __init__(self, models: Sequence[OpponentModel] = CANDIDATES, mode: str = "mix") -> None:
        if mode not in ("mix", "map"):
            raise ValueError(f"model fit mode {mode!r}: expected mix or map")
        self.models = tuple(models)
        self.mode = mode
        self._game: tuple[int, int | None] | None = None
        self._round: tuple[int, int, int] = (-1, -1, -1)
        self._carried: list[list[float]] = []
        self._latest: list[list[float]] = []

    def _follow(self, view: SeatView) -> None:
        """Bring the carried evidence to ``view``'s round (a new round adds the last one's)."""
        record = view.record
        table = record.table if record is not None else -1
        game = (view.players, view.seat)
        now = (view.leg, view.round, table)
        zeros = [[0.0] * len(self.models) for _ in range(view.players)]
        if game != self._game or now[:2] < self._round[:2]:
            self._game = game
            self._carried = [row[:] for row in zeros]
            self._latest = zeros
        elif now[:2] > self._round[:2]:
            for total, latest in zip(self._carried, self._latest, strict=True):
                for j, v in enumerate(latest):
                    total[j] += v
            self._latest = zeros
        elif now[2] != self._round[2]:
            self._latest = zeros  # dealt again (a redeal: no plays yet), or a new game's first round
        self._round = now

    def log_evidence(self, seat: int) -> list[float]:
        """The log evidence for each model from ``seat``'s plays so far (this round's latest
        included)."""
        return [c + x for c, x in zip(self._carried[seat], self._latest[seat], strict=True)]

    def posterior(self, seat: int) -> list[float]:
        """The probability of each model for ``seat`` (uniform prior)."""
        logs = self.log_evidence(seat)
        top = max(logs)
        exps = [math.exp(v - top) for v in logs]
        total = sum(exps)
        return [e / total for e in exps]

    def observe(self, view: SeatView, logs: Sequence[list[list[float]]]) -> list[float]:
        """Take a pool's per-world, per-seat, per-model log-likelihoods (of ``view``'s round)
        as this round's evidence, and return each world's log weight."""
        self._follow(view)
        me = view.seat
        seats = [s for s in range(view.players) if s != me]
        for s in seats:
            self._latest[s] = [_log_mean_exp([w[s][j] for w in logs]) for j in range(len(self.models))]
        out = [0.0] * len(logs)
        for s in seats:
            if self.mode == "map":
                evidence = self.log_evidence(s)
                best = max(range(len(self.models)), key=lambda j: evidence[j])
                for i, w in enumerate(logs):
                    out[i] += w[s][best]
                continue
            prior = [math.log(x) if x > 0 else -math.inf for x in self._prior(s)]
            for i, w in enumerate(logs):
                out[i] += _log_sum_exp([a + b for a, b in zip(prior, w[s], strict=True)])
        return out

    def _prior(self, seat: int) -> list[float]:
        """The models' probabilities for ``seat`` from the game's earlier rounds only."""
        logs = self._carried[seat]
        top = max(logs)
        exps = [math.exp(v - top) for v in logs]
        total = sum(exps)
        return [e / total for e in exps]


def _log_sum_exp(values: Sequence[float]) -> float:
    top = max(values)
    if top == -math.inf:
        return -math.inf
    return top + math.log(sum(math.exp(v - top) for v in values))


class WorldPool:
    """Worlds drawn by weight: ``size`` hand assignments weighed, then resampled.

    With a ``deadline`` (a :func:`time.perf_counter` time) weighing stops there, once
    ``least`` worlds are weighed.

    With a :class:`ModelFit` for ``model``, each world is replayed once under all its
    candidates, the fit takes the pool's evidence, and the worlds get its weights.

    Each draw picks an assignment of the hidden hand cards with probability proportional
    to its likelihood (:func:`log_likelihood`) and shuffles the rest into a new pile.
    :meth:`grow` weighs more assignments into the pool (the master's ``grow``: a pool that
    grows with the draws made from it, so that a larger budget sees more hands).
    """

    def __init__(
        self,
        view: SeatView,
        rng: random.Random,
        size: int,
        model: OpponentModel | ModelFit,
        deadline: float = math.inf,
        least: int = 16,
    ) -> None:
        self.view = view
        self.model = model
        self.worlds: list[World] = []
        self.draws = 0
        """How many worlds :meth:`draw` has given."""
        self._logs: list[float] = []
        self._per_seat: list[list[list[float]]] = []
        self.weights: list[float] = []
        self.cumulative: list[float] = []
        self._ess = 0.0
        self.grow(rng, size, deadline, least)

    def grow(self, rng: random.Random, count: int, deadline: float = math.inf, least: int = 0) -> int:
        """Weigh up to ``count`` more assignments into the pool (stopping at ``deadline``
        once ``least`` are weighed) and return how many were; the weights of the pool are
        those of all its worlds together (with a :class:`ModelFit`, its evidence too)."""
        model = self.model
        view = self.view
        clock = time.perf_counter
        added = 0
        for k in range(count):
            if k >= least and clock() >= deadline:
                break  # out of the time given to weighing: the pool is what was weighed
            w = sample_world(view, rng)
            self.worlds.append(w)
            if isinstance(model, ModelFit):
                self._per_seat.append(seat_log_likelihoods(view, w, model.models))
            else:
                self._logs.append(log_likelihood(view, w, model))
            added += 1
        if added == 0 and self.weights:
            return 0
        logs = model.observe(view, self._per_seat) if isinstance(model, ModelFit) else self._logs
        top = max(logs)
        if top == -math.inf:  # no world explains the plays (a model with eps 0): uniform
            logs = [0.0] * len(logs)
            top = 0.0
        self.weights = [math.exp(v - top) for v in logs]
        self.cumulative = list(accumulate(self.weights))
        total = self.cumulative[-1]
        self._ess = total * total / sum(w * w for w in self.weights)
        return added

    @property
    def effective_size(self) -> float:
        """The pool's effective sample size, (Σw)² / Σw² (its size if the weights are equal)."""
        return self._ess

    def card_probability(self, seat: int) -> dict[int, float]:
        """For each unseen card, the weighted chance that ``seat`` holds it (a diagnostic)."""
        out = dict.fromkeys(iter_cards(self.view.unseen), 0.0)
        total = self.cumulative[-1]
        for w, weight in zip(self.worlds, self.weights, strict=True):
            for c in iter_cards(w.hands[seat] & self.view.unseen):
                out[c] += weight / total
        return out

    def draw(self, rng: random.Random) -> World:
        """One world: an assignment drawn by weight, the pile shuffled afresh."""
        k = bisect(self.cumulative, rng.random() * self.cumulative[-1])
        k = min(k, len(self.worlds) - 1)
        world = self.worlds[k]
        self.draws += 1
        pile = list(world.pile)
        rng.shuffle(pile)
        return World(world.hands, tuple(pile))


__all__ = [
    "CANDIDATES",
    "POLICIES",
    "ModelFit",
    "OpponentModel",
    "WorldPool",
    "decision_log_probs",
    "declarations_weigh",
    "greedy_values",
    "log_likelihood",
    "round_start",
    "seat_log_likelihoods",
]
