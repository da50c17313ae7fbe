"""A room's bots at work: while a bot (or the clock's bot, for a seat handed over) is to act, it
chooses off the event loop and its move is applied like anyone's (stored, then sent)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import weakref

from roppyakken.ai.offline import decision_seed
from roppyakken.server.play.clocks import CLOCK_BOT
from roppyakken.server.play.runner import BOT_RETRY_DELAYS, WriteFailed
from roppyakken.server.play.seats import BOT, PLAYING
from roppyakken.server.play.state import RoomState
from roppyakken.server.wire.protocol import ProtocolError
from roppyakken.view import view_of

log = logging.getLogger("roppyakken.server")


class BotLoop:
    """The one loop that plays a room's bots.

    It names its room weakly (a room let go is freed at once, without a cycle to collect); the
    running loop holds it."""

    def __init__(self, room: RoomState) -> None:
        self._room = weakref.ref(room)
        self._task: asyncio.Task[None] | None = None

    def busy(self) -> bool:
        """Whether the loop is running."""
        return self._task is not None and not self._task.done()

    def to_act(self) -> str | None:
        """The level of the bot to act now, if a bot is to act."""
        room = self._room()
        if room is None:
            return None
        game = room.game
        if game is None or game.over or room.status != PLAYING:
            return None
        timed = room.clock is not None and room.clock.timed
        if not room.clients and not timed:
            return None  # without a clock, bots wait while nobody is there to see them play
        seat = room.seats[game.to_act]
        if room.clock is not None and room.clock.abandoned[game.to_act]:
            return CLOCK_BOT
        return seat.level if seat.kind == BOT and seat.level is not None else None

    def kick(self) -> None:
        """Start the loop if a bot is to act and it is not running (after a change or a restore)."""
        room = self._room()
        if self.busy() or room is None:
            return
        if self.to_act() is not None and not room.evicted:
            self._task = asyncio.create_task(self._loop(room), name=f"bots-{room.id}")

    async def _loop(self, room: RoomState) -> None:
        """While a bot is to act: wait the pacing delay, let it choose off the event loop, apply."""
        failures = 0
        while (level := self.to_act()) is not None and room.game is not None:
            if room.bot_delay > 0:
                await asyncio.sleep(room.bot_delay)
            index = room.game.to_act
            view = view_of(room.game, index)
            seed = decision_seed(room.seed, index, room.actions)
            asked = time.perf_counter()
            try:
                action, thought = await room.bots.decide(room.owner, level, seed, view)
                room.hooks.bot_decided(level, thought, time.perf_counter() - asked - thought)
            except Exception:
                log.exception("room %s: bot %s failed; it plays its first legal action", room.id, level)
                action = view.legal[0]
            if room.game.to_act != index or room.game.over:
                continue
            try:
                await room.apply(index, action, by_bot=True)
                failures = 0
            except WriteFailed:
                if room.evicted:
                    break  # let go (no longer held here): it is loaded again wherever it is held
                delay = BOT_RETRY_DELAYS[min(failures, len(BOT_RETRY_DELAYS) - 1)]
                failures += 1
                await asyncio.sleep(delay)  # the game is as it was: the bot chooses again
            except ProtocolError as exc:
                log.error("room %s: bot %s chose an illegal action (%s)", room.id, level, exc)
                await room.apply(index, view.legal[0], by_bot=True)
        self._task = None
        if room.idle():
            room.hooks.idle(room)

    async def stop(self) -> None:
        """Stop the loop (server shutdown)."""
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
