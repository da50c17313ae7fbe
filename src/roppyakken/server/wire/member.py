"""The calls one cluster member makes to another about a room it holds, and their answers.

One model per call and per answer.  On the bus each is a JSON object (server/cluster/bus.py
wraps it with its envelope): a call names its operation in ``op``; an answer is told apart
by its fields, each answer's set being its own (:func:`parse_answer`).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    def to_json(self) -> dict[str, Any]:
        """The message as a JSON object."""
        return self.model_dump(mode="json")


class InfoCall(_Message):
    """What the room is (``GET /api/rooms/<room>``)."""

    op: Literal["info"] = "info"
    room: str


class JoinCall(_Message):
    """Seat a new player (``POST /api/rooms/<room>/join``); ``once``: the same key on every try of one
    join, so that a holder asked again after answering too late gives the same seat, not a second."""

    op: Literal["join"] = "join"
    room: str
    name: str
    once: str | None = None


class AttachCall(_Message):
    """A websocket of the caller's (``conn``) joins the room, as the seat of ``token`` (None: spectator)."""

    op: Literal["attach"] = "attach"
    room: str
    conn: str
    token: str | None = None


MemberCall = Annotated[InfoCall | JoinCall | AttachCall, Field(discriminator="op")]
"""Any call."""


class Moved(_Message):
    """The room is not held here: ``moved`` names its holder ("": unknown, or this member is leaving);
    the caller asks again."""

    moved: str


class RoomInfo(_Message):
    """The room as ``GET /api/rooms/<room>`` shows it."""

    info: dict[str, Any]


class Joined(_Message):
    """The seat taken and its token."""

    seat: int
    token: str


class Attached(_Message):
    """The websocket is in the room, as ``seat`` (None: a spectator)."""

    ok: Literal[True] = True
    seat: int | None


class Refused(_Message):
    """The call was refused: the HTTP status, the English line and its ``text`` (server/wire/wording.py);
    ``code``: the websocket close code for an attach."""

    status: int | None = None
    error: str
    text: Any = None
    code: int | None = None


MemberAnswer = Moved | RoomInfo | Joined | Attached | Refused
"""Any answer."""

_CALL: TypeAdapter[InfoCall | JoinCall | AttachCall] = TypeAdapter(MemberCall)
_ANSWER: TypeAdapter[MemberAnswer] = TypeAdapter(MemberAnswer)


def parse_call(data: dict[str, Any]) -> InfoCall | JoinCall | AttachCall:
    """A call from its JSON object (:class:`ValueError` if it is none)."""
    try:
        return _CALL.validate_python(data)
    except ValidationError as exc:
        raise ValueError(f"not a member call: {exc.error_count()} errors") from None


def parse_answer(data: dict[str, Any]) -> MemberAnswer:
    """An answer from its JSON object (:class:`ValueError` if it is none)."""
    try:
        return _ANSWER.validate_python(data)
    except ValidationError as exc:
        raise ValueError(f"not a member answer: {exc.error_count()} errors") from None
