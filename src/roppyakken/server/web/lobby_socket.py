"""The lobby's websocket ``/ws/lobby``: the open public tables and games, live, and quick pairing.

On connecting, the client gets a ``lobby`` message (the overview of
server/club/pairing.py) and a new one whenever it changes.  A player (the cookie of
server/people/players.py; a websocket's cookie changes are guarded by its ``Origin``,
which browsers always send, as for ``/ws/<room>``) may ``seek`` a game in a pool:
the answer ``seeking`` carries the seat token it will hold (only its hash is
stored), and ``paired`` names the room and seat once the pool has paired it.
Each ``lobby`` message also carries the player's ratings (server/club/ratings: every
pool, with the bot level nearest each), read when the connection opens.
Closing the connection, or ``cancel``, leaves the pool.  Messages are bounded
in size and rate like those of ``/ws/<room>``; each is checked against its
declared model, and a bad one is answered with a one-line ``error``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import Annotated, Any, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from starlette.websockets import WebSocket, WebSocketDisconnect

from roppyakken.errors import Phrase, RoppyakkenError
from roppyakken.i18n import N_
from roppyakken.rules import PRESETS, preset
from roppyakken.server.addresses import client_address
from roppyakken.server.club.pairing import Pairing, Pool
from roppyakken.server.club.ratings import store as rating_store
from roppyakken.server.club.ratings.pools import FAMILIES
from roppyakken.server.limits import MemoryRateLimiter
from roppyakken.server.people import enforcement, players
from roppyakken.server.play.clocks import CONTROLS
from roppyakken.server.play.room import hash_token, new_token
from roppyakken.server.store.database import StorageError
from roppyakken.server.web.room_socket import WebSocketClient, admission
from roppyakken.server.wire import jsonsafe, protocol, text
from roppyakken.server.wire.protocol import ErrorMessage, MessageId, PlaybanInfo, PongMessage, ProtocolError

MAX_LOBBY_MESSAGE: Final = 1024
"""The largest lobby message a client may send (bytes)."""
MESSAGES_PER_MINUTE: Final = 60.0
"""Lobby messages one connection may send a minute (burst: :data:`MESSAGE_BURST`)."""
MESSAGE_BURST: Final = 10.0

Preset = Literal[tuple(PRESETS)]  # type: ignore[valid-type]
Control = Literal[tuple(CONTROLS)]  # type: ignore[valid-type]


class _LobbyClient(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: MessageId


class SeekMessage(_LobbyClient):
    """``seek``: wait in the pool of this preset, number of players and time control."""

    type: Literal["seek"]
    preset: Preset  # type: ignore[valid-type]
    players: Literal[2, 3]
    clock: Control  # type: ignore[valid-type]


class CancelMessage(_LobbyClient):
    """``cancel``: leave the pool."""

    type: Literal["cancel"]


class LobbyPingMessage(_LobbyClient):
    """``ping``: keep-alive, answered by ``pong``."""

    type: Literal["ping"]


LobbyClientMessage = Annotated[SeekMessage | CancelMessage | LobbyPingMessage, Field(discriminator="type")]
_CLIENT: Final = TypeAdapter(LobbyClientMessage)


class LobbyTable(BaseModel):
    """An open public table: join it in one click."""

    room: str
    preset: str
    players: int
    clock: str
    rated: bool
    taken: int
    host: str | None


class LobbyGame(BaseModel):
    """A public game being played: watch it."""

    room: str
    preset: str
    players: list[str]
    clock: str


class LobbyRating(BaseModel):
    """The player's rating in one rating pool (server/club/ratings/store.py ``standing``)."""

    pool: str
    rating: int | None = Field(description="the conservative display rating; null: not rated there yet")
    uncertainty: int | None = Field(description="one standard deviation, in display points")
    provisional: bool
    games: int
    bot: str | None = Field(description="the bot level whose rating is nearest the player's")


class LobbyMessage(BaseModel):
    """``lobby``: open tables, games to watch, and how many wait (by pool) and play."""

    type: Literal["lobby"]
    tables: list[LobbyTable]
    games: list[LobbyGame]
    pools: dict[str, int]
    waiting: int
    playing: int
    player: dict[str, str] | None = Field(description="the connection's player (id, name), if any")
    ratings: dict[str, LobbyRating] = Field(description="the player's rating in every rating pool")
    families: dict[str, str] = Field(description="each preset's rating family (pool: family-players)")


class SeekingMessage(BaseModel):
    """``seeking``: the player waits in ``pool``; ``token`` is the seat token it will hold."""

    type: Literal["seeking"]
    id: str | None
    pool: str
    token: str


class CancelledMessage(BaseModel):
    """``cancelled``: the player left the pool (``paired`` follows instead if it was already paired)."""

    type: Literal["cancelled"]
    id: str | None


class PairedMessage(BaseModel):
    """``paired``: the game is made and started; connect to ``/ws/<room>`` with the ``seeking`` token."""

    type: Literal["paired"]
    room: str
    seat: int
    token: str


class PlaybanMessage(PlaybanInfo):
    """``playban``: sent on connecting to a player under a playban (server/people/playban.py)."""

    type: Literal["playban"]


LobbyServerMessage = Annotated[
    LobbyMessage
    | SeekingMessage
    | CancelledMessage
    | PairedMessage
    | PlaybanMessage
    | ErrorMessage
    | PongMessage,
    Field(discriminator="type"),
]


def schemas() -> dict[str, Any]:
    """The JSON Schema of the lobby websocket's client and server messages."""
    return {
        "lobby_client_message": _CLIENT.json_schema(),
        "lobby_server_message": TypeAdapter(LobbyServerMessage).json_schema(),
    }


def parse(raw: str) -> SeekMessage | CancelMessage | LobbyPingMessage:
    """One lobby client message, checked; :class:`ProtocolError` with one line if it is wrong."""
    if len(raw.encode("utf-8")) > MAX_LOBBY_MESSAGE:
        raise ProtocolError(text.MESSAGE_TOO_LARGE, max=MAX_LOBBY_MESSAGE)
    try:
        data = jsonsafe.loads(raw)
    except (ValueError, RecursionError):
        raise ProtocolError(text.MESSAGE_NOT_JSON) from None
    if not isinstance(data, dict):
        raise ProtocolError(text.MESSAGE_NOT_OBJECT)
    msg_id = data.get("id") if isinstance(data.get("id"), str) and len(data["id"]) <= 64 else None
    kind = data.get("type")
    if kind not in ("seek", "cancel", "ping"):
        raise ProtocolError(text.MESSAGE_UNKNOWN_TYPE, msg_id, type=repr(kind))
    try:
        message = _CLIENT.validate_python(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        field = str(first["loc"][1]) if len(first["loc"]) > 1 else "body"
        if first["type"] == "extra_forbidden":
            problem = Phrase(text.UNKNOWN_FIELD, field=field)
        else:
            problem = Phrase(
                text.FIELD_TYPE, field=field, what=protocol.what(field, _WHAT, controls=", ".join(CONTROLS))
            )
        raise ProtocolError(text.MESSAGE_FIELD, msg_id, type=kind, problem=problem) from None
    if isinstance(message, SeekMessage):
        try:
            preset(message.preset).check_players(message.players)
        except RoppyakkenError as exc:
            raise ProtocolError.of(exc, message.id) from None
    return message


_WHAT: Final = {
    "preset": N_("a preset name"),
    "players": N_("2 or 3"),
    "clock": N_("a time control: {controls}"),
    "id": N_("a string of at most 64 characters"),
}
"""What each field must be (words inside FIELD_TYPE), marked for translation."""


def _lobby(snapshot: dict[str, Any], player: players.Player | None, standing: dict[str, Any]) -> str:
    return protocol.encode(
        {
            "type": "lobby",
            **snapshot,
            "player": None if player is None else player.public(),
            "ratings": standing,
            "families": FAMILIES,
        }
    )


async def lobby_endpoint(websocket: WebSocket) -> None:
    """``/ws/lobby``: see docs/PROTOCOL.md."""
    services = websocket.app.state.services
    pairing: Pairing = services.pairing
    async with admission(websocket, services) as admitted:
        if admitted:
            await _session(websocket, pairing)


async def _session(websocket: WebSocket, pairing: Pairing) -> None:
    player = await players.current(websocket)
    standing: dict[str, Any] = await pairing.db.run(
        lambda c: rating_store.standing(c, None if player is None else player.id)
    )
    await websocket.accept()
    client = WebSocketClient(websocket, None, pairing.registry.limits.send_timeout)
    pace = MemoryRateLimiter(max_keys=1)
    address, browser = client_address(websocket.scope), players.browser_of(websocket)
    seeking: list[tuple[str, str]] = []
    """(token, its hash) of this connection's seek, if it waits in the pool."""

    def listen(snapshot: dict[str, Any]) -> None:
        client.send(_lobby(snapshot, player, standing))

    def paired(room: str, seat: int) -> None:
        if seeking:
            token = seeking.pop()[0]
            client.send(protocol.encode({"type": "paired", "room": room, "seat": seat, "token": token}))

    async def handle(raw: str) -> None:
        if pace.take("", MESSAGES_PER_MINUTE, MESSAGE_BURST):
            raise ProtocolError(text.RATE_LIMITED)
        message = parse(raw)
        if isinstance(message, LobbyPingMessage):
            client.send(protocol.pong(message.id))
            return
        if player is None:
            raise ProtocolError(text.NO_PLAYER, message.id)
        if isinstance(message, SeekMessage):
            known = player
            now = await pairing.db.run(lambda c: players.reload(c, known))
            if now is None:
                raise ProtocolError(text.NO_PLAYER, message.id)
            try:
                await enforcement.may_seek(pairing.registry, now)
            except enforcement.Barred as exc:
                client.send(protocol.error(exc, message.id, exc.extra))
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
            client.send(
                protocol.encode({"type": "seeking", "id": message.id, "pool": pool.key, "token": token})
            )
            return
        if seeking:
            await pairing.cancel(player.id, seeking[0][1])
            seeking.clear()
        client.send(protocol.encode({"type": "cancelled", "id": message.id}))

    client.send(_lobby(pairing.snapshot, player, standing))
    if player is not None:  # fair play: a player under a playban is told so on arrival
        with contextlib.suppress(StorageError):
            ban = await enforcement.current_playban(pairing.registry, player.id)
            if ban is not None:
                client.send(protocol.encode({"type": "playban", **ban.to_json(time.time())}))
    pairing.listeners.add(listen)
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
                    client.send(protocol.error(exc, exc.msg_id))
                except RoppyakkenError as exc:  # a preset that has no game for that many players
                    client.send(protocol.error(exc))
                except StorageError:
                    client.send(protocol.error(text.STORAGE_UNAVAILABLE))
    finally:
        pairing.listeners.discard(listen)
        if seeking and player is not None:
            with contextlib.suppress(StorageError, RuntimeError):
                await asyncio.shield(pairing.cancel(player.id, seeking[0][1]))
        await client.finish()
