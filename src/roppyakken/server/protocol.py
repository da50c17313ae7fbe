"""The websocket protocol (docs/PROTOCOL.md, version 1): client messages checked, server messages built.

Every client message is parsed by :func:`parse_client_message` into one of the
small dataclasses below, or refused with a :class:`ProtocolError` naming what is
wrong (and carrying the message's ``id`` when it had a valid one).  Server
messages are built here as JSON text, so each is encoded once however many
clients receive it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from roppyakken.actions import Action, action_from_json
from roppyakken.errors import RoppyakkenError
from roppyakken.server import text

VERSION: Final = 1
"""The protocol version this server speaks (``hello.v``)."""
MAX_MESSAGE_BYTES: Final = 8192
"""The largest client message accepted."""
MAX_TOKEN_LENGTH: Final = 128
MAX_ID_LENGTH: Final = 64


class ProtocolError(RoppyakkenError):
    """A malformed or refused client message; ``id`` is echoed in the error answer."""

    def __init__(self, message: str, msg_id: str | None = None) -> None:
        super().__init__(message)
        self.msg_id = msg_id


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


ClientMessage = Hello | Act | SetSeat | Start | Ping

_FIELDS: Final[dict[str, frozenset[str]]] = {
    "hello": frozenset({"v", "token"}),
    "act": frozenset({"action"}),
    "seat": frozenset({"seat", "kind", "level"}),
    "start": frozenset(),
    "ping": frozenset(),
}


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def parse_client_message(raw: str) -> ClientMessage:
    """Parse and check one client message; raise :class:`ProtocolError` if it is malformed."""
    if len(raw) > MAX_MESSAGE_BYTES or len(raw.encode("utf-8")) > MAX_MESSAGE_BYTES:
        raise ProtocolError(text.MESSAGE_TOO_LARGE.format(max=MAX_MESSAGE_BYTES))
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, RecursionError):
        raise ProtocolError(text.MESSAGE_NOT_JSON) from None
    if not isinstance(data, dict):
        raise ProtocolError(text.MESSAGE_NOT_OBJECT)
    msg_id = data.get("id")
    if msg_id is not None and (not isinstance(msg_id, str) or len(msg_id) > MAX_ID_LENGTH):
        raise ProtocolError(text.MESSAGE_ID)
    kind = data.get("type")
    if kind is None:
        raise ProtocolError(text.MESSAGE_NO_TYPE, msg_id)
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError(text.MESSAGE_UNKNOWN_TYPE.format(type=kind), msg_id)
    extra = set(data) - _FIELDS[kind] - {"type", "id"}
    if extra:
        problem = text.UNKNOWN_FIELD.format(field=sorted(extra)[0])
        raise ProtocolError(text.MESSAGE_FIELD.format(type=kind, problem=problem), msg_id)

    def bad(field: str, what: str) -> ProtocolError:
        problem = text.FIELD_TYPE.format(field=field, what=what)
        return ProtocolError(text.MESSAGE_FIELD.format(type=kind, problem=problem), msg_id)

    if kind == "hello":
        v = data.get("v")
        if not _is_int(v) or v != VERSION:
            raise ProtocolError(text.BAD_VERSION.format(v=v, ours=VERSION), msg_id)
        token = data.get("token")
        if token is not None and (not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_LENGTH):
            raise bad("token", "a seat token or null")
        return Hello(token, msg_id)
    if kind == "act":
        if "action" not in data:
            raise bad("action", "an action object")
        try:
            action = action_from_json(data["action"])
        except RoppyakkenError as exc:
            raise ProtocolError(text.MESSAGE_FIELD.format(type=kind, problem=str(exc)), msg_id) from None
        return Act(action, msg_id)
    if kind == "seat":
        seat = data.get("seat")
        if not isinstance(seat, int) or isinstance(seat, bool):
            raise bad("seat", "a seat number")
        seat_kind = data.get("kind")
        if seat_kind not in ("bot", "empty"):
            raise bad("kind", "'bot' or 'empty'")
        level = data.get("level")
        if level is not None and (seat_kind != "bot" or not isinstance(level, str)):
            raise bad("level", "a bot level, for kind 'bot' only")
        return SetSeat(seat, seat_kind, level, msg_id)
    if kind == "start":
        return Start(msg_id)
    return Ping(msg_id)


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


def error(message: str, msg_id: str | None = None) -> str:
    """``error``: to the sender only; nothing changed."""
    out: dict[str, Any] = {"type": "error", "message": message}
    if msg_id is not None:
        out["id"] = msg_id
    return encode(out)


def pong(msg_id: str | None = None) -> str:
    """``pong``: the answer to ``ping``."""
    out: dict[str, Any] = {"type": "pong"}
    if msg_id is not None:
        out["id"] = msg_id
    return encode(out)
