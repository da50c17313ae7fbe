"""The rooms the server holds: created, looked up (loaded from the database on first use), let go when idle.

A room whose game was interrupted by a restart, or that left memory while
nobody was connected, is rebuilt from its stored actions the first time anyone
asks for it (an HTTP call or a websocket), and its bots carry on from there.
Unfinished rooms are kept in the database for ``Limits.retention_days`` after
their creation; finished games (their records) are kept for good.

In a cluster (server/cluster/link.py) the hub holds only the rooms whose lease it
took: asking for a room another member holds raises :class:`HeldElsewhere`
(the websocket then relays, :meth:`Hub.visit` asks the holder), and a room
whose lease is lost is let go at once (:meth:`Hub.drop`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import re
import secrets
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Final

from roppyakken.errors import Phrase
from roppyakken.server.club import open_tables
from roppyakken.server.config import Limits
from roppyakken.server.limits import ConnectionCounter, MemoryConnectionCounter
from roppyakken.server.people import guests
from roppyakken.server.play import downtime as heartbeat
from roppyakken.server.play.bots import BotRunner
from roppyakken.server.play.claims import HeldElsewhere, LocalClaims, RoomClaims, RoomsFull
from roppyakken.server.play.clocks import NONE, Clock, Timing
from roppyakken.server.play.room import (
    BOT,
    EMPTY,
    HUMAN,
    Client,
    Room,
    Seat,
    hash_token,
    new_room_id,
    new_salt,
    new_token,
)
from roppyakken.server.store import room_store
from roppyakken.server.store.database import Database, StorageError
from roppyakken.server.web.metrics import Metrics
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire import text, wording
from roppyakken.server.wire.bodies import CreateRoom

if TYPE_CHECKING:
    from roppyakken.server.cluster.link import Cluster

log = logging.getLogger("roppyakken.server")

ROOM_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
WATCH_SLICE: Final = 200
"""Connections the send watchdog checks before letting the event loop run other work again."""
CLOSE_RESTARTING: Final = 1012
CLAIM_PATIENCE: Final = 10.0
"""Seconds a request waits for a room's holder to answer or for its lease to come free (cluster)."""
JOINS_REMEMBERED: Final = 1024
"""Joins through the cluster remembered by their key, so that a retried one takes no second seat."""


class HubFull(Exception):
    """As many rooms are in memory as the server may hold, none of them idle."""


class Hub:
    """Every room in memory, keyed by id, over one database."""

    def __init__(
        self,
        db: Database,
        *,
        bot_delay: float = 0.6,
        bot_threads: int = 4,
        draw_seed: Callable[[], int] | None = None,
        limits: Limits | None = None,
        metrics: Metrics | None = None,
        connections: ConnectionCounter | None = None,
        claims: RoomClaims | None = None,
        cluster: Cluster | None = None,
    ) -> None:
        self.db = db
        self.bot_delay = bot_delay
        self.limits = limits or Limits()
        self.metrics = metrics or Metrics()
        self.connections = connections or MemoryConnectionCounter()
        """Open websockets by address (counted in Redis in a cluster)."""
        self.cluster = cluster
        """The cluster this server is a member of (None: a single server)."""
        self.claims: RoomClaims = claims or cluster or LocalClaims()
        """Which rooms this server holds (a cluster's leases)."""
        self.bots = BotRunner(self.limits.bot_workers, bot_threads)
        # 53 bits: exact in every JSON reader (the browser checks the revealed seed); the salt
        # of the commitment, not the seed, is what makes it impossible to guess in advance.
        self.draw_seed = draw_seed or (lambda: secrets.randbits(53))
        """Where secret seeds come from (tests may fix them; they stay unknown to every client)."""
        self.rooms: dict[str, Room] = {}
        self._joins: OrderedDict[tuple[str, str], asyncio.Future[dict[str, Any]]] = OrderedDict()
        """Joins asked through the cluster, by (room, the visit's key): a retried visit gets the
        first answer (the last :data:`JOINS_REMEMBERED`)."""
        self.stopping = False
        """Set on shutdown: ``/readyz`` answers 503 and no new room is made."""
        self._loading: dict[str, asyncio.Future[Room | None]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        self._watchdog: asyncio.Task[None] | None = None
        self._last_prune = -math.inf
        self._last_guests = -math.inf
        self._background: set[asyncio.Task[None]] = set()
        self.relayed: set[Client] = set()
        """Clients of this server relayed to rooms held by another member (cluster only)."""
        self.timing = Timing(
            self.limits.hand_over_after, self.limits.abandon_after, self.limits.clock_horizon
        )
        self._clock_loader: asyncio.Task[None] | None = None
        self._recovery: asyncio.Task[None] | None = None
        self._heart: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the sweeper that lets idle rooms go and forgets stale unfinished ones, and the watchdog;
        a single server first makes good the stop or crash of its predecessor on the clocks."""
        if self.cluster is None:
            self._recovery = asyncio.create_task(self._recover_clocks(), name="roppyakken-clock-recovery")
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="roppyakken-sweeper")
        self._watchdog = asyncio.create_task(self._watch_sends(), name="roppyakken-send-watchdog")
        self._clock_loader = asyncio.create_task(self._load_due_loop(), name="roppyakken-clock-loader")

    async def _watch_sends(self) -> None:
        """Drop clients that have not taken what was sent to them within ``Limits.send_timeout``."""
        loop = asyncio.get_running_loop()
        period = max(0.05, min(0.5, self.limits.send_timeout / 8))
        while True:
            await asyncio.sleep(period)
            clients = [c for room in self.rooms.values() for c in room.clients] + list(self.relayed)
            for start in range(0, len(clients), WATCH_SLICE):
                if start:
                    await asyncio.sleep(0)  # the loop runs moves and timers between slices
                now = loop.time()
                for client in clients[start : start + WATCH_SLICE]:
                    check = getattr(client, "check_send", None)
                    if check is not None:
                        check(now, period)

    def _adopt(self, room: Room) -> Room:
        # the hooks name the room by its id, or weakly: hooks that held it would make a cycle, and a
        # room let go (its last client gone) would stay in memory until a full garbage collection
        room.may_write = functools.partial(self._holds, room.id)
        room.on_idle = self._evict
        room.on_move = self.metrics.move
        room.on_bot = self.metrics.bot
        room.on_write_failed = lambda: self.metrics.refuse("write_failed")
        adopted = weakref.ref(room)
        room.on_unheld = lambda: self._unheld(adopted())
        room.on_clock = self.metrics.clock_fired
        self.rooms[room.id] = room
        return room

    def _evict(self, room: Room) -> None:
        if self.rooms.get(room.id) is room and room.idle():
            del self.rooms[room.id]
            room.evicted = True
            room.arm_clock()  # evicted: only stops the timer (the loader brings the room back in time)
            self.claims.release_soon(room.id)

    def _holds(self, room_id: str) -> bool:
        return self.claims.holds(room_id)

    def _unheld(self, room: Room | None) -> None:
        """A move in ``room`` was refused: this member is no longer sure to hold it (its lease lapsed
        unrenewed, or was lost while the room was being loaded).  Let it go now, so that its clients
        reconnect and it is claimed and loaded again, rather than refuse every move in it for good."""
        if room is None or self.rooms.get(room.id) is not room:
            return
        log.warning("room %s: no longer sure to hold it here; let go, its clients reconnect", room.id)
        self.drop([room.id])
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
                self._evict(room)
                gone += 1
        return gone

    async def _sweep_loop(self) -> None:
        period = max(0.05, min(30.0, self.limits.room_idle / 4))
        while True:
            await asyncio.sleep(period)
            self.sweep()
            if time.monotonic() - self._last_prune > 3600:
                self._last_prune = time.monotonic()
                await self.prune()
            if time.monotonic() - self._last_guests > guests.SWEEP_EVERY:
                self._last_guests = time.monotonic()
                await self.forget_guests()

    async def prune(self) -> int:
        """Forget unfinished rooms created more than ``Limits.retention_days`` ago; how many."""
        before = datetime.now(UTC) - timedelta(days=self.limits.retention_days)
        try:
            gone: int = await self.db.run(lambda c: room_store.delete_unfinished(c, before))
        except StorageError:
            return 0
        for room_id in [r.id for r in self.rooms.values() if r.status != "over" and r.created_at < before]:
            room = self.rooms[room_id]
            if room.idle():
                self._evict(room)
        if gone:
            log.info("forgot %d unfinished rooms created before %s", gone, before.date())
        return gone

    async def forget_guests(self) -> int:
        """Delete a batch of old guests (server/people/guests.py; one member at a time); how many."""
        days = self.limits.guest_days
        try:
            gone: int = await self.db.run(lambda c: guests.sweep(c, time.time(), days))
        except StorageError as exc:
            log.warning("old guests were not swept: %s", exc)
            return 0
        if gone:
            log.info("forgot %d guests unseen for %g days, with no game and no account", gone, days)
        return gone

    def _make_room_space(self) -> None:
        if len(self.rooms) < self.limits.max_rooms:
            return
        self.sweep(older_than=0.0)
        if len(self.rooms) >= self.limits.max_rooms:
            self.metrics.refuse("too_many_rooms")
            raise HubFull(text.TOO_MANY_ROOMS)

    async def create(self, request: CreateRoom, owner: str | None = None) -> tuple[Room, str]:
        """A new room with its creator (``owner``: its address) in seat 0; it starts at once if every
        other seat has a bot."""
        if self.stopping:
            raise HubFull(text.RESTARTING)
        self._make_room_space()
        token = new_token()
        seats = [Seat(HUMAN, request.name, None, request.token_hash or hash_token(token))]
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
            bots=self.bots,
            bot_delay=self.bot_delay,
            salt=None if chosen else new_salt(),
            hints=request.hints,
            clock=None
            if request.clock == NONE
            else Clock.new(request.clock, request.players, self.limits.clock_scale),
            public=request.public,
            timing=self.timing,
            rated=request.rated,
        )
        if owner is not None:
            room.owner = owner
        autostart = all(s.kind != EMPTY for s in seats)
        if autostart:
            room.start_now()
        row, seat_rows = room.row(), [s.row(i) for i, s in enumerate(seats)]
        await self._claim(room.id)

        def insert(c: Any) -> None:
            room_store.insert_room(c, row, seat_rows)
            if room.public:
                open_tables.stamp(c, [room.id], time.time())  # listed while its host comes to it

        try:
            await self.db.run(insert)
        except BaseException:
            self.claims.release_soon(room.id)
            raise
        self._adopt(room)
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
        if room is not None and (self.cluster is None or await self._current(room)):
            return room
        if not ROOM_ID.fullmatch(room_id):
            return None
        if self._recovery is not None and not self._recovery.done():
            await asyncio.shield(self._recovery)  # no room is loaded before its clock is made good
        pending = self._loading.get(room_id)
        if pending is not None:
            return await asyncio.shield(pending)
        future: asyncio.Future[Room | None] = asyncio.get_running_loop().create_future()
        self._loading[room_id] = future
        try:
            self._make_room_space()
            await self._claim(room_id)  # before loading: the holder's moves are all stored by then
            try:
                # taking it raises its holder epoch: a write of its last holder still under way
                # commits first (and is read here), or fails (fencing: server/store/room_store.py)
                stored = await self.db.run(lambda c: room_store.load_room(c, room_id, take=True))
                loaded = None
                if stored is not None:
                    loaded = Room.restore(
                        stored, db=self.db, bots=self.bots, bot_delay=self.bot_delay, timing=self.timing
                    )
                    self._adopt(loaded)
                    await self._resume_clock(loaded, self.claims.orphaned_since(room_id))
                    loaded.kick_bots()
            except BaseException:
                self.claims.release_soon(room_id)
                raise
            if loaded is None:
                self.claims.release_soon(room_id)
            future.set_result(loaded)
            return loaded
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: waiters re-raise it, nobody else must
            raise
        finally:
            del self._loading[room_id]

    async def _resume_clock(self, room: Room, orphaned: float | None = None) -> None:
        """A loaded room's clock goes on (stored first): the time the server was stopped is not charged,
        nor, if the room was taken from a member that died (``orphaned``: that member's last sign of
        life, :meth:`~roppyakken.server.play.claims.RoomClaims.orphaned_since`), the time since then."""
        clock = room.clock
        if clock is not None and room.status == "playing":
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

    async def _recover_clocks(self) -> None:
        """A single server starts: the clocks it paused when it last stopped run on from here, and if
        it died instead (its heartbeat is there), every running clock gets back the time since its last
        beat (server/play/downtime.py); then it beats every
        :data:`~roppyakken.server.play.downtime.PERIOD`."""
        try:
            resumed, given, dead = await self.db.run(lambda c: heartbeat.recover_clocks(c, time.time()))
        except StorageError as exc:
            log.error("the clocks were not made good after the last stop (%s)", exc)
        else:
            if resumed:
                log.info("%d clocks paused while the server was stopped run again", resumed)
            if dead is not None:
                log.warning(
                    "the last server died %.1f s ago at most: %d running clocks got that time back",
                    time.time() - dead,
                    given,
                )
        self._heart = asyncio.create_task(self._beat_loop(), name="roppyakken-heartbeat")

    async def _beat_loop(self) -> None:
        while True:
            await asyncio.sleep(heartbeat.PERIOD)
            with contextlib.suppress(StorageError):
                await self.db.run(lambda c: heartbeat.beat(c, time.time()))

    async def _load_due_loop(self) -> None:
        period = max(0.05, self.limits.clock_horizon / 4)
        if self._recovery is not None:
            await asyncio.shield(self._recovery)
        while True:
            await self.load_due()
            await asyncio.sleep(period)

    async def _pause_clocks(self) -> None:
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

    async def visit(self, room_id: str, op: str, args: dict[str, Any]) -> dict[str, Any] | None:
        """Do ``op`` (``info``, ``join``) on the room wherever it is held; None if there is no such room.

        In a cluster, a room held by another member is asked through Redis; if
        that member does not answer (it died), the room is claimed again until
        a member holds it (about a lease's lifetime).
        """
        deadline = time.monotonic() + CLAIM_PATIENCE
        # One key for every try of this visit through the cluster: a holder that answers a join
        # too late and is asked again gives the same seat, not a second one (see :meth:`do`).
        once = secrets.token_hex(8)
        while True:
            try:
                room = await self.get(room_id)
            except HeldElsewhere as exc:
                assert self.cluster is not None
                answer: dict[str, Any] | None = None
                with contextlib.suppress(StorageError):
                    answer = await self.cluster.bus.call(exc.holder, op, room_id, once=once, **args)
                if answer is not None and "moved" not in answer:
                    answer.pop("k", None)
                    answer.pop("id", None)
                    return answer
                if time.monotonic() > deadline:
                    raise StorageError(text.STORAGE_UNAVAILABLE) from None
                await asyncio.sleep(0.1)
                continue
            if room is None:
                return None
            return await self.do(room, op, args)

    async def do(self, room: Room, op: str, args: dict[str, Any]) -> dict[str, Any]:
        """``op`` on a room held here, answered as a JSON object."""
        if op == "info":
            return {"info": room.info()}
        if op == "join":
            once = args.get("once")
            if not isinstance(once, str):
                return await self._join(room, args)
            key = (room.id, once)
            if key not in self._joins:  # the first try; a later one waits for the same answer
                self._joins[key] = asyncio.ensure_future(self._join(room, args))
                while len(self._joins) > JOINS_REMEMBERED:
                    self._joins.popitem(last=False)
            return await asyncio.shield(self._joins[key])
        raise ValueError(f"unknown operation {op!r}")

    async def _join(self, room: Room, args: dict[str, Any]) -> dict[str, Any]:
        joined = await room.join(str(args["name"]))
        if joined is None:
            message = text.ROOM_STARTED if room.status != "waiting" else text.ROOM_FULL
            return {"status": 409, **wording.answer(Phrase(message, room=room.id))}
        return {"seat": joined[0], "token": joined[1]}

    async def exists(self, room_id: str) -> bool:
        """Whether the room exists (held here, elsewhere, or stored)."""
        try:
            return await self.get(room_id) is not None
        except HeldElsewhere:
            return True

    def connected(self) -> int:
        """Open websockets in rooms."""
        return sum(len(r.clients) for r in self.rooms.values())

    async def begin_shutdown(self, grace: float = 1.0) -> None:
        """Stop taking rooms, tell every client the server is restarting, and close their connections."""
        self.stopping = True
        message = to_client.restarting(text.RESTARTING)
        clients = [c for room in self.rooms.values() for c in room.clients] + list(self.relayed)
        for client in clients:
            client.send(message)
            client.close(CLOSE_RESTARTING, "restarting")
        deadline = time.monotonic() + grace
        while (self.connected() or self.relayed) and time.monotonic() < deadline:
            await asyncio.sleep(0.02)
        if self.cluster is not None:
            await self._pause_clocks()  # before the leases go: the next holder finds the clocks paused
            # give the leases back now, so that the clients reconnecting elsewhere find the rooms free
            # (a bot move still under way is then refused: this member no longer holds the room), and
            # hand over the rooms that must run with nobody there (bots, a clock near its deadline)
            for room_id, room in list(self.rooms.items()):
                if room.idle():
                    await self.cluster.leases.release(room_id)
                else:
                    await self.cluster.leases.hand_over(room_id)

    async def close(self) -> None:
        """Stop the sweeper and every bot loop (the rooms are all stored)."""
        self.stopping = True
        for task in (self._recovery, self._sweeper, self._watchdog, self._clock_loader, self._heart):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        for room in list(self.rooms.values()):
            await room.stop()
        if self.cluster is None:
            # the whole service stops: every running clock, in memory or not, keeps what it has left
            def stop(c: Any) -> None:
                room_store.pause_clocks(c, time.time())
                heartbeat.stopped(c)  # a clean stop: nothing to give back at the next start

            try:
                await self.db.run(stop)
            except StorageError as exc:
                log.error("the clocks were not paused (%s): the stop is charged to them", exc)
        self.bots.shutdown()
