"""How a game (or a leg of a match) was won, as typed values: :class:`Termination` and
:class:`Outcome`, as python-chess has them.

The events' JSON and the web protocol's ``game_end`` (docs/PROTOCOL.md) carry an outcome as
its reason string (``"target"``, ``"instant:four-brights"``, ``"most-legs:total"``…):
:attr:`Outcome.reason` writes it and :meth:`Outcome.of` reads it back, so that no front end
parses one.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from roppyakken.errors import RoppyakkenError


class Termination(Enum):
    """Why a game or a leg was won (R-8.5, R-9); the value is the reason string's stem."""

    TARGET = "target"
    """R-9.1: the top total at or above the target."""
    TARGET_YAKU = "target:"
    """R-9.1: several reached the target; the one who completed this instant-win yaku wins."""
    INSTANT = "instant:"
    """R-8.5: an instant-win yaku (Four Brights, Seven Ribbons) ends the game at once."""
    TIE_PLAY_ORDER = "tie:play-order"
    """R-9.1: tied at the top: the first in play order from the dealer wins."""
    LEGS = "legs"
    """R-9.3 ``first-to N``: the first to win N legs of the match."""
    MOST_LEGS = "most-legs"
    """R-9.3 ``rounds N``: the most legs after the fixed number of rounds."""
    MOST_LEGS_TOTAL = "most-legs:total"
    """R-9.3: tied for most legs, broken by the higher total."""
    MOST_LEGS_PLAY_ORDER = "most-legs:play-order"
    """R-9.3: tied for most legs and total, broken by play order."""

    @property
    def names_a_yaku(self) -> bool:
        """Whether the reason names the yaku that decided (``instant:SLUG``, ``target:SLUG``)."""
        return self.value.endswith(":")


@dataclass(frozen=True)
class Outcome:
    """Who won, and why: the seat, the :class:`Termination` and, for those that name one, the
    yaku (a RULES.md slug)."""

    winner: int
    termination: Termination
    yaku: str | None = None

    def __post_init__(self) -> None:
        if self.termination.names_a_yaku != (self.yaku is not None):
            raise RoppyakkenError(
                f"outcome {self.termination.name}: a yaku is needed exactly with instant and target:"
            )

    @property
    def reason(self) -> str:
        """The reason string of the events' JSON and the protocol."""
        return self.termination.value + (self.yaku or "")

    @classmethod
    def of(cls, winner: int, reason: str) -> Outcome:
        """The outcome of ``winner`` that a reason string says (:func:`termination_of`)."""
        termination, yaku = termination_of(reason)
        return cls(winner, termination, yaku)


def termination_of(reason: str) -> tuple[Termination, str | None]:
    """The termination and yaku a reason string says (``"instant:four-brights"``:
    ``(Termination.INSTANT, "four-brights")``); a one-line error for a reason no rule gives."""
    for termination in Termination:
        stem = termination.value
        if termination.names_a_yaku:
            if reason.startswith(stem) and len(reason) > len(stem):
                return termination, reason[len(stem) :]
        elif reason == stem:
            return termination, None
    raise RoppyakkenError(f"unknown end of game {reason!r}")


__all__ = ["Outcome", "Termination", "termination_of"]
