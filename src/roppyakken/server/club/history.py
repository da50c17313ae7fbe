"""A player's games from the server's side: the rooms whose seats the player took (``seat_players``),
the rooms a browser's seat tokens hold (:func:`my_games`), the newest public games (:func:`finished_games`).

An account's history is that of its player and of every guest it adopted, so it is
the same on every device the account signs in on, whatever seat tokens that
browser keeps.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Connection, select

from roppyakken.server.club import profiles
from roppyakken.server.play.clocks import Clock
from roppyakken.server.store.room_store import utc
from roppyakken.server.store.tables import accounts, players, rooms, seat_players, seats

HISTORY_LIMIT: Final = 50
"""The most games the history lists (the newest)."""


def iso(moment: datetime | float | None) -> str | None:
    """A stored time (aware, naive UTC, or epoch seconds) as ISO 8601 in UTC with ``Z``."""
    if moment is None:
        return None
    if isinstance(moment, int | float):
        moment = datetime.fromtimestamp(float(moment), UTC)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")


def player_ids(conn: Connection, player_id: str, account_id: str | None) -> list[str]:
    """The players whose games are this player's: itself, or an account's player and every guest the
    account adopted (the account's own player first)."""
    if account_id is None:
        return [player_id]
    own = conn.execute(select(accounts.c.player_id).where(accounts.c.id == account_id)).scalar()
    adopted = conn.execute(select(players.c.id).where(players.c.account_id == account_id)).scalars()
    found = [] if own is None else [str(own)]
    return found + sorted(str(p) for p in adopted if p != own)


def games(conn: Connection, ids: list[str], limit: int = HISTORY_LIMIT) -> list[dict[str, Any]]:
    """The games these players took a seat in, newest first: room, seat, the player and its name there,
    every seat's name, status, preset, times, winner, and where to open it."""
    if not ids:
        return []
    rows = conn.execute(
        select(
            seat_players.c.room_id,
            seat_players.c.seat,
            seat_players.c.player_id,
            rooms.c.status,
            rooms.c.preset,
            rooms.c.created_at,
            rooms.c.finished_at,
            rooms.c.winner,
        )
        .join(rooms, rooms.c.id == seat_players.c.room_id)
        .where(seat_players.c.player_id.in_(ids))
        .order_by(rooms.c.created_at.desc(), seat_players.c.room_id)
        .limit(limit)
    ).all()
    room_ids = sorted({r[0] for r in rows})
    names: dict[str, list[str]] = {i: [] for i in room_ids}
    if room_ids:
        for r in conn.execute(
            select(seats.c.room_id, seats.c.name, seats.c.level)
            .where(seats.c.room_id.in_(room_ids))
            .order_by(seats.c.room_id, seats.c.seat)
        ):
            names[r[0]].append(r[1] or (f"bot:{r[2]}" if r[2] else ""))
    out = []
    for room_id, seat, player_id, status, preset, created_at, finished_at, winner in rows:
        shown = names[room_id]
        over = status == "over"
        out.append(
            {
                "room": room_id,
                "seat": seat,
                "player": player_id,
                "name": shown[seat] if seat < len(shown) else None,
                "players": shown,
                "status": status,
                "preset": preset,
                "created_at": iso(created_at),
                "finished_at": iso(finished_at),
                "winner": winner,
                "link": f"/#/replay?room={room_id}" if over else f"/r/{room_id}",
                "record": f"/api/games/{room_id}/record" if over else None,
            }
        )
    return out


def player_games(
    conn: Connection, player_id: str, account_id: str | None, limit: int = HISTORY_LIMIT
) -> list[dict[str, Any]]:
    """The newest games of the player (and, for an account, of every guest it adopted)."""
    return games(conn, player_ids(conn, player_id, account_id), limit)


def finished_games(conn: Connection, limit: int) -> list[dict[str, Any]]:
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
    out = []
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


def my_games(conn: Connection, wanted: dict[str, str], now: float) -> list[dict[str, Any]]:
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
    out = []
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
