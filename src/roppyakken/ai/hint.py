"""Hints for a player: the expert's choice and the best plays with what each is expected to bring.

A hint is computed from one seat's :class:`~roppyakken.view.SeatView` only — the same
information a bot gets, never the other hands or the order of the pile.  For a card-play
decision (a card from hand, or the target of the turned-up card) every legal move is
appraised by the expert; the best few are then played out to the end of the round in
worlds sampled from what the seat has seen (the master's determinization), every seat
playing as the expert does from its own knowledge, all candidates in the same worlds.
For each candidate the hint reports:

- ``points_now``: the card points this move captures at once (0 when the card is laid
  on the table);
- ``yaku_now``: the yaku this capture completes at once;
- ``expected_score`` / ``expected_margin``: the seat's mean final round score, and its
  mean margin over the mean of the other seats', over the sampled worlds, each with the
  half width of its 95% interval (``score_ci95``, ``margin_ci95``);
- ``yaku_chances``: how often each yaku ends up completed by the seat at the end of the
  round, when this move is played;
- ``risk``: the other seats' mean final round score — what the move leaves them;
- ``win_chance``: the mean chance of winning the game after the round (the master's
  value), which weighs the round's points by the standing.

Hints are reproducible: ``seed`` fixes the sampled worlds.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from roppyakken.actions import Action, Play, Take
from roppyakken.ai.determinize import playout_of, sample_world
from roppyakken.ai.expert import DEFAULT_WEIGHTS, move_values
from roppyakken.ai.master import MasterBot, game_value, rollout
from roppyakken.ai.playout import yaku_index
from roppyakken.ai.position import Position
from roppyakken.ai.stats import Z95
from roppyakken.cards import POINTS, iter_cards
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import N_
from roppyakken.view import SeatView
from roppyakken.yaku import YAKU_SLUGS

DEFAULT_WORLDS = 48
"""Sampled worlds a hint plays each candidate in, by default (about 0.2 s on one core)."""

DEFAULT_CANDIDATES = 3
"""How many of the expert's best moves a hint plays out, by default."""

REVIEW_WORLDS = 24
"""Sampled worlds a round's review plays each decision in (the terminal's, the server's and the
offline table's: a few seconds for a round)."""

REVIEW_TOP = 3
"""Decisions a round's review shows at most."""

REVIEW_MIN_LOSS = 0.01
"""The least chance of winning a reviewed move gave up: a move that cost less costs nothing a
player is shown (it would read "−0%"), so a review leaves it out."""

REVIEW_ITERS = 150
"""The rollouts a decision of the master that a round review asks (``master:iters=150``): a
fixed number, not the default time budget, so that a review is the same on any machine."""


@dataclass(frozen=True, slots=True)
class MoveHint:
    """What one candidate move is expected to bring (see the module docstring)."""

    action: Action
    card: int
    target: int
    expert_choice: bool
    points_now: int
    yaku_now: tuple[str, ...]
    expected_score: float
    score_ci95: float
    """Half the width of the 95% interval of ``expected_score`` (what a player is shown beside it)."""
    expected_margin: float
    margin_ci95: float
    """Half the width of the 95% interval of ``expected_margin``."""
    risk: float
    win_chance: float
    yaku_chances: tuple[tuple[str, float], ...]
    """``(slug, chance)`` for every yaku the seat completes in at least 5% of the worlds, best first."""


@dataclass(frozen=True, slots=True)
class Hint:
    """A hint for one decision: the candidates, best first, and how it was computed."""

    seat: int
    moves: tuple[MoveHint, ...]
    worlds: int

    @property
    def expert(self) -> MoveHint:
        """The candidate the expert would play."""
        return next(m for m in self.moves if m.expert_choice)


def _decision_moves(view: SeatView) -> list[tuple[Action, int, int]]:
    """The card-play decisions of ``view`` as ``(action, card, target)``."""
    out: list[tuple[Action, int, int]] = []
    for a in view.legal:
        if isinstance(a, Play):
            out.append((a, a.card, a.target))
        elif isinstance(a, Take):
            out.append((a, view.turned, a.target))
    return out


def _yaku_now(view: SeatView, seat: int, card: int, target: int) -> tuple[str, ...]:
    """The yaku that capturing ``card`` with ``target`` completes at once for ``seat``."""
    if not target:
        return ()
    table = view.rules.table
    before = {slug for slug, _ in table.evaluate(view.captures[seat], view.capture_orders[seat])}
    captured = view.captures[seat] | (1 << card) | target
    order = (*view.capture_orders[seat], card, *iter_cards(target))
    after = [slug for slug, _ in table.evaluate(captured, order)]
    return tuple(slug for slug in after if slug not in before)


def hint(
    view: SeatView,
    *,
    worlds: int = DEFAULT_WORLDS,
    candidates: int = DEFAULT_CANDIDATES,
    seed: int = 0,
    include: Action | Sequence[Action] | None = None,
) -> Hint:
    """The hint for ``view``'s card-play decision (see the module docstring).

    ``include`` is a legal action (or several) to play out beside the best candidates (the
    move a player made and the master's, for :func:`review`).

    Raises :class:`~roppyakken.errors.RoppyakkenError` when the seat has no card to
    play or take now (a spectator, someone else's turn, a declaration or a redeal call).
    """
    seat = view.seat
    if seat is None:
        raise RoppyakkenError(N_("a spectator has no move to hint"))
    decisions = _decision_moves(view)
    if not decisions:
        raise RoppyakkenError(N_("there is no card to play or take now"))
    if worlds < 1 or candidates < 1:
        raise RoppyakkenError("a hint needs at least one world and one candidate")
    rules = view.rules
    moves = [(card, target) for _, card, target in decisions]
    from_hand = any(isinstance(a, Play) for a, _, _ in decisions)
    prior = move_values(Position.of_view(view), moves, from_hand, DEFAULT_WEIGHTS)
    ranked = sorted(range(len(moves)), key=lambda i: -prior[i])
    chosen = ranked[:candidates]
    extras = [] if include is None else list(include) if isinstance(include, Sequence) else [include]
    for wanted in extras:
        extra = next((i for i, (a, _, _) in enumerate(decisions) if a == wanted), None)
        if extra is None:
            raise RoppyakkenError(f"{wanted} is not a legal move here")
        if extra not in chosen:
            chosen.append(extra)
    rng = random.Random(f"hint:{seed}")
    index = yaku_index(rules)
    n = view.players
    scores: dict[int, list[float]] = {i: [] for i in chosen}
    margins: dict[int, list[float]] = {i: [] for i in chosen}
    others: dict[int, list[float]] = {i: [] for i in chosen}
    values: dict[int, list[float]] = {i: [] for i in chosen}
    yaku_counts: dict[int, dict[str, int]] = {i: {} for i in chosen}
    for _ in range(worlds):
        base = playout_of(view, sample_world(view, rng))
        for i in chosen:  # every candidate in the same worlds: the comparison is paired
            p = base.copy()
            p.step(*moves[i])
            rollout(p, view.totals, DEFAULT_WEIGHTS, index, 1 << 30)
            score = p.score
            assert score is not None
            finals = [pl.final for pl in score.players]
            rest = (sum(finals) - finals[seat]) / (n - 1)
            scores[i].append(finals[seat])
            others[i].append(rest)
            margins[i].append(finals[seat] - rest)
            values[i].append(game_value(rules, score, view.totals, view.legs, view.dealer, view.round, seat))
            counts = yaku_counts[i]
            for slug, _ in score.players[seat].yaku:
                counts[slug] = counts.get(slug, 0) + 1
    out: list[MoveHint] = []
    for i in chosen:
        action, card, target = decisions[i]
        chances = sorted(
            ((slug, count / worlds) for slug, count in yaku_counts[i].items() if count / worlds >= 0.05),
            key=lambda item: (-item[1], YAKU_SLUGS.index(item[0]) if item[0] in YAKU_SLUGS else 99),
        )
        out.append(
            MoveHint(
                action=action,
                card=card,
                target=target,
                expert_choice=i == ranked[0],
                points_now=(POINTS[card] + sum(POINTS[c] for c in iter_cards(target))) if target else 0,
                yaku_now=_yaku_now(view, seat, card, target),
                expected_score=_mean(scores[i]),
                score_ci95=_half_width(scores[i]),
                expected_margin=_mean(margins[i]),
                margin_ci95=_half_width(margins[i]),
                risk=_mean(others[i]),
                win_chance=_mean(values[i]),
                yaku_chances=tuple(chances),
            )
        )
    # Best first by the chance of winning the game, then by the round's margin.
    out.sort(key=lambda m: (-m.win_chance, -m.expected_margin))
    return Hint(seat, tuple(out), worlds)


@dataclass(frozen=True, slots=True)
class Review:
    """One decision looked at again: what was played, and what the master plays there."""

    view: SeatView
    played: MoveHint
    best: MoveHint
    index: int
    """Where this decision is in the ``decisions`` given to :func:`review` (from 0)."""
    loss: float
    """The chance of winning the game that ``played`` gave up against ``best`` (at least
    :data:`REVIEW_MIN_LOSS`)."""
    margin_loss: float
    """The round's expected points margin that ``played`` gave up against ``best``."""


def review(
    decisions: Sequence[tuple[SeatView, Action]],
    *,
    top: int = REVIEW_TOP,
    worlds: int = DEFAULT_WORLDS,
    seed: int = 0,
) -> list[Review]:
    """The ``top`` decisions of a round where the move played lost the most against the
    master's, worst first.

    ``decisions`` are the seat's card-play decisions as it saw them (its view, never the
    hidden cards) with the action it chose.  At each, the master (``master:iters=``
    :data:`REVIEW_ITERS`) chooses from the same view; where it plays otherwise, both moves
    are played out in the same sampled worlds as a hint's candidates are.  A decision
    where the player did as the master, or where the master's move does not come out
    better by at least :data:`REVIEW_MIN_LOSS` of the chance to win, is left out.
    """
    out: list[Review] = []
    for k, (view, action) in enumerate(decisions):
        if len(_decision_moves(view)) < 2:
            continue
        masters = MasterBot(seed * 1009 + k, ms=None, iters=REVIEW_ITERS).choose(view)
        if masters == action:
            continue
        h = hint(view, worlds=worlds, seed=seed * 1009 + k, include=(action, masters))
        played = next(m for m in h.moves if m.action == action)
        best = next(m for m in h.moves if m.action == masters)
        loss = best.win_chance - played.win_chance
        if loss < REVIEW_MIN_LOSS:
            continue
        out.append(Review(view, played, best, k, loss, best.expected_margin - played.expected_margin))
    out.sort(key=lambda r: -r.loss)
    return out[:top]


def _mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else 0.0


def _half_width(values: Sequence[float]) -> float:
    """Half the width of the normal 95% interval of the mean of ``values``."""
    m = len(values)
    if m < 2:
        return math.inf
    mean = _mean(values)
    var = sum((v - mean) ** 2 for v in values) / (m - 1)
    return Z95 * math.sqrt(var / m)
