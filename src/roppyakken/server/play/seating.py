"""Changes to a room's seats: joining before the start, the host's bots, the start, and a seat
handed over to a bot once every player there agreed.  Each is stored before anyone sees it."""

from __future__ import annotations

import functools
import math
import time
from typing import Any

from roppyakken.ai.base import BOT_LEVELS
from roppyakken.server.people import playban
from roppyakken.server.play.clocks import NONE, Clock
from roppyakken.server.play.moves import clock_seat
from roppyakken.server.play.runner import WriteFailed
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
    new_token,
)
from roppyakken.server.play.state import RoomState
from roppyakken.server.store import room_store
from roppyakken.server.store.database import StaleRoom, StorageError
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire import text
from roppyakken.server.wire.client import HandOver, SetSeat
from roppyakken.server.wire.protocol import ProtocolError


async def join(room: RoomState, name: str, token_hash: str | None = None) -> tuple[int, str] | None:
    """Seat a new player in the first empty seat: (seat, token), or None if there is none."""
    async with room.lock:
        if room.status != WAITING:
            return None
        for index, seat in enumerate(room.seats):
            if seat.kind == EMPTY:
                token = new_token()
                new = Seat(HUMAN, name, None, token_hash or hash_token(token))
                row = new.row(index)
                try:
                    await room.db.run(
                        room.fenced(functools.partial(room_store.save_seat, room_id=room.id, seat=row))
                    )
                except StaleRoom:
                    room.let_go()
                    raise
                room.seats[index] = new
                room.send_room()
                return index, token
    return None


def check_host(room: RoomState, client: Client, msg_id: str | None) -> None:
    """Refuse what only the host may do, and only before the start."""
    if client.seat != 0:
        raise ProtocolError(text.HOST_ONLY, msg_id)
    if room.status != WAITING:
        raise ProtocolError(text.ONLY_BEFORE_START, msg_id)


async def set_seat(room: RoomState, client: Client, message: SetSeat) -> None:
    """Host only, before the start: put a bot in a seat, or empty it."""
    async with room.lock:
        check_host(room, client, message.id)
        index = message.seat
        if not 1 <= index < room.players:
            raise ProtocolError(text.SEAT_RANGE, message.id, seat=index, last=room.players - 1)
        if message.kind == BOT:
            if room.rated:
                raise ProtocolError(text.RATED_PEOPLE_ONLY, message.id)
            level = message.level or default_bot_level()
            if level not in BOT_LEVELS:
                known = ", ".join(BOT_LEVELS)
                raise ProtocolError(text.UNKNOWN_BOT, message.id, level=level, known=known)
            new = Seat(BOT, None, level)
        else:
            new = Seat(EMPTY)
        row, room_id = new.row(index), room.id
        try:
            await room.db.run(room.fenced(lambda c: room_store.save_seat(c, room_id, row)))
        except StorageError as exc:
            room.let_go(exc)
            raise WriteFailed(text.WRITE_FAILED, message.id) from None
        old = room.seats[index]
        room.seats[index] = new
        if old.kind == HUMAN:
            for other in [c for c in room.clients if c.seat == index]:
                other.send(to_client.error(text.SEAT_GIVEN_AWAY))
                other.close(4001, text.SEAT_GIVEN_AWAY)
                room.clients.remove(other)
        room.send_room()


async def start(room: RoomState, client: Client | None, msg_id: str | None = None) -> None:
    """Host only: start the game once every seat has a player or a bot."""
    async with room.lock:
        if client is not None:
            check_host(room, client, msg_id)
        empty = [i for i, s in enumerate(room.seats) if s.kind == EMPTY]
        if empty:
            raise ProtocolError(text.SEATS_EMPTY, msg_id, seats=", ".join(map(str, empty)))
        await _begin(room, msg_id)
    room.kick_bots()


async def _begin(room: RoomState, msg_id: str | None) -> None:
    game = room.new_game()
    clock = None if room.clock is None else room.clock.copy()
    if clock is not None:
        clock.start_turn(clock_seat(room, game, clock), 0, time.time())
    room_id = room.id

    def work(c: Any) -> None:
        room_store.set_status(c, room_id, PLAYING)
        if clock is not None:
            room_store.save_clock(c, room_id, clock.to_json(), clock.next_deadline())

    try:
        await room.db.run(room.fenced(work))
    except StorageError as exc:
        room.game = None
        room.let_go(exc)
        raise WriteFailed(text.WRITE_FAILED, msg_id) from None
    room.clock = clock
    room.status = PLAYING
    room.arm_clock()
    room.send_room()
    room.send_change(list(game.events))


def _check_hand_over(room: RoomState, client: Client, seat: int, msg_id: str | None) -> None:
    """Refuse a hand-over the sender may not ask for."""
    if client.seat is None:
        raise ProtocolError(text.SPECTATOR_CANNOT_ACT, msg_id)
    game = room.game
    if game is None or room.status == WAITING:
        raise ProtocolError(text.NOT_STARTED, msg_id)
    if game.over or room.status == OVER:
        raise ProtocolError(text.GAME_OVER, msg_id)
    clock = room.clock
    if clock is not None and clock.timed:
        raise ProtocolError(text.HAND_OVER_CLOCKED, msg_id)
    if clock is not None and clock.abandoned[client.seat]:
        raise ProtocolError(text.SEAT_ABANDONED, msg_id)
    gone = clock is not None and seat < room.players and clock.abandoned[seat]
    if seat >= room.players or seat == client.seat or room.seats[seat].kind != HUMAN or gone:
        raise ProtocolError(text.HAND_OVER_SEAT, msg_id, seat=seat)
    since = room.absent_since.get(seat)
    if since is None or any(c.seat == seat for c in room.clients):
        raise ProtocolError(text.HAND_OVER_PRESENT, msg_id, seat=seat)
    wait = room.timing.hand_over_after - (time.monotonic() - since)
    if wait > 0:
        after = f"{room.timing.hand_over_after:g}"
        raise ProtocolError(text.HAND_OVER_WAIT, msg_id, seat=seat, after=after, wait=math.ceil(wait))


async def hand_over(room: RoomState, client: Client, message: HandOver) -> None:
    """No clock: the sender agrees to hand the absent player of ``message.seat`` to a bot; once every
    connected player agreed, a bot plays that seat to the end (stored, then told)."""
    seat, msg_id = message.seat, message.id
    async with room.lock:
        _check_hand_over(room, client, seat, msg_id)
        assert client.seat is not None
        clock = room.clock
        votes = room.hand_votes.setdefault(seat, set())
        votes.add(client.seat)
        present = {c.seat for c in room.clients if c.seat is not None and c.seat != seat}
        if clock is not None:
            present = {s for s in present if not clock.abandoned[s]}
        done = present <= votes
        if done:
            new = (clock or Clock.new(NONE, room.players)).copy()
            new.abandoned[seat] = True
            data, deadline, room_id = new.to_json(), new.next_deadline(), room.id

            def work(c: Any) -> None:
                room_store.save_clock(c, room_id, data, deadline)
                playban.record(c, room_id, seat, time.time(), playban.HANDED)

            try:
                await room.db.run(room.fenced(work))
            except StorageError as exc:
                room.let_go(exc)
                raise WriteFailed(text.WRITE_FAILED, msg_id) from None
            room.clock = new
            del room.hand_votes[seat]
        room.send_all(to_client.handed(seat, votes, done))
        if done:
            room.send_states()
    room.kick_bots()
