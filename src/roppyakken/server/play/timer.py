"""A room's clock at work: its one timer, the moves the clock makes, a game left alone ending.

The clock's rules are server/play/clocks.py's; this is the room's side: the
timer set to the clock's next deadline (:meth:`ClockTimer.arm`), the expert bot
playing the move of a seat whose time ran out, the end of a game nobody came
back to, and the marks of seats coming and going.  Every change is stored
before anyone sees it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref
from datetime import UTC, datetime
from typing import Any

from roppyakken.ai.offline import decision_seed
from roppyakken.record import dumps, record_of
from roppyakken.server.play.clocks import CLOCK_BOT, NONE, Clock
from roppyakken.server.play.effects import Ending
from roppyakken.server.play.moves import record_address
from roppyakken.server.play.runner import BOT_RETRY_DELAYS, WriteFailed
from roppyakken.server.play.seats import OVER, PLAYING
from roppyakken.server.play.state import RoomState
from roppyakken.server.store import room_store
from roppyakken.server.store.database import StaleRoom, StorageError
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire.protocol import ProtocolError
from roppyakken.view import view_of

log = logging.getLogger("roppyakken.server")


class ClockTimer:
    """The timer of one room's clock, and the move or end it fires.

    It names its room weakly (a room let go is freed at once, without a cycle to collect); an armed
    timer and a move under way hold it."""

    def __init__(self, room: RoomState) -> None:
        self._room = weakref.ref(room)
        self._timer: asyncio.TimerHandle | None = None
        self._task: asyncio.Task[None] | None = None

    def busy(self) -> bool:
        """Whether the clock is making a move or ending the game."""
        return self._task is not None and not self._task.done()

    def near(self) -> bool:
        """Whether the clock must act soon, so the room stays in memory (else it is loaded in time)."""
        room = self._room()
        if room is None:
            return False
        at = None if room.clock is None or room.status != PLAYING else room.clock.next_deadline()
        return at is not None and at - time.time() < 2 * room.timing.horizon

    def cancel(self) -> None:
        """Stop the timer."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def arm(self) -> None:
        """Set the one timer to the clock's next deadline (after every change and on loading)."""
        self.cancel()
        room = self._room()
        if room is None:
            return
        clock = room.clock
        if clock is None or room.evicted or room.status != PLAYING:
            return
        at = clock.next_deadline()
        if at is None:
            return
        loop = asyncio.get_running_loop()
        self._timer = loop.call_at(loop.time() + max(0.0, at - time.time()), self._fired, room, at)

    def _fired(self, room: RoomState, at: float) -> None:
        self._timer = None
        if room.evicted:
            return
        room.hooks.clock_fired(time.time() - at)
        if self.busy():
            # the clock is still making the last move: look again in a moment
            self._timer = asyncio.get_running_loop().call_later(0.02, self._fired, room, at)
            return
        self._task = asyncio.create_task(self._due(room, at), name=f"clock-{room.id}")

    async def _due(self, room: RoomState, at: float) -> None:
        """The deadline ``at`` passed: play the move of the seat whose time ran out, or end a game
        left alone."""
        clock = room.clock
        if clock is None or room.evicted:
            return
        if clock.turn is not None and clock.deadline == at:
            await self._play_for(room, clock.turn, clock.move)
        elif clock.abandon_at == at:
            await end_abandoned(room)
        if room.idle():
            room.hooks.idle(room)

    async def _play_for(self, room: RoomState, seat: int, move: int) -> None:
        """The clock plays ``seat``'s move ``move`` with the expert bot (stored before anyone sees it)."""
        failures = 0
        while not room.evicted:
            game = room.game
            if game is None or game.over or room.actions != move or game.to_act != seat:
                return
            view = view_of(game, seat)
            try:
                action, _ = await room.bots.decide(
                    room.owner, CLOCK_BOT, decision_seed(room.seed, seat, move), view
                )
            except Exception:
                log.exception("room %s: the clock's bot failed; it plays the first legal action", room.id)
                action = view.legal[0]
            try:
                await room.apply(seat, action, seq=move, by_clock=True)
                return
            except WriteFailed:
                delay = BOT_RETRY_DELAYS[min(failures, len(BOT_RETRY_DELAYS) - 1)]
                failures += 1
                await asyncio.sleep(delay)
            except ProtocolError:
                return  # the player moved in time after all, or the game is over

    def pause(self) -> tuple[dict[str, Any], float | None] | None:
        """The server stops: stop the timer and keep what is left on the running clock (to store)."""
        self.cancel()
        room = self._room()
        if room is None:
            return None
        clock = room.clock
        if clock is None or not clock.timed or clock.turn is None or room.status != PLAYING:
            return None
        clock.pause(time.time())
        return clock.to_json(), clock.next_deadline()

    async def stop(self) -> None:
        """Stop the timer and a move the clock is making."""
        self.cancel()
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


def store_clock_soon(room: RoomState) -> None:
    """Queue the clock's write (ordered with every other write of the room); a failure is logged."""
    clock = room.clock
    if clock is None:
        return
    data, deadline, room_id = clock.to_json(), clock.next_deadline(), room.id
    try:
        stored = room.db.submit(room.fenced(lambda c: room_store.save_clock(c, room_id, data, deadline)))
    except RuntimeError:  # the database is closing (shutdown): the stored clock stays as it was
        return
    stored.add_done_callback(lambda f: f.cancelled() or f.exception())


def came_back(room: RoomState, seat: int) -> None:
    """A client of ``seat`` connected: the seat is no longer absent, and the game not left alone."""
    room.absent_since.pop(seat, None)
    room.hand_votes.pop(seat, None)
    clock = room.clock
    if clock is None:
        return
    changed = clock.away[seat]  # back: no longer marked away (its timeouts in a row still count)
    clock.away[seat] = False
    if clock.abandon_at is not None:
        clock.abandon_at = None
        store_clock_soon(room)
        room.arm_clock()
    elif changed:
        store_clock_soon(room)  # the mark is stored with the clock: a restart keeps it cleared
    if changed:
        room.send_states()


def nobody_left(room: RoomState) -> None:
    """The last player went away: a game without a clock ends as abandoned if nobody comes back."""
    if room.status != PLAYING or room.game is None or room.game.over:
        return
    if any(c.seat is not None for c in room.clients):
        return
    if room.clock is not None and room.clock.timed:
        return
    if room.clock is None:
        room.clock = Clock.new(NONE, room.players)
    room.clock.abandon_at = time.time() + room.timing.abandon_after
    store_clock_soon(room)
    room.arm_clock()


async def end_abandoned(room: RoomState) -> None:
    """Nobody came back to a game without a clock: it ends as abandoned (stored, then told)."""
    async with room.lock:
        game, clock = room.game, room.clock
        if game is None or game.over or room.status != PLAYING or clock is None:
            return
        if any(c.seat is not None for c in room.clients) or clock.abandon_at is None:
            return
        ended = clock.copy()
        ended.ended, ended.abandon_at = "abandoned", None
        fields = record_of(game, room.names(), salt=room.salt)
        fields.update(ended.record_fields())
        record, now, room_id, data = dumps(fields), datetime.now(UTC), room.id, ended.to_json()
        more = room.hooks.records.ended(Ending(room_id, record, room.rules.preset, room.players, now, None))

        def work(c: Any) -> None:
            room_store.finish_room(c, room_id, None, record, now)
            room_store.save_clock(c, room_id, data, None)
            if more is not None:
                more(c)

        try:
            await room.db.run(room.fenced(work))
        except StorageError as exc:
            if isinstance(exc, StaleRoom):
                room.let_go(exc)
                return
            log.error("room %s: its end as abandoned was not stored (%s); tried again later", room.id, exc)
            clock.abandon_at = time.time() + max(1.0, room.timing.horizon / 4)
            room.arm_clock()
            return
        room.clock = ended
        room.status = OVER
        log.info("room %s: ended as abandoned (nobody came back)", room.id)
        room.send_all(to_client.game_end(None, "abandoned", record_address(room.id), room.actions))
        room.send_room()
