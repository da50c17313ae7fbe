"""A room: its seats, its one :class:`~roppyakken.engine.Game`, its connected clients and its bots.

The room is the authority for its game.  Every change goes through
:meth:`Room.act` (humans) or the bot loop, under the room's lock: the action is
checked and applied by the engine, stored (committed) and only then sent — an
``events`` message to everyone, then each client's own ``state`` built with
:func:`~roppyakken.view.view_of` for its seat (spectators: no hand).  Anything
refused raises :class:`~roppyakken.server.protocol.ProtocolError`, which the
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
from roppyakken.errors import IllegalActionError, RoppyakkenError
from roppyakken.events import Event, GameEnded, RoundEnded
from roppyakken.record import deal_commitment, dumps, record_of
from roppyakken.rules import Rules, from_options
from roppyakken.server import protocol, storage, text
from roppyakken.server.bots import BotRunner, decision_seed
from roppyakken.server.db import ActionRow, Database, StaleRoom, StorageError
from roppyakken.server.hints import OPTION_KEY, HintDesk
from roppyakken.server.protocol import (
    Act,
    AskHint,
    ClientMessage,
    Hello,
    Ping,
    ProtocolError,
    SetSeat,
    Start,
)
from roppyakken.server.views import StateMessages
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

    def row(self, index: int) -> storage.SeatRow:
        """The seat as stored."""
        return storage.SeatRow(index, self.kind, self.name, self.level, self.token_hash)


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
        epoch: int = 1,
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
        """Hints and round reviews (server/hints.py); ``hints``: on for every player."""

    # ----------------------------------------------------------------- building

    @classmethod
    def restore(cls, stored: storage.StoredRoom, *, db: Database, bots: BotRunner, bot_delay: float) -> Room:
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
            epoch=row.epoch,
        )
        expected = list(range(len(stored.indexes)))
        if stored.indexes != expected:
            missing = next(i for i, (a, b) in enumerate(zip(stored.indexes, expected, strict=True)) if a != b)
            raise RestoreError(text.RESTORE_GAP.format(room=row.id, index=missing))
        if row.status != WAITING:
            game = room._new_game()
            for index, data in enumerate(stored.actions):
                try:
                    action = action_from_json(json.loads(data))
                    seat = game.to_act
                    game.apply(action)
                except (RoppyakkenError, ValueError) as exc:
                    raise RestoreError(
                        text.RESTORE_BAD_MOVE.format(room=row.id, index=index, reason=exc)
                    ) from None
                room.applied.append((seat, action))
            room.actions = len(stored.actions)
        return room

    def row(self) -> storage.RoomRow:
        """The room as stored."""
        return storage.RoomRow(
            id=self.id,
            created_at=self.created_at,
            players=self.players,
            preset=self.rules.preset,
            options={**self.rules.options(), **({OPTION_KEY: True} if self.hint_desk.enabled else {})},
            seed=self.seed,
            status=self.status,
            salt=self.salt,
            epoch=self.epoch,
        )

    def start_now(self) -> None:
        """Start the game before anyone connects ("play against bots": every other seat is a bot)."""
        self.status = PLAYING
        self._new_game()

    def _new_game(self) -> Game:
        self.game = Game(self.rules, self.players, self.seed)
        return self.game

    # ----------------------------------------------------------------- queries

    def info(self) -> dict[str, Any]:
        """The room as ``GET /api/rooms/<room>`` and ``room_info`` show it (no tokens)."""
        connected = {c.seat for c in self.clients}
        seats: list[dict[str, Any]] = []
        for index, seat in enumerate(self.seats):
            entry: dict[str, Any] = {
                "name": seat.display_name if seat.kind != EMPTY else None,
                "kind": seat.kind,
                "connected": seat.kind == BOT or index in connected,
            }
            if seat.kind == BOT:
                entry["level"] = seat.level
            seats.append(entry)
        return {
            "room": self.id,
            "players": self.players,
            "rules": self._rules_json,
            "seats": seats,
            "status": self.status,
            "commitment": self.commitment,
            "hints": self.hint_desk.enabled,
        }

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
        return not self.clients and not busy and not self.lock.locked()

    # ----------------------------------------------------------------- sending

    def _send_all(self, message: str) -> None:
        for client in self.clients:
            client.send(message)

    def _states(self) -> StateMessages:
        assert self.game is not None
        return StateMessages(self.game, self.names(), self.actions)

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
        return protocol.history([e.to_json() for e in self.game.events[first:]], self.actions, first)

    def _send_room(self) -> None:
        self._send_all(protocol.room_changed(self.info()))

    def _send_change(self, new_events: list[Event]) -> None:
        """After a change: the public events, round and game ends, then each client's own state."""
        seq = self.actions
        if new_events:
            self._send_all(protocol.events([e.to_json() for e in new_events], seq))
        assert self.game is not None
        for event in new_events:
            if isinstance(event, RoundEnded):
                captures = [slugs_of(m) for m in self.game.history[event.round].captures or []]
                score = event.score.to_json()
                self._send_all(protocol.round_end(event.round, score, event.totals, captures, seq))
                self.hint_desk.round_ended(self, event.round)
            elif isinstance(event, GameEnded):
                self._send_all(self._game_end(event, seq))
        self._send_states()

    def _game_end(self, event: GameEnded, seq: int) -> str:
        """The ``game_end`` message of ``event``, with the record's address."""
        return protocol.game_end(event.winner, event.reason, f"/api/games/{self.id}/record", seq)

    def _ended(self) -> GameEnded | None:
        """The game's end, if it is over (its last event)."""
        if self.game is None or not self.game.over:
            return None
        for event in reversed(self.game.events):
            if isinstance(event, GameEnded):
                return event
        return None

    # ----------------------------------------------------------------- connections

    async def attach(self, client: Client) -> bool:
        """Welcome a client (after its ``hello``); False if the room left memory meanwhile."""
        async with self.lock:
            if self.evicted:
                return False
            first = client.seat is not None and all(c.seat != client.seat for c in self.clients)
            self.clients.append(client)
            client.send(protocol.welcome(self.id, client.seat, self.info()))
            if self.game is not None:
                client.send(self._history())
                ended = self._ended()
                if ended is not None:
                    # A client that comes after the end (a reload, a late spectator) is told
                    # the result and the record's address as those who saw it happen were.
                    client.send(self._game_end(ended, self.actions))
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
            self._send_room()
        if self.on_idle is not None and self.idle():
            self.on_idle(self)

    async def handle(self, client: Client, message: ClientMessage) -> None:
        """Answer one parsed client message (after ``hello``); raise ProtocolError to refuse it."""
        if isinstance(message, Ping):
            client.send(protocol.pong(message.id))
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
        elif isinstance(message, Hello):
            raise ProtocolError(text.HELLO_AGAIN, message.id)

    # ----------------------------------------------------------------- before the start

    async def join(self, name: str) -> tuple[int, str] | None:
        """Seat a new player in the first empty seat: (seat, token), or None if there is none."""
        async with self.lock:
            if self.status != WAITING:
                return None
            for index, seat in enumerate(self.seats):
                if seat.kind == EMPTY:
                    token = new_token()
                    new = Seat(HUMAN, name, None, hash_token(token))
                    row = new.row(index)
                    try:
                        await self.db.run(
                            self._fenced(functools.partial(storage.save_seat, room_id=self.id, seat=row))
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
                raise ProtocolError(text.SEAT_RANGE.format(seat=index, last=self.players - 1), message.id)
            if message.kind == BOT:
                level = message.level or default_bot_level()
                if level not in BOT_LEVELS:
                    known = ", ".join(BOT_LEVELS)
                    raise ProtocolError(text.UNKNOWN_BOT.format(level=level, known=known), message.id)
                new = Seat(BOT, None, level)
            else:
                new = Seat(EMPTY)
            row = new.row(index)
            try:
                await self.db.run(self._fenced(lambda c: storage.save_seat(c, self.id, row)))
            except StorageError as exc:
                self._let_go(exc)
                raise WriteFailed(text.WRITE_FAILED, message.id) from None
            old = self.seats[index]
            self.seats[index] = new
            if old.kind == HUMAN:
                for other in [c for c in self.clients if c.seat == index]:
                    other.send(protocol.error(text.SEAT_GIVEN_AWAY))
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
                raise ProtocolError(text.SEATS_EMPTY.format(seats=", ".join(map(str, empty))), msg_id)
            await self._begin(msg_id)
        self.kick_bots()

    async def _begin(self, msg_id: str | None) -> None:
        try:
            await self.db.run(self._fenced(lambda c: storage.set_status(c, self.id, PLAYING)))
        except StorageError as exc:
            self._let_go(exc)
            raise WriteFailed(text.WRITE_FAILED, msg_id) from None
        game = self._new_game()
        self.status = PLAYING
        self._send_room()
        self._send_change(list(game.events))

    # ----------------------------------------------------------------- fencing

    def _fenced(self, op: Callable[[Any], None]) -> Callable[[Any], None]:
        """``op`` (a write to this room) checked first against the stored holder epoch, in its
        transaction (:func:`~roppyakken.server.storage.fence`)."""
        room_id, epoch = self.id, self.epoch

        def work(conn: Any) -> None:
            storage.fence(conn, room_id, epoch)
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
        self, seat: int, action: Action, msg_id: str | None = None, seq: int | None = None
    ) -> None:
        """Apply ``action`` for ``seat``: checked by the engine, stored, then sent to every client.

        ``seq`` (the sender's ``act.seq``) is checked under the lock: two acts sent for the
        same state (two sockets of one seat, a resend) cannot both be made.

        Durable before visible: if the write fails, the game is put back as it
        was, nothing is sent to anyone, and :class:`WriteFailed` tells the sender.
        """
        began = time.perf_counter()
        async with self.lock:
            game = self.game
            if game is None:
                raise ProtocolError(text.NOT_STARTED, msg_id)
            if game.over:
                raise ProtocolError(text.GAME_OVER, msg_id)
            if seq is not None and seq != self.actions:
                raise ProtocolError(text.STALE_ACT.format(seq=seq, now=self.actions), msg_id)
            seen = self.hint_desk.before(self, game, seat, action)
            try:
                new_events = game.apply(action, seat)
            except IllegalActionError as exc:
                raise ProtocolError(str(exc), msg_id) from None
            index = self.actions
            if self.may_write is not None and not self.may_write():
                # this cluster member is no longer sure to hold the room: another may be moving in it
                self._rebuild()
                if self.on_unheld is not None:
                    self.on_unheld()
                raise WriteFailed(text.WRITE_FAILED, msg_id)
            data = json.dumps(action.to_json(), separators=(",", ":"))
            room_id = self.id
            if game.over:
                record = dumps(record_of(game, self.names(), salt=self.salt))
                winner, now = game.winner, datetime.now(UTC)

                def work(c: Any) -> None:
                    storage.append_action(c, room_id, index, seat, data)
                    storage.finish_room(c, room_id, winner, record, now)

                stored = self.db.submit(self._fenced(work))
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
            self._send_change(new_events)
        if self.on_move is not None:
            self.on_move(time.perf_counter() - began)
        self.kick_bots()

    # ----------------------------------------------------------------- bots

    def _bot_to_act(self) -> Seat | None:
        game = self.game
        if game is None or game.over or self.status != PLAYING or not self.clients:
            return None  # bots wait while nobody is there to see them play
        seat = self.seats[game.to_act]
        return seat if seat.kind == BOT and seat.level is not None else None

    def kick_bots(self) -> None:
        """Start the bot loop if a bot is to act and it is not running (after a change or a restore)."""
        if self._bot_task is not None and not self._bot_task.done():
            return
        if self._bot_to_act() is not None and not self.evicted:
            self._bot_task = asyncio.create_task(self._bot_loop(), name=f"bots-{self.id}")

    async def _bot_loop(self) -> None:
        """While a bot is to act: wait the pacing delay, let it choose off the event loop, apply."""
        failures = 0
        while (seat := self._bot_to_act()) is not None and self.game is not None:
            if self.bot_delay > 0:
                await asyncio.sleep(self.bot_delay)
            index = self.game.to_act
            view = view_of(self.game, index)
            assert seat.level is not None
            seed = decision_seed(self.seed, index, self.actions)
            asked = time.perf_counter()
            try:
                action, thought = await self.bots.decide(self.owner, seat.level, seed, view)
                if self.on_bot is not None:
                    self.on_bot(seat.level, thought, time.perf_counter() - asked - thought)
            except Exception:
                log.exception("room %s: bot %s failed; it plays its first legal action", self.id, seat.level)
                action = view.legal[0]
            if self.game.to_act != index or self.game.over:
                continue
            try:
                await self.apply(index, action)
                failures = 0
            except WriteFailed:
                if self.evicted:
                    break  # let go (no longer held here): it is loaded again wherever it is held
                delay = BOT_RETRY_DELAYS[min(failures, len(BOT_RETRY_DELAYS) - 1)]
                failures += 1
                await asyncio.sleep(delay)  # the game is as it was: the bot chooses again
            except ProtocolError as exc:
                log.error("room %s: bot %s chose an illegal action (%s)", self.id, seat.level, exc)
                await self.apply(index, view.legal[0])
        self._bot_task = None
        if self.on_idle is not None and self.idle():
            self.on_idle(self)

    async def stop(self) -> None:
        """Stop the bot loop and the reviews being worked out (server shutdown)."""
        await self.hint_desk.stop()
        task = self._bot_task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
