"""The rooms this server holds: created, looked up (loaded from the database on first use), let go.

A room whose game was interrupted by a restart, or that left memory while
nobody was connected, is rebuilt from its stored actions the first time anyone
asks for it (an HTTP call or a websocket), and its bots carry on from there.

In a cluster the registry holds only the rooms whose claim it took
(server/play/claims.py): asking for a room another member holds raises
:class:`~roppyakken.server.play.claims.HeldElsewhere`, and a room whose lease is
lost is let go at once (:meth:`Registry.drop`).

The registry is every room's collaborator (:class:`~roppyakken.server.play.state.RoomHooks`):
it lets a room go when it is idle or no longer held here, counts its moves in the
metrics, and hands the work stored with a game's creation and end to the
:class:`~roppyakken.server.play.effects.RoomRecords` given from above.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import re
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any, Final, Protocol

from roppyakken.server.config import Limits
from roppyakken.server.play.bots import BotRunner
from roppyakken.server.play.claims import HeldElsewhere, LocalClaims, RoomClaims, RoomsFull
from roppyakken.server.play.clocks import NONE, Clock, Timing
from roppyakken.server.play.effects import NoRecords, RoomRecords
from roppyakken.server.play.room import Room
from roppyakken.server.play.seats import (
    BOT,
    EMPTY,
    HUMAN,
    PLAYING,
    Client,
    Seat,
    hash_token,
    new_room_id,
    new_salt,
    new_token,
)
from roppyakken.server.play.state import RoomState
from roppyakken.server.store import room_store, room_tournament
from roppyakken.server.store.database import Database, StorageError
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire import text
from roppyakken.server.wire.bodies import CreateRoom

log = logging.getLogger("roppyakken.server")

ROOM_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
CLOSE_RESTARTING: Final = 1012


class HubFull(Exception):
    """As many rooms are in memory as the server may hold, none of them idle."""


class PlayMetrics(Protocol):
    """What the rooms count (server/web/metrics.py ``Metrics`` is one)."""

    def refuse(self, reason: str) -> None:
        """Count one refusal."""
        ...

    def move(self, seconds: float, stored: float) -> None:
        """Count one move, its latency and the part of it its write took to be stored."""
        ...

    def bot(self, level: str, thinking: float, waiting: float) -> None:
        """Count one bot decision."""
        ...

    def clock_fired(self, late: float) -> None:
        """Count one clock deadline and how late its timer fired."""
        ...


class NoMetrics:
    """:class:`PlayMetrics` that count nothing."""

    def refuse(self, reason: str) -> None:
        """Nothing."""

    def move(self, seconds: float, stored: float) -> None:
        """Nothing."""

    def bot(self, level: str, thinking: float, waiting: float) -> None:
        """Nothing."""

    def clock_fired(self, late: float) -> None:
        """Nothing."""


class Registry:
    """Every room in memory, keyed by id, over one database; each room's collaborator."""

    def __init__(
        self,
        db: Database,
        *,
        bot_delay: float = 0.6,
        bot_threads: int = 4,
        draw_seed: Callable[[], int] | None = None,
        limits: Limits | None = None,
        metrics: PlayMetrics | None = None,
        claims: RoomClaims | None = None,
        records: RoomRecords | None = None,
    ) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.metrics: PlayMetrics = metrics or NoMetrics()
        self.claims: RoomClaims = claims or LocalClaims()
        """Which rooms this server holds (a cluster's leases)."""
        self.records: RoomRecords = records or NoRecords()
        """The work stored with a room's creation and its game's end (open tables, profiles, ratings)."""
        self.bots = BotRunner(self.limits.bot_workers, bot_threads)
        # 53 bits: exact in every JSON reader (the browser checks the revealed seed); the salt
        # of the commitment, not the seed, is what makes it impossible to guess in advance.
        self.draw_seed = draw_seed or (lambda: secrets.randbits(53))
        """Where secret seeds come from (tests may fix them; they stay unknown to every client)."""
        self.rooms: dict[str, Room] = {}
        self.stopping = False
        """Set on shutdown: ``/readyz`` answers 503 and no new room is made."""
        self.ready: Callable[[], Awaitable[None]] | None = None
        """Awaited before any room is loaded (a single server's clocks made good after its last stop)."""
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._background: set[asyncio.Task[None]] = set()
        self.relayed: set[Client] = set()
        """Clients of this server relayed to rooms held by another member (cluster only)."""
        self.timing = Timing(
            self.limits.hand_over_after, self.limits.abandon_after, self.limits.clock_horizon
        )

    # ----------------------------------------------------------------- the rooms' collaborator

    def may_write(self, room_id: str) -> bool:
        """See :meth:`~roppyakken.server.play.state.RoomHooks.may_write`."""
        return self.claims.holds(room_id)

    async def still_held(self, room_id: str) -> bool:
        """See :meth:`~roppyakken.server.play.state.RoomHooks.still_held`."""
        return await self.claims.confirm(room_id)

    def idle(self, room: RoomState) -> None:
        """See :meth:`~roppyakken.server.play.state.RoomHooks.idle`: an idle room leaves memory."""
        self.evict(room)

    def unheld(self, room: RoomState) -> None:
        """A move in ``room`` was refused: this member is no longer sure to hold it (its lease lapsed
        unrenewed, or was lost while the room was being loaded).  Let it go now, so that its clients
        reconnect and it is claimed and loaded again, rather than refuse every move in it for good."""
        if self.rooms.get(room.id) is not room:
            return
        log.warning("room %s: no longer sure to hold it here; let go, its clients reconnect", room.id)
        self.drop([room.id])
        self.claims.release_soon(room.id)

    def moved(self, seconds: float, stored: float) -> None:
        """See :meth:`~roppyakken.server.play.state.RoomHooks.moved`."""
        self.metrics.move(seconds, stored)

    def write_failed(self) -> None:
        """See :meth:`~roppyakken.server.play.state.RoomHooks.write_failed`."""
        self.metrics.refuse("write_failed")

    def bot_decided(self, level: str, thinking: float, waiting: float) -> None:
        """See :meth:`~roppyakken.server.play.state.RoomHooks.bot_decided`."""
        self.metrics.bot(level, thinking, waiting)

    def clock_fired(self, late: float) -> None:
        """See :meth:`~roppyakken.server.play.state.RoomHooks.clock_fired`."""
        self.metrics.clock_fired(late)

    # ----------------------------------------------------------------- letting go

    def evict(self, room: RoomState) -> None:
        """Let ``room`` leave memory if it is idle (it is all stored)."""
        if self.rooms.get(room.id) is room and room.idle():
            del self.rooms[room.id]
            room.evicted = True
            room.arm_clock()  # evicted: only stops the timer (the loader brings the room back in time)
            self.claims.release_soon(room.id)

    def drop(self, room_ids: list[str]) -> None:
        """Let rooms go at once (their leases were lost): clients are told to reconnect, bots stop."""
        message = to_client.restarting(text.RESTARTING)
        for room_id in room_ids:
            room = self.rooms.pop(room_id, None)
            if room is None:
                continue
            room.evicted = True
            for client in list(room.clients):
                client.send(message)
                client.close(CLOSE_RESTARTING, "restarting")
            room.clients.clear()
            task = asyncio.create_task(room.stop())
            self._background.add(task)
            task.add_done_callback(self._background.discard)

    def sweep(self, older_than: float | None = None) -> int:
        """Let go of rooms idle for ``older_than`` seconds (default ``Limits.room_idle``); how many went."""
        limit = self.limits.room_idle if older_than is None else older_than
        now = time.monotonic()
        gone = 0
        for room in list(self.rooms.values()):
            if room.idle() and now - room.last_active >= limit:
                self.evict(room)
                gone += 1
        return gone

    def _make_room_space(self) -> None:
        if len(self.rooms) < self.limits.max_rooms:
            return
        self.sweep(older_than=0.0)
        if len(self.rooms) >= self.limits.max_rooms:
            self.metrics.refuse("too_many_rooms")
            raise HubFull(text.TOO_MANY_ROOMS)

    # ----------------------------------------------------------------- creating and loading

    def _new_room(self, request: CreateRoom) -> tuple[Room, str]:
        token = new_token()
        seats = [Seat(HUMAN, request.name, None, request.token_hash or hash_token(token))]
        for index in range(1, request.players):
            level = request.bots.get(index)
            if index <= len(request.seated):
                name, token_hash = request.seated[index - 1]
                seats.append(Seat(HUMAN, name, None, token_hash))
            else:
                seats.append(Seat(BOT, None, level) if level else Seat(EMPTY))
        # A chosen seed only for a game against bots (checked with the request); otherwise the
        # server draws the seed in secret and commits to it (docs/PROTOCOL.md, "Fair deals").
        chosen = request.seed is not None
        seed = request.seed if request.seed is not None else self.draw_seed()
        scale = self.limits.clock_scale
        room = Room(
            new_room_id(),
            request.players,
            request.rules,
            seed,
            seats,
            db=self.db,
            bots=self.bots,
            bot_delay=self.bot_delay,
            hooks=self,
            salt=None if chosen else new_salt(),
            hints=request.hints,
            clock=None if request.clock == NONE else Clock.new(request.clock, request.players, scale),
            public=request.public,
            timing=self.timing,
            rated=request.rated,
        )
        return room, token

    async def create(self, request: CreateRoom, owner: str | None = None) -> tuple[Room, str]:
        """A new room with its creator (``owner``: its address) in seat 0; it starts at once if every
        other seat has a bot."""
        if self.stopping:
            raise HubFull(text.RESTARTING)
        self._make_room_space()
        room, token = self._new_room(request)
        if owner is not None:
            room.owner = owner
        autostart = all(s.kind != EMPTY for s in room.seats)
        if autostart:
            room.start_now()
        row, seat_rows = room.row(), [s.row(i) for i, s in enumerate(room.seats)]
        more = self.records.created(room.id, room.public)
        await self._claim(room.id)

        def insert(c: Any) -> None:
            room_store.insert_room(c, row, seat_rows)
            if more is not None:
                more(c)
            if request.linked is not None:
                request.linked(c, room.id)
                room.tournament = room_tournament.of_room(c, room.id)

        try:
            await self.db.run(insert)
        except BaseException:
            self.claims.release_soon(room.id)
            raise
        self.rooms[room.id] = room
        room.arm_clock()
        if autostart:
            room.kick_bots()
        return room, token

    async def get(self, room_id: str) -> Room | None:
        """The room with this id, loaded from the database if it is not in memory; None if unknown.

        In a cluster a room in memory is checked against the database first: if another member
        took it since (a pause here outlived the lease), it is let go and asked for again, so
        that nobody is shown the game as it was before what others were already shown."""
        room = self.rooms.get(room_id)
        if room is not None and (not self.claims.shared or await self._current(room)):
            return room
        if not ROOM_ID.fullmatch(room_id):
            return None
        if self.ready is not None:
            await self.ready()  # no room is loaded before its clock is made good
        pending = self._loading.get(room_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[room_id] = future
        try:
            loaded = await self._load(room_id)
            future.set_result(loaded)
            return loaded
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters re-raise it, nobody else must
            raise
        finally:
            del self._loading[room_id]

    async def _load(self, room_id: str) -> Room | None:
        self._make_room_space()
        await self._claim(room_id)  # before loading: the holder's moves are all stored by then
        try:
            # taking it raises its holder epoch: a write of its last holder still under way
            # commits first (and is read here), or fails (fencing: server/store/room_store.py)
            stored, tournament = await self.db.run(
                lambda c: (room_store.load_room(c, room_id, take=True), room_tournament.of_room(c, room_id))
            )
            loaded = None
            if stored is not None:
                loaded = Room.restore(
                    stored,
                    db=self.db,
                    bots=self.bots,
                    bot_delay=self.bot_delay,
                    timing=self.timing,
                    hooks=self,
                )
                loaded.tournament = tournament
                self.rooms[loaded.id] = loaded
                await self._resume_clock(loaded, self.claims.orphaned_since(room_id))
                loaded.kick_bots()
        except BaseException:
            self.claims.release_soon(room_id)
            raise
        if loaded is None:
            self.claims.release_soon(room_id)
        return loaded

    async def _resume_clock(self, room: Room, orphaned: float | None = None) -> None:
        """A loaded room's clock goes on (stored first): the time the server was stopped is not charged,
        nor, if the room was taken from a member that died (``orphaned``: that member's last sign of
        life, :meth:`~roppyakken.server.play.claims.RoomClaims.orphaned_since`), the time since then."""
        clock = room.clock
        if clock is not None and room.status == PLAYING:
            now = time.time()
            resumed = clock.copy()
            given = 0.0
            if not resumed.resume(now) and orphaned is not None:
                given = resumed.give_back(orphaned, now)
            if resumed.to_json() != clock.to_json():
                data, deadline = resumed.to_json(), resumed.next_deadline()
                await self.db.run(room.fenced(lambda c: room_store.save_clock(c, room.id, data, deadline)))
                room.clock = resumed
                if given:
                    log.info(
                        "room %s: taken from a member that died; its clock got back %.1f s", room.id, given
                    )
        room.arm_clock()

    async def load_due(self) -> int:
        """Load the rooms whose clock must act within ``Limits.clock_horizon`` (they arm their timers);
        how many were loaded here.  Rooms held by another member are theirs to run."""
        before = time.time() + self.limits.clock_horizon
        try:
            due: list[str] = await self.db.run(
                lambda c: room_store.due_rooms(c, before, self.limits.max_rooms)
            )
        except StorageError:
            return 0
        loaded = 0
        for room_id in due:
            if room_id in self.rooms or self.stopping:
                continue
            try:
                if await self.get(room_id) is not None:
                    loaded += 1
            except (HeldElsewhere, HubFull, StorageError):
                continue
            except Exception:
                log.exception("room %s: could not be loaded for its clock", room_id)
        return loaded

    async def _current(self, room: Room) -> bool:
        """Whether ``room`` in memory is the stored room's current holder's (same holder epoch);
        if not, it is let go here."""
        stored = await self.db.run(lambda c: room_store.room_epoch(c, room.id))
        if stored == room.epoch or self.rooms.get(room.id) is not room:
            return self.rooms.get(room.id) is room
        log.warning("room %s: taken by another member meanwhile; let go here", room.id)
        self.drop([room.id])
        self.claims.release_soon(room.id)
        return False

    async def _claim(self, room_id: str) -> None:
        try:
            holder = await self.claims.claim(room_id)
        except RoomsFull:
            # the cluster holds as many rooms as it may: let this member's idle ones go, and try again
            if not self.sweep(older_than=0.0):
                self.metrics.refuse("too_many_rooms")
                raise HubFull(text.TOO_MANY_ROOMS) from None
            try:
                holder = await self.claims.claim(room_id)
            except RoomsFull:
                self.metrics.refuse("too_many_rooms")
                raise HubFull(text.TOO_MANY_ROOMS) from None
        if holder is not None:
            raise HeldElsewhere(room_id, holder)

    async def exists(self, room_id: str) -> bool:
        """Whether the room exists (held here, elsewhere, or stored)."""
        try:
            return await self.get(room_id) is not None
        except HeldElsewhere:
            return True

    def connected(self) -> int:
        """Open websockets in rooms."""
        return sum(len(r.clients) for r in self.rooms.values())

    # ----------------------------------------------------------------- stopping

    async def pause_clocks(self) -> None:
        """This member stops (a cluster): store what is left on the running clocks of the rooms it holds,
        so that handing them over is not charged to anyone."""
        works = [
            room.fenced(functools.partial(room_store.save_clock, room_id=room.id, clock=p[0], deadline=p[1]))
            for room in self.rooms.values()
            if (p := room.pause_clock()) is not None
        ]
        if not works:
            return
        # each fenced on its own: a room another member took meanwhile is not written by this one
        failed = [
            r for r in await asyncio.gather(*(self.db.run(w) for w in works), return_exceptions=True) if r
        ]
        if failed:
            log.error(
                "the clocks of %d rooms were not paused (%s): the stop is charged to them",
                len(failed),
                failed[0],
            )

    async def begin_shutdown(self, grace: float = 1.0) -> None:
        """Stop taking rooms, tell every client the server is restarting, and close their connections;
        in a cluster, give the rooms back (those that must run with nobody there handed over)."""
        self.stopping = True
        message = to_client.restarting(text.RESTARTING)
        clients = [c for room in self.rooms.values() for c in room.clients] + list(self.relayed)
        for client in clients:
            client.send(message)
            client.close(CLOSE_RESTARTING, "restarting")
        deadline = time.monotonic() + grace
        while (self.connected() or self.relayed) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        if self.claims.shared:
            await self.pause_clocks()  # before the leases go: the next holder finds the clocks paused
            # give the leases back now, so that the clients reconnecting elsewhere find the rooms free
            # (a bot move still under way is then refused: this member no longer holds the room), and
            # hand over the rooms that must run with nobody there (bots, a clock near its deadline)
            for room_id, room in list(self.rooms.items()):
                await self.claims.give_back(room_id, busy=not room.idle())

    async def close(self) -> None:
        """Stop every room's bots and clock (the rooms are all stored) and the bot workers."""
        self.stopping = True
        for room in list(self.rooms.values()):
            await room.stop()
        self.bots.shutdown()
