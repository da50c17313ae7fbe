"""The imperative shell of a move: it performs what the core decided (server/play/moves.py).

In order, under the room's lock: the cluster fence (this member still holds the
room), the write (fenced by the room's holder epoch, in one transaction with the
game-over work of :class:`~roppyakken.server.play.effects.RoomRecords`), and only
once the move is durable the room's new state, the messages, and the clock's
timer.  If the write fails the engine's game is rebuilt from the stored actions,
nothing is sent to anyone, and :class:`WriteFailed` tells the sender.
"""

from __future__ import annotations

import json
import logging
import time
from datetime import UTC, datetime
from typing import Any, Final

from roppyakken.actions import Action
from roppyakken.server.people import playban
from roppyakken.server.play.effects import (
    Broadcast,
    MoveEffects,
    ReviewRound,
    SendStates,
    StoreMove,
    Tell,
    Work,
)
from roppyakken.server.play.moves import decide_move
from roppyakken.server.play.seats import OVER
from roppyakken.server.play.state import RoomState
from roppyakken.server.store import room_store
from roppyakken.server.store.database import ActionRow, StorageError
from roppyakken.server.wire import text
from roppyakken.server.wire.protocol import ProtocolError

log = logging.getLogger("roppyakken.server")


BOT_RETRY_DELAYS: Final = (0.5, 1.0, 2.0, 4.0, 8.0)
"""Seconds a bot (or the clock) waits before trying again after its move could not be stored."""


class WriteFailed(ProtocolError):
    """The change could not be stored, so it was not made (the sender may try again)."""


def write_of(room: RoomState, store: StoreMove) -> ActionRow | Work:
    """The write of one move: a plain action (and clock) row, inserted in bulk and fenced by the
    writer, or fenced work in one transaction when the move gives a seat up or ends the game."""
    room_id, index, seat, data = store.room_id, store.index, store.seat, store.action
    ending, clock, deadline = store.ending, store.clock, store.deadline
    if ending is None and not (store.gave_up and clock is not None):
        if clock is None:
            return ActionRow(room_id, index, seat, data, store.epoch)
        clock_text = json.dumps(clock, separators=(",", ":"))
        return ActionRow(room_id, index, seat, data, store.epoch, clock_text, deadline)
    more = None if ending is None else room.hooks.records.ended(ending)

    def work(c: Any) -> None:
        room_store.append_action(c, room_id, index, seat, data)
        if ending is not None:
            room_store.finish_room(c, room_id, store.winner, ending.record, ending.at)
        if clock is not None:
            room_store.save_clock(c, room_id, clock, deadline)
        if store.gave_up:  # counted with the move and the clock that tell it
            playban.record(c, room_id, seat, store.at, playban.TIMEOUT)
        if more is not None:  # in the same transaction: durable before visible
            more(c)

    return room.fenced(work)


def perform(room: RoomState, tells: tuple[Tell, ...] | list[Tell]) -> None:
    """Tell the room's clients what a change comes to."""
    for tell in tells:
        if isinstance(tell, Broadcast):
            room.send_all(tell.message)
        elif isinstance(tell, ReviewRound):
            room.hint_desk.round_ended(room, tell.round)
        elif isinstance(tell, SendStates):
            room.send_states()


def commit(room: RoomState, effects: MoveEffects) -> None:
    """The room takes a stored move."""
    room.actions += 1
    room.applied.append((effects.seat, effects.action))
    room.hint_desk.made(effects.seat, effects.seen, effects.action)
    room.last_active = time.monotonic()
    if effects.over:
        room.status = OVER
    if effects.clock is not None:
        room.clock = effects.clock


async def apply(
    room: RoomState,
    seat: int,
    action: Action,
    msg_id: str | None = None,
    seq: int | None = None,
    *,
    by_clock: bool = False,
    by_bot: bool = False,
) -> None:
    """Apply ``action`` for ``seat``: decided by the core, stored, then sent (see the module docstring)."""
    began = time.perf_counter()
    async with room.lock:
        effects = decide_move(
            room,
            seat,
            action,
            msg_id,
            seq,
            now=time.time(),
            today=datetime.now(UTC),
            by_clock=by_clock,
            by_bot=by_bot,
        )
        if not room.hooks.may_write(room.id) and not await room.hooks.still_held(room.id):
            # this cluster member does not hold the room any more (its lease renewed late is asked
            # about first): another may be moving in it
            room.rebuild()
            room.hooks.unheld(room)
            raise WriteFailed(text.WRITE_FAILED, msg_id)
        submitted = time.perf_counter()
        try:
            await room.db.submit(write_of(room, effects.store))
        except StorageError as exc:
            log.error("room %s: action %d not stored, so not made: %s", room.id, effects.store.index, exc)
            room.hooks.write_failed()
            room.rebuild()
            room.let_go(exc)
            raise WriteFailed(text.WRITE_FAILED, msg_id) from None
        stored = time.perf_counter() - submitted
        commit(room, effects)
        perform(room, effects.tell)
        room.arm_clock()
    room.hooks.moved(time.perf_counter() - began, stored)
    room.kick_bots()
