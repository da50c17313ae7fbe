"""R-9, end of game: who wins a leg or the game after a scored round.

Pure functions of the rules, the round's score and the totals, so that the engine
(:class:`roppyakken.engine.Game`) and the searchers (:func:`round_result`) decide the
end of a game in one place: :func:`round_outcome`.  Who won and why is an
:class:`~roppyakken.outcome.Outcome` (a seat and a :class:`~roppyakken.outcome.Termination`).
"""

from __future__ import annotations

from collections.abc import Sequence

from roppyakken.compiled import swap_in
from roppyakken.outcome import Outcome, Termination
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore, ScoreParts, ScoringOptions, parts_of, scoring_options
from roppyakken.yaku import INSTANT_YAKU


def leg_winner(rules: Rules, score: RoundScore, totals: Sequence[int], dealer: int) -> Outcome | None:
    """R-8.5 / R-9.1 / R-9.2: who wins after this round, if anyone, and why.

    ``totals`` already include the round; ``dealer`` is this round's dealer.
    """
    return _leg_winner(scoring_options(rules), score, list(totals), dealer)


def _leg_winner(
    options: ScoringOptions, score: ScoreParts | RoundScore, totals: list[int], dealer: int
) -> Outcome | None:
    # (``totals`` a list: compiled, indexed natively, not through ``Sequence.__getitem__``;
    # ``score`` the engine's parts or a public score, read without converting either)
    # (a named tuple's fields by index: compiled, no attribute lookup)
    instant_win = score.instant_win if isinstance(score, ScoreParts) else score[2]
    if instant_win is not None:
        seat, slug = instant_win
        return Outcome(seat, Termination.INSTANT, slug)
    n = len(totals)
    target = options.target
    reached = 0
    for s in range(n):  # the common case, nobody reached the target: no list built
        if totals[s] >= target:
            reached += 1
    if not reached:
        return None
    if reached > 1:
        for slug in INSTANT_YAKU:
            for s in range(n):
                if totals[s] >= target and any(y == slug for y, _ in _yaku_of(score, s)):
                    return Outcome(s, Termination.TARGET_YAKU, slug)
    # The top total (the lowest seat among equals) and the best of the others, by native loops
    # (compiled, ``max()`` is a builtin looked up and called with an iterator).
    top = 0
    for s in range(1, n):
        if totals[s] > totals[top]:
            top = s
    best = totals[top]
    second = totals[1] if top == 0 else totals[0]
    for s in range(n):
        if s != top and totals[s] > second:
            second = totals[s]
    if second == best:  # tied at the top
        if not options.top_tie_play_order or options.win_margin > 0:
            return None
        tied = [s for s in range(n) if totals[s] == best]
        return Outcome(first_in_play_order(tied, dealer, n), Termination.TIE_PLAY_ORDER)
    if best - second < options.win_margin:
        return None
    return Outcome(top, Termination.TARGET)


def _yaku_of(score: ScoreParts | RoundScore, seat: int) -> Sequence[tuple[str, int]]:
    """The yaku ``seat`` completed in ``score`` (parts or public)."""
    if isinstance(score, ScoreParts):
        yaku: Sequence[tuple[str, int]] = score.seats[seat].yaku
        return yaku
    return score[0][seat][1]


class RoundOutcome:
    """What a scored round decides (R-9): a leg won, the game won, the legs after it.

    A plain class with its own ``__init__`` (a dataclass's is generated at run time, so
    interpreted even when this module is compiled: a third of the end of a playout).
    """

    __slots__ = ("leg", "legs", "winner")

    leg: Outcome | None
    """Who won a leg (the game, in a single match) with this round, and why."""
    winner: Outcome | None
    """Who won the game (match) with this round, and why."""
    legs: list[int]
    """The legs won after this round (unchanged in a single match)."""

    def __init__(self, leg: Outcome | None, winner: Outcome | None, legs: list[int]) -> None:
        self.leg = leg
        self.winner = winner
        self.legs = legs

    def __eq__(self, other: object) -> bool:
        """Equal when every field is."""
        if not isinstance(other, RoundOutcome):
            return NotImplemented
        return (self.leg, self.winner, self.legs) == (other.leg, other.winner, other.legs)

    def __repr__(self) -> str:
        """As a dataclass shows itself."""
        return f"RoundOutcome(leg={self.leg!r}, winner={self.winner!r}, legs={self.legs!r})"

    def __reduce__(self) -> tuple[type[RoundOutcome], tuple[object, ...]]:
        """Copy and pickle by value (the compiled class cannot be restored field by field)."""
        return RoundOutcome, (self.leg, self.winner, self.legs)


def round_outcome(
    rules: Rules, score: RoundScore, totals: Sequence[int], legs: Sequence[int], dealer: int, round_index: int
) -> RoundOutcome:
    """R-9: the leg and game won after a scored round, if any.

    ``totals`` already include the round; ``dealer`` and ``round_index`` are this round's.
    """
    return outcome_with(scoring_options(rules), score, list(totals), list(legs), dealer, round_index)


def outcome_with(
    options: ScoringOptions,
    score: ScoreParts | RoundScore,
    totals: list[int],
    legs: list[int],
    dealer: int,
    round_index: int,
) -> RoundOutcome:
    """:func:`round_outcome` under the rules' ``options`` (:func:`~roppyakken.scoring.scoring_options`);
    ``score`` the engine's :class:`~roppyakken.scoring.ScoreParts` or a public
    :class:`~roppyakken.scoring.RoundScore`; ``totals`` and ``legs`` are read, not changed (lists:
    compiled, indexed natively); the outcome's ``legs`` is ``legs`` itself unless a leg is won
    in a match of legs (then a new list)."""
    won = _leg_winner(options, score, totals, dealer)
    new_legs = legs
    kind = options.match_kind
    winner: Outcome | None = None
    if won is not None:
        seat = won.winner
        if kind == "single":
            return RoundOutcome(won, won, new_legs)
        new_legs = list(legs)
        new_legs[seat] += 1
        if kind == "first-to" and new_legs[seat] >= options.match_count:
            return RoundOutcome(won, Outcome(seat, Termination.LEGS), new_legs)
    if kind == "rounds" and round_index + 1 >= options.match_count:
        winner = _most_legs(options.top_tie_play_order, new_legs, totals, dealer)
    return RoundOutcome(won, winner, new_legs)


def round_result(
    rules: Rules,
    score: RoundScore,
    totals: Sequence[int],
    legs: Sequence[int],
    dealer: int,
    round_index: int,
) -> tuple[int | None, list[int], list[int]]:
    """After a scored round: ``(winner or None, totals, legs)`` as the engine leaves them (R-9).

    ``totals`` are those before the round.  ``winner`` is the winner of the game
    (match); the totals and legs are those the next round would start with when the
    game goes on (totals back to 0 after a leg).
    """
    new_totals = [t + p.final for t, p in zip(totals, score.players, strict=True)]
    outcome = round_outcome(rules, score, new_totals, legs, dealer, round_index)
    if outcome.winner is not None:
        return outcome.winner.winner, new_totals, outcome.legs
    if outcome.leg is not None:
        new_totals = [0] * len(totals)
    return None, new_totals, outcome.legs


def most_legs(rules: Rules, legs: Sequence[int], totals: Sequence[int], dealer: int) -> Outcome | None:
    """R-9.3 ``rounds N``: most legs wins, ties broken by total (then ``top_tie``)."""
    return _most_legs(scoring_options(rules).top_tie_play_order, legs, totals, dealer)


def _most_legs(play_order: bool, legs: Sequence[int], totals: Sequence[int], dealer: int) -> Outcome | None:
    n = len(legs)
    best = max(legs)
    tied = [s for s in range(n) if legs[s] == best]
    if len(tied) == 1:
        return Outcome(tied[0], Termination.MOST_LEGS)
    top = max(totals[s] for s in tied)
    tied = [s for s in tied if totals[s] == top]
    if len(tied) == 1:
        return Outcome(tied[0], Termination.MOST_LEGS_TOTAL)
    if play_order:
        return Outcome(first_in_play_order(tied, dealer, n), Termination.MOST_LEGS_PLAY_ORDER)
    return None  # *(reading)* another-round: extra rounds until the tie breaks


def add_finals(totals: list[int], score: ScoreParts) -> None:
    """Add each player's final round score (R-7.6) to ``totals``, in place."""
    seats = score.seats
    for seat in range(len(totals)):
        total: int = totals[seat]  # (compiled: a tagged int added natively, not ``+=`` on objects)
        totals[seat] = total + seats[seat].final


def next_dealer(rules: Rules, score: RoundScore, dealer: int, n: int) -> int:
    """R-2.3: the next round's dealer: the top scorer of the round (before R-7
    adjustments; the dealer keeps the deal on a tie), the first in play order among
    tied others, or with ``next_dealer = "rotate"`` the next seat."""
    return dealer_after(scoring_options(rules).rotate_dealer, parts_of(score), dealer, n)


def dealer_after(rotate: bool, score: ScoreParts, dealer: int, n: int) -> int:
    """:func:`next_dealer`, ``rotate`` read from the rules (``next_dealer = "rotate"``), of the
    score's parts."""
    if rotate:
        return dealer + 1 if dealer + 1 < n else 0
    seats = score.seats
    best = seats[dealer].round_score
    for seat in range(n):
        if seats[seat].round_score > best:
            best = seats[seat].round_score
    if seats[dealer].round_score == best:
        return dealer
    for i in range(1, n):
        seat = (dealer + i) % n
        if seats[seat].round_score == best:
            return seat
    raise AssertionError("no top scorer")  # pragma: no cover


def first_in_play_order(seats: Sequence[int], dealer: int, n: int) -> int:
    """The first of ``seats`` in play order starting with ``dealer``, of ``n`` seats."""
    for i in range(n):
        s = (dealer + i) % n
        if s in seats:
            return s
    raise AssertionError("no seat")  # pragma: no cover


# --- end of the compiled part: what follows swaps in the compiled module when it is there.

swap_in(globals())
