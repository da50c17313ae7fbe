"""Rooms as the lobby and a browser list them: the newest finished public games
(:func:`finished_games`) and the rooms a browser's seat tokens hold (:func:`my_games`)."""

from __future__ import annotations

import json

from sqlalchemy import Connection, select

from roppyakken.server.club import profiles
from roppyakken.server.play.clocks import Clock
from roppyakken.server.store.room_store import utc
from roppyakken.server.store.tables import rooms, seats
from roppyakken.server.wire.answers import FinishedGame, HeldGame


def finished_games(conn: Connection, limit: int) -> list[FinishedGame]:
    """The newest finished public games: room, player names, winner, finish time (ISO 8601, UTC).

    Games of private rooms are never listed: only their players and whoever has the room's
    link know of them."""
    rows = conn.execute(
        select(rooms.c.id, rooms.c.winner, rooms.c.finished_at)
        .where(rooms.c.status == "over", rooms.c.public.is_(True))
        .order_by(rooms.c.finished_at.desc(), rooms.c.id)
        .limit(limit)
    ).all()
    ids = [r[0] for r in rows]
    names: dict[str, list[str]] = {i: [] for i in ids}
    if ids:
        for r in conn.execute(
            select(seats.c.room_id, seats.c.name, seats.c.kind, seats.c.level)
            .where(seats.c.room_id.in_(ids))
            .order_by(seats.c.room_id, seats.c.seat)
        ):
            names[r[0]].append(r[1] or f"bot:{r[3]}")
    owners = profiles.seat_owners(conn, ids)
    out: list[FinishedGame] = []
    for room_id, winner, finished_at in rows:
        at = utc(finished_at)
        out.append(
            {
                "room": room_id,
                "players": names[room_id],
                "player_ids": [owners.get((room_id, s)) for s in range(len(names[room_id]))],
                "winner": winner,
                "finished_at": at.isoformat().replace("+00:00", "Z") if at else None,
            }
        )
    return out


def my_games(conn: Connection, wanted: dict[str, str], now: float) -> list[HeldGame]:
    """The rooms of ``wanted`` (room id to a seat token's hash) whose seat that token holds, newest first:
    the seat, the players, the status, and for a running clock whose move it is and the seconds left."""
    if not wanted:
        return []
    held: dict[str, int] = {}
    names: dict[str, list[str]] = {}
    for r in conn.execute(
        select(seats.c.room_id, seats.c.seat, seats.c.name, seats.c.level, seats.c.token_hash)
        .where(seats.c.room_id.in_(list(wanted)))
        .order_by(seats.c.room_id, seats.c.seat)
    ):
        names.setdefault(r[0], []).append(r[2] or (f"bot:{r[3]}" if r[3] else ""))
        if r[4] is not None and r[4] == wanted[r[0]]:
            held[r[0]] = r[1]
    if not held:
        return []
    rows = conn.execute(
        select(
            rooms.c.id, rooms.c.created_at, rooms.c.status, rooms.c.winner, rooms.c.finished_at, rooms.c.clock
        )
        .where(rooms.c.id.in_(list(held)))
        .order_by(rooms.c.created_at.desc())
    ).all()
    out: list[HeldGame] = []
    for room_id, _created, status, winner, finished_at, clock_text in rows:
        clock = None if clock_text is None else Clock.from_json(json.loads(clock_text))
        left = None
        if clock is not None and status == "playing":
            left = clock.paused if clock.paused is not None else clock.remaining(now)
        at = utc(finished_at)
        out.append(
            {
                "room": room_id,
                "seat": held[room_id],
                "players": names[room_id],
                "status": status,
                "winner": winner,
                "finished_at": at.isoformat().replace("+00:00", "Z") if at else None,
                "clock": "none" if clock is None else clock.control,
                "turn": None if clock is None or status != "playing" else clock.turn,
                "remaining": None if left is None else round(left, 3),
            }
        )
    return out
