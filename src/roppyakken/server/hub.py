"""The rooms the server holds: created, looked up (loaded from the database on first use), let go when idle.

A room whose game was interrupted by a restart is rebuilt from its stored
actions the first time anyone asks for it (an HTTP call or a websocket), and its
bots carry on from there.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final

from roppyakken.server import storage
from roppyakken.server.db import Database
from roppyakken.server.requests import CreateRoom
from roppyakken.server.rooms import (
    BOT,
    EMPTY,
    HUMAN,
    Room,
    Seat,
    hash_token,
    new_room_id,
    new_salt,
    new_token,
)

ROOM_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")


class Hub:
    """Every room in memory, keyed by id, over one database."""

    def __init__(
        self,
        db: Database,
        *,
        bot_delay: float = 0.6,
        bot_threads: int = 4,
        draw_seed: Callable[[], int] | None = None,
    ) -> None:
        self.db = db
        # 53 bits: exact in every JSON reader (the browser checks the revealed seed); the salt
        # of the commitment, not the seed, is what makes it impossible to guess in advance.
        self.draw_seed = draw_seed or (lambda: secrets.randbits(53))
        """Where secret seeds come from (tests may fix them; they stay unknown to every client)."""
        self.bot_delay = bot_delay
        self.bot_executor = ThreadPoolExecutor(max_workers=bot_threads, thread_name_prefix="roppyakken-bot")
        self.rooms: dict[str, Room] = {}
        self.stopping = False
        """Set on shutdown: ``/readyz`` answers 503 and no new room is made."""
        self._loading: dict[str, asyncio.Future[Room | None]] = {}

    def _adopt(self, room: Room) -> Room:
        room.on_idle = self._evict
        self.rooms[room.id] = room
        return room

    def _evict(self, room: Room) -> None:
        if self.rooms.get(room.id) is room and room.idle():
            del self.rooms[room.id]
            room.evicted = True

    async def create(self, request: CreateRoom) -> tuple[Room, str]:
        """A new room with its creator in seat 0; it starts at once if every other seat has a bot."""
        token = new_token()
        seats = [Seat(HUMAN, request.name, None, hash_token(token))]
        for index in range(1, request.players):
            level = request.bots.get(index)
            seats.append(Seat(BOT, None, level) if level else Seat(EMPTY))
        # A chosen seed only for a game against bots (checked with the request); otherwise the
        # server draws the seed in secret and commits to it (docs/PROTOCOL.md, "Fair deals").
        chosen = request.seed is not None
        seed = request.seed if request.seed is not None else self.draw_seed()
        room = Room(
            new_room_id(),
            request.players,
            request.rules,
            seed,
            seats,
            db=self.db,
            bot_executor=self.bot_executor,
            bot_delay=self.bot_delay,
            salt=None if chosen else new_salt(),
        )
        autostart = all(s.kind != EMPTY for s in seats)
        if autostart:
            room.start_now()
        row, seat_rows = room.row(), [s.row(i) for i, s in enumerate(seats)]
        await self.db.run(lambda c: storage.insert_room(c, row, seat_rows))
        self._adopt(room)
        if autostart:
            room.kick_bots()
        return room, token

    async def get(self, room_id: str) -> Room | None:
        """The room with this id, loaded from the database if it is not in memory; None if unknown."""
        room = self.rooms.get(room_id)
        if room is not None:
            return room
        if not ROOM_ID.fullmatch(room_id):
            return None
        pending = self._loading.get(room_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[room_id] = future
        try:
            stored = await self.db.run(lambda c: storage.load_room(c, room_id))
            loaded = None
            if stored is not None:
                loaded = Room.restore(
                    stored, db=self.db, bot_executor=self.bot_executor, bot_delay=self.bot_delay
                )
                self._adopt(loaded)
                loaded.kick_bots()
            future.set_result(loaded)
            return loaded
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters re-raise it, nobody else must
            raise
        finally:
            del self._loading[room_id]

    async def close(self) -> None:
        """Stop every bot loop (the rooms are all stored)."""
        for room in list(self.rooms.values()):
            await room.stop()
        self.bot_executor.shutdown(wait=False, cancel_futures=True)
