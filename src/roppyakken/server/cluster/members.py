"""The holder's side of a cluster: clients of other members, seated in this member's rooms, and the
rooms of members that died, taken over.

A websocket that reached another member (a relay) is a :class:`RemoteClient`
here: a room :class:`~roppyakken.server.play.room.Client` like a local socket, whose
``send`` publishes the message to the relay for that one connection.  So the
room builds each message for the client's own seat, as for any client, and
nothing meant for one seat goes to another's member.

A member that dies leaves its rooms' leases to lapse.  Every member looks for
lapsed leases twice a second and takes those rooms (:meth:`Members.take_lapsed`):
it restores each from the database, gives its running clock back the time it
had no living holder, and arms its timer, so a game nobody is connected to
goes on within about a lease's life of its holder's death.  Members looking at
once race for each room through its lease's claim: one takes it, the others
find it held.  What keeps a holder that was only paused from writing in a room
taken from it is the fencing epoch (server/store/room_store.py), not this timing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable

from roppyakken.errors import Phrase
from roppyakken.server.cluster.link import Cluster, ClusterUnavailable, Handlers
from roppyakken.server.cluster.redislink import stop_task
from roppyakken.server.cluster.visits import Visits
from roppyakken.server.play.claims import HeldElsewhere
from roppyakken.server.play.registry import HubFull, Registry
from roppyakken.server.play.room import Room
from roppyakken.server.store.database import StorageError
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire import text, wording
from roppyakken.server.wire.client import Hello, parse_client_message
from roppyakken.server.wire.member import (
    AttachCall,
    Attached,
    InfoCall,
    JoinCall,
    MemberAnswer,
    Moved,
    Refused,
)
from roppyakken.server.wire.protocol import ProtocolError

log = logging.getLogger("roppyakken.server")

CLOSE_BAD_TOKEN = 4003
CLOSE_NO_ROOM = 4004
CLOSE_TRY_AGAIN = 1013
TAKE_AT_ONCE = 100
"""Lapsed rooms a member asks for at each look (the rest at the next)."""


class RemoteClient:
    """A client connected to another member, seated in a room held here."""

    def __init__(
        self,
        cluster: Cluster,
        member: str,
        conn: str,
        room: Room,
        seat: int | None,
        on_done: Callable[[RemoteClient], None] | None = None,
    ) -> None:
        self.cluster = cluster
        self.on_done = on_done
        self.member = member
        self.conn = conn
        self.room = room
        self.seat = seat
        self._inbox: asyncio.Queue[str | None] = asyncio.Queue()
        self._closing = False
        self._task = asyncio.create_task(self._handle_loop(), name=f"relayed-{conn}")

    def send(self, message: str) -> None:
        """Publish the message to the relay, for this connection only."""
        if not self._closing:
            self.cluster.bus.to_relay(self.member, self.conn, message)

    def close(self, code: int, reason: str) -> None:
        """Tell the relay to close the connection (after what was sent)."""
        if not self._closing:
            self._closing = True
            self.cluster.bus.close_relay(self.member, self.conn, code, reason)
            self._inbox.put_nowait(None)

    def feed(self, raw: str) -> None:
        """A message from the client (handled in order, one at a time, like a local socket's)."""
        self._inbox.put_nowait(raw)

    def gone(self) -> None:
        """The relay said the client left (or the relay died)."""
        self._closing = True
        self._inbox.put_nowait(None)

    async def _handle_loop(self) -> None:
        try:
            while (raw := await self._inbox.get()) is not None:
                try:
                    message = parse_client_message(raw)
                    if isinstance(message, Hello):
                        raise ProtocolError(text.HELLO_AGAIN, message.id)
                    await self.room.handle(self, message)
                except ProtocolError as exc:
                    self.send(to_client.error(exc, exc.msg_id))
                except Exception:
                    log.exception("room %s: a relayed message failed", self.room.id)
        finally:
            self.room.detach(self)
            if self.on_done is not None:
                self.on_done(self)


class Members:
    """This member's answers to the others: calls, relayed messages, lost leases."""

    def __init__(self, registry: Registry, cluster: Cluster, visits: Visits) -> None:
        self.registry = registry
        self.cluster = cluster
        self.visits = visits
        self.clients: dict[tuple[str, str], RemoteClient] = {}
        self._taker: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start taking the rooms of members that died (:meth:`take_lapsed`, twice a second)."""
        self._taker = asyncio.create_task(self._take_loop(), name="roppyakken-takeover")

    async def take_lapsed(self) -> int:
        """Take the rooms whose leases lapsed unrenewed (their holder died, or is paused) and that
        nobody took since: each is restored from the database here (its clock given back the time
        without a holder, its timer armed, its bots started).  How many were taken here."""
        registry = self.registry
        try:
            lapsed = await self.cluster.leases.lapsed(TAKE_AT_ONCE)
        except ClusterUnavailable:
            return 0
        random.shuffle(lapsed)  # members looking at the same moment mostly take different rooms
        taken = 0
        for room_id in lapsed:
            if registry.stopping or len(registry.rooms) >= registry.limits.max_rooms:
                break  # (full: the clock loader still brings in a room near its deadline)
            if room_id in registry.rooms:
                continue  # this member's own lease lapsed: its renewal finds out, and lets it go
            try:
                if await registry.get(room_id) is not None:
                    taken += 1
            except (HeldElsewhere, HubFull, StorageError):
                continue
            except Exception:
                log.exception("room %s: could not be taken over", room_id)
        if taken:
            log.info("cluster: took %d rooms whose holder stopped renewing their leases", taken)
        return taken

    async def _take_loop(self) -> None:
        period = self.cluster.leases.lease_ms / 6000
        while True:
            await asyncio.sleep(period)
            try:
                await self.take_lapsed()
            except Exception:  # (never let the look stop for good)
                log.exception("cluster: the rooms of members that died were not looked for")

    def handlers(self) -> Handlers:
        """The callbacks the cluster link calls."""
        return Handlers(call=self.call, message=self.message, gone=self.gone, lost=self.registry.drop)

    async def call(self, member: str, call: InfoCall | JoinCall | AttachCall) -> MemberAnswer:
        """A request from ``member`` about a room it believes is held here."""
        room_id = call.room
        if self.registry.stopping:
            return Moved(moved="")  # this member is going: the caller waits for the lease to come free
        try:
            room = await self.registry.get(room_id)
        except HeldElsewhere as exc:
            return Moved(moved=exc.holder)
        if room is None:
            said = wording.answer(Phrase(text.NO_ROOM, room=room_id))
            return Refused(status=404, error=said["error"], text=said["text"], code=CLOSE_NO_ROOM)
        if not isinstance(call, AttachCall):
            return await self.visits.do(room, call)
        seat = None
        if call.token is not None:
            seat = room.seat_for_token(call.token)
            if seat is None:
                said = wording.answer(Phrase(text.BAD_TOKEN, room=room_id))
                return Refused(error=said["error"], text=said["text"], code=CLOSE_BAD_TOKEN)
        conn = call.conn
        key = (member, conn)
        if not self.cluster.bus.accept_incoming(member, conn, room_id):
            return Moved(moved="")  # the relay gave up waiting and said bye: it asks again
        client = RemoteClient(self.cluster, member, conn, room, seat, self._done)
        self.clients[key] = client
        if not await room.attach(client):  # the room left memory meanwhile: the relay asks again
            self.clients.pop(key, None)
            client.gone()
            return Moved(moved="")
        return Attached(seat=seat)

    def _done(self, client: RemoteClient) -> None:
        if self.clients.get((client.member, client.conn)) is client:
            del self.clients[(client.member, client.conn)]

    async def message(self, member: str, conn: str, raw: str) -> None:
        """A relayed client's message."""
        client = self.clients.get((member, conn))
        if client is not None:
            client.feed(raw)

    def gone(self, member: str, conn: str) -> None:
        """A relayed client left."""
        client = self.clients.pop((member, conn), None)
        if client is not None:
            client.gone()

    async def close(self) -> None:
        """Stop taking rooms over; let every relayed client go."""
        if self._taker is not None:
            await stop_task(self._taker)
        for client in list(self.clients.values()):
            client.gone()
            with contextlib.suppress(asyncio.CancelledError):
                await client._task
        self.clients.clear()
