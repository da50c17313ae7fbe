"""What a room's decisions come to, as data: the writes, the messages, the game-over work.

The functional core (server/play/moves.py) decides a move and returns
:class:`MoveEffects` without any I/O; the room's shell (server/play/runner.py)
performs them in order: the write (fenced, in one transaction), then, once it is
durable, the room's new state, the messages and the clock's timer.

A room's collaborators are given to it when it is made (:class:`RoomHooks`): the
room cache that holds it, the metrics, and the work done above ``play`` when a
game is created or ends (:class:`RoomRecords`: open tables, profiles, ratings),
which runs in the same transaction as the room's own write.
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
    from roppyakken.server.play.room import Room
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


class RoomHooks(Protocol):
    """A room's collaborators, given when it is made: whoever holds it, the metrics, the records."""

    records: RoomRecords

    def may_write(self, room_id: str) -> bool:
        """Whether this server may still make moves in the room (a cluster member whose lease is sure)."""
        ...

    def unheld(self, room: Room) -> None:
        """A change was refused because this server is no longer sure to hold the room, or the database
        refused it (another server took the room since): let the room go, so that its clients reconnect
        and it is loaded again, wherever it is held."""
        ...

    def idle(self, room: Room) -> None:
        """The room may be idle now (nobody connected, nothing running)."""
        ...

    def moved(self, seconds: float) -> None:
        """A move was made, ``seconds`` from its arrival to its result sent."""
        ...

    def write_failed(self) -> None:
        """A change could not be stored."""
        ...

    def bot_decided(self, level: str, thinking: float, waiting: float) -> None:
        """A bot decision: its level, thinking and waiting seconds."""
        ...

    def clock_fired(self, late: float) -> None:
        """A clock deadline's timer fired ``late`` seconds after it."""
        ...


class QuietHooks:
    """:class:`RoomHooks` for a room held on its own: every write allowed, nothing told."""

    def __init__(self, records: RoomRecords | None = None) -> None:
        self.records: RoomRecords = records or NoRecords()

    def may_write(self, room_id: str) -> bool:
        """Always."""
        return True

    def unheld(self, room: Room) -> None:
        """Nothing."""

    def idle(self, room: Room) -> None:
        """Nothing."""

    def moved(self, seconds: float) -> None:
        """Nothing."""

    def write_failed(self) -> None:
        """Nothing."""

    def bot_decided(self, level: str, thinking: float, waiting: float) -> None:
        """Nothing."""

    def clock_fired(self, late: float) -> None:
        """Nothing."""
