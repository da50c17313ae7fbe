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
from roppyakken.ai.playout import Playout
from roppyakken.ai.position import Position
from roppyakken.cards import iter_cards
from roppyakken.infoset import World, sample_world
from roppyakken.rules import Rules
from roppyakken.view import SeatView
from roppyakken.yaku import LuckyHand, lucky_hands_held


@dataclass(frozen=True, slots=True)
class OpponentModel:
    """How likely an opponent's move is: the expert's values as a softmax, ε-mixed with uniform.

    ``tau`` is the softmax temperature in points (0: the expert's choice, ties shared; large:
    any move), ``eps`` the share of uniformly random play (1: every move alike).
    """

    tau: float = 10.0
    eps: float = 0.1
    weights: Weights = DEFAULT_WEIGHTS

    def log_prob(
        self, p: Playout, moves: list[tuple[int, int]], move: tuple[int, int], totals: Sequence[int]
    ) -> float:
        """The log-probability that the seat to act in ``p`` plays ``move`` (one of ``moves``),
        judged from that seat's knowledge in ``p`` (``totals``: the game's, for the round)."""
        n = len(moves)
        if n <= 1:
            return 0.0
        try:
            k = moves.index(move)
        except ValueError:
            return -math.inf  # not even legal in this world (cannot happen for a consistent one)
        pos = Position.of_playout(p, p.to_act, totals)
        prob = self.prob_of(move_values(pos, moves, p.phase == PLAY, self.weights), k)
        return math.log(prob) if prob > 0 else -math.inf

    def declare_log_prob(self, held: Sequence[LuckyHand], declared: Sequence[str]) -> float:
        """The log-probability that a seat holding the lucky hands ``held`` declared the
        ones ``declared`` (R-4.1 ``choose``: any subset may be declared): the expert's
        choice (:func:`declare_choice`), ε-mixed with a uniform choice of subset."""
        subsets = 1 << len(held)
        choice = set(declare_choice([(h.slug, h.points, h.cards) for h in held], self.weights))
        soft = 1.0 if choice == set(declared) else 0.0
        prob = (1.0 - self.eps) * soft + self.eps / subsets
        return math.log(prob) if prob > 0 else -math.inf

    def prob_of(self, values: Sequence[float], k: int) -> float:
        """The probability of the ``k``-th move given the moves' ``values``."""
        n = len(values)
        top = max(values)
        if self.tau > 0:
            exps = [math.exp((v - top) / self.tau) for v in values]
            soft = exps[k] / sum(exps)
        else:
            best = [i for i, v in enumerate(values) if v >= top - 1e-9]
            soft = 1.0 / len(best) if k in best else 0.0
        return (1.0 - self.eps) * soft + self.eps / n


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
    """The log-probability of the opponents' past decisions in ``world`` under ``model``.

    The round is replayed from its start (:func:`round_start`); each opponent decision
    with a choice (a card from hand, or the target of a turned-up card) adds the log of
    the model's probability of what was actually played.  The seat's own decisions and
    forced moves add nothing.
    """
    return sum(seat_log_likelihoods(view, world, model))


def seat_log_likelihoods(view: SeatView, world: World, model: OpponentModel) -> list[float]:
    """Per seat, the log-probability of that seat's past decisions (its card plays and, with
    ``declare = choose``, its declarations) in ``world`` (:func:`log_likelihood` split by
    seat; the view's own seat gets 0)."""
    out = [0.0] * view.players
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
                    out[seat] += model.declare_log_prob(held, view.declared[seat])
    totals = view.totals
    for seat, source, card, target in record.plays:
        if source == "hand" or p.phase == TAKE:
            if p.to_act != seat or (source == "hand") != (p.phase == PLAY):
                raise ValueError("the round record does not replay in this world")
            if seat != me:
                moves = p.moves()
                if len(moves) > 1:
                    out[seat] += model.log_prob(p, moves, (card, target), totals)
            p.step(card, target)
        # else: a turned-up card with one way to go, already played by the step before
    return out


class WorldPool:
    """Worlds drawn by weight: ``size`` hand assignments weighed, then resampled.

    With a ``deadline`` (a :func:`time.perf_counter` time) weighing stops there, once
    ``least`` worlds are weighed.  Each draw picks an assignment of the hidden hand cards
    with probability proportional to its likelihood (:func:`log_likelihood`) and shuffles
    the rest into a new pile.
    """

    def __init__(
        self,
        view: SeatView,
        rng: random.Random,
        size: int,
        model: OpponentModel,
        deadline: float = math.inf,
        least: int = 16,
    ) -> None:
        self.view = view
        self.model = model
        self.worlds: list[World] = []
        logs: list[float] = []
        clock = time.perf_counter
        for k in range(size):
            if k >= least and clock() >= deadline:
                break  # out of the time given to weighing: the pool is what was weighed
            w = sample_world(view, rng)
            self.worlds.append(w)
            logs.append(log_likelihood(view, w, model))
        top = max(logs)
        if top == -math.inf:  # no world explains the plays (a model with eps 0): uniform
            logs = [0.0] * len(logs)
            top = 0.0
        self.weights = [math.exp(v - top) for v in logs]
        self.cumulative = list(accumulate(self.weights))
        total = self.cumulative[-1]
        self._ess = total * total / sum(w * w for w in self.weights)

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
        pile = list(world.pile)
        rng.shuffle(pile)
        return World(world.hands, tuple(pile))


__all__ = [
    "OpponentModel",
    "WorldPool",
    "declarations_weigh",
    "log_likelihood",
    "round_start",
    "seat_log_likelihoods",
]
