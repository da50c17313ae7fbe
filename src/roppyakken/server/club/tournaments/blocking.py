"""Round robins and blocks (docs/TOURNAMENTS.md "Blocked pairs").

Every round robin seats every pair of its players together at least once (by 2 each pair meets
once; by 3 a Kirkman schedule or the covering also seats every pair together), so no schedule
keeps a blocked pair apart.  Two players one of whom blocks the other are therefore never both
entered: :func:`refusal` refuses the join of a player who blocks, or is blocked by, an entrant
still in it (one line naming nobody), and a player who blocks an entrant of a round robin they
are both in leaves it then (:func:`leave_for_block`: before the start the entry goes, once it
runs they are withdrawn like a player who withdraws: their tables still to come are not played).
:func:`part_at_start` applies the same rule to the entrants of a round robin about to start (for a
block that came some other way than ``POST /api/blocks``, which applies it at once).
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, and_, delete, select, update

from roppyakken.server.club.tournaments import store
from roppyakken.server.people import blocks
from roppyakken.server.store.tables import tournament_entries, tournaments
from roppyakken.server.wire import text


def refusal(conn: Connection, tournament_id: str, player_id: str) -> str | None:
    """Why ``player_id`` may not enter the round robin ``tournament_id`` (a block, either way, with
    an entrant not withdrawn), or None."""
    others = [
        e.player_id
        for e in store.entries(conn, tournament_id)
        if not e.withdrawn and e.player_id != player_id
    ]
    return text.ROUND_ROBIN_REFUSED if blocks.apart_from(conn, player_id, others) else None


def leave_for_block(conn: Connection, blocker: str, blocked: str) -> list[str]:
    """``blocker`` has just blocked ``blocked``: ``blocker`` leaves every round robin, scheduled or
    running, that both are in (neither withdrawn); those tournaments' ids."""
    mine = tournament_entries.alias("mine")
    theirs = tournament_entries.alias("theirs")
    rows = conn.execute(
        select(tournaments.c.id, tournaments.c.status)
        .join(mine, and_(mine.c.tournament_id == tournaments.c.id, mine.c.player_id == blocker))
        .join(theirs, and_(theirs.c.tournament_id == tournaments.c.id, theirs.c.player_id == blocked))
        .where(
            tournaments.c.format == "round_robin",
            tournaments.c.status.in_(store.OPEN),
            mine.c.withdrawn.is_(False),
            theirs.c.withdrawn.is_(False),
        )
        .order_by(tournaments.c.id)
    ).all()
    for tournament_id, status in rows:
        entry = and_(
            tournament_entries.c.tournament_id == tournament_id, tournament_entries.c.player_id == blocker
        )
        if status == store.SCHEDULED:
            conn.execute(delete(tournament_entries).where(entry))
        else:
            conn.execute(update(tournament_entries).where(entry).values(withdrawn=True))
    return [str(r[0]) for r in rows]


def part_at_start(conn: Connection, tournament_id: str, ids: Iterable[str]) -> set[str]:
    """Of ``ids`` (the entrants of the round robin ``tournament_id`` about to start), the blockers
    who leave it so that no blocked pair is left (each pair in turn, by ids: its blocker leaves
    unless one of the two left already); their entries are deleted."""
    gone: set[str] = set()
    for blocker, blocked_id in sorted(blocks.blocked_by_any(conn, ids, ids)):
        if blocker in gone or blocked_id in gone:
            continue
        gone.add(blocker)
        conn.execute(
            delete(tournament_entries).where(
                tournament_entries.c.tournament_id == tournament_id, tournament_entries.c.player_id == blocker
            )
        )
    return gone
