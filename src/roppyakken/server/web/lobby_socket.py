"""The lobby's websocket ``/ws/lobby``: the open public tables and games, live, and quick pairing.

On connecting, the client gets a ``lobby`` message (the overview of
server/club/pairing.py) and a new one whenever it changes.  A player (the cookie of
server/people/players.py; a websocket's cookie changes are guarded by its ``Origin``,
which browsers always send, as for ``/ws/<room>``) may ``seek`` a game in a pool:
the answer ``seeking`` carries the seat token it will hold (only its hash is
stored), and ``paired`` names the room and seat once the pool has paired it.
Each ``lobby`` message also carries the player's ratings (server/club/ratings: every
pool, with the bot level nearest each), read when the connection opens.
Closing the connection, or ``cancel``, leaves the pool.  A player's connection is also
told its challenges (``challenge``) and the followed players online (``friends``):
server/club/presence.py.  Its ``lobby`` messages leave out the open tables where a player it
blocks, or who blocks it, sits (server/club/open_tables.py ``visible``; the blocks are read on
connecting and with the followed players online).  Messages are bounded
in size and rate like those of ``/ws/<room>``; each is checked against its
declared model (server/wire/lobby.py), and a bad one is answered with a one-line ``error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Any, Final

from starlette.websockets import WebSocket, WebSocketDisconnect

from roppyakken.errors import RoppyakkenError
from roppyakken.server.addresses import client_address
from roppyakken.server.club import open_tables
from roppyakken.server.club.pairing import Pairing, Pool
from roppyakken.server.club.presence import Watcher
from roppyakken.server.club.ratings import store as rating_store
from roppyakken.server.club.ratings.pools import FAMILIES
from roppyakken.server.limits import MemoryRateLimiter
from roppyakken.server.people import blocks, enforcement, players
from roppyakken.server.play.room import hash_token, new_token
from roppyakken.server.store.database import StorageError
from roppyakken.server.web import identity
from roppyakken.server.web.room_socket import WebSocketClient, admission
from roppyakken.server.wire import lobby as to_lobby
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire import text
from roppyakken.server.wire.lobby import LobbyOverview, LobbyPingMessage, SeekMessage, parse
from roppyakken.server.wire.protocol import ProtocolError

MESSAGES_PER_MINUTE: Final = 60.0
"""Lobby messages one connection may send a minute (burst: :data:`MESSAGE_BURST`)."""
MESSAGE_BURST: Final = 10.0


def _lobby(snapshot: LobbyOverview, player: players.Player | None, standing: dict[str, Any]) -> str:
    return to_lobby.lobby(snapshot, None if player is None else player.public(), standing, FAMILIES)


async def lobby_endpoint(websocket: WebSocket) -> None:
    """``/ws/lobby``: see docs/PROTOCOL.md."""
    services = websocket.app.state.services
    pairing: Pairing = services.pairing
    async with admission(websocket, services) as admitted:
        if admitted:
            await _session(websocket, pairing)


async def _session(websocket: WebSocket, pairing: Pairing) -> None:
    player = await identity.current(websocket)
    standing: dict[str, Any] = await pairing.db.run(
        lambda c: rating_store.standing(c, None if player is None else player.id)
    )
    avoid: frozenset[str] = frozenset()  # whom the player blocks or is blocked by (then the watcher's)
    if player is not None:
        me = player.id
        avoid = await pairing.db.run(lambda c: blocks.partners(c, [me])[me])
    await websocket.accept()
    client = WebSocketClient(websocket, None, pairing.registry.limits.send_timeout)
    pace = MemoryRateLimiter(max_keys=1)
    address, browser = client_address(websocket.scope), identity.browser_of(websocket)
    seeking: list[tuple[str, str]] = []
    """(token, its hash) of this connection's seek, if it waits in the pool."""

    def listen(snapshot: LobbyOverview) -> None:
        shown = open_tables.visible(snapshot, pairing.seated, watcher.avoid if watcher else avoid)
        client.send(_lobby(shown, player, standing))

    def paired(room: str, seat: int) -> None:
        if seeking:
            token = seeking.pop()[0]
            client.send(to_lobby.paired(room, seat, token))

    async def handle(raw: str) -> None:
        if pace.take("", MESSAGES_PER_MINUTE, MESSAGE_BURST):
            raise ProtocolError(text.RATE_LIMITED)
        message = parse(raw)
        if isinstance(message, LobbyPingMessage):
            client.send(to_client.pong(message.id))
            return
        if player is None:
            raise ProtocolError(text.NO_PLAYER, message.id)
        if isinstance(message, SeekMessage):
            known = player
            now = await pairing.db.run(lambda c: players.reload(c, known))
            if now is None:
                raise ProtocolError(text.NO_PLAYER, message.id)
            try:
                await enforcement.may_seek(pairing.db, pairing.registry.limits, now)
            except enforcement.Barred as exc:
                client.send(to_client.error(exc, message.id, **exc.extra))
                return
            if seeking:
                await pairing.cancel(player.id, seeking[0][1])
                seeking.clear()
            pool = Pool(message.preset, message.players, message.clock)
            token = new_token()
            seeking.append((token, hash_token(token)))
            await pairing.seek(  # under the name it has now
                now, pool, seeking[0][1], paired, address=address, browser=browser
            )
            client.send(to_lobby.seeking(message.id, pool.key, token))
            return
        if seeking:
            await pairing.cancel(player.id, seeking[0][1])
            seeking.clear()
        client.send(to_lobby.cancelled(message.id))

    watcher: Watcher | None = None
    listen(pairing.snapshot)
    if player is not None:  # fair play: a player under a playban is told so on arrival
        with contextlib.suppress(StorageError):
            ban = await enforcement.current_playban(pairing.db, pairing.registry.limits, player.id)
            if ban is not None:
                client.send(to_lobby.playban(ban.to_json(time.time())))
    pairing.listeners.add(listen)
    presence = websocket.app.state.services.presence
    if player is not None and presence is not None:
        watcher = presence.watch(player.id, client.send, avoid, lambda: listen(pairing.snapshot))
    try:
        with contextlib.suppress(WebSocketDisconnect):
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    break
                data = message.get("text")
                try:
                    if data is None:
                        raise ProtocolError(text.MESSAGE_BINARY)
                    await handle(str(data))
                except ProtocolError as exc:
                    client.send(to_client.error(exc, exc.msg_id))
                except RoppyakkenError as exc:  # a preset that has no game for that many players
                    client.send(to_client.error(exc))
                except StorageError:
                    client.send(to_client.error(text.STORAGE_UNAVAILABLE))
    finally:
        pairing.listeners.discard(listen)
        if watcher is not None:
            presence.unwatch(watcher)
        if seeking and player is not None:
            with contextlib.suppress(StorageError, RuntimeError):
                await asyncio.shield(pairing.cancel(player.id, seeking[0][1]))
        await client.finish()
