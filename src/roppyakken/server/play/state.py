"""A room as its parts see it, and the collaborators a room is given when it is made.

:class:`RoomState` is what the functional core (server/play/moves.py), the shell
(server/play/runner.py), the seats' changes (server/play/seating.py), the clock's
timer (server/play/timer.py) and the bot loop (server/play/bot_loop.py) read and
do of a room; server/play/room.py's ``Room`` is the one implementation (named by
this protocol, not imported, so that those modules and the room do not cycle).

:class:`RoomHooks` are the room's collaborators: whoever holds it (the registry),
the metrics, and the work stored above ``play`` with its game's creation and end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from typing import Any, Protocol

from roppyakken.actions import Action
from roppyakken.engine import Game
from roppyakken.events import Event
from roppyakken.rules import Rules
from roppyakken.server.play.bots import BotRunner
from roppyakken.server.play.clocks import Clock, Timing
from roppyakken.server.play.effects import NoRecords, RoomRecords
from roppyakken.server.play.hints import HintDesk
from roppyakken.server.play.seats import Client, Seat
from roppyakken.server.store.database import Database


class RoomHooks(Protocol):
    """A room's collaborators, given when it is made: whoever holds it, the metrics, the records."""

    records: RoomRecords

    def may_write(self, room_id: str) -> bool:
        """Whether this server may still make moves in the room (a cluster member whose lease is sure)."""
        ...

    async def still_held(self, room_id: str) -> bool:
        """After :meth:`may_write` said no: whether this server holds the room after all, asked now."""
        ...

    def unheld(self, room: RoomState) -> None:
        """A change was refused because this server is no longer sure to hold the room, or the database
        refused it (another server took the room since): let the room go, so that its clients reconnect
        and it is loaded again, wherever it is held."""
        ...

    def idle(self, room: RoomState) -> None:
        """The room may be idle now (nobody connected, nothing running)."""
        ...

    def moved(self, seconds: float, stored: float) -> None:
        """A move was made, ``seconds`` from its arrival to its result sent, of which ``stored`` from
        its write handed to the database's writer to it stored (the writer's queue and transaction)."""
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

    async def still_held(self, room_id: str) -> bool:
        """Always."""
        return True

    def unheld(self, room: RoomState) -> None:
        """Nothing."""

    def idle(self, room: RoomState) -> None:
        """Nothing."""

    def moved(self, seconds: float, stored: float) -> None:
        """Nothing."""

    def write_failed(self) -> None:
        """Nothing."""

    def bot_decided(self, level: str, thinking: float, waiting: float) -> None:
        """Nothing."""

    def clock_fired(self, late: float) -> None:
        """Nothing."""


class RoomState(Protocol):
    """What a room's parts read and do of it (see the module docstring)."""

    id: str
    players: int
    rules: Rules
    seed: int
    salt: str | None
    seats: list[Seat]
    status: str
    epoch: int
    created_at: datetime
    db: Database
    bots: BotRunner
    hooks: RoomHooks
    owner: str
    bot_delay: float
    game: Game | None
    actions: int
    applied: list[tuple[int, Action]]
    clients: list[Client]
    lock: asyncio.Lock
    evicted: bool
    last_active: float
    hint_desk: HintDesk
    clock: Clock | None
    rated: bool
    timing: Timing
    absent_since: dict[int, float]
    hand_votes: dict[int, set[int]]

    def names(self) -> list[str]:
        """The seats' names, for views and records."""
        ...

    def idle(self) -> bool:
        """Nobody connected and nothing running."""
        ...

    def new_game(self) -> Game:
        """A new engine game from the room's seed, now the room's."""
        ...

    def rebuild(self) -> None:
        """The game again from its seed and the stored actions."""
        ...

    def fenced(self, op: Callable[[Any], None]) -> Callable[[Any], None]:
        """``op``, a write to this room, checked against its holder epoch in its transaction."""
        ...

    def let_go(self, exc: BaseException | None = None) -> None:
        """A write was refused because the stored room moved on without this server: let it go."""
        ...

    def send_all(self, message: str) -> None:
        """Send one message to every client."""
        ...

    def send_states(self) -> None:
        """Each client its own ``state``."""
        ...

    def send_room(self) -> None:
        """Tell every client the room as it now is."""
        ...

    def send_change(self, new_events: list[Event]) -> None:
        """After a change: the events, round and game ends, then each client's own state."""
        ...

    def arm_clock(self) -> None:
        """Set the clock's timer to its next deadline."""
        ...

    def kick_bots(self) -> None:
        """Start the bot loop if a bot is to act."""
        ...

    async def apply(
        self,
        seat: int,
        action: Action,
        msg_id: str | None = None,
        seq: int | None = None,
        *,
        by_clock: bool = False,
        by_bot: bool = False,
    ) -> None:
        """Apply ``action`` for ``seat``: decided, stored, then sent."""
        ...
