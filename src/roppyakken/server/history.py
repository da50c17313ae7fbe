"""A player's games from the server's side: the rooms whose seats the player took (``seat_players``).

An account's history is that of its player and of every guest it adopted, so it is
the same on every device the account signs in on, whatever seat tokens that
browser keeps.
"""

from __future__ import annotations

from typing import Any, Final

from sqlalchemy import Connection, or_, select

from roppyakken.server.models import players, rooms, seat_players, seats
from roppyakken.server.storage import utc

HISTORY_LIMIT: Final = 50
"""The most games the history lists (the newest)."""


def player_games(
    conn: Connection, player_id: str, account_id: str | None, limit: int = HISTORY_LIMIT
) -> list[dict[str, Any]]:
    """The newest games of the player (and, for an account, of every guest it adopted): room, seat,
    player names, status, winner and finish time (ISO 8601, UTC)."""
    mine = select(players.c.id).where(
        or_(players.c.id == player_id, players.c.account_id == account_id)
        if account_id is not None
        else players.c.id == player_id
    )
    rows = conn.execute(
        select(
            seat_players.c.room_id, seat_players.c.seat, rooms.c.status, rooms.c.winner, rooms.c.finished_at
        )
        .join(rooms, rooms.c.id == seat_players.c.room_id)
        .where(seat_players.c.player_id.in_(mine))
        .order_by(rooms.c.created_at.desc(), rooms.c.id)
        .limit(limit)
    ).all()
    ids = [r[0] for r in rows]
    names: dict[str, list[str]] = {i: [] for i in ids}
    if ids:
        for r in conn.execute(
            select(seats.c.room_id, seats.c.name, seats.c.level)
            .where(seats.c.room_id.in_(ids))
            .order_by(seats.c.room_id, seats.c.seat)
        ):
            names[r[0]].append(r[1] or (f"bot:{r[2]}" if r[2] else ""))
    out = []
    for room_id, seat, status, winner, finished_at in rows:
        at = utc(finished_at)
        out.append(
            {
                "room": room_id,
                "seat": seat,
                "players": names[room_id],
                "status": status,
                "winner": winner,
                "finished_at": at.isoformat().replace("+00:00", "Z") if at else None,
            }
        )
    return out
