"""The lobby websocket ``/ws/lobby`` (docs/PROTOCOL.md), both directions: declared, checked, built.

The client's messages (``seek``, ``cancel``, ``ping``) are pydantic models, checked by
:func:`parse`; the server's are ``TypedDict`` with one builder each, encoded by
:func:`encode` (``error`` and ``pong`` are those of ``/ws/<room>``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any, Final, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from typing_extensions import TypedDict  # pydantic needs it for a TypedDict before Python 3.12

from roppyakken.errors import Phrase, RoppyakkenError
from roppyakken.i18n import N_
from roppyakken.rules import PRESETS, preset
from roppyakken.server.wire import jsonsafe, text
from roppyakken.server.wire.protocol import MessageId, ProtocolError, what
from roppyakken.server.wire.server import ErrorMessage, PlaybanInfo, PongMessage, compact

MAX_LOBBY_MESSAGE: Final = 1024
"""The largest lobby message a client may send (bytes)."""

Preset = Literal[tuple(PRESETS)]  # type: ignore[valid-type]
Control = Literal["15+60", "30+120", "60+300", "1d", "2d", "3d", "7d"]
"""A pool's time control: those of server/play/clocks.py ``CONTROLS`` (a test checks they agree)."""
CONTROLS: Final[tuple[str, ...]] = get_args(Control)


# ------------------------------------------------------------------ client to server


class _LobbyClient(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    id: MessageId


class SeekMessage(_LobbyClient):
    """``seek``: wait in the pool of this preset, number of players and time control."""

    type: Literal["seek"]
    preset: Preset  # type: ignore[valid-type]
    players: Literal[2, 3]
    clock: Control


class CancelMessage(_LobbyClient):
    """``cancel``: leave the pool."""

    type: Literal["cancel"]


class LobbyPingMessage(_LobbyClient):
    """``ping``: keep-alive, answered by ``pong``."""

    type: Literal["ping"]


LobbyClientMessage = Annotated[SeekMessage | CancelMessage | LobbyPingMessage, Field(discriminator="type")]
_CLIENT: Final = TypeAdapter(LobbyClientMessage)

_WHAT: Final = {
    "preset": N_("a preset name"),
    "players": N_("2 or 3"),
    "clock": N_("a time control: {controls}"),
    "id": N_("a string of at most 64 characters"),
}
"""What each field must be (words inside FIELD_TYPE), marked for translation."""


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
                text.FIELD_TYPE, field=field, what=what(field, _WHAT, controls=", ".join(CONTROLS))
            )
        raise ProtocolError(text.MESSAGE_FIELD, msg_id, type=kind, problem=problem) from None
    if isinstance(message, SeekMessage):
        try:
            preset(message.preset).check_players(message.players)
        except RoppyakkenError as exc:
            raise ProtocolError.of(exc, message.id) from None
    return message


# ------------------------------------------------------------------ server to client


class LobbyTable(TypedDict):
    """An open public table: join it in one click."""

    room: str
    preset: str
    players: int
    clock: str
    rated: bool
    taken: int
    host: str | None


class LobbyGame(TypedDict):
    """A public game being played: watch it."""

    room: str
    preset: str
    players: list[str]
    clock: str


class LobbyOverview(TypedDict):
    """What every lobby connection is shown (server/club/pairing.py ``overview``)."""

    tables: list[LobbyTable]
    games: list[LobbyGame]
    pools: dict[str, int]
    waiting: int
    playing: int


class PublicPlayer(TypedDict):
    """A player as others may see it: its id (its profile's address) and name (``/api/me``, the lobby)."""

    id: str
    name: str


class LobbyRating(TypedDict):
    """The player's rating in one rating pool (server/club/ratings/store.py ``standing``)."""

    pool: str
    rating: Annotated[
        int | None, Field(description="the conservative display rating; null: not rated there yet")
    ]
    uncertainty: Annotated[int | None, Field(description="one standard deviation, in display points")]
    provisional: bool
    games: int
    bot: Annotated[str | None, Field(description="the bot level whose rating is nearest the player's")]


class LobbyMessage(TypedDict):
    """``lobby``: open tables, games to watch, and how many wait (by pool) and play."""

    type: Literal["lobby"]
    tables: list[LobbyTable]
    games: list[LobbyGame]
    pools: dict[str, int]
    waiting: int
    playing: int
    player: Annotated[PublicPlayer | None, Field(description="the connection's player (id, name), if any")]
    ratings: Annotated[dict[str, LobbyRating], Field(description="the player's rating in every rating pool")]
    families: Annotated[
        dict[str, str], Field(description="each preset's rating family (pool: family-players)")
    ]


class SeekingMessage(TypedDict):
    """``seeking``: the player waits in ``pool``; ``token`` is the seat token it will hold."""

    type: Literal["seeking"]
    id: str | None
    pool: str
    token: str


class CancelledMessage(TypedDict):
    """``cancelled``: the player left the pool (``paired`` follows instead if it was already paired)."""

    type: Literal["cancelled"]
    id: str | None


class PairedMessage(TypedDict):
    """``paired``: the game is made and started; connect to ``/ws/<room>`` with the ``seeking`` token."""

    type: Literal["paired"]
    room: str
    seat: int
    token: str


class PlaybanMessage(TypedDict):
    """``playban``: sent on connecting to a player under a playban (server/people/playban.py)."""

    type: Literal["playban"]
    seconds: int
    until: float
    recent: int


# --- friends: a challenge received or answered, the followed players online (docs/PROTOCOL.md) ---


class ChallengeInfo(TypedDict):
    """A direct challenge (server/people/challenges.py) as its two players see it."""

    id: str
    challenger: PublicPlayer
    challenged: PublicPlayer
    preset: str
    players: int
    clock: Annotated[str, Field(description="a time control, or none")]
    rated: bool
    status: Annotated[str, Field(description="pending, accepted, declined, cancelled or expired")]
    created: float
    expires: float
    room: Annotated[
        str | None, Field(description="accepted: the room (challenger seat 0, challenged seat 1)")
    ]


class FriendEntry(TypedDict):
    """A followed player, and whether they are online or playing (server/people/follows.py)."""

    id: str
    name: str
    since: float
    online: bool
    playing: bool
    room: Annotated[str | None, Field(description="the public room they play in, to watch")]


class ChallengeMessage(TypedDict):
    """``challenge``: a challenge to or from the player is new or changed (received, answered, expired)."""

    type: Literal["challenge"]
    challenge: ChallengeInfo


class FriendsMessage(TypedDict):
    """``friends``: the followed players online or playing (on connecting, then when it changes)."""

    type: Literal["friends"]
    online: list[FriendEntry]


def challenge(info: ChallengeInfo) -> str:
    """``challenge``: ``info`` is new or changed."""
    return encode(ChallengeMessage(type="challenge", challenge=info))


def friends(online: list[FriendEntry]) -> str:
    """``friends``: who of the followed players is online or playing."""
    return encode(FriendsMessage(type="friends", online=online))


LobbyServerMessage = (
    LobbyMessage
    | ChallengeMessage
    | FriendsMessage
    | SeekingMessage
    | CancelledMessage
    | PairedMessage
    | PlaybanMessage
    | ErrorMessage
    | PongMessage
)
"""Every message the server sends on ``/ws/lobby``."""


def schemas() -> dict[str, Any]:
    """The JSON Schema of the lobby websocket's client and server messages."""
    return {
        "lobby_client_message": _CLIENT.json_schema(),
        "lobby_server_message": TypeAdapter(
            Annotated[LobbyServerMessage, Field(discriminator="type")]
        ).json_schema(),
    }


def encode(message: LobbyServerMessage) -> str:
    """A lobby message as compact JSON text, written as those of ``/ws/<room>`` are."""
    return compact(message)


def lobby(
    overview: LobbyOverview,
    player: PublicPlayer | None,
    ratings: Mapping[str, Any],
    families: Mapping[str, str],
) -> str:
    """``lobby``: the overview, the connection's player and its ratings in every pool."""
    return encode(
        LobbyMessage(
            type="lobby",
            tables=overview["tables"],
            games=overview["games"],
            pools=overview["pools"],
            waiting=overview["waiting"],
            playing=overview["playing"],
            player=player,
            ratings=dict(ratings),
            families=dict(families),
        )
    )


def seeking(msg_id: str | None, pool: str, token: str) -> str:
    """``seeking``: the player waits in ``pool`` and will hold ``token``'s seat."""
    return encode(SeekingMessage(type="seeking", id=msg_id, pool=pool, token=token))


def cancelled(msg_id: str | None) -> str:
    """``cancelled``: the player left the pool."""
    return encode(CancelledMessage(type="cancelled", id=msg_id))


def paired(room: str, seat: int, token: str) -> str:
    """``paired``: the game is made; ``token`` holds ``seat`` of ``room``."""
    return encode(PairedMessage(type="paired", room=room, seat=seat, token=token))


def playban(ban: PlaybanInfo) -> str:
    """``playban``: the playban the connecting player is under."""
    return encode(
        PlaybanMessage(type="playban", seconds=ban["seconds"], until=ban["until"], recent=ban["recent"])
    )
