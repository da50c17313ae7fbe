"""A room: its seats, its one :class:`~roppyakken.engine.Game`, its connected clients and its bots.

The room is the authority for its game.  Every change goes through
:meth:`Room.handle` (humans), the bot loop or the clock, under the room's lock:
a move is decided by the functional core (server/play/moves.py) and performed
by the shell (server/play/runner.py): stored (committed) and only then sent, an
``events`` message to everyone, then each client's own ``state`` built with
:func:`~roppyakken.view.view_of` for its seat (spectators: no hand).  Anything
refused raises :class:`~roppyakken.server.wire.protocol.ProtocolError`, which the
connection answers with an ``error`` to its sender alone.

The seats change in server/play/seating.py, the clock works in
server/play/timer.py, the bots play in server/play/bot_loop.py.
"""

from __future__ import annotations

import asyncio
import hmac
import json
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Final

from roppyakken.actions import Action, action_from_json
from roppyakken.engine import Game
from roppyakken.errors import Phrase, RoppyakkenError
from roppyakken.events import Event, GameEnded
from roppyakken.record import deal_commitment
from roppyakken.rules import Rules, from_options
from roppyakken.server.play import chat, runner, seating, timer
from roppyakken.server.play.bot_loop import BotLoop
from roppyakken.server.play.bots import BotRunner
from roppyakken.server.play.clocks import NONE, Clock, Timing
from roppyakken.server.play.hints import OPTION_KEY, HintDesk
from roppyakken.server.play.moves import clock_seat, record_address, tells
from roppyakken.server.play.runner import BOT_RETRY_DELAYS, WriteFailed
from roppyakken.server.play.seat_views import StateMessages
from roppyakken.server.play.seats import (
    BOT,
    EMPTY,
    HUMAN,
    OVER,
    PLAYING,
    WAITING,
    Client,
    Seat,
    default_bot_level,
    hash_token,
    new_room_id,
    new_salt,
    new_token,
)
from roppyakken.server.play.state import QuietHooks, RoomHooks
from roppyakken.server.store import room_store
from roppyakken.server.store.database import Database, StaleRoom
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire import text
from roppyakken.server.wire.client import (
    Act,
    AskHint,
    ChatHistory,
    ClientMessage,
    HandOver,
    Hello,
    Mute,
    Ping,
    Say,
    SetSeat,
    Start,
)
from roppyakken.server.wire.protocol import ProtocolError
from roppyakken.server.wire.server import ClockView, RoomInfo, RoomSeat, RoomTournament

__all__ = [
    "BOT",
    "BOT_RETRY_DELAYS",
    "EMPTY",
    "HISTORY_EVENTS",
    "HUMAN",
    "OVER",
    "PLAYING",
    "WAITING",
    "Client",
    "RestoreError",
    "Room",
    "Seat",
    "WriteFailed",
    "default_bot_level",
    "hash_token",
    "new_room_id",
    "new_salt",
    "new_token",
]

log = logging.getLogger("roppyakken.server")

HISTORY_EVENTS: Final = 600
"""The most events a ``history`` message carries (the latest; a round has well under 100)."""


class RestoreError(Exception):
    """A stored room that cannot be rebuilt (a missing move, a move that does not apply)."""

    def __init__(self, said: Phrase) -> None:
        super().__init__(str(said))
        self.said = said


class Room:
    """One room and its game; see the module docstring."""

    def __init__(
        self,
        room_id: str,
        players: int,
        rules: Rules,
        seed: int,
        seats: list[Seat],
        *,
        db: Database,
        bots: BotRunner,
        bot_delay: float,
        hooks: RoomHooks | None = None,
        created_at: datetime | None = None,
        status: str = WAITING,
        salt: str | None = None,
        hints: bool = False,
        clock: Clock | None = None,
        public: bool = False,
        timing: Timing | None = None,
        epoch: int = 1,
        rated: bool = False,
    ) -> None:
        self.id = room_id
        self.players = players
        self.rules = rules
        self.seed = seed
        self.salt = salt
        self.commitment = None if salt is None else deal_commitment(seed, salt)
        self.seats = seats
        self.status = status
        self.epoch = epoch
        """This server's holder epoch of the room: every write checks it is still the stored one."""
        self.created_at = created_at or datetime.now(UTC)
        self.db = db
        self.bots = bots
        self.hooks: RoomHooks = hooks or QuietHooks()
        """Whoever holds the room, the metrics, the work stored with a game's end (server/play/state.py)."""
        self.owner = room_id
        """Whose turn this room's heavy bots take in the pool: the creator's address (else the room)."""
        self.bot_delay = bot_delay
        self.game: Game | None = None
        self.actions = 0
        self.applied: list[tuple[int, Action]] = []
        self.clients: list[Client] = []
        self.lock = asyncio.Lock()
        self.evicted = False
        self.last_active = time.monotonic()
        self._rules_json = {"preset": rules.preset, "options": rules.options()}
        self.hint_desk = HintDesk(hints)
        """Hints and round reviews (server/play/hints.py); ``hints``: on for every player."""
        self.clock = clock
        """The room's clock (server/play/clocks.py); None: no clock and nothing handed over yet."""
        self.public = public
        """Whether the finished game is listed for everyone."""
        self.rated = rated
        """Whether the game's result moves the players' ratings (server/club/ratings)."""
        self.tournament: RoomTournament | None = None
        """The tournament whose table this is (read with the room: server/store/room_tournament.py)."""
        self.timing = timing or Timing()
        self.timer = timer.ClockTimer(self)
        """The clock's timer and the moves it makes (server/play/timer.py)."""
        self.bot_loop = BotLoop(self)
        """The loop that plays the bots (server/play/bot_loop.py)."""
        now = time.monotonic()
        self.absent_since: dict[int, float] = {i: now for i, s in enumerate(seats) if s.kind == HUMAN}
        """Seats with nobody connected, since when (monotonic seconds)."""
        self.hand_votes: dict[int, set[int]] = {}
        """No clock: for each absent seat, the seats that agreed to hand it to a bot."""

    # ----------------------------------------------------------------- building

    @classmethod
    def restore(
        cls,
        stored: room_store.StoredRoom,
        *,
        db: Database,
        bots: BotRunner,
        bot_delay: float,
        timing: Timing | None = None,
        hooks: RoomHooks | None = None,
    ) -> Room:
        """Rebuild a stored room: its game is replayed from the stored actions."""
        row = stored.room
        options = dict(row.options)
        hints = bool(options.pop(OPTION_KEY, False))
        seats = [Seat(s.kind, s.name, s.level, s.token_hash) for s in stored.seats]
        room = cls(
            row.id,
            row.players,
            from_options(row.preset, options),
            row.seed,
            seats,
            db=db,
            bots=bots,
            bot_delay=bot_delay,
            hooks=hooks,
            created_at=row.created_at,
            status=row.status,
            salt=row.salt,
            hints=hints,
            clock=None if row.clock is None else Clock.from_json(row.clock),
            public=row.public,
            timing=timing,
            epoch=row.epoch,
            rated=row.rated,
        )
        expected = list(range(len(stored.indexes)))
        if stored.indexes != expected:
            missing = next(i for i, (a, b) in enumerate(zip(stored.indexes, expected, strict=True)) if a != b)
            raise RestoreError(Phrase(text.RESTORE_GAP, room=row.id, index=missing))
        if row.status != WAITING:
            room._replay(stored.actions)
        return room

    def _replay(self, actions: list[str]) -> None:
        game = self.new_game()
        for index, data in enumerate(actions):
            try:
                action = action_from_json(json.loads(data))
                seat = game.to_act
                game.apply(action)
            except (RoppyakkenError, ValueError) as exc:
                reason = exc if isinstance(exc, RoppyakkenError) else str(exc)
                raise RestoreError(
                    Phrase(text.RESTORE_BAD_MOVE, room=self.id, index=index, reason=reason)
                ) from None
            self.applied.append((seat, action))
        self.actions = len(actions)

    def row(self) -> room_store.RoomRow:
        """The room as stored."""
        return room_store.RoomRow(
            id=self.id,
            created_at=self.created_at,
            players=self.players,
            preset=self.rules.preset,
            options={**self.rules.options(), **({OPTION_KEY: True} if self.hint_desk.enabled else {})},
            seed=self.seed,
            status=self.status,
            salt=self.salt,
            public=self.public,
            clock=None if self.clock is None else self.clock.to_json(),
            clock_deadline=None if self.clock is None else self.clock.next_deadline(),
            epoch=self.epoch,
            rated=self.rated,
        )

    def start_now(self) -> None:
        """Start the game before anyone connects ("play against bots": every other seat is a bot)."""
        self.status = PLAYING
        game = self.new_game()
        if self.clock is not None:
            self.clock.start_turn(clock_seat(self, game, self.clock), 0, time.time())

    def new_game(self) -> Game:
        """A new engine game from the room's seed (its first deal), now the room's."""
        self.game = Game(self.rules, self.players, self.seed)
        return self.game

    def rebuild(self) -> None:
        """The game again from its seed and the stored actions (after a change that could not be stored)."""
        game = self.new_game()
        for seat, action in self.applied:
            game.apply(action, seat)

    # ----------------------------------------------------------------- queries

    def info(self) -> RoomInfo:
        """The room as ``GET /api/rooms/<room>`` and ``room_info`` show it (no tokens)."""
        connected = {c.seat for c in self.clients}
        seats: list[RoomSeat] = []
        for index, seat in enumerate(self.seats):
            entry = RoomSeat(
                name=seat.display_name if seat.kind != EMPTY else None,
                kind=seat.kind,  # type: ignore[typeddict-item]  # human, bot or empty
                connected=seat.kind == BOT or index in connected,
            )
            if seat.kind == BOT:
                entry["level"] = seat.level
            seats.append(entry)
        info = RoomInfo(
            room=self.id,
            players=self.players,
            rules=self._rules_json,
            seats=seats,
            status=self.status,  # type: ignore[typeddict-item]  # waiting, playing or over
            commitment=self.commitment,
            hints=self.hint_desk.enabled,
            clock=NONE if self.clock is None else self.clock.control,
            public=self.public,
            rated=self.rated,
        )
        if self.tournament is not None:
            info["tournament"] = self.tournament
        return info

    def names(self) -> list[str]:
        """The seats' names, for views and records."""
        return [s.display_name for s in self.seats]

    def seat_for_token(self, token: str) -> int | None:
        """The seat this token holds, or None."""
        digest = hash_token(token)
        for index, seat in enumerate(self.seats):
            if seat.kind == HUMAN and seat.token_hash and hmac.compare_digest(seat.token_hash, digest):
                return index
        return None

    def idle(self) -> bool:
        """Nobody connected and nothing running: the room may leave memory (it is all stored)."""
        busy = self.bot_loop.busy() or self.timer.busy()
        return not self.clients and not busy and not self.lock.locked() and not self.timer.near()

    # ----------------------------------------------------------------- sending

    def send_all(self, message: str) -> None:
        """Send one message to every client."""
        for client in self.clients:
            client.send(message)

    def _states(self) -> StateMessages:
        assert self.game is not None
        return StateMessages(self.game, self.names(), self.actions, self._clock_view())

    def send_states(self) -> None:
        """Each client its own ``state`` of the game as it now is."""
        if self.game is None:
            return
        states = self._states()
        for client in self.clients:
            client.send(states.for_seat(client.seat))

    def _clock_view(self) -> ClockView | None:
        """The ``clock`` of state messages: shown once the room has a clock or a seat was handed over."""
        clock = self.clock
        if clock is None or not (clock.timed or any(clock.abandoned)):
            return None
        return clock.view(time.time())

    def _history(self) -> str:
        """The ``history`` message: the public events so far (every seat saw them), the latest ones."""
        assert self.game is not None
        first = max(0, len(self.game.events) - HISTORY_EVENTS)
        return to_client.history([e.to_json() for e in self.game.events[first:]], self.actions, first)

    def send_room(self) -> None:
        """Tell every client the room as it now is (``room_changed``)."""
        self.send_all(to_client.room_changed(self.info()))

    def send_change(self, new_events: list[Event]) -> None:
        """After a change: the public events, round and game ends, then each client's own state."""
        assert self.game is not None
        runner.perform(self, tells(self.id, self.game, new_events, self.actions))

    def _ended(self) -> GameEnded | None:
        """The game's end, if it is over (its last event)."""
        if self.game is None or not self.game.over:
            return None
        for event in reversed(self.game.events):
            if isinstance(event, GameEnded):
                return event
        return None

    def _end_message(self) -> str | None:
        """The ``game_end`` of a finished game (by its last move, or with nobody there), if it is over."""
        ended = self._ended()
        if ended is not None:
            return to_client.game_end(ended.winner, ended.reason, record_address(self.id), self.actions)
        if self.clock is None or self.clock.ended is None:
            return None
        return to_client.game_end(None, self.clock.ended, record_address(self.id), self.actions)

    # ----------------------------------------------------------------- connections

    async def attach(self, client: Client) -> bool:
        """Welcome a client (after its ``hello``); False if the room left memory meanwhile."""
        async with self.lock:
            if self.evicted:
                return False
            first = client.seat is not None and all(c.seat != client.seat for c in self.clients)
            self.clients.append(client)
            client.send(to_client.welcome(self.id, client.seat, self.info()))
            if self.game is not None:
                client.send(self._history())
                # A client that comes after the end (a reload, a late spectator) is told
                # the result and the record's address as those who saw it happen were.
                if (ended := self._end_message()) is not None:
                    client.send(ended)
            if client.seat is not None:
                timer.came_back(self, client.seat)
            if self.game is not None:
                client.send(self._states().for_seat(client.seat))
            if first:
                self.send_room()
        self.kick_bots()
        return True

    def detach(self, client: Client) -> None:
        """A client went away."""
        if client not in self.clients:
            return
        self.clients.remove(client)
        self.hint_desk.forget(client)
        self.last_active = time.monotonic()
        if client.seat is not None and all(c.seat != client.seat for c in self.clients):
            self.absent_since[client.seat] = self.last_active
            timer.nobody_left(self)
            self.send_room()
        if self.idle():
            self.hooks.idle(self)

    async def handle(self, client: Client, message: ClientMessage) -> None:
        """Answer one parsed client message (after ``hello``); raise ProtocolError to refuse it."""
        if isinstance(message, Ping):
            client.send(to_client.pong(message.id))
        elif isinstance(message, Act):
            if client.seat is None:
                raise ProtocolError(text.SPECTATOR_CANNOT_ACT, message.id)
            await self.apply(client.seat, message.action, message.id, message.seq)
        elif isinstance(message, SetSeat):
            await seating.set_seat(self, client, message)
        elif isinstance(message, Start):
            await seating.start(self, client, message.id)
        elif isinstance(message, AskHint):
            await self.hint_desk.ask(self, client, message.id)
        elif isinstance(message, HandOver):
            await seating.hand_over(self, client, message)
        elif isinstance(message, Say | Mute | ChatHistory):
            await chat.handle(self, client, message)
        elif isinstance(message, Hello):
            raise ProtocolError(text.HELLO_AGAIN, message.id)

    async def join(self, name: str, token_hash: str | None = None) -> tuple[int, str] | None:
        """Seat a new player in the first empty seat: (seat, token), or None if there is none.

        ``token_hash``: the hash of a token the player already holds (quick pairing), instead
        of a new token's (the token answered is then not the seat's)."""
        return await seating.join(self, name, token_hash)

    async def start(self, client: Client | None, msg_id: str | None = None) -> None:
        """Host only (``client`` None: the server): start the game once every seat is taken."""
        await seating.start(self, client, msg_id)

    # ----------------------------------------------------------------- fencing

    def fenced(self, op: Callable[[Any], None]) -> Callable[[Any], None]:
        """``op`` (a write to this room) checked first against the stored holder epoch, in its
        transaction (:func:`~roppyakken.server.store.room_store.fence`)."""
        room_id, epoch = self.id, self.epoch

        def work(conn: Any) -> None:
            room_store.fence(conn, room_id, epoch)
            op(conn)

        return work

    def let_go(self, exc: BaseException | None = None) -> None:
        """A write was refused because the stored room moved on without this server (``exc`` a
        :class:`StaleRoom`; None: always): the room here is behind, so it is let go and loaded
        again from the database wherever it is held (its clients reconnect)."""
        if exc is not None and not isinstance(exc, StaleRoom):
            return
        log.warning("room %s: the stored game moved on without this server; let go, loaded again", self.id)
        self.hooks.unheld(self)

    # ----------------------------------------------------------------- play

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
        """Apply ``action`` for ``seat``: checked by the engine, stored, then sent to every client.

        ``seq`` (the sender's ``act.seq``) is checked under the lock: two acts sent for the
        same state (two sockets of one seat, a resend) cannot both be made.  ``by_clock``: the
        clock plays a seat whose time ran out; ``by_bot``: a bot's seat, or an abandoned one
        (neither is refused for the seat's clock).

        Durable before visible: if the write fails, the game is put back as it
        was, nothing is sent to anyone, and :class:`WriteFailed` tells the sender.
        """
        try:
            await runner.apply(self, seat, action, msg_id, seq, by_clock=by_clock, by_bot=by_bot)
        finally:
            # the last client may have left while the move held the lock (not idle then): a
            # finished game's room leaves memory, and gives its lease back, now rather than at the sweep
            if self.idle():
                self.hooks.idle(self)

    # ----------------------------------------------------------------- clock and bots

    def arm_clock(self) -> None:
        """Set the room's one timer to the clock's next deadline (after every change and on loading)."""
        self.timer.arm()

    def pause_clock(self) -> tuple[dict[str, Any], float | None] | None:
        """The server stops: stop the timer and keep what is left on the running clock (to store)."""
        return self.timer.pause()

    def kick_bots(self) -> None:
        """Start the bot loop if a bot is to act and it is not running (after a change or a restore)."""
        self.bot_loop.kick()

    async def stop(self) -> None:
        """Stop the bot loop, the clock and the reviews being worked out (server shutdown)."""
        await self.timer.stop()
        await self.hint_desk.stop()
        await self.bot_loop.stop()
