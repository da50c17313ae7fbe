"""What a room's decisions come to, as data: the writes, the messages, the game-over work.

The functional core (server/play/moves.py) decides a move and returns
:class:`MoveEffects` without any I/O; the room's shell (server/play/runner.py)
performs them in order: the write (fenced, in one transaction), then, once it is
durable, the room's new state, the messages and the clock's timer.

The work done above ``play`` when a room is created or its game ends
(:class:`RoomRecords`: open tables, profiles, ratings) runs in the same
transaction as the room's own write; the room is given it with its other
collaborators (server/play/state.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol

from sqlalchemy import Connection

if TYPE_CHECKING:
    from roppyakken.actions import Action
    from roppyakken.server.play.clocks import Clock
    from roppyakken.view import SeatView

Work = Callable[[Connection], None]
"""Database work run in a transaction."""


@dataclass(frozen=True, slots=True)
class Result:
    """How a game that may move ratings ended: every seat a person, the room rated."""

    winner: int | None
    totals: list[int]
    legs: list[int]
    left: list[bool]
    """The seats handed to a bot (they finish last)."""

    def fields(self) -> dict[str, Any]:
        """As :func:`~roppyakken.server.club.ratings.store.record_game` takes it."""
        return {"winner": self.winner, "totals": self.totals, "legs": self.legs, "left": self.left}


@dataclass(frozen=True, slots=True)
class Ending:
    """A game that just ended, as stored: its record, and its result if it may move ratings."""

    room_id: str
    record: str
    """The game's record (JSON text)."""
    preset: str
    players: int
    at: datetime
    result: Result | None
    """None: not rated, not every seat a person, or ended with nobody there."""


@dataclass(frozen=True, slots=True)
class StoreMove:
    """The write of one move: its action, the clock after it, and what else goes with it."""

    room_id: str
    epoch: int
    index: int
    seat: int
    action: str
    """The action as compact JSON text."""
    clock: dict[str, Any] | None
    deadline: float | None
    gave_up: bool
    """The clock gave the seat up with this move (a timeout counted against its player)."""
    at: float
    """Epoch seconds of the move."""
    ending: Ending | None
    """The game ended with this move."""
    winner: int | None


@dataclass(frozen=True, slots=True)
class Broadcast:
    """One message for every client of the room."""

    message: str


@dataclass(frozen=True, slots=True)
class ReviewRound:
    """A round was scored: work out its reviews for the seats that asked for hints."""

    round: int


@dataclass(frozen=True, slots=True)
class SendStates:
    """Each client its own ``state`` of the room as it now is."""


Tell = Broadcast | ReviewRound | SendStates


@dataclass(frozen=True, slots=True)
class MoveEffects:
    """What one move comes to, in the order the shell performs it."""

    store: StoreMove
    clock: Clock | None
    """The room's clock once the move is stored (None: the room has none)."""
    over: bool
    tell: tuple[Tell, ...]
    seen: SeatView | None
    """The view the mover was sent, kept for its round's review."""
    seat: int
    action: Action


class RoomRecords(Protocol):
    """Work done above ``play`` in the transaction that creates or ends a room's game."""

    def created(self, room_id: str, public: bool) -> Work | None:
        """More to store with a new room (a public one is listed in the lobby)."""
        ...

    def ended(self, ending: Ending) -> Work | None:
        """More to store with a finished game (its players' profiles, their ratings)."""
        ...


class NoRecords:
    """:class:`RoomRecords` that store nothing more."""

    def created(self, room_id: str, public: bool) -> Work | None:
        """Nothing."""
        return None

    def ended(self, ending: Ending) -> Work | None:
        """Nothing."""
        return None
