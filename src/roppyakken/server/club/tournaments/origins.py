"""Where a rated tournament's entrants joined from: one address or browser enters a rated tournament
once, so that one person's guests never meet in its games (docs/PROTOCOL.md, "What protects
ratings"), unless the server lets one address play itself (``serve --rated-same-address``)."""

from __future__ import annotations

from sqlalchemy import Connection, delete, insert, or_, select

from roppyakken.server.people.players import NOWHERE, Origin
from roppyakken.server.store.tables import tournament_entries, tournament_entry_origins, tournaments


def lock(conn: Connection, tournament_id: str) -> None:
    """Hold the tournament's row until the transaction ends, so that two joins from one place at
    once are checked one after the other (PostgreSQL; SQLite's writer runs one at a time)."""
    conn.execute(select(tournaments.c.id).where(tournaments.c.id == tournament_id).with_for_update())


def taken_from(conn: Connection, tournament_id: str, player_id: str, came_from: Origin) -> bool:
    """Whether another entrant of the tournament joined from ``came_from``'s address or browser."""
    columns = (tournament_entry_origins.c.address_hash, tournament_entry_origins.c.browser_hash)
    same = [column == value for column, value in zip(columns, came_from, strict=True) if value]
    if not same:
        return False
    entry = (tournament_entries.c.tournament_id == tournament_entry_origins.c.tournament_id) & (
        tournament_entries.c.player_id == tournament_entry_origins.c.player_id
    )
    found = conn.execute(
        select(tournament_entry_origins.c.player_id)
        .select_from(tournament_entry_origins.join(tournament_entries, entry))
        .where(
            tournament_entry_origins.c.tournament_id == tournament_id,
            tournament_entry_origins.c.player_id != player_id,
            or_(*same),
        )
        .limit(1)
    ).first()
    return found is not None


def remember(conn: Connection, tournament_id: str, player_id: str, came_from: Origin) -> None:
    """Keep where the entrant (whose entry exists) joined from this time."""
    key = (tournament_entry_origins.c.tournament_id == tournament_id) & (
        tournament_entry_origins.c.player_id == player_id
    )
    conn.execute(delete(tournament_entry_origins).where(key))
    if came_from != NOWHERE:
        conn.execute(
            insert(tournament_entry_origins).values(
                tournament_id=tournament_id,
                player_id=player_id,
                address_hash=came_from[0],
                browser_hash=came_from[1],
            )
        )
