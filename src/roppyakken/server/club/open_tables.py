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
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from sqlalchemy import Connection, update

from roppyakken.server.store.tables import rooms

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
