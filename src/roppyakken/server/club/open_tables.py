"""Which open public tables the lobby lists: those whose host is still there.

A public table waiting for players is listed while its host (seat 0) has the
room open.  The member holding the room stamps ``rooms.host_seen_at`` when the
table is made and every :data:`HOST_REFRESH` seconds while the host is connected
to it (one ``UPDATE`` for all its tables, from the pairing loop); the lobby lists
the tables stamped within the last :data:`HOST_GRACE` seconds.  So a table whose
host closed the page, or whose member died, leaves the list within
:data:`HOST_GRACE` seconds, however old the table, and a host who keeps the room
open keeps it listed as long as they wait.  The stamp lives in the database, so
every member's lobby lists the tables of every member.

Blocks (server/people/blocks.py): the overview keeps, beside the tables, the players seated at
each (:func:`seated`); each lobby socket leaves out the tables where someone it blocks, or who
blocks it, sits (:func:`visible`), and ``POST /api/rooms/<room>/join`` refuses such a seat.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from sqlalchemy import Connection, select, update

from roppyakken.server.store.tables import rooms, seat_players
from roppyakken.server.wire.lobby import LobbyOverview

if TYPE_CHECKING:
    from roppyakken.server.play.room import Room

HOST_REFRESH: Final = 5.0
"""Seconds between two stamps of the tables whose host is connected."""
HOST_GRACE: Final = 20.0
"""Seconds a table stays listed after its host was last seen there (a reload, a dropped connection)."""


def hosted(held: Iterable[Room]) -> list[str]:
    """The open public tables among ``held`` whose host is connected now."""
    return [
        room.id
        for room in held
        if room.public and room.status == "waiting" and any(c.seat == 0 for c in room.clients)
    ]


def stamp(conn: Connection, room_ids: list[str], now: float) -> None:
    """The hosts of these waiting tables are there at ``now``."""
    if room_ids:
        conn.execute(
            update(rooms)
            .where(rooms.c.id.in_(room_ids), rooms.c.status == "waiting")
            .values(host_seen_at=now)
        )


def listed_since(now: float) -> float:
    """The oldest host stamp a listed table may have."""
    return now - HOST_GRACE


def seated(conn: Connection, room_ids: Iterable[str]) -> dict[str, frozenset[str]]:
    """The players holding a seat of each of ``room_ids`` (one query)."""
    wanted = sorted(set(room_ids))
    out: dict[str, set[str]] = {r: set() for r in wanted}
    if wanted:
        for room_id, player_id in conn.execute(
            select(seat_players.c.room_id, seat_players.c.player_id).where(seat_players.c.room_id.in_(wanted))
        ):
            out[str(room_id)].add(str(player_id))
    return {r: frozenset(p) for r, p in out.items()}


def visible(snapshot: LobbyOverview, at: dict[str, frozenset[str]], avoid: frozenset[str]) -> LobbyOverview:
    """``snapshot`` without the tables where one of ``avoid`` sits (``at``: :func:`seated`)."""
    if not avoid:
        return snapshot
    tables = [t for t in snapshot["tables"] if not (at.get(t["room"], frozenset()) & avoid)]
    if len(tables) == len(snapshot["tables"]):
        return snapshot
    return LobbyOverview(
        tables=tables,
        games=snapshot["games"],
        pools=snapshot["pools"],
        waiting=snapshot["waiting"],
        playing=snapshot["playing"],
    )
