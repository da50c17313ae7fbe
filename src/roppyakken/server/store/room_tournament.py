"""The tournament whose table a room is (``tournament_tables.room_id``, unique), as the room's
``room_info`` names it: read once, when the room is made or loaded, in that transaction."""

from __future__ import annotations

from sqlalchemy import Connection, select

from roppyakken.server.store.tables import tournament_tables, tournaments
from roppyakken.server.wire.server import RoomTournament


def of_room(conn: Connection, room_id: str) -> RoomTournament | None:
    """The tournament whose table ``room_id`` is, or None (one read by the unique index on the room)."""
    row = conn.execute(
        select(
            tournaments.c.id,
            tournaments.c.name,
            tournaments.c.format,
            tournaments.c.rounds,
            tournament_tables.c.round,
        )
        .join(tournaments, tournaments.c.id == tournament_tables.c.tournament_id)
        .where(tournament_tables.c.room_id == room_id)
    ).first()
    if row is None:
        return None
    tournament_id, name, format_, rounds, round_ = row
    arena = format_ == "arena"
    return RoomTournament(
        id=str(tournament_id),
        name=str(name),
        format=format_,  # arena, swiss or round_robin (club/tournaments/model.py)
        round=None if arena else int(round_),
        rounds=None if arena or rounds is None else int(rounds),
    )
