"""``POST /api/rooms/<room>/report``: a player reports a chat line they could read, or a player of the room.

The reporter is the player of the cookie (with the CSRF header, server/people/players.py).
A player who holds a seat of the room (its seat token in the body, or the seat
taken under its cookie) may report the players' lines; anyone else the spectators'
lines.  The report keeps a snapshot of the line (its text or
phrase, the author's name) and, when known, the reported player's id, so that it
stays readable after the room is gone.  Each player may make
:data:`~roppyakken.server.people.moderation.REPORTS_PER_HOUR` reports an hour (counted in
the database: the same on every member) and report one line or seat once.
Moderators read them with ``roppyakken admin reports``.
"""

from __future__ import annotations

import time
from typing import Any

from sqlalchemy import Connection, select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.errors import RoppyakkenError
from roppyakken.server.addresses import client_address
from roppyakken.server.people import moderation, players
from roppyakken.server.people.moderation import Report
from roppyakken.server.play.chat import PLAYERS, SPECTATORS
from roppyakken.server.play.room import hash_token
from roppyakken.server.store.tables import chat, rooms, seat_players, seats
from roppyakken.server.web import api
from roppyakken.server.wire import bodies, text, wording


class ReportRefused(RoppyakkenError):
    """A report that is not taken: status, and one line as a template and its fields."""

    def __init__(self, status: int, message: object, /, **fields: object) -> None:
        super().__init__(message, **fields)
        self.status = status


def _seat_player(conn: Connection, room_id: str, seat: int) -> str | None:
    found = conn.execute(
        select(seat_players.c.player_id).where(seat_players.c.room_id == room_id, seat_players.c.seat == seat)
    ).scalar()
    return None if found is None else str(found)


def _what(conn: Connection, room_id: str, reporter: str, body: bodies.ReportBody) -> Report:
    """The report of ``body`` with its snapshot (ReportRefused if there is nothing to report)."""
    if conn.execute(select(rooms.c.id).where(rooms.c.id == room_id)).first() is None:
        raise ReportRefused(404, text.NO_ROOM, room=room_id)
    mine = None
    if body.token is not None:  # the seat this client holds proves which channel it reads
        mine = conn.execute(
            select(seats.c.seat).where(
                seats.c.room_id == room_id, seats.c.token_hash == hash_token(body.token)
            )
        ).first()
    if mine is None:
        mine = conn.execute(
            select(seat_players.c.seat).where(
                seat_players.c.room_id == room_id, seat_players.c.player_id == reporter
            )
        ).first()
    if body.message is not None:
        channel = PLAYERS if mine is not None else SPECTATORS
        line = conn.execute(
            select(chat.c.author, chat.c.name, chat.c.text, chat.c.phrase).where(
                chat.c.room_id == room_id, chat.c.idx == body.message, chat.c.channel == channel
            )
        ).first()
        if line is None:
            raise ReportRefused(404, text.REPORT_NO_LINE, idx=body.message)
        author, name, said, phrase = line
        seat = int(author.split(":", 1)[1]) if str(author).startswith("seat:") else None
        reported = None if seat is None else _seat_player(conn, room_id, seat)
        if reported == reporter or (mine is not None and seat == mine[0]):
            raise ReportRefused(400, text.REPORT_SELF)
        return Report(
            room_id, "message", body.reason, channel, body.message, seat, reported, name, said, phrase
        )
    assert body.seat is not None
    row = conn.execute(
        select(seats.c.kind, seats.c.name).where(seats.c.room_id == room_id, seats.c.seat == body.seat)
    ).first()
    if row is None or row[0] != "human":
        raise ReportRefused(404, text.REPORT_NO_SEAT, seat=body.seat)
    reported = _seat_player(conn, room_id, body.seat)
    if reported == reporter:
        raise ReportRefused(400, text.REPORT_SELF)
    return Report(room_id, "player", body.reason, seat=body.seat, player_id=reported, name=row[1])


def file_report(
    conn: Connection, room_id: str, reporter: str, address: str | None, body: bodies.ReportBody, now: float
) -> int | ReportRefused:
    """Check and store a report in one transaction: its id, or why it is not taken (returned, not
    raised: a raise would fail the database batch it shares)."""
    try:
        if moderation.reports_since(conn, reporter, now - 3600) >= moderation.REPORTS_PER_HOUR:
            raise ReportRefused(429, text.REPORT_TOO_MANY)
        report = _what(conn, room_id, reporter, body)
        if moderation.already_reported(conn, reporter, report):
            raise ReportRefused(409, text.REPORT_AGAIN)
    except ReportRefused as exc:
        return exc
    return moderation.store_report(conn, reporter, address, report, now)


async def report_room(request: Request) -> Response:
    """``POST /api/rooms/<room>/report`` ``{"message": idx}`` or ``{"seat": n}``, ``"reason"``."""
    data: dict[str, Any] = await api._body(request)
    body = bodies.report(data)
    player = await players.acting(request)
    if player is None:
        raise api.ApiError(403, text.NO_PLAYER)
    room_id = str(request.path_params["room"])
    address = client_address(request.scope)
    reporter, now = player.id, time.time()
    db = request.app.state.services.db
    made: int | ReportRefused = await db.run(lambda c: file_report(c, room_id, reporter, address, body, now))
    if isinstance(made, ReportRefused):
        return JSONResponse(wording.answer(made), status_code=made.status)
    return JSONResponse({"report": made}, status_code=201)
