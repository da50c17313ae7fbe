"""A room: its seats, its one :class:`~roppyakken.engine.Game`, its connected clients and its bots.

The room is the authority for its game.  Every change goes through
:meth:`Room.act` (humans) or the bot loop, under the room's lock: the action is
checked and applied by the engine, stored (committed) and only then sent — an
``events`` message to everyone, then each client's own ``state`` built with
:func:`~roppyakken.view.view_of` for its seat (spectators: no hand).  Anything
refused raises :class:`~roppyakken.server.wire.protocol.ProtocolError`, which the
connection answers with an ``error`` to its sender alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hashlib
import hmac
import json
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, Protocol

from roppyakken.actions import Action, action_from_json
from roppyakken.ai.base import BOT_LEVELS
from roppyakken.cards import slugs_of
from roppyakken.engine import Game
from roppyakken.errors import IllegalActionError, Phrase, RoppyakkenError
from roppyakken.events import Event, GameEnded, RoundEnded
from roppyakken.record import deal_commitment, dumps, record_of
from roppyakken.rules import Rules, from_options
from roppyakken.server.club.ratings import store as rating_store
from roppyakken.server.club.ratings.pools import pool_of
from roppyakken.server.people import playban
from roppyakken.server.play import chat
from roppyakken.server.play.bots import BotRunner, decision_seed
from roppyakken.server.play.clocks import CLOCK_BOT, NONE, Clock, Timing
from roppyakken.server.play.hints import OPTION_KEY, HintDesk
from roppyakken.server.play.seat_views import StateMessages
from roppyakken.server.store import room_store
from roppyakken.server.store.database import ActionRow, Database, StaleRoom, StorageError
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
from roppyakken.server.wire.server import ClockView, RoomInfo, RoomSeat
from roppyakken.view import view_of

log = logging.getLogger("roppyakken.server")

WAITING: Final = "waiting"
PLAYING: Final = "playing"
OVER: Final = "over"
HISTORY_EVENTS: Final = 600
"""The most events a ``history`` message carries (the latest; a round has well under 100)."""
HUMAN: Final = "human"
BOT: Final = "bot"
EMPTY: Final = "empty"


def default_bot_level() -> str:
    """The level a seat gets when the host adds a bot without naming one."""
    for level in ("greedy", "random"):
        if level in BOT_LEVELS:
            return level
    return next(iter(BOT_LEVELS))


def new_token() -> str:
    """A fresh unguessable seat token."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """What is stored of a seat token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_salt() -> str:
    """A fresh salt for a deal commitment (128 random bits as hex)."""
    return secrets.token_hex(16)


class WriteFailed(ProtocolError):
    """The change could not be stored, so it was not made (the sender may try again)."""


class RestoreError(Exception):
    """A stored room that cannot be rebuilt (a missing move, a move that does not apply)."""

    def __init__(self, said: Phrase) -> None:
        super().__init__(str(said))
        self.said = said


BOT_RETRY_DELAYS: Final = (0.5, 1.0, 2.0, 4.0, 8.0)
"""Seconds a bot waits before trying again after its move could not be stored."""


def new_room_id() -> str:
    """A fresh unguessable room id (the invite link's part)."""
    return secrets.token_urlsafe(9)


class Client(Protocol):
    """A connected client of a room: a seat (or ``None``, a spectator) and a way to send to it."""

    seat: int | None

    def send(self, message: str) -> None:
        """Queue one message (JSON text) for this client; never blocks."""
        ...

    def close(self, code: int, reason: str) -> None:
        """Close the connection once queued messages are sent."""
        ...


@dataclass(slots=True)
class Seat:
    """A seat: a human (name, token hash), a bot (level) or empty."""

    kind: str
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None

    @property
    def display_name(self) -> str:
        """The name in records and views: the player's, ``bot:LEVEL``, or empty."""
        if self.kind == BOT:
            return f"bot:{self.level}"
        return self.name or ""

    def row(self, index: int) -> room_store.SeatRow:
        """The seat as stored."""
        return room_store.SeatRow(index, self.kind, self.name, self.level, self.token_hash)


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
        self.owner = room_id
        """Whose turn this room's heavy bots take in the pool: the creator's address (else the room)."""
        self.bot_delay = bot_delay
        self.game: Game | None = None
        self.actions = 0
        self.applied: list[tuple[int, Action]] = []
        self.clients: list[Client] = []
        self.lock = asyncio.Lock()
        self.evicted = False
        self.on_idle: Callable[[Room], None] | None = None
        self.on_move: Callable[[float], None] | None = None
        """Told each move's latency, arrival to sent (metrics)."""
        self.may_write: Callable[[], bool] | None = None
        """Whether this server may still make moves here (a cluster member whose lease is sure)."""
        self.on_write_failed: Callable[[], None] | None = None
        """Told when a change could not be stored (metrics)."""
        self.on_unheld: Callable[[], None] | None = None
        """Told when a change was refused because this server is no longer sure to hold the room
        (``may_write`` false), or the database refused it (:class:`StaleRoom`: another server took
        the room since): the hub lets the room go, its clients reconnect and it is loaded again,
        from the database, wherever it is held, rather than refuse every move in it for good."""
        self.on_bot: Callable[[str, float, float], None] | None = None
        """Told each bot decision's level, thinking and waiting seconds (metrics)."""
        self.last_active = time.monotonic()
        self._bot_task: asyncio.Task[None] | None = None
        self._rules_json = {"preset": rules.preset, "options": rules.options()}
        self.hint_desk = HintDesk(hints)
        """Hints and round reviews (server/play/hints.py); ``hints``: on for every player."""
        self.clock = clock
        """The room's clock (server/play/clocks.py); None: no clock and nothing handed over yet."""
        self.public = public
        """Whether the finished game is listed for everyone."""
        self.rated = rated
        """Whether the game's result moves the players' ratings (server/club/ratings)."""
        self.timing = timing or Timing()
        self.on_clock: Callable[[float], None] | None = None
        """Told how late (seconds) each clock deadline fired (metrics, the benchmark)."""
        self._clock_timer: asyncio.TimerHandle | None = None
        self._clock_task: asyncio.Task[None] | None = None
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
    ) -> Room:
        """Rebuild a stored room: its game is replayed from the stored actions."""
        row = stored.room
        options = dict(row.options)
        hints = bool(options.pop(OPTION_KEY, False))
        rules = from_options(row.preset, options)
        seats = [Seat(s.kind, s.name, s.level, s.token_hash) for s in stored.seats]
        room = cls(
            row.id,
            row.players,
            rules,
            row.seed,
            seats,
            db=db,
            bots=bots,
            bot_delay=bot_delay,
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
            game = room._new_game()
            for index, data in enumerate(stored.actions):
                try:
                    action = action_from_json(json.loads(data))
                    seat = game.to_act
                    game.apply(action)
                except (RoppyakkenError, ValueError) as exc:
                    reason = exc if isinstance(exc, RoppyakkenError) else str(exc)
                    raise RestoreError(
                        Phrase(text.RESTORE_BAD_MOVE, room=row.id, index=index, reason=reason)
                    ) from None
                room.applied.append((seat, action))
            room.actions = len(stored.actions)
        return room

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
        game = self._new_game()
        if self.clock is not None:
            self.clock.start_turn(self._clock_seat(game, self.clock), 0, time.time())

    def _new_game(self) -> Game:
        self.game = Game(self.rules, self.players, self.seed)
        return self.game

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
        return RoomInfo(
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
        busy = self._bot_task is not None and not self._bot_task.done()
        busy = busy or (self._clock_task is not None and not self._clock_task.done())
        return not self.clients and not busy and not self.lock.locked() and not self._clock_near()

    # ----------------------------------------------------------------- sending

    def _send_all(self, message: str) -> None:
        for client in self.clients:
            client.send(message)

    def _states(self) -> StateMessages:
        assert self.game is not None
        return StateMessages(self.game, self.names(), self.actions, self._clock_view())

    def _send_states(self) -> None:
        if self.game is None:
            return
        states = self._states()
        for client in self.clients:
            client.send(states.for_seat(client.seat))

    def _history(self) -> str:
        """The ``history`` message: the public events so far (every seat saw them), the latest ones."""
        assert self.game is not None
        first = max(0, len(self.game.events) - HISTORY_EVENTS)
        return to_client.history([e.to_json() for e in self.game.events[first:]], self.actions, first)

    def _send_room(self) -> None:
        self._send_all(to_client.room_changed(self.info()))

    def _send_change(self, new_events: list[Event]) -> None:
        """After a change: the public events, round and game ends, then each client's own state."""
        seq = self.actions
        if new_events:
            self._send_all(to_client.events([e.to_json() for e in new_events], seq))
        assert self.game is not None
        for event in new_events:
            if isinstance(event, RoundEnded):
                captures = [slugs_of(m) for m in self.game.history[event.round].captures or []]
                score = event.score.to_json()
                self._send_all(to_client.round_end(event.round, score, event.totals, captures, seq))
                self.hint_desk.round_ended(self, event.round)
            elif isinstance(event, GameEnded):
                self._send_all(self._game_end(event, seq))
        self._send_states()

    def _game_end(self, event: GameEnded, seq: int) -> str:
        """The ``game_end`` message of ``event``, with the record's address."""
        return to_client.game_end(event.winner, event.reason, f"/api/games/{self.id}/record", seq)

    def _ended(self) -> GameEnded | None:
        """The game's end, if it is over (its last event)."""
        if self.game is None or not self.game.over:
            return None
        for event in reversed(self.game.events):
            if isinstance(event, GameEnded):
                return event
        return None

    def _abandoned_end(self) -> str | None:
        """The ``game_end`` of a game that ended with nobody there, if this one did."""
        if self.clock is None or self.clock.ended is None:
            return None
        return to_client.game_end(None, self.clock.ended, f"/api/games/{self.id}/record", self.actions)

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
                ended = self._ended()
                if ended is not None:
                    # A client that comes after the end (a reload, a late spectator) is told
                    # the result and the record's address as those who saw it happen were.
                    client.send(self._game_end(ended, self.actions))
                elif (gone := self._abandoned_end()) is not None:
                    client.send(gone)
            if client.seat is not None:
                self._came_back(client.seat)
            if self.game is not None:
                client.send(self._states().for_seat(client.seat))
            if first:
                self._send_room()
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
            self._nobody_left()
            self._send_room()
        if self.on_idle is not None and self.idle():
            self.on_idle(self)

    async def handle(self, client: Client, message: ClientMessage) -> None:
        """Answer one parsed client message (after ``hello``); raise ProtocolError to refuse it."""
        if isinstance(message, Ping):
            client.send(to_client.pong(message.id))
        elif isinstance(message, Act):
            if client.seat is None:
                raise ProtocolError(text.SPECTATOR_CANNOT_ACT, message.id)
            await self.apply(client.seat, message.action, message.id, message.seq)
        elif isinstance(message, SetSeat):
            await self.set_seat(client, message)
        elif isinstance(message, Start):
            await self.start(client, message.id)
        elif isinstance(message, AskHint):
            await self.hint_desk.ask(self, client, message.id)
        elif isinstance(message, HandOver):
            await self.hand_over(client, message)
        elif isinstance(message, Say | Mute | ChatHistory):
            await chat.handle(self, client, message)
        elif isinstance(message, Hello):
            raise ProtocolError(text.HELLO_AGAIN, message.id)

    # ----------------------------------------------------------------- before the start

    async def join(self, name: str, token_hash: str | None = None) -> tuple[int, str] | None:
        """Seat a new player in the first empty seat: (seat, token), or None if there is none.

        ``token_hash``: the hash of a token the player already holds (quick pairing), instead
        of a new token's (the token answered is then not the seat's)."""
        async with self.lock:
            if self.status != WAITING:
                return None
            for index, seat in enumerate(self.seats):
                if seat.kind == EMPTY:
                    token = new_token()
                    new = Seat(HUMAN, name, None, token_hash or hash_token(token))
                    row = new.row(index)
                    try:
                        await self.db.run(
                            self._fenced(functools.partial(room_store.save_seat, room_id=self.id, seat=row))
                        )
                    except StaleRoom:
                        self._let_go()
                        raise
                    self.seats[index] = new
                    self._send_room()
                    return index, token
        return None

    def _check_host(self, client: Client, msg_id: str | None) -> None:
        if client.seat != 0:
            raise ProtocolError(text.HOST_ONLY, msg_id)
        if self.status != WAITING:
            raise ProtocolError(text.ONLY_BEFORE_START, msg_id)

    async def set_seat(self, client: Client, message: SetSeat) -> None:
        """Host only, before the start: put a bot in a seat, or empty it."""
        async with self.lock:
            self._check_host(client, message.id)
            index = message.seat
            if not 1 <= index < self.players:
                raise ProtocolError(text.SEAT_RANGE, message.id, seat=index, last=self.players - 1)
            if message.kind == BOT:
                if self.rated:
                    raise ProtocolError(text.RATED_PEOPLE_ONLY, message.id)
                level = message.level or default_bot_level()
                if level not in BOT_LEVELS:
                    known = ", ".join(BOT_LEVELS)
                    raise ProtocolError(text.UNKNOWN_BOT, message.id, level=level, known=known)
                new = Seat(BOT, None, level)
            else:
                new = Seat(EMPTY)
            row = new.row(index)
            try:
                await self.db.run(self._fenced(lambda c: room_store.save_seat(c, self.id, row)))
            except StorageError as exc:
                self._let_go(exc)
                raise WriteFailed(text.WRITE_FAILED, message.id) from None
            old = self.seats[index]
            self.seats[index] = new
            if old.kind == HUMAN:
                for other in [c for c in self.clients if c.seat == index]:
                    other.send(to_client.error(text.SEAT_GIVEN_AWAY))
                    other.close(4001, text.SEAT_GIVEN_AWAY)
                    self.clients.remove(other)
            self._send_room()

    async def start(self, client: Client | None, msg_id: str | None = None) -> None:
        """Host only: start the game once every seat has a player or a bot."""
        async with self.lock:
            if client is not None:
                self._check_host(client, msg_id)
            empty = [i for i, s in enumerate(self.seats) if s.kind == EMPTY]
            if empty:
                raise ProtocolError(text.SEATS_EMPTY, msg_id, seats=", ".join(map(str, empty)))
            await self._begin(msg_id)
        self.kick_bots()

    async def _begin(self, msg_id: str | None) -> None:
        game = self._new_game()
        clock = None if self.clock is None else self.clock.copy()
        if clock is not None:
            clock.start_turn(self._clock_seat(game, clock), 0, time.time())

        def work(c: Any) -> None:
            room_store.set_status(c, self.id, PLAYING)
            if clock is not None:
                room_store.save_clock(c, self.id, clock.to_json(), clock.next_deadline())

        try:
            await self.db.run(self._fenced(work))
        except StorageError as exc:
            self.game = None
            self._let_go(exc)
            raise WriteFailed(text.WRITE_FAILED, msg_id) from None
        self.clock = clock
        self.status = PLAYING
        self.arm_clock()
        self._send_room()
        self._send_change(list(game.events))

    # ----------------------------------------------------------------- fencing

    def _fenced(self, op: Callable[[Any], None]) -> Callable[[Any], None]:
        """``op`` (a write to this room) checked first against the stored holder epoch, in its
        transaction (:func:`~roppyakken.server.store.room_store.fence`)."""
        room_id, epoch = self.id, self.epoch

        def work(conn: Any) -> None:
            room_store.fence(conn, room_id, epoch)
            op(conn)

        return work

    def _let_go(self, exc: BaseException | None = None) -> None:
        """A write was refused because the stored room moved on without this server (``exc`` a
        :class:`StaleRoom`; None: always): the room here is behind, so it is let go and loaded
        again from the database wherever it is held (its clients reconnect)."""
        if exc is not None and not isinstance(exc, StaleRoom):
            return
        log.warning("room %s: the stored game moved on without this server; let go, loaded again", self.id)
        if self.on_unheld is not None:
            self.on_unheld()

    # ----------------------------------------------------------------- play

    def _rebuild(self) -> None:
        """The game again from its seed and the stored actions (after a change that could not be stored)."""
        game = self._new_game()
        for seat, action in self.applied:
            game.apply(action, seat)

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
        began = time.perf_counter()
        async with self.lock:
            game = self.game
            if game is None:
                raise ProtocolError(text.NOT_STARTED, msg_id)
            if game.over or self.status == OVER:
                raise ProtocolError(text.GAME_OVER, msg_id)
            if seq is not None and seq != self.actions:
                raise ProtocolError(text.STALE_ACT, msg_id, seq=seq, now=self.actions)
            clock = self.clock
            if clock is not None and not by_clock and not by_bot:
                if clock.abandoned[seat]:
                    raise ProtocolError(text.SEAT_ABANDONED, msg_id)
                if clock.turn == seat and clock.deadline is not None and time.time() > clock.deadline:
                    raise ProtocolError(text.TIME_UP, msg_id)
            seen = self.hint_desk.before(self, game, seat, action)
            try:
                new_events = game.apply(action, seat)
            except IllegalActionError as exc:
                raise ProtocolError.of(exc, msg_id) from None
            index = self.actions
            if self.may_write is not None and not self.may_write():
                # this cluster member is no longer sure to hold the room: another may be moving in it
                self._rebuild()
                if self.on_unheld is not None:
                    self.on_unheld()
                raise WriteFailed(text.WRITE_FAILED, msg_id)
            data = json.dumps(action.to_json(), separators=(",", ":"))
            room_id = self.id
            new_clock, gave_up = self._clock_after(game, seat, index, by_clock, by_bot)
            clock_json = None if new_clock is None else new_clock.to_json()
            deadline = None if new_clock is None else new_clock.next_deadline()
            if game.over:
                fields = record_of(game, self.names(), salt=self.salt)
                if new_clock is not None:
                    fields.update(new_clock.record_fields())
                record = dumps(fields)
                winner, now = game.winner, datetime.now(UTC)
                rating = self._rated_end(game, new_clock)

                def work(c: Any) -> None:
                    room_store.append_action(c, room_id, index, seat, data)
                    room_store.finish_room(c, room_id, winner, record, now)
                    if clock_json is not None:
                        room_store.save_clock(c, room_id, clock_json, None)
                    if gave_up:
                        playban.record(c, room_id, seat, time.time(), playban.TIMEOUT)
                    if rating is not None:  # in the same transaction: durable before visible
                        rating_store.record_game(c, room_id, rating[0], now, **rating[1])

                stored = self.db.submit(self._fenced(work))
            elif gave_up and clock_json is not None:
                # the clock gave the seat up: counted with the move and the clock that tell it
                given_up = clock_json

                def work(c: Any) -> None:
                    room_store.append_action(c, room_id, index, seat, data)
                    room_store.save_clock(c, room_id, given_up, deadline)
                    playban.record(c, room_id, seat, time.time(), playban.TIMEOUT)

                stored = self.db.submit(self._fenced(work))
            elif clock_json is not None:
                clock_text = json.dumps(clock_json, separators=(",", ":"))
                stored = self.db.submit(
                    ActionRow(room_id, index, seat, data, self.epoch, clock_text, deadline)
                )
            else:  # inserted in bulk, fenced too
                stored = self.db.submit(ActionRow(room_id, index, seat, data, self.epoch))
            try:
                await stored
            except StorageError as exc:
                log.error("room %s: action %d not stored, so not made: %s", self.id, index, exc)
                if self.on_write_failed is not None:
                    self.on_write_failed()
                self._rebuild()
                self._let_go(exc)
                raise WriteFailed(text.WRITE_FAILED, msg_id) from None
            self.actions += 1
            self.applied.append((seat, action))
            self.hint_desk.made(seat, seen, action)
            self.last_active = time.monotonic()
            if game.over:
                self.status = OVER
            if new_clock is not None:
                self.clock = new_clock
            if by_clock:
                self._send_all(to_client.timeout(seat, self.actions, gave_up))
            self._send_change(new_events)
            self.arm_clock()
        if self.on_move is not None:
            self.on_move(time.perf_counter() - began)
        self.kick_bots()

    def _rated_end(self, game: Game, clock: Clock | None) -> tuple[str, dict[str, Any]] | None:
        """For a rated room whose game just ended with every seat a person: its rating pool and how it
        ended (:func:`~roppyakken.server.club.ratings.store.record_game`); None if it does not count."""
        if not self.rated or any(s.kind != HUMAN for s in self.seats):
            return None
        try:
            pool = pool_of(self.rules.preset, self.players)
        except ValueError:
            return None
        left = [False] * self.players if clock is None else list(clock.abandoned)
        return pool, {
            "winner": game.winner,
            "totals": list(game.totals),
            "legs": list(game.legs),
            "left": left,
        }

    # ----------------------------------------------------------------- clocks

    def _clock_seat(self, game: Game, clock: Clock) -> int | None:
        """The seat whose clock runs now: the seat to act if a person plays it (not a bot)."""
        if game.over:
            return None
        seat = game.to_act
        if self.seats[seat].kind != HUMAN or clock.abandoned[seat]:
            return None
        return seat

    def _clock_view(self) -> ClockView | None:
        """The ``clock`` of state messages: shown once the room has a clock or a seat was handed over."""
        clock = self.clock
        if clock is None or not (clock.timed or any(clock.abandoned)):
            return None
        return clock.view(time.time())

    def _clock_near(self) -> bool:
        """Whether the clock must act soon, so the room stays in memory (else it is loaded in time)."""
        at = None if self.clock is None or self.status != PLAYING else self.clock.next_deadline()
        return at is not None and at - time.time() < 2 * self.timing.horizon

    def _clock_after(
        self, game: Game, seat: int, index: int, by_clock: bool, by_bot: bool
    ) -> tuple[Clock | None, bool]:
        """The clock once action ``index`` (already applied to ``game``) is made; and whether ``seat``
        was given up by it.  A copy: the room's clock changes only once the move is stored."""
        if self.clock is None:
            return None, False
        clock = self.clock.copy()
        now = time.time()
        gave_up = clock.timed_out(seat, index) if by_clock else False
        if not by_clock and not by_bot:
            clock.moved(seat, now)
        clock.start_turn(self._clock_seat(game, clock), index + 1, now)
        return clock, gave_up

    def _store_clock_soon(self) -> None:
        """Queue the clock's write (ordered with every other write of the room); a failure is logged."""
        clock = self.clock
        if clock is None:
            return
        data, deadline, room_id = clock.to_json(), clock.next_deadline(), self.id
        try:
            stored = self.db.submit(self._fenced(lambda c: room_store.save_clock(c, room_id, data, deadline)))
        except RuntimeError:  # the database is closing (shutdown): the stored clock stays as it was
            return
        stored.add_done_callback(lambda f: f.cancelled() or f.exception())

    def _came_back(self, seat: int) -> None:
        """A client of ``seat`` connected: the seat is no longer absent, and the game not left alone."""
        self.absent_since.pop(seat, None)
        self.hand_votes.pop(seat, None)
        clock = self.clock
        if clock is None:
            return
        changed = clock.away[seat]  # back: no longer marked away (its timeouts in a row still count)
        clock.away[seat] = False
        if clock.abandon_at is not None:
            clock.abandon_at = None
            self._store_clock_soon()
            self.arm_clock()
        elif changed:
            self._store_clock_soon()  # the mark is stored with the clock: a restart keeps it cleared
        if changed:
            self._send_states()

    def _nobody_left(self) -> None:
        """The last player went away: a game without a clock ends as abandoned if nobody comes back."""
        if self.status != PLAYING or self.game is None or self.game.over:
            return
        if any(c.seat is not None for c in self.clients):
            return
        if self.clock is not None and self.clock.timed:
            return
        if self.clock is None:
            self.clock = Clock.new(NONE, self.players)
        self.clock.abandon_at = time.time() + self.timing.abandon_after
        self._store_clock_soon()
        self.arm_clock()

    def arm_clock(self) -> None:
        """Set the room's one timer to the clock's next deadline (after every change and on loading)."""
        if self._clock_timer is not None:
            self._clock_timer.cancel()
            self._clock_timer = None
        clock = self.clock
        if clock is None or self.evicted or self.status != PLAYING:
            return
        at = clock.next_deadline()
        if at is None:
            return
        loop = asyncio.get_running_loop()
        self._clock_timer = loop.call_at(loop.time() + max(0.0, at - time.time()), self._clock_fired, at)

    def _clock_fired(self, at: float) -> None:
        self._clock_timer = None
        if self.evicted:
            return
        if self.on_clock is not None:
            self.on_clock(time.time() - at)
        if self._clock_task is not None and not self._clock_task.done():
            # the clock is still making the last move: look again in a moment
            self._clock_timer = asyncio.get_running_loop().call_later(0.02, self._clock_fired, at)
            return
        self._clock_task = asyncio.create_task(self._clock_due(at), name=f"clock-{self.id}")

    async def _clock_due(self, at: float) -> None:
        """The deadline ``at`` passed: play the move of the seat whose time ran out, or end a game
        left alone."""
        clock = self.clock
        if clock is None or self.evicted:
            return
        if clock.turn is not None and clock.deadline == at:
            await self._play_for(clock.turn, clock.move)
        elif clock.abandon_at == at:
            await self._end_abandoned()
        if self.on_idle is not None and self.idle():
            self.on_idle(self)

    async def _play_for(self, seat: int, move: int) -> None:
        """The clock plays ``seat``'s move ``move`` with the expert bot (stored before anyone sees it)."""
        failures = 0
        while not self.evicted:
            game = self.game
            if game is None or game.over or self.actions != move or game.to_act != seat:
                return
            view = view_of(game, seat)
            try:
                action, _ = await self.bots.decide(
                    self.owner, CLOCK_BOT, decision_seed(self.seed, seat, move), view
                )
            except Exception:
                log.exception("room %s: the clock's bot failed; it plays the first legal action", self.id)
                action = view.legal[0]
            try:
                await self.apply(seat, action, seq=move, by_clock=True)
                return
            except WriteFailed:
                delay = BOT_RETRY_DELAYS[min(failures, len(BOT_RETRY_DELAYS) - 1)]
                failures += 1
                await asyncio.sleep(delay)
            except ProtocolError:
                return  # the player moved in time after all, or the game is over

    async def _end_abandoned(self) -> None:
        """Nobody came back to a game without a clock: it ends as abandoned (stored, then told)."""
        async with self.lock:
            game, clock = self.game, self.clock
            if game is None or game.over or self.status != PLAYING or clock is None:
                return
            if any(c.seat is not None for c in self.clients) or clock.abandon_at is None:
                return
            ended = clock.copy()
            ended.ended, ended.abandon_at = "abandoned", None
            fields = record_of(game, self.names(), salt=self.salt)
            fields.update(ended.record_fields())
            record, now, room_id, data = dumps(fields), datetime.now(UTC), self.id, ended.to_json()

            def work(c: Any) -> None:
                room_store.finish_room(c, room_id, None, record, now)
                room_store.save_clock(c, room_id, data, None)

            try:
                await self.db.run(self._fenced(work))
            except StorageError as exc:
                if isinstance(exc, StaleRoom):
                    self._let_go(exc)
                    return
                log.error(
                    "room %s: its end as abandoned was not stored (%s); tried again later", self.id, exc
                )
                clock.abandon_at = time.time() + max(1.0, self.timing.horizon / 4)
                self.arm_clock()
                return
            self.clock = ended
            self.status = OVER
            log.info("room %s: ended as abandoned (nobody came back)", self.id)
            self._send_all(
                to_client.game_end(None, "abandoned", f"/api/games/{self.id}/record", self.actions)
            )
            self._send_room()

    async def hand_over(self, client: Client, message: HandOver) -> None:
        """No clock: the sender agrees to hand the absent player of ``message.seat`` to a bot; once every
        connected player agreed, a bot plays that seat to the end (stored, then told)."""
        seat, msg_id = message.seat, message.id
        async with self.lock:
            if client.seat is None:
                raise ProtocolError(text.SPECTATOR_CANNOT_ACT, msg_id)
            game = self.game
            if game is None or self.status == WAITING:
                raise ProtocolError(text.NOT_STARTED, msg_id)
            if game.over or self.status == OVER:
                raise ProtocolError(text.GAME_OVER, msg_id)
            clock = self.clock
            if clock is not None and clock.timed:
                raise ProtocolError(text.HAND_OVER_CLOCKED, msg_id)
            if clock is not None and clock.abandoned[client.seat]:
                raise ProtocolError(text.SEAT_ABANDONED, msg_id)
            gone = clock is not None and seat < self.players and clock.abandoned[seat]
            if seat >= self.players or seat == client.seat or self.seats[seat].kind != HUMAN or gone:
                raise ProtocolError(text.HAND_OVER_SEAT, msg_id, seat=seat)
            since = self.absent_since.get(seat)
            if since is None or any(c.seat == seat for c in self.clients):
                raise ProtocolError(text.HAND_OVER_PRESENT, msg_id, seat=seat)
            wait = self.timing.hand_over_after - (time.monotonic() - since)
            if wait > 0:
                raise ProtocolError(
                    text.HAND_OVER_WAIT,
                    msg_id,
                    seat=seat,
                    after=f"{self.timing.hand_over_after:g}",
                    wait=math.ceil(wait),
                )
            votes = self.hand_votes.setdefault(seat, set())
            votes.add(client.seat)
            present = {c.seat for c in self.clients if c.seat is not None and c.seat != seat}
            if clock is not None:
                present = {s for s in present if not clock.abandoned[s]}
            done = present <= votes
            if done:
                new = (clock or Clock.new(NONE, self.players)).copy()
                new.abandoned[seat] = True
                data, deadline, room_id = new.to_json(), new.next_deadline(), self.id

                def work(c: Any) -> None:
                    room_store.save_clock(c, room_id, data, deadline)
                    playban.record(c, room_id, seat, time.time(), playban.HANDED)

                try:
                    await self.db.run(self._fenced(work))
                except StorageError as exc:
                    self._let_go(exc)
                    raise WriteFailed(text.WRITE_FAILED, msg_id) from None
                self.clock = new
                del self.hand_votes[seat]
            self._send_all(to_client.handed(seat, votes, done))
            if done:
                self._send_states()
        self.kick_bots()

    def fenced(self, op: Callable[[Any], None]) -> Callable[[Any], None]:
        """``op``, a write to this room, checked against its holder epoch (for the hub's clock writes)."""
        return self._fenced(op)

    def pause_clock(self) -> tuple[dict[str, Any], float | None] | None:
        """The server stops: stop the timer and keep what is left on the running clock (to store)."""
        if self._clock_timer is not None:
            self._clock_timer.cancel()
            self._clock_timer = None
        clock = self.clock
        if clock is None or not clock.timed or clock.turn is None or self.status != PLAYING:
            return None
        clock.pause(time.time())
        return clock.to_json(), clock.next_deadline()

    async def stop_clock(self) -> None:
        """Stop the timer and a move the clock is making."""
        if self._clock_timer is not None:
            self._clock_timer.cancel()
            self._clock_timer = None
        task = self._clock_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # ----------------------------------------------------------------- bots

    def _bot_to_act(self) -> str | None:
        """The level of the bot to act now, if a bot is to act."""
        game = self.game
        if game is None or game.over or self.status != PLAYING:
            return None
        timed = self.clock is not None and self.clock.timed
        if not self.clients and not timed:
            return None  # without a clock, bots wait while nobody is there to see them play
        seat = self.seats[game.to_act]
        if self.clock is not None and self.clock.abandoned[game.to_act]:
            return CLOCK_BOT
        return seat.level if seat.kind == BOT and seat.level is not None else None

    def kick_bots(self) -> None:
        """Start the bot loop if a bot is to act and it is not running (after a change or a restore)."""
        if self._bot_task is not None and not self._bot_task.done():
            return
        if self._bot_to_act() is not None and not self.evicted:
            self._bot_task = asyncio.create_task(self._bot_loop(), name=f"bots-{self.id}")

    async def _bot_loop(self) -> None:
        """While a bot is to act: wait the pacing delay, let it choose off the event loop, apply."""
        failures = 0
        while (level := self._bot_to_act()) is not None and self.game is not None:
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            index = self.game.to_act
            view = view_of(self.game, index)
            seed = decision_seed(self.seed, index, self.actions)
            asked = time.perf_counter()
            try:
                action, thought = await self.bots.decide(self.owner, level, seed, view)
                if self.on_bot is not None:
                    self.on_bot(level, thought, time.perf_counter() - asked - thought)
            except Exception:
                log.exception("room %s: bot %s failed; it plays its first legal action", self.id, level)
                action = view.legal[0]
            if self.game.to_act != index or self.game.over:
                continue
            try:
                await self.apply(index, action, by_bot=True)
                failures = 0
            except WriteFailed:
                if self.evicted:
                    break  # let go (no longer held here): it is loaded again wherever it is held
                delay = BOT_RETRY_DELAYS[min(failures, len(BOT_RETRY_DELAYS) - 1)]
                failures += 1
                await asyncio.sleep(delay)  # the game is as it was: the bot chooses again
            except ProtocolError as exc:
                log.error("room %s: bot %s chose an illegal action (%s)", self.id, level, exc)
                await self.apply(index, view.legal[0], by_bot=True)
        self._bot_task = None
        if self.on_idle is not None and self.idle():
            self.on_idle(self)

    async def stop(self) -> None:
        """Stop the bot loop, the clock and the reviews being worked out (server shutdown)."""
        await self.stop_clock()
        await self.hint_desk.stop()
        task = self._bot_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
