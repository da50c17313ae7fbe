"""The holder's side of a cluster: clients of other members, seated in this member's rooms.

A websocket that reached another member (a relay) is a :class:`RemoteClient`
here: a room :class:`~roppyakken.server.rooms.Client` like a local socket, whose
``send`` publishes the message to the relay for that one connection.  So the
room builds each message for the client's own seat, as for any client, and
nothing meant for one seat goes to another's member.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any

from roppyakken.errors import Phrase
from roppyakken.server import protocol, text, wording
from roppyakken.server.claims import HeldElsewhere
from roppyakken.server.cluster import Cluster, Handlers
from roppyakken.server.hub import Hub
from roppyakken.server.protocol import Hello, ProtocolError, parse_client_message
from roppyakken.server.rooms import Room

log = logging.getLogger("roppyakken.server")

CLOSE_BAD_TOKEN = 4003
CLOSE_NO_ROOM = 4004
CLOSE_TRY_AGAIN = 1013


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
                    self.send(protocol.error(exc, exc.msg_id))
                except Exception:
                    log.exception("room %s: a relayed message failed", self.room.id)
        finally:
            self.room.detach(self)
            if self.on_done is not None:
                self.on_done(self)


class Members:
    """This member's answers to the others: calls, relayed messages, lost leases."""

    def __init__(self, hub: Hub, cluster: Cluster) -> None:
        self.hub = hub
        self.cluster = cluster
        self.clients: dict[tuple[str, str], RemoteClient] = {}

    def handlers(self) -> Handlers:
        """The callbacks the cluster link calls."""
        return Handlers(call=self.call, message=self.message, gone=self.gone, lost=self.hub.drop)

    async def call(self, member: str, data: dict[str, Any]) -> dict[str, Any]:
        """A request from ``member`` about a room it believes is held here."""
        room_id, op = str(data["room"]), str(data["op"])
        if self.hub.stopping:
            return {"moved": ""}  # this member is going: the caller waits for the lease to come free
        try:
            room = await self.hub.get(room_id)
        except HeldElsewhere as exc:
            return {"moved": exc.holder}
        if room is None:
            return {
                "status": 404,
                **wording.answer(Phrase(text.NO_ROOM, room=room_id)),
                "code": CLOSE_NO_ROOM,
            }
        if op != "attach":
            return await self.hub.do(room, op, data)
        token = data.get("token")
        seat = None
        if token is not None:
            seat = room.seat_for_token(str(token))
            if seat is None:
                return {**wording.answer(Phrase(text.BAD_TOKEN, room=room_id)), "code": CLOSE_BAD_TOKEN}
        conn = str(data["conn"])
        key = (member, conn)
        if not self.cluster.bus.accept_incoming(member, conn, room_id):
            return {"moved": ""}  # the relay gave up waiting and said bye: it asks again
        client = RemoteClient(self.cluster, member, conn, room, seat, self._done)
        self.clients[key] = client
        if not await room.attach(client):  # the room left memory meanwhile: the relay asks again
            self.clients.pop(key, None)
            client.gone()
            return {"moved": ""}
        return {"ok": True, "seat": seat}

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
        """Let every relayed client go."""
        for client in list(self.clients.values()):
            client.gone()
            with contextlib.suppress(asyncio.CancelledError):
                await client._task
        self.clients.clear()
