"""The websocket endpoint ``/ws/<room>``: the ``hello`` handshake, then each message checked and answered.

Sending never blocks the room: each connection has its own queue, drained by
its own task; a client that falls far behind, or does not take a message within
``Limits.send_timeout``, is disconnected.  Before the handshake a connection is
refused if its ``Origin`` is another site's, or its address already holds
``Limits.connections_per_address`` websockets.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import secrets
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import TYPE_CHECKING, Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from roppyakken.errors import Phrase
from roppyakken.server.addresses import client_address, origin_allowed
from roppyakken.server.cluster.link import ClusterUnavailable, Relayed
from roppyakken.server.cluster.visits import CLAIM_PATIENCE
from roppyakken.server.limits import MemoryRateLimiter
from roppyakken.server.people import moderation
from roppyakken.server.people.enforcement import suspension_barred
from roppyakken.server.people.players import COOKIE, parse_cookie
from roppyakken.server.play.claims import HeldElsewhere
from roppyakken.server.play.registry import CLOSE_RESTARTING, HubFull
from roppyakken.server.play.room import RestoreError
from roppyakken.server.store.database import StorageError
from roppyakken.server.web import identity
from roppyakken.server.web.backlog import CONNECTION_KEY, MAX_PENDING_BYTES, Backlog
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire import text, wording
from roppyakken.server.wire.client import Act, Hello, parse_client_message
from roppyakken.server.wire.member import AttachCall, Attached, MemberAnswer, Moved, Refused
from roppyakken.server.wire.protocol import ProtocolError
from roppyakken.server.wire.wording import Said

if TYPE_CHECKING:
    from roppyakken.server.web.services import Services

log = logging.getLogger("roppyakken.server")

HELLO_TIMEOUT: Final = 15.0
"""Seconds a new connection has to say hello."""
MAX_QUEUED: Final = 2000
"""Messages queued for one client before it counts as too slow and is dropped (besides the bytes:
:data:`~roppyakken.server.web.backlog.MAX_PENDING_BYTES`)."""
RELAY_PER_SECOND: Final = 100.0
"""Messages a relayed client's member publishes for it per second (burst: twice that); more wait.

A local socket's next message is read once the last one is handled; a relay does not wait
for the holder, so without this one client could make its member publish as fast as it sends."""

ANSWER_SHARE: Final = 0.8
"""The share of ``--write-timeout`` a relay waits for the holder's answer to a move (state or
error) before telling its client the move was not confirmed: the answer comes within the timeout."""

CLOSE_POLICY: Final = 1008
CLOSE_TRY_AGAIN: Final = 1013
CLOSE_BAD_TOKEN: Final = 4003
CLOSE_NO_ROOM: Final = 4004


class WebSocketClient:
    """A connected websocket as a room :class:`~roppyakken.server.play.room.Client`.

    Its reader is dropped when it falls behind: when bytes put on the connection
    (or a message queued here) ``send_timeout`` ago are still not taken, or more
    than :data:`~roppyakken.server.web.backlog.MAX_PENDING_BYTES` wait for it
    (server/web/backlog.py): its memory here stays bounded, whatever the message rate.
    """

    def __init__(self, websocket: WebSocket, seat: int | None, send_timeout: float = 10.0) -> None:
        self.websocket = websocket
        self.seat = seat
        self.send_timeout = send_timeout
        self.dropped = False
        """Whether it was dropped as too slow."""
        self._sending_since: float | None = None
        self.player_id: str | None = None
        """The player id of the connection's cookie, if any (not proven: used only to refuse)."""
        self._outbox: deque[tuple[str | tuple[int, str], float]] = deque()
        """Messages (or the close) not yet handed to the transport, with when they were queued."""
        self._queued = 0
        """Characters queued in :attr:`_outbox`."""
        protocol_object = websocket.scope.get(CONNECTION_KEY) if hasattr(websocket, "scope") else None
        if protocol_object is None:  # (no guard in front: a bare application)
            protocol_object = getattr(getattr(websocket, "_send", None), "__self__", None)
        self._backlog = Backlog(getattr(protocol_object, "transport", None), send_timeout, protocol_object)
        self._loop = asyncio.get_running_loop()
        self._wake = asyncio.Event()
        self._closing = False
        self._task = asyncio.create_task(self._pump())

    def _put(self, item: str | tuple[int, str]) -> None:
        self._outbox.append((item, self._loop.time()))
        self._wake.set()

    def send(self, message: str) -> None:
        """Queue a message (or drop the connection, if too much already waits for it)."""
        if self._closing:
            return
        if len(self._outbox) >= MAX_QUEUED or self._queued + self._backlog.buffered() > MAX_PENDING_BYTES:
            self._drop()
            return
        self._queued += len(message)
        self._put(message)

    def close(self, code: int, reason: str) -> None:
        """Close after the queued messages."""
        if not self._closing:
            self._closing = True
            self._put((code, reason))

    async def _pump(self) -> None:
        ws, outbox = self.websocket, self._outbox
        loop = self._loop
        try:
            while True:
                await self._wake.wait()
                self._wake.clear()
                while outbox:
                    item, _ = outbox.popleft()
                    self._sending_since = loop.time()
                    if isinstance(item, tuple):
                        await ws.close(item[0], item[1])
                        return
                    self._queued -= len(item)
                    await ws.send_text(item)
                    self._backlog.sends += 1
                    self._sending_since = None
        except (WebSocketDisconnect, RuntimeError, OSError):
            self._closing = True

    def check_send(self, now: float, period: float = 0.0) -> None:
        """Drop the connection if its reader is behind: a message waiting here, or bytes on the
        connection, for over ``send_timeout`` (less ``period``), or too many bytes waiting.

        Called every ``period`` seconds for every client (a watchdog, so that sending
        costs no timer of its own).
        """
        if self.dropped:
            return
        limit = max(period, self.send_timeout - period)
        since = self._sending_since
        if self._outbox:
            since = self._outbox[0][1] if since is None else min(since, self._outbox[0][1])
        if (since is not None and now - since > limit) or self._backlog.behind(now, period):
            self._drop()

    def _drop(self) -> None:
        """Drop a reader that does not keep up: abort its connection (nothing more is sent)."""
        if self.dropped:
            return
        self._closing = True
        self.dropped = True
        self._outbox.clear()
        self._queued = 0
        self._task.cancel()
        transport = self._backlog.transport
        if transport is not None:
            transport.abort()

    async def finish(self) -> None:
        """Stop sending (the connection is gone)."""
        self._closing = True
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


async def _receive(websocket: WebSocket) -> str | None:
    """The next text message; None when the client has gone; ProtocolError for a binary one."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    data = message.get("text")
    if data is None:
        raise ProtocolError(text.MESSAGE_BINARY)
    return str(data)


async def _each_message(
    websocket: WebSocket, client: WebSocketClient, handle: Callable[[str], Awaitable[None]]
) -> None:
    """Give each message of the client to ``handle`` until the client goes; a bad one (binary,
    malformed, refused) is answered with its one-line error and the next is read."""
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            try:
                raw = await _receive(websocket)
                if raw is None:
                    return
                await handle(raw)
            except ProtocolError as exc:
                client.send(to_client.error(exc, exc.msg_id))


async def _refuse(websocket: WebSocket, message: Said, code: int, msg_id: str | None = None) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
        await websocket.send_text(to_client.error(message, msg_id))
        await websocket.close(code, str(message)[:120])


@contextlib.asynccontextmanager
async def admission(websocket: WebSocket, hub: Services) -> AsyncIterator[bool]:
    """Whether a websocket may go on (yielded): its origin is allowed, the server is not
    stopping and its address is under its connection bound; otherwise it is closed with the
    reason.  An admitted connection's slot is released when the block ends."""
    limits = hub.limits
    if not origin_allowed(websocket.scope, limits.allowed_origins):
        hub.metrics.refuse("origin")
        await websocket.close(CLOSE_POLICY, text.ORIGIN_REFUSED)  # before the handshake: HTTP 403
        yield False
        return
    if hub.registry.stopping:
        await websocket.close(CLOSE_TRY_AGAIN, text.RESTARTING)
        yield False
        return
    address = client_address(websocket.scope)
    allowed = hub.connections.acquire(address, limits.connections_per_address)
    if inspect.isawaitable(allowed):
        allowed = await allowed
    if not allowed:
        hub.metrics.refuse("too_many_connections")
        await websocket.close(CLOSE_POLICY, text.TOO_MANY_CONNECTIONS)
        yield False
        return
    try:
        yield True
    finally:
        released = hub.connections.release(address)
        if inspect.isawaitable(released):
            await released


async def websocket_endpoint(websocket: WebSocket) -> None:
    """``/ws/<room>``: see docs/PROTOCOL.md."""
    hub: Services = websocket.app.state.services
    room_id = str(websocket.path_params["room"])
    async with admission(websocket, hub) as admitted:
        if admitted:
            await _session(websocket, hub, room_id)


async def _relay(websocket: WebSocket, hub: Services, room_id: str, hello: Hello, holder: str) -> bool:
    """Serve a client of a room held by another member (cluster): its messages go there, the
    holder's messages for it come back.  False if the holder did not take it (ask again)."""
    cluster = hub.cluster
    assert cluster is not None
    client = WebSocketClient(websocket, None, hub.limits.send_timeout)  # the seat is the holder's business
    conn = secrets.token_hex(8)
    loop = asyncio.get_running_loop()
    in_flight: list[tuple[str | None, float]] = []
    """The moves sent to the holder since its last state or error (unconfirmed), with when."""
    patience = hub.limits.write_timeout * ANSWER_SHARE

    def deliver(message: str) -> None:
        if message.startswith(('{"type":"state"', '{"type":"error"')):
            in_flight.clear()
        client.send(message)

    def give_up(why: str) -> None:
        """Tell the client its moves on the way were not confirmed, and make it reconnect."""
        for msg_id, _ in in_flight:
            client.send(to_client.error(why, msg_id))
        in_flight.clear()
        client.send(to_client.restarting(text.RESTARTING))
        client.close(CLOSE_RESTARTING, "restarting")

    def holder_lost(code: int, reason: str) -> None:
        if code == 0:  # the holder died or let the room go: reconnect (to the new holder)
            log.info(
                "room %s: its holder %s let it go or is gone; a relayed client reconnects", room_id, holder
            )
            give_up(text.MOVE_IN_FLIGHT)
        else:
            client.close(code, reason)

    def check_answered() -> None:
        # No state or error since the oldest move on its way: Redis or the holder is frozen (or
        # the answer was lost).  Say so within --write-timeout, rather than leave the client
        # waiting; it reconnects and gets the whole state (the move carries its seq: made once).
        if in_flight and loop.time() - in_flight[0][1] >= patience - 0.001:
            log.warning(
                "room %s: its holder %s did not answer a move in %.1f s; a relayed client reconnects",
                room_id,
                holder,
                patience,
            )
            cluster.bus.close_relayed(conn)  # whatever the holder sends for it now goes nowhere
            give_up(text.MOVE_UNANSWERED)

    relayed = Relayed(conn, room_id, holder, deliver, holder_lost)
    cluster.bus.open_relay(relayed)
    answer: MemberAnswer
    try:
        answer = await cluster.bus.call(holder, AttachCall(room=room_id, conn=conn, token=hello.token))
    except ClusterUnavailable:
        answer = Moved(moved=holder)
    if not isinstance(answer, Attached):
        cluster.bus.close_relayed(conn)  # (in case the holder took it after all: it lets it go)
        await client.finish()
        if not isinstance(answer, Refused):
            return False
        said = wording.from_json(answer.text, answer.error)
        await _refuse(websocket, said, CLOSE_TRY_AGAIN if answer.code is None else answer.code, hello.id)
        return True
    relayed.attached = True
    hub.registry.relayed.add(client)
    pace = MemoryRateLimiter(max_keys=1)

    async def relay(raw: str) -> None:
        # checked here (the same one-line errors as the holder's): only well-formed
        # messages are published, at a bounded pace (the client waits: TCP backpressure)
        message = parse_client_message(raw)
        if isinstance(message, Hello):
            raise ProtocolError(text.HELLO_AGAIN, message.id)
        while wait := pace.take("", RELAY_PER_SECOND * 60, RELAY_PER_SECOND * 2):
            await asyncio.sleep(wait)
        if isinstance(message, Act):
            in_flight.append((message.id, loop.time()))
            loop.call_later(patience, check_answered)
        cluster.bus.forward(conn, raw)

    try:
        await _each_message(websocket, client, relay)
    finally:
        hub.registry.relayed.discard(client)
        cluster.bus.close_relayed(conn)
        await client.finish()
        if client.dropped:
            hub.metrics.refuse("slow_client")
    return True


async def _player_of(websocket: WebSocket) -> str | None:
    """The player a room's websocket comes from, for moderation: the signed-in account's player (its
    session, read from the database), else the player cookie's id (not proven: used only to refuse)."""
    if identity.session_token(websocket) is not None:
        try:
            player = await identity.current(websocket)
        except StorageError:
            player = None
        if player is not None:
            return player.id
    cookie = parse_cookie(websocket.cookies.get(COOKIE))
    return None if cookie is None else cookie[0]


async def _session(websocket: WebSocket, hub: Services, room_id: str) -> None:
    await websocket.accept()
    try:
        async with asyncio.timeout(HELLO_TIMEOUT):
            raw = await _receive(websocket)
        if raw is None:
            return
        hello = parse_client_message(raw)
        if not isinstance(hello, Hello):
            raise ProtocolError(text.HELLO_FIRST, hello.id)
    except TimeoutError:
        await _refuse(websocket, text.HELLO_TIMEOUT, CLOSE_POLICY)
        return
    except ProtocolError as exc:
        await _refuse(websocket, str(exc), CLOSE_POLICY, exc.msg_id)
        return
    except WebSocketDisconnect:
        return
    player_id = await _player_of(websocket)
    if player_id is not None:  # fair play: a suspended player joins no room (server/people/enforcement.py)
        suspension = await moderation.cache_for(hub.db).find(moderation.SUSPEND, player_id=player_id)
        if suspension is not None:
            await _refuse(websocket, suspension_barred(suspension), CLOSE_POLICY, hello.id)
            return
    deadline = asyncio.get_running_loop().time() + CLAIM_PATIENCE
    while True:
        try:
            room = await hub.registry.get(room_id)
        except HeldElsewhere as exc:
            if await _relay(websocket, hub, room_id, hello, exc.holder):
                return
            if asyncio.get_running_loop().time() > deadline:
                with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                    await websocket.close(CLOSE_TRY_AGAIN, text.STORAGE_UNAVAILABLE[:120])
                return
            await asyncio.sleep(0.1)  # the holder did not answer: its lease lapses, then ask again
            continue
        except RestoreError as exc:
            await _refuse(websocket, exc.said, CLOSE_TRY_AGAIN, hello.id)
            return
        except (StorageError, HubFull):
            # no error message: the browser client retries a connection closed without one
            with contextlib.suppress(WebSocketDisconnect, RuntimeError, OSError):
                await websocket.close(CLOSE_TRY_AGAIN, text.STORAGE_UNAVAILABLE[:120])
            return
        if room is None:
            await _refuse(websocket, Phrase(text.NO_ROOM, room=room_id), CLOSE_NO_ROOM, hello.id)
            return
        seat = None
        if hello.token is not None:
            seat = room.seat_for_token(hello.token)
            if seat is None:
                await _refuse(websocket, Phrase(text.BAD_TOKEN, room=room_id), CLOSE_BAD_TOKEN, hello.id)
                return
        client = WebSocketClient(websocket, seat, hub.limits.send_timeout)
        client.player_id = player_id  # a spectator's moderators' mute
        if await room.attach(client):
            break
        await client.finish()  # the room left memory meanwhile: load it again
    try:
        await _each_message(websocket, client, lambda raw: room.handle(client, parse_client_message(raw)))
    finally:
        room.detach(client)
        await client.finish()
        if client.dropped:
            hub.metrics.refuse("slow_client")
