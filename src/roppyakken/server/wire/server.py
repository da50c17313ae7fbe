"""Server to client messages of ``/ws/<room>`` (docs/PROTOCOL.md): declared, built and encoded.

Each message is a ``TypedDict`` (checked by mypy where it is built; the published schema is
made from them) with one builder below that fills it and encodes it with :func:`encode`, the
one place a message becomes JSON text.  The text is what travels: a room encodes a message
once however many clients receive it, the cluster's bus relays it as it is, and a socket's
send queue is bounded by its length.  Fields marked ``NotRequired`` are left out when they
do not apply (``id`` when the request had none); the others are always sent, ``null``
included.

``TypedDict`` rather than pydantic models: a validated model dumped to the same bytes costs
about 1.9 times as much per message (bench/bench_messages.py), and a ``state`` message is built
for every seat after every move; pydantic's own ``model_dump_json`` is quicker but writes other
bytes (``1e-05`` as ``0.00001``).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Final, Literal, NotRequired

from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict  # pydantic needs it for a TypedDict before Python 3.12

from roppyakken.server.wire import wording
from roppyakken.server.wire.protocol import VERSION
from roppyakken.server.wire.wording import Said

_JSON: Final = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False)


class RoomSeat(TypedDict):
    """A seat as ``room_info`` shows it."""

    name: str | None
    kind: Literal["human", "bot", "empty"]
    connected: bool
    level: NotRequired[Annotated[str | None, Field(description="a bot's level (bots only)")]]


class RoomTournament(TypedDict):
    """The tournament whose table a room is, as its ``room_info`` names it."""

    id: str
    name: str
    format: Literal["arena", "swiss", "round_robin"]
    round: Annotated[int | None, Field(description="the table's round (Swiss, round robin; null: an arena)")]
    rounds: Annotated[
        int | None, Field(description="its rounds (Swiss; a round robin's once started; null: an arena)")
    ]


class RoomInfo(TypedDict):
    """``GET /api/rooms/<room>`` and ``room_info``."""

    room: str
    players: int
    rules: dict[str, Any]
    seats: list[RoomSeat]
    status: Literal["waiting", "playing", "over"]
    commitment: Annotated[
        str | None, Field(description="SHA-256 of the secret seed and salt (null: a chosen seed)")
    ]
    hints: Annotated[bool, Field(description="hints are on for every player (the room's option)")]
    clock: Annotated[str, Field(description="the time control: none, 15+60, 30+120, 60+300, 1d … 7d")]
    public: Annotated[bool, Field(description="the finished game is listed for everyone")]
    rated: Annotated[bool, Field(description="the game moves its players' ratings")]
    tournament: NotRequired[
        Annotated[RoomTournament, Field(description="the tournament whose table the room is (absent: none)")]
    ]


class WelcomeMessage(TypedDict):
    """``welcome``: the answer to a valid ``hello``."""

    type: Literal["welcome"]
    v: int
    room: str
    seat: int | None
    room_info: RoomInfo


class RoomMessage(TypedDict):
    """``room``: the room changed."""

    type: Literal["room"]
    room_info: RoomInfo


class ClockView(TypedDict):
    """The ``clock`` of a ``state`` message: public, the same for every receiver."""

    control: Annotated[str, Field(description="the time control, or 'none'")]
    kind: Literal["realtime", "turn", "none"]
    per_move: Annotated[float, Field(description="seconds each move has before the bank runs")]
    banks: Annotated[list[float], Field(description="each seat's bank, in seconds (real time)")]
    turn: Annotated[int | None, Field(description="the seat whose clock runs (null: none runs)")]
    remaining: Annotated[
        float | None, Field(description="seconds left for that seat when this message was made")
    ]
    away: Annotated[
        list[bool],
        Field(description="seats the clock played for, whose player has neither moved nor connected since"),
    ]
    abandoned: Annotated[list[bool], Field(description="seats a bot plays for the rest of the game")]


class StateMessage(TypedDict):
    """``state``: the receiver's own view after ``seq`` applied actions."""

    type: Literal["state"]
    seq: int
    names: list[str]
    view: Annotated[dict[str, Any], Field(description="the seat's SeatView.to_json()")]
    choices: Annotated[
        list[dict[str, Any]],
        Field(
            description="beside each legal action: its points, the yaku it brings closer, and which "
            "earlier action it is equivalent to (roppyakken.choices)"
        ),
    ]
    clock: NotRequired[
        Annotated[
            ClockView,
            Field(
                description="every seat's clock (absent in a room without a clock and no seat handed over)"
            ),
        ]
    ]


class HistoryMessage(TypedDict):
    """``history``: the public events so far, for a client that connects (a reload, a late spectator)."""

    type: Literal["history"]
    seq: int
    first: Annotated[
        int, Field(description="the number of the first event sent (at most the latest 600 are)")
    ]
    events: list[dict[str, Any]]


class EventsMessage(TypedDict):
    """``events``: the public events of the last change."""

    type: Literal["events"]
    seq: int
    events: list[dict[str, Any]]


class RoundEndMessage(TypedDict):
    """``round_end``: a round was scored."""

    type: Literal["round_end"]
    seq: int
    round: int
    score: dict[str, Any]
    totals: list[int]
    captures: list[list[str]]


class GameEndMessage(TypedDict):
    """``game_end``: the game is over."""

    type: Literal["game_end"]
    seq: int
    winner: int | None
    reason: str
    record_url: str


class Wording(TypedDict):
    """A message's English template and its fields, for the client to say in its language."""

    template: Annotated[str, Field(description="a message id of the catalogs (English, with {named} fields)")]
    fields: Annotated[
        dict[str, Any],
        Field(description="each field's value: a string, a number, or a nested {template, fields}"),
    ]


class PlaybanInfo(TypedDict):
    """A playban in effect (server/people/playban.py): seconds left, its end, rated games left recently."""

    seconds: int
    until: float
    recent: int


class SanctionInfo(TypedDict):
    """A sanction in effect (server/people/moderation.py): its kind, end (null: until cleared), reason."""

    kind: str
    until: float | None
    reason: str | None


class ErrorMessage(TypedDict):
    """``error``: to the sender only; nothing changed."""

    type: Literal["error"]
    message: Annotated[str, Field(description="the error in English, one line")]
    text: Annotated[Wording, Field(description="the same error as a template and fields")]
    id: NotRequired[Annotated[str, Field(description="the id of the message refused, if it had one")]]
    playban: NotRequired[
        Annotated[PlaybanInfo, Field(description="a seek or seat refused by a playban: how long it lasts")]
    ]
    sanction: NotRequired[
        Annotated[
            SanctionInfo, Field(description="a connection refused by a suspension: which and until when")
        ]
    ]


class PongMessage(TypedDict):
    """``pong``: the answer to ``ping``."""

    type: Literal["pong"]
    id: NotRequired[Annotated[str, Field(description="the ping's id, if it had one")]]


class YakuChance(TypedDict):
    """How often a yaku ends up completed, in the sampled worlds."""

    yaku: Annotated[str, Field(description="a yaku slug")]
    chance: float


class HintMove(TypedDict):
    """One candidate play of a hint and what it is expected to bring."""

    action: Annotated[dict[str, Any], Field(description="the legal action (FORMATS.md §2)")]
    card: Annotated[str, Field(description="the card played (or the turned-up card taken with)")]
    target: Annotated[list[str], Field(description="the cards it captures (empty: laid on the table)")]
    expert_choice: Annotated[bool, Field(description="the move the expert would play")]
    points_now: Annotated[int, Field(description="card points captured at once")]
    yaku_now: Annotated[list[str], Field(description="yaku completed at once")]
    expected_score: Annotated[float | None, Field(description="the seat's mean round score")]
    score_ci95: Annotated[float | None, Field(description="half width of the round score's 95% interval")]
    expected_margin: Annotated[float | None, Field(description="mean round margin over the others' mean")]
    margin_ci95: Annotated[float | None, Field(description="half width of the margin's 95% interval")]
    risk: Annotated[float | None, Field(description="the others' mean round score this move leaves them")]
    win_chance: Annotated[float | None, Field(description="mean chance of winning the game")]
    yaku_chances: list[YakuChance]


class HintMessage(TypedDict):
    """``hint``: the answer to a ``hint`` request (to the sender only), best play first."""

    type: Literal["hint"]
    seq: Annotated[int, Field(description="the state it is for")]
    seat: int
    worlds: Annotated[int, Field(description="the worlds each play was played out in")]
    moves: list[HintMove]
    id: NotRequired[Annotated[str, Field(description="the request's id, if it had one")]]


class ReviewItem(TypedDict):
    """One decision of the round where the move played gave up the most."""

    turn: Annotated[int, Field(description="the seat's decision number in the round, from 1")]
    phase: Literal["play", "take"]
    played: HintMove
    best: HintMove
    win_chance_lost: float
    points_lost: Annotated[float, Field(description="expected round margin given up")]


class ReviewMessage(TypedDict):
    """``review``: after a round, to that seat only: what the master would have played."""

    type: Literal["review"]
    round: int
    seat: int
    reviews: list[ReviewItem]


class TimeoutMessage(TypedDict):
    """``timeout``: a seat's time ran out and the server played its move (action ``seq - 1``)."""

    type: Literal["timeout"]
    seq: int
    seat: int
    abandoned: Annotated[bool, Field(description="the seat is now played by a bot to the end of the game")]


class HandedMessage(TypedDict):
    """``handed``: no clock: players agreed (or agree so far) to hand an absent player's seat to a bot."""

    type: Literal["handed"]
    seat: int
    votes: Annotated[list[int], Field(description="the seats that agreed")]
    done: Annotated[
        bool, Field(description="every connected player agreed: a bot plays the seat from now on")
    ]


Channel = Literal["players", "spectators"]
"""A room's chat channel: its players', or its spectators'."""


class ChatLine(TypedDict):
    """``chat``: one line of the receiver's channel (plain text: clients show it as text, never markup)."""

    type: Literal["chat"]
    channel: Channel
    idx: int
    author: Annotated[str, Field(description="who wrote it: 'seat:N' or 'spec:…'; what ``mute`` names")]
    name: str
    text: str | None
    phrase: Annotated[str | None, Field(description="a quick phrase's id, shown in the reader's language")]
    at: float


class ChatHistoryAnswer(TypedDict):
    """``chat_history``: the channel's recent lines (those of muted authors left out) and who is muted."""

    type: Literal["chat_history"]
    id: str | None
    channel: Channel
    lines: list[ChatLine]
    muted: list[str]


class MutedMessage(TypedDict):
    """``muted``: the authors whose lines the receiver no longer sees."""

    type: Literal["muted"]
    id: str | None
    muted: list[str]


class RestartingMessage(TypedDict):
    """``restarting``: the server is stopping; reconnect in a moment (the game is saved)."""

    type: Literal["restarting"]
    message: str
    text: Wording


ServerMessage = (
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
    | MutedMessage
)
"""Every message the server sends on ``/ws/<room>``."""


def schema() -> dict[str, Any]:
    """The JSON Schema of the server messages of ``/ws/<room>``."""
    return TypeAdapter(Annotated[ServerMessage, Field(discriminator="type")]).json_schema()


def encode(message: ServerMessage) -> str:
    """A server message as compact JSON text: the one place ``/ws/<room>``'s messages become text."""
    return compact(message)


def compact(value: object) -> str:
    """A JSON value as every message is written (compact, non-ASCII kept): the encoder behind
    :func:`encode` and the lobby's (server/wire/lobby.py), and that of the parts of a message
    assembled once for many receivers (server/play/seat_views.py, checked to equal :func:`state`)."""
    return _JSON.encode(value)


# ------------------------------------------------------------------ one builder per message


def welcome(room: str, seat: int | None, room_info: RoomInfo) -> str:
    """``welcome``: the answer to a valid ``hello``."""
    return encode(WelcomeMessage(type="welcome", v=VERSION, room=room, seat=seat, room_info=room_info))


def room_changed(room_info: RoomInfo) -> str:
    """``room``: the room changed (a join, a seat, a connection, the start)."""
    return encode(RoomMessage(type="room", room_info=room_info))


def state(
    names: Sequence[str],
    seq: int,
    view: dict[str, Any],
    choices: list[dict[str, Any]],
    clock: ClockView | None = None,
) -> str:
    """``state``: the receiver's own view after ``seq`` applied actions, and its choices.

    Rooms send the same bytes assembled from parts (server/play/seat_views.py)."""
    message = StateMessage(type="state", seq=seq, names=list(names), view=view, choices=choices)
    if clock is not None:
        message["clock"] = clock
    return encode(message)


def events(events_json: list[dict[str, Any]], seq: int) -> str:
    """``events``: the public events of the last change, in order."""
    return encode(EventsMessage(type="events", seq=seq, events=events_json))


def history(events_json: list[dict[str, Any]], seq: int, first: int) -> str:
    """``history``: the public events so far (from event number ``first``), for a client that connects."""
    return encode(HistoryMessage(type="history", seq=seq, first=first, events=events_json))


def round_end(
    round_index: int, score: dict[str, Any], totals: Sequence[int], captures: list[list[str]], seq: int
) -> str:
    """``round_end``: a round was scored."""
    return encode(
        RoundEndMessage(
            type="round_end", seq=seq, round=round_index, score=score, totals=list(totals), captures=captures
        )
    )


def game_end(winner: int | None, reason: str, record_url: str, seq: int) -> str:
    """``game_end``: the game is over; its record can be downloaded."""
    return encode(
        GameEndMessage(type="game_end", seq=seq, winner=winner, reason=reason, record_url=record_url)
    )


def error(
    message: Said,
    msg_id: str | None = None,
    *,
    playban: PlaybanInfo | None = None,
    sanction: SanctionInfo | None = None,
) -> str:
    """``error``: to the sender only; nothing changed.  ``message`` (English) and ``text`` (its
    template and fields, for the client to say in its language: server/wire/wording.py); a
    refusal by fair play or moderation also says which (``playban``, ``sanction``)."""
    out = ErrorMessage(type="error", message=str(message), text=_wording(message))
    if msg_id is not None:
        out["id"] = msg_id
    if playban is not None:
        out["playban"] = playban
    if sanction is not None:
        out["sanction"] = sanction
    return encode(out)


def pong(msg_id: str | None = None) -> str:
    """``pong``: the answer to ``ping``."""
    out = PongMessage(type="pong")
    if msg_id is not None:
        out["id"] = msg_id
    return encode(out)


def restarting(message: str) -> str:
    """``restarting``: the server is stopping; clients reconnect in a moment."""
    return encode(RestartingMessage(type="restarting", message=message, text=_wording(message)))


def hint(seq: int, seat: int, worlds: int, moves: list[HintMove], msg_id: str | None) -> str:
    """``hint``: the answer to a ``hint`` request, to the sender only."""
    out = HintMessage(type="hint", seq=seq, seat=seat, worlds=worlds, moves=moves)
    if msg_id is not None:
        out["id"] = msg_id
    return encode(out)


def review(round_index: int, seat: int, items: list[ReviewItem]) -> str:
    """``review``: after a round, what the master would have played, to that seat only."""
    return encode(ReviewMessage(type="review", round=round_index, seat=seat, reviews=items))


def timeout(seat: int, seq: int, abandoned: bool) -> str:
    """``timeout``: ``seat``'s time ran out; the server played action ``seq - 1`` for it."""
    return encode(TimeoutMessage(type="timeout", seq=seq, seat=seat, abandoned=abandoned))


def handed(seat: int, votes: Iterable[int], done: bool) -> str:
    """``handed``: the players' agreement so far to hand ``seat`` to a bot (``done``: it is)."""
    return encode(HandedMessage(type="handed", seat=seat, votes=sorted(votes), done=done))


def chat_line(line: ChatLine) -> str:
    """``chat``: one line, as stored (server/play/chat.py), for every reader of its channel."""
    return encode(line)


def chat_history(msg_id: str | None, channel: Channel, lines: list[ChatLine], muted: Iterable[str]) -> str:
    """``chat_history``: the channel's recent lines (muted authors' left out) and who is muted."""
    return encode(
        ChatHistoryAnswer(type="chat_history", id=msg_id, channel=channel, lines=lines, muted=sorted(muted))
    )


def muted(msg_id: str | None, authors: Iterable[str]) -> str:
    """``muted``: the authors whose lines the receiver no longer sees."""
    return encode(MutedMessage(type="muted", id=msg_id, muted=sorted(authors)))


def _wording(message: Said) -> Wording:
    said = wording.as_json(message)
    return Wording(template=said["template"], fields=said["fields"])
