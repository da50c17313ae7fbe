"""What happened: events returned by :meth:`Game.apply`, for logs and animations.

Every event is public information (it shows nothing a player at the table would
not see), so it may be sent to every seat and spectator.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from roppyakken.cards import SLUGS, slugs_of
from roppyakken.outcome import Outcome
from roppyakken.scoring import RoundScore


@dataclass(frozen=True, slots=True)
class FirstDealerDrawn:
    """R-2.2: each player drew cards until one held the earliest month."""

    draws: tuple[tuple[int, ...], ...]
    dealer: int

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "type": "first-dealer",
            "draws": [[SLUGS[c] for c in d] for d in self.draws],
            "dealer": self.dealer,
        }


@dataclass(frozen=True, slots=True)
class RoundStarted:
    """A round was dealt (after any redeals): its number, leg, dealer and deal sizes."""

    round: int
    leg: int
    dealer: int
    redeals: int
    table: int

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "type": "round-started",
            "round": self.round,
            "leg": self.leg,
            "dealer": self.dealer,
            "redeals": self.redeals,
            "table": slugs_of(self.table),
        }


@dataclass(frozen=True, slots=True)
class Redealt:
    """A deal was cancelled (R-3.3, R-3.4): four of ``month`` on the table or in a hand."""

    reason: str
    month: int
    seat: int | None

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"type": "redeal", "reason": self.reason, "month": self.month, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class DealerTookFour:
    """R-3.3 ``dealer_takes``: the dealer captured four of a month from the table."""

    seat: int
    cards: int

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"type": "dealer-took-four", "seat": self.seat, "cards": slugs_of(self.cards)}


@dataclass(frozen=True, slots=True)
class Declared:
    """R-4.1: a seat declared lucky hands (possibly none), revealing ``cards``."""

    seat: int
    hands: tuple[tuple[str, int], ...]
    cards: int

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "type": "declared",
            "seat": self.seat,
            "hands": [{"slug": s, "points": p} for s, p in self.hands],
            "cards": slugs_of(self.cards),
        }


@dataclass(frozen=True, slots=True)
class Turned:
    """The top card of the pile was turned up and waits for its target choice (R-5.5)."""

    seat: int
    card: int

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {"type": "turned", "seat": self.seat, "card": SLUGS[self.card]}


class Played(NamedTuple):
    """A card was played from ``source`` (hand or pile) and took ``captured`` (0: none).

    A named tuple rather than a dataclass like the other events: it is made for every card
    played (about 32 a round), and the game keeps the very same object as the record's
    play, ``(seat, source, card, captured)`` (``RoundLog.plays``).  Built with
    ``tuple.__new__(Played, ...)`` on the hot path, it costs a fifth of a frozen dataclass.
    """

    seat: int
    source: str
    card: int
    captured: int

    def to_json(self) -> dict[str, Any]:
        """The FORMATS.md §3 event object plus ``type``."""
        return {
            "type": "played",
            "seat": self.seat,
            "source": self.source,
            "card": SLUGS[self.card],
            "captured": slugs_of(self.captured),
        }


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round was scored (R-7): the breakdown and the totals after it."""

    round: int
    score: RoundScore
    totals: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON form."""
        return {
            "type": "round-ended",
            "round": self.round,
            "score": self.score.to_json(),
            "totals": list(self.totals),
        }


@dataclass(frozen=True, slots=True)
class LegWon:
    """R-9.3: a seat won a game of a match (a leg); totals reset."""

    outcome: Outcome
    """Who won the leg, and why."""
    legs: tuple[int, ...]

    @property
    def seat(self) -> int:
        """The seat that won the leg."""
        return self.outcome.winner

    @property
    def reason(self) -> str:
        """Why, as the JSON writes it (:attr:`~roppyakken.outcome.Outcome.reason`)."""
        return self.outcome.reason

    def to_json(self) -> dict[str, Any]:
        """JSON form (the outcome as its reason string)."""
        return {"type": "leg-won", "seat": self.seat, "reason": self.reason, "legs": list(self.legs)}


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game (or match) is over."""

    outcome: Outcome
    """Who won the game, and why."""

    @property
    def winner(self) -> int:
        """The seat that won the game."""
        return self.outcome.winner

    @property
    def reason(self) -> str:
        """Why, as the JSON and the protocol's ``game_end`` write it."""
        return self.outcome.reason

    def to_json(self) -> dict[str, Any]:
        """JSON form (the outcome as its reason string)."""
        return {"type": "game-ended", "winner": self.winner, "reason": self.reason}


Event = (
    FirstDealerDrawn
    | RoundStarted
    | Redealt
    | DealerTookFour
    | Declared
    | Turned
    | Played
    | RoundEnded
    | LegWon
    | GameEnded
)
