"""A person's games from the server's side: the rooms whose seats their players took (``seat_players``).

An account's history is that of its player and of every guest it adopted, so it is
the same on every device the account signs in on, whatever seat tokens that
browser keeps; the account's page, its export and its erasure read it.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Final

from sqlalchemy import Connection, select

from roppyakken.server.store import tables
from roppyakken.server.wire.answers import PlayerGame

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
    own = conn.execute(select(tables.accounts.c.player_id).where(tables.accounts.c.id == account_id)).scalar()
    adopted = conn.execute(
        select(tables.players.c.id).where(tables.players.c.account_id == account_id)
    ).scalars()
    found = [] if own is None else [str(own)]
    return found + sorted(str(p) for p in adopted if p != own)


def games(conn: Connection, ids: list[str], limit: int = HISTORY_LIMIT) -> list[PlayerGame]:
    """The games these players took a seat in, newest first: room, seat, the player and its name there,
    every seat's name, status, preset, times, winner, and where to open it."""
    if not ids:
        return []
    rows = conn.execute(
        select(
            tables.seat_players.c.room_id,
            tables.seat_players.c.seat,
            tables.seat_players.c.player_id,
            tables.rooms.c.status,
            tables.rooms.c.preset,
            tables.rooms.c.created_at,
            tables.rooms.c.finished_at,
            tables.rooms.c.winner,
        )
        .join(tables.rooms, tables.rooms.c.id == tables.seat_players.c.room_id)
        .where(tables.seat_players.c.player_id.in_(ids))
        .order_by(tables.rooms.c.created_at.desc(), tables.seat_players.c.room_id)
        .limit(limit)
    ).all()
    room_ids = sorted({r[0] for r in rows})
    names: dict[str, list[str]] = {i: [] for i in room_ids}
    if room_ids:
        for r in conn.execute(
            select(tables.seats.c.room_id, tables.seats.c.name, tables.seats.c.level)
            .where(tables.seats.c.room_id.in_(room_ids))
            .order_by(tables.seats.c.room_id, tables.seats.c.seat)
        ):
            names[r[0]].append(r[1] or (f"bot:{r[2]}" if r[2] else ""))
    out: list[PlayerGame] = []
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
) -> list[PlayerGame]:
    """The newest games of the player (and, for an account, of every guest it adopted)."""
    return games(conn, player_ids(conn, player_id, account_id), limit)
