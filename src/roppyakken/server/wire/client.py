"""Client to server messages of ``/ws/<room>`` (docs/PROTOCOL.md): declared, checked and parsed.

Every client message is parsed by :func:`parse_client_message` into one of the
small dataclasses below, or refused with a :class:`~roppyakken.server.wire.protocol.ProtocolError`
naming what is wrong (and carrying the message's ``id`` when it had a valid one).  Each is
checked against its pydantic model, from which the published schema is made.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    PlainValidator,
    TypeAdapter,
    ValidationError,
    WithJsonSchema,
)

from roppyakken.actions import Action, action_from_json
from roppyakken.errors import Phrase, RoppyakkenError
from roppyakken.i18n import N_
from roppyakken.server.wire import jsonsafe, text
from roppyakken.server.wire.protocol import VERSION, MessageId, ProtocolError, Refused, what

MAX_MESSAGE_BYTES: Final = 8192
"""The largest client message accepted."""
MAX_TOKEN_LENGTH: Final = 128
MAX_SEQ: Final = 2**53 - 1
"""The largest ``act.seq`` accepted (exact in every JSON reader; a game has far fewer actions)."""


@dataclass(frozen=True, slots=True)
class Hello:
    """``hello``: identify with a seat token (``None``: a spectator)."""

    token: str | None
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Act:
    """``act``: an action for the sender's seat."""

    action: Action
    id: str | None = None
    seq: int | None = None
    """The number of actions of the state the sender acted on: refused if the game has moved on."""


@dataclass(frozen=True, slots=True)
class SetSeat:
    """``seat``: the host fills a seat with a bot or empties it, before the start."""

    seat: int
    kind: str
    level: str | None
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Start:
    """``start``: the host starts the game."""

    id: str | None = None


@dataclass(frozen=True, slots=True)
class Ping:
    """``ping``: keep-alive, answered by ``pong``."""

    id: str | None = None


@dataclass(frozen=True, slots=True)
class AskHint:
    """``hint``: the sender asks what the expert would play now (its own turn, where hints are allowed)."""

    id: str | None = None


@dataclass(frozen=True, slots=True)
class HandOver:
    """``hand_over``: in a room without a clock, agree to hand an absent player's seat to a bot."""

    seat: int
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Say:
    """``chat``: a line for the sender's channel (players or spectators): text, or a quick phrase's id."""

    text: str | None
    phrase: str | None
    id: str | None = None


@dataclass(frozen=True, slots=True)
class Mute:
    """``mute``: the sender stops (or, ``muted`` false, starts again) seeing an author's chat lines."""

    author: str
    muted: bool
    id: str | None = None


@dataclass(frozen=True, slots=True)
class ChatHistory:
    """``chat_history``: the sender asks for its channel's recent lines (server/play/chat.py)."""

    id: str | None = None


ClientMessage = Hello | Act | SetSeat | Start | Ping | AskHint | HandOver | Say | Mute | ChatHistory


_ID: Final = TypeAdapter(MessageId)


def _action(value: Any) -> Action:
    try:
        return action_from_json(value)
    except RoppyakkenError as exc:
        raise Refused(exc) from None


_CARDS: Final = {"type": "array", "items": {"type": "string", "description": "a card slug"}}
ACTION_SCHEMA: Final[dict[str, Any]] = {
    "description": "an action's JSON form (FORMATS.md §2)",
    "oneOf": [
        {
            "type": "object",
            "properties": {"type": {"const": "play"}, "card": {"type": "string"}, "target": _CARDS},
            "required": ["type", "card"],
        },
        {"type": "object", "properties": {"type": {"const": "take"}, "target": _CARDS}, "required": ["type"]},
        {
            "type": "object",
            "properties": {"type": {"const": "declare"}, "hands": _CARDS},
            "required": ["type"],
        },
        {
            "type": "object",
            "properties": {"type": {"const": "redeal"}, "call": {"type": "boolean"}},
            "required": ["type", "call"],
        },
    ],
}
ActionField = Annotated[Any, PlainValidator(_action), WithJsonSchema(ACTION_SCHEMA)]


class _Client(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, arbitrary_types_allowed=True)
    id: MessageId


class HelloMessage(_Client):
    """``hello``: identify with a seat token (null: a spectator); first message only."""

    type: Literal["hello"]
    v: int = Field(description=f"the protocol version: {VERSION}")
    token: str | None = Field(default=None, min_length=1, max_length=MAX_TOKEN_LENGTH)


class ActMessage(_Client):
    """``act``: an action for the sender's seat."""

    type: Literal["act"]
    action: ActionField
    seq: int | None = Field(
        default=None,
        ge=0,
        le=MAX_SEQ,
        description="optional: the seq of the state acted on; refused if the game has moved on (safe resend)",
    )


class SeatMessage(_Client):
    """``seat``: host only, before the start: fill a seat with a bot or empty it."""

    type: Literal["seat"]
    seat: int
    kind: Literal["bot", "empty"]
    level: str | None = Field(default=None, description="a bot level, for kind 'bot' only")


class StartMessage(_Client):
    """``start``: host only: start the game."""

    type: Literal["start"]


class PingMessage(_Client):
    """``ping``: keep-alive, answered by ``pong``."""

    type: Literal["ping"]


class HintRequestMessage(_Client):
    """``hint``: on the sender's turn to play or take a card, ask for the expert's best plays."""

    type: Literal["hint"]


class HandOverMessage(_Client):
    """``hand_over``: no clock: agree to hand the seat of a player absent for a while to a bot."""

    type: Literal["hand_over"]
    seat: int = Field(ge=0, le=2, description="the absent player's seat")


CHAT_MAX: Final = 200
"""The most characters of a chat line."""
PHRASES: Final = ("hello", "good_luck", "good_game", "thanks", "oops", "well_played", "bye")
"""The quick phrases' ids: each reader's client shows them in its own language."""


class ChatSayMessage(_Client):
    """``chat``: a line of text (plain text, at most 200 characters) or a quick phrase, not both."""

    type: Literal["chat"]
    text: str | None = Field(default=None, min_length=1, max_length=CHAT_MAX)
    phrase: Literal[PHRASES] | None = None  # type: ignore[valid-type]


class MuteMessage(_Client):
    """``mute``: hide (``muted`` true) or show again an author's chat lines, for the sender only."""

    type: Literal["mute"]
    author: str = Field(min_length=1, max_length=40, description="the ``from`` of the author's lines")
    muted: bool = True


class ChatHistoryMessage(_Client):
    """``chat_history``: ask for the recent lines of the sender's chat channel."""

    type: Literal["chat_history"]


_MODELS: Final[dict[str, type[_Client]]] = {
    "hello": HelloMessage,
    "act": ActMessage,
    "seat": SeatMessage,
    "start": StartMessage,
    "ping": PingMessage,
    "hint": HintRequestMessage,
    "hand_over": HandOverMessage,
    "chat": ChatSayMessage,
    "mute": MuteMessage,
    "chat_history": ChatHistoryMessage,
}
_WHAT: Final = {
    "token": N_("a seat token or null"),
    "action": N_("an action object"),
    "seat": N_("a seat number"),
    "kind": N_("'bot' or 'empty'"),
    "level": N_("a bot level, for kind 'bot' only"),
    "seq": N_("the seq of a state (a whole number, 0 or more) or null"),
    "text": N_("1 to {max} characters of text, or a 'phrase' instead"),
    "phrase": N_("a quick phrase: hello, good_luck, good_game, thanks, oops, well_played, bye"),
    "author": N_("an author's 'from' (1 to 40 characters)"),
    "muted": N_("true or false"),
}
"""What each field must be (words inside FIELD_TYPE), marked for translation."""


def parse_client_message(raw: str) -> ClientMessage:
    """Parse and check one client message against its model; raise :class:`ProtocolError` if malformed."""
    if len(raw) > MAX_MESSAGE_BYTES or len(raw.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise ProtocolError(text.MESSAGE_TOO_LARGE, max=MAX_MESSAGE_BYTES)
    try:
        data = jsonsafe.loads(raw)
    except (ValueError, RecursionError):  # includes integers too long to convert
        raise ProtocolError(text.MESSAGE_NOT_JSON) from None
    if not isinstance(data, dict):
        raise ProtocolError(text.MESSAGE_NOT_OBJECT)
    try:
        msg_id = _ID.validate_python(data.get("id"), strict=True)
    except ValidationError:
        raise ProtocolError(text.MESSAGE_ID) from None
    kind = data.get("type")
    if kind is None:
        raise ProtocolError(text.MESSAGE_NO_TYPE, msg_id)
    if not isinstance(kind, str) or kind not in _MODELS:
        raise ProtocolError(text.MESSAGE_UNKNOWN_TYPE, msg_id, type=repr(kind))
    try:
        message = _MODELS[kind].model_validate(data)
    except ValidationError as exc:
        raise ProtocolError.of(_problem(kind, exc, data), msg_id) from None
    if isinstance(message, HelloMessage):
        if message.v != VERSION:
            raise ProtocolError(text.BAD_VERSION, msg_id, v=repr(message.v), ours=VERSION)
        return Hello(message.token, msg_id)
    if isinstance(message, ActMessage):
        return Act(message.action, msg_id, message.seq)
    if isinstance(message, SeatMessage):
        if message.level is not None and message.kind != "bot":
            problem = Phrase(text.FIELD_TYPE, field="level", what=what("level", _WHAT))
            raise ProtocolError(text.MESSAGE_FIELD, msg_id, type=kind, problem=problem)
        return SetSeat(message.seat, message.kind, message.level, msg_id)
    if isinstance(message, StartMessage):
        return Start(msg_id)
    if isinstance(message, HintRequestMessage):
        return AskHint(msg_id)
    if isinstance(message, HandOverMessage):
        return HandOver(message.seat, msg_id)
    if isinstance(message, ChatSayMessage):
        if (message.text is None) == (message.phrase is None):
            problem = Phrase(text.FIELD_TYPE, field="text", what=what("text", _WHAT, max=CHAT_MAX))
            raise ProtocolError(text.MESSAGE_FIELD, msg_id, type=kind, problem=problem)
        return Say(message.text, message.phrase, msg_id)
    if isinstance(message, MuteMessage):
        return Mute(message.author, message.muted, msg_id)
    if isinstance(message, ChatHistoryMessage):
        return ChatHistory(msg_id)
    return Ping(msg_id)


def _problem(kind: str, exc: ValidationError, data: dict[str, Any]) -> RoppyakkenError:
    """The first problem pydantic found, as the protocol's one line (a template with fields)."""
    first = exc.errors(include_url=False)[0]
    loc = first.get("loc", ())
    field = str(loc[0]) if loc else ""
    problem: Phrase | RoppyakkenError
    if first["type"] == "extra_forbidden":
        problem = Phrase(text.UNKNOWN_FIELD, field=field)
    elif field == "v":
        return RoppyakkenError(text.BAD_VERSION, v=repr(data.get("v")), ours=VERSION)
    else:
        cause = (first.get("ctx") or {}).get("error")
        if isinstance(cause, Refused):
            problem = cause.said
        else:
            problem = Phrase(text.FIELD_TYPE, field=field, what=what(field, _WHAT, max=CHAT_MAX))
    return RoppyakkenError(text.MESSAGE_FIELD, type=kind, problem=problem)


ClientMessageModel = Annotated[
    HelloMessage
    | ActMessage
    | SeatMessage
    | StartMessage
    | PingMessage
    | HintRequestMessage
    | HandOverMessage
    | ChatSayMessage
    | MuteMessage
    | ChatHistoryMessage,
    Field(discriminator="type"),
]


def schema() -> dict[str, Any]:
    """The JSON Schema of the client messages of ``/ws/<room>``."""
    return TypeAdapter(ClientMessageModel).json_schema()
