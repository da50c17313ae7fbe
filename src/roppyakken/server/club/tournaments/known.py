"""What a reader knows of a tournament, kept between its reads so that each read takes only what
may have changed.

A table's row never changes once its game has ended, and tables are only ever added (numbered in
the order paired), so a reader that knows a tournament re-reads its row, its entries and its byes
(a line each per player at most) and, of its tables, only those from the first one it saw still
playing: in an arena of 1,000 players that is the few hundred tables in play, not the thousands
played.  It keeps the standings game by game as the games end (tally.py).  The director
(director.py) keeps one in the server's reading process (:meth:`Database.look_apart
<roppyakken.server.store.database.Database.look_apart>`), the live page's feed
(web/tournament_feed.py) one in the server, read through :meth:`Database.look
<roppyakken.server.store.database.Database.look>`, beside the database's writer.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Connection

from roppyakken.server.club.tournaments import store
from roppyakken.server.club.tournaments.store import Entry, TableRow, Tournament
from roppyakken.server.club.tournaments.tally import Tally


@dataclass(slots=True)
class Known:
    """A tournament as last read."""

    tournament: Tournament
    entries: list[Entry] = field(default_factory=list)
    byes: list[tuple[int, str]] = field(default_factory=list)
    tables: dict[int, TableRow] = field(default_factory=dict)
    """Every table read, by number (in the order paired)."""
    tally: Tally = field(init=False)
    """The standings of the tables whose game ended, counted in the order their ends were read
    (each player's in the order they played them)."""
    _open: set[int] = field(default_factory=set)
    _entries_read: store.Reused = field(default_factory=dict)
    _tables_read: store.Reused = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.tally = Tally(self.tournament.format)

    def first_to_read(self) -> int:
        """The first table number a read takes again: the first still in play, else the next new one."""
        if self._open:
            return min(self._open)
        return max(self.tables, default=0) + 1

    def open_tables(self) -> list[TableRow]:
        """The tables in play (their game not ended), in the order paired."""
        return [self.tables[n] for n in sorted(self._open)]

    def take(self, rows: list[TableRow]) -> list[TableRow]:
        """Bring the tables up to date with ``rows`` (read from :meth:`first_to_read` on): the
        tables whose game ended since the last read, in the order they ended."""
        ended = []
        for row in rows:
            before = self.tables.get(row.number)
            self.tables[row.number] = row
            if row.places is None:
                self._open.add(row.number)
            else:
                self._open.discard(row.number)
                if before is None or before.places is None:
                    ended.append(row)
        ended.sort(key=lambda t: (t.finished_at or 0.0, t.number))
        return ended

    def count(self, ended: list[TableRow]) -> None:
        """Bring the standings up to date: the entrants and byes as read, the games that ended."""
        tally = self.tally
        tally.players(e.player_id for e in self.entries)
        for row in ended:
            result = row.result()
            if result is not None:
                tally.add(result)
        had: dict[str, int] = {}
        for _, player in self.byes:
            had[player] = had.get(player, 0) + 1
        tally.set_byes(had)


def refresh(conn: Connection, tournament_id: str, known: Known | None) -> tuple[Known | None, list[TableRow]]:
    """``known`` brought up to date (a new one when None): the tournament as it is now (None: there
    is no such tournament), and the tables whose game ended since ``known`` was read."""
    t = store.get(conn, tournament_id)
    if t is None:
        return None, []
    if known is None:
        known = Known(t)
    known.tournament = t
    known.entries = store.entries(conn, tournament_id, known._entries_read)
    known.byes = store.byes(conn, tournament_id)
    ended = known.take(store.tables_from(conn, tournament_id, known.first_to_read(), known._tables_read))
    for number in [n for n in known._tables_read if n not in known._open]:
        del known._tables_read[number]  # over: never read again
    known.count(ended)
    return known, ended
