"""The websocket protocol (docs/PROTOCOL.md, version 1): client messages checked, server messages built.

Every client message is parsed by :func:`parse_client_message` into one of the
small dataclasses below, or refused with a :class:`ProtocolError` naming what is
wrong (and carrying the message's ``id`` when it had a valid one).  Server
messages are built here as JSON text, so each is encoded once however many
clients receive it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
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
from roppyakken.server.wire import jsonsafe, text, wording
from roppyakken.server.wire.wording import Said

VERSION: Final = 1
"""The protocol version this server speaks (``hello.v``)."""
MAX_MESSAGE_BYTES: Final = 8192
"""The largest client message accepted."""
MAX_TOKEN_LENGTH: Final = 128
MAX_ID_LENGTH: Final = 64
MAX_SEQ: Final = 2**53 - 1
"""The largest ``act.seq`` accepted (exact in every JSON reader; a game has far fewer actions)."""


class ProtocolError(RoppyakkenError):
    """A malformed or refused client message; ``id`` is echoed in the error answer.

    Like every :class:`RoppyakkenError` it keeps its template and fields, which the ``error``
    message carries for the client to say in its language (server/wire/wording.py).
    """

    def __init__(self, message: object, msg_id: str | None = None, /, **fields: object) -> None:
        super().__init__(message, **fields)
        self.msg_id = msg_id

    @classmethod
    def of(cls, error: RoppyakkenError, msg_id: str | None = None) -> ProtocolError:
        """``error`` (an illegal action, a bad option) refusing the message ``msg_id``."""
        return cls(error.template, msg_id, **error.fields)


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


# ------------------------------------------------------------------ the declared protocol (pydantic)

MessageId = Annotated[str | None, Field(default=None, max_length=MAX_ID_LENGTH)]
_ID: Final = TypeAdapter(MessageId)


class Refused(ValueError):
    """A field's own one-line refusal, raised inside a validator (pydantic passes it on as the cause)."""

    def __init__(self, said: RoppyakkenError | str) -> None:
        super().__init__(str(said))
        self.said = said if isinstance(said, RoppyakkenError) else RoppyakkenError(said)
        """The refusal with its template and fields (server/wire/wording.py)."""


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


def what(field: str, known: dict[str, str], **fields: object) -> Phrase:
    """What ``field`` must be, as words to translate (the protocol document's, for a field not in
    ``known``), with those of ``fields`` its template names."""
    words = known.get(field, N_("as docs/PROTOCOL.md says"))
    return Phrase(words, **{name: value for name, value in fields.items() if f"{{{name}}}" in words})


# server messages: declared for the published schema (they are built by the functions below)


class RoomSeat(BaseModel):
    """A seat as ``room_info`` shows it."""

    name: str | None
    kind: Literal["human", "bot", "empty"]
    connected: bool
    level: str | None = None


class RoomInfo(BaseModel):
    """``GET /api/rooms/<room>`` and ``room_info``."""

    room: str
    players: int
    rules: dict[str, Any]
    seats: list[RoomSeat]
    status: Literal["waiting", "playing", "over"]
    commitment: str | None = Field(description="SHA-256 of the secret seed and salt (null: a chosen seed)")
    hints: bool = Field(default=False, description="hints are on for every player (the room's option)")
    clock: str = Field(default="none", description="the time control: none, 15+60, 30+120, 60+300, 1d … 7d")
    public: bool = Field(default=False, description="the finished game is listed for everyone")


class WelcomeMessage(BaseModel):
    """``welcome``: the answer to a valid ``hello``."""

    type: Literal["welcome"]
    v: int
    room: str
    seat: int | None
    room_info: RoomInfo


class RoomMessage(BaseModel):
    """``room``: the room changed."""

    type: Literal["room"]
    room_info: RoomInfo


class ClockView(BaseModel):
    """The ``clock`` of a ``state`` message: public, the same for every receiver."""

    control: str = Field(description="the time control, or 'none'")
    kind: Literal["realtime", "turn", "none"]
    per_move: float = Field(description="seconds each move has before the bank runs")
    banks: list[float] = Field(description="each seat's bank, in seconds (real time)")
    turn: int | None = Field(description="the seat whose clock runs (null: none runs)")
    remaining: float | None = Field(description="seconds left for that seat when this message was made")
    away: list[bool] = Field(
        description="seats the clock played for, whose player has neither moved nor connected since"
    )
    abandoned: list[bool] = Field(description="seats a bot plays for the rest of the game")


class StateMessage(BaseModel):
    """``state``: the receiver's own view after ``seq`` applied actions."""

    type: Literal["state"]
    seq: int
    view: dict[str, Any] = Field(description="the seat's SeatView.to_json()")
    names: list[str]
    choices: list[dict[str, Any]] = Field(
        default_factory=list,
        description="beside each legal action: its points, the yaku it brings closer, and which earlier "
        "action it is equivalent to (roppyakken.choices)",
    )
    clock: ClockView | None = Field(
        default=None,
        description="every seat's clock (absent in a room without a clock and no seat handed over)",
    )


class HistoryMessage(BaseModel):
    """``history``: the public events so far, for a client that connects (a reload, a late spectator)."""

    type: Literal["history"]
    seq: int
    first: int = Field(description="the number of the first event sent (at most the latest 600 are)")
    events: list[dict[str, Any]]


class EventsMessage(BaseModel):
    """``events``: the public events of the last change."""

    type: Literal["events"]
    seq: int
    events: list[dict[str, Any]]


class RoundEndMessage(BaseModel):
    """``round_end``: a round was scored."""

    type: Literal["round_end"]
    seq: int
    round: int
    score: dict[str, Any]
    totals: list[int]
    captures: list[list[str]]


class GameEndMessage(BaseModel):
    """``game_end``: the game is over."""

    type: Literal["game_end"]
    seq: int
    winner: int | None
    reason: str
    record_url: str


class Wording(BaseModel):
    """A message's English template and its fields, for the client to say in its language."""

    template: str = Field(description="a message id of the catalogs (English, with {named} fields)")
    fields: dict[str, Any] = Field(
        default_factory=dict,
        description="each field's value: a string, a number, or a nested {template, fields}",
    )


class PlaybanInfo(BaseModel):
    """A playban in effect (server/people/playban.py): seconds left, its end, rated games left recently."""

    seconds: int
    until: float
    recent: int


class ErrorMessage(BaseModel):
    """``error``: to the sender only; nothing changed."""

    type: Literal["error"]
    message: str = Field(description="the error in English, one line")
    text: Wording | None = Field(default=None, description="the same error as a template and fields")
    id: str | None = None
    playban: PlaybanInfo | None = Field(
        default=None, description="a seek or seat refused by a playban: how long it lasts"
    )


class PongMessage(BaseModel):
    """``pong``: the answer to ``ping``."""

    type: Literal["pong"]
    id: str | None = None


class YakuChance(BaseModel):
    """How often a yaku ends up completed, in the sampled worlds."""

    yaku: str = Field(description="a yaku slug")
    chance: float


class HintMove(BaseModel):
    """One candidate play of a hint and what it is expected to bring."""

    action: dict[str, Any] = Field(description="the legal action (FORMATS.md §2)")
    card: str = Field(description="the card played (or the turned-up card taken with)")
    target: list[str] = Field(description="the cards it captures (empty: laid on the table)")
    expert_choice: bool = Field(description="the move the expert would play")
    points_now: int = Field(description="card points captured at once")
    yaku_now: list[str] = Field(description="yaku completed at once")
    expected_score: float | None = Field(description="the seat's mean round score")
    score_ci95: float | None = Field(description="half width of the round score's 95% interval")
    expected_margin: float | None = Field(description="mean round margin over the others' mean")
    margin_ci95: float | None = Field(description="half width of the margin's 95% interval")
    risk: float | None = Field(description="the others' mean round score this move leaves them")
    win_chance: float | None = Field(description="mean chance of winning the game")
    yaku_chances: list[YakuChance]


class HintMessage(BaseModel):
    """``hint``: the answer to a ``hint`` request (to the sender only), best play first."""

    type: Literal["hint"]
    seq: int = Field(description="the state it is for")
    seat: int
    worlds: int = Field(description="the worlds each play was played out in")
    moves: list[HintMove]
    id: str | None = None


class ReviewItem(BaseModel):
    """One decision of the round where the move played gave up the most."""

    turn: int = Field(description="the seat's decision number in the round, from 1")
    phase: Literal["play", "take"]
    played: HintMove
    best: HintMove
    win_chance_lost: float
    points_lost: float = Field(description="expected round margin given up")


class ReviewMessage(BaseModel):
    """``review``: after a round, to that seat only: what the master would have played."""

    type: Literal["review"]
    round: int
    seat: int
    reviews: list[ReviewItem]


class TimeoutMessage(BaseModel):
    """``timeout``: a seat's time ran out and the server played its move (action ``seq - 1``)."""

    type: Literal["timeout"]
    seq: int
    seat: int
    abandoned: bool = Field(description="the seat is now played by a bot to the end of the game")


class HandedMessage(BaseModel):
    """``handed``: no clock: players agreed (or agree so far) to hand an absent player's seat to a bot."""

    type: Literal["handed"]
    seat: int
    votes: list[int] = Field(description="the seats that agreed")
    done: bool = Field(description="every connected player agreed: a bot plays the seat from now on")


class ChatLine(BaseModel):
    """``chat``: one line of the receiver's channel (plain text: clients show it as text, never markup)."""

    type: Literal["chat"]
    channel: Literal["players", "spectators"]
    idx: int
    author: str = Field(description="who wrote it: 'seat:N' or 'spec:…'; what ``mute`` names")
    name: str
    text: str | None
    phrase: str | None = Field(description="a quick phrase's id, shown in the reader's language")
    at: float


class ChatHistoryAnswer(BaseModel):
    """``chat_history``: the channel's recent lines (those of muted authors left out) and who is muted."""

    type: Literal["chat_history"]
    id: str | None
    channel: Literal["players", "spectators"]
    lines: list[ChatLine]
    muted: list[str]


class MutedMessage(BaseModel):
    """``muted``: the authors whose lines the receiver no longer sees."""

    type: Literal["muted"]
    id: str | None
    muted: list[str]


class RestartingMessage(BaseModel):
    """``restarting``: the server is stopping; reconnect in a moment (the game is saved)."""

    type: Literal["restarting"]
    message: str
    text: Wording | None = None


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
ServerMessageModel = Annotated[
    WelcomeMessage
    | RoomMessage
    | StateMessage
    | HistoryMessage
    | EventsMessage
    | RoundEndMessage
    | GameEndMessage
    | ErrorMessage
    | PongMessage
    | RestartingMessage
    | HintMessage
    | ReviewMessage
    | TimeoutMessage
    | HandedMessage
    | ChatLine
    | ChatHistoryAnswer
    | MutedMessage,
    Field(discriminator="type"),
]


def schemas() -> dict[str, Any]:
    """The JSON Schema of the websocket's client and server messages."""
    return {
        "client_message": TypeAdapter(ClientMessageModel).json_schema(),
        "server_message": TypeAdapter(ServerMessageModel).json_schema(),
    }


def encode(message: dict[str, Any]) -> str:
    """One server message as compact JSON text."""
    return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def welcome(room: str, seat: int | None, room_info: dict[str, Any]) -> str:
    """``welcome``: the answer to a valid ``hello``."""
    return encode({"type": "welcome", "v": VERSION, "room": room, "seat": seat, "room_info": room_info})


def room_changed(room_info: dict[str, Any]) -> str:
    """``room``: the room changed (a join, a seat, a connection, the start)."""
    return encode({"type": "room", "room_info": room_info})


def state(view: dict[str, Any], names: Sequence[str], seq: int) -> str:
    """``state``: the receiver's own view after ``seq`` applied actions."""
    return encode({"type": "state", "seq": seq, "view": view, "names": list(names)})


def events(events_json: list[dict[str, Any]], seq: int) -> str:
    """``events``: the public events of the last change, in order."""
    return encode({"type": "events", "seq": seq, "events": events_json})


def history(events_json: list[dict[str, Any]], seq: int, first: int) -> str:
    """``history``: the public events so far (from event number ``first``), for a client that connects."""
    return encode({"type": "history", "seq": seq, "first": first, "events": events_json})


def round_end(
    round_index: int, score: dict[str, Any], totals: Sequence[int], captures: list[list[str]], seq: int
) -> str:
    """``round_end``: a round was scored."""
    return encode(
        {
            "type": "round_end",
            "seq": seq,
            "round": round_index,
            "score": score,
            "totals": list(totals),
            "captures": captures,
        }
    )


def game_end(winner: int | None, reason: str, record_url: str, seq: int) -> str:
    """``game_end``: the game is over; its record can be downloaded."""
    return encode(
        {"type": "game_end", "seq": seq, "winner": winner, "reason": reason, "record_url": record_url}
    )


def error(message: Said, msg_id: str | None = None, extra: dict[str, Any] | None = None) -> str:
    """``error``: to the sender only; nothing changed.  ``message`` (English) and ``text`` (its
    template and fields, for the client to say in its language: server/wire/wording.py); ``extra``:
    structured fields of the refusal (``playban``)."""
    out: dict[str, Any] = {"type": "error", "message": str(message), "text": wording.as_json(message)}
    if msg_id is not None:
        out["id"] = msg_id
    if extra:
        out.update(extra)
    return encode(out)


def pong(msg_id: str | None = None) -> str:
    """``pong``: the answer to ``ping``."""
    out: dict[str, Any] = {"type": "pong"}
    if msg_id is not None:
        out["id"] = msg_id
    return encode(out)


def restarting(message: str) -> str:
    """``restarting``: the server is stopping; clients reconnect in a moment."""
    return encode({"type": "restarting", "message": message, "text": wording.as_json(message)})


def timeout(seat: int, seq: int, abandoned: bool) -> str:
    """``timeout``: ``seat``'s time ran out; the server played action ``seq - 1`` for it."""
    return encode({"type": "timeout", "seq": seq, "seat": seat, "abandoned": abandoned})


def handed(seat: int, votes: Iterable[int], done: bool) -> str:
    """``handed``: the players' agreement so far to hand ``seat`` to a bot (``done``: it is)."""
    return encode({"type": "handed", "seat": seat, "votes": sorted(votes), "done": done})
