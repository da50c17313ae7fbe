"""What a tournament's page, its JSON and its CSV show: read once, worded for each player.

A :class:`Snapshot` is everything stored of one tournament, read in one transaction; the answers
are built from it (the asking player's own part too), so that the live page of every player of a
member costs one read a second per tournament, not one per player.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final, NamedTuple

from sqlalchemy import Connection

from roppyakken.server.club import clubs
from roppyakken.server.club.tournaments import store
from roppyakken.server.club.tournaments.director import standings
from roppyakken.server.club.tournaments.known import Known
from roppyakken.server.club.tournaments.store import Entry, TableRow, Tournament
from roppyakken.server.club.tournaments.tally import Tally
from roppyakken.server.wire import text
from roppyakken.server.wire.answers import (
    TournamentAnswer,
    TournamentBye,
    TournamentMe,
    TournamentSeat,
    TournamentStanding,
    TournamentSummary,
    TournamentTable,
)
from roppyakken.server.wire.server import compact


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A tournament as stored: its row, entries, tables and byes."""

    tournament: Tournament
    entries: tuple[Entry, ...]
    tables: tuple[TableRow, ...]
    byes: tuple[tuple[int, str], ...]
    club_name: str | None = None
    """A club-only tournament's club's name, unless the club is private (or gone)."""
    tally: Tally | None = field(default=None, compare=False)
    """The standings kept game by game by the reader the snapshot came from (known.py), if any:
    the standings are then not counted again from every table."""


def read(conn: Connection, tournament_id: str) -> Snapshot | None:
    """The tournament's :class:`Snapshot`, or None if there is none."""
    t = store.get(conn, tournament_id)
    if t is None:
        return None
    return Snapshot(
        t,
        tuple(store.entries(conn, tournament_id)),
        tuple(store.tables(conn, tournament_id)),
        tuple(store.byes(conn, tournament_id)),
        _club_name(conn, t.club_id),
    )


def of_known(known: Known, club_name: str | None) -> Snapshot:
    """The :class:`Snapshot` of what a reader knows of a tournament (known.py)."""
    return Snapshot(
        known.tournament,
        tuple(known.entries),
        tuple(known.tables.values()),
        tuple(known.byes),
        club_name,
        known.tally,
    )


def club_name(conn: Connection, tournament: Tournament) -> str | None:
    """A club-only tournament's club's name, unless the club is private (or gone)."""
    return _club_name(conn, tournament.club_id)


def read_me(conn: Connection, tournament_id: str, player_id: str) -> TournamentMe:
    """:func:`me`, read alone: the player's entry and the tables in play, not the whole tournament."""
    entry = store.entry(conn, tournament_id, player_id)
    if entry is None:
        return _me(None, None)
    return _me(entry, _seat_at(store.open_tables(conn, tournament_id), player_id))


def _club_name(conn: Connection, club_id: str | None) -> str | None:
    club = None if club_id is None else clubs.find(conn, club_id)
    return None if club is None or club.private else club.name


def page(tournament_id: str) -> str:
    """The tournament's page in the browser client (a private tournament's link)."""
    return f"/#/tournament/{tournament_id}"


def summary(t: Tournament, entries: int) -> TournamentSummary:
    """The tournament as lists show it."""
    return TournamentSummary(
        id=t.id,
        name=t.name,
        format=t.format,
        preset=t.preset,
        players=t.players,
        clock=t.clock,
        rated=t.rated,
        visibility=t.visibility,
        status=t.status,
        starts_at=t.starts_at,
        ends_at=t.ends_at,
        rounds=t.rounds,
        round=t.round,
        entries=entries,
        page=page(t.id),
    )


CLUB_SHOWN = 10
"""A club's page lists at most this many of its tournaments not over, and as many finished."""


def of_club(conn: Connection, club_id: str) -> list[TournamentSummary]:
    """The club's club-only tournaments as its page lists them (``store.of_club``)."""
    return [summary(t, store.entry_count(conn, t.id)) for t in store.of_club(conn, club_id, CLUB_SHOWN)]


def me(snap: Snapshot, player_id: str | None) -> TournamentMe:
    """The player's part: entered, paused, withdrawn, and the table they play at now."""
    entry = next((e for e in snap.entries if e.player_id == player_id), None)
    if entry is None:
        return _me(None, None)
    return _me(entry, _seat_at((row for row in snap.tables if row.places is None), entry.player_id))


def _seat_at(open_tables: Iterable[TableRow], player_id: str) -> TournamentSeat | None:
    """The player's seat at the table in play that has a room, if any."""
    for row in open_tables:
        if row.room_id is not None and player_id in row.players:
            return TournamentSeat(room=row.room_id, seat=row.players.index(player_id))
    return None


def _me(entry: Entry | None, table: TournamentSeat | None) -> TournamentMe:
    return TournamentMe(
        entered=entry is not None,
        paused=entry is not None and entry.paused,
        withdrawn=entry is not None and entry.withdrawn,
        abandonments=0 if entry is None else entry.abandonments,
        table=table,
    )


def answer(snap: Snapshot, player_id: str | None, now: float) -> TournamentAnswer:
    """``GET /api/tournaments/<id>`` for ``player_id`` (None: nobody signed)."""
    return Shared.of(snap).answer(player_id, now)


@dataclass(frozen=True, slots=True)
class Shared:
    """The parts of a snapshot's answer that are the same for every player, built once."""

    snap: Snapshot
    standings: list[TournamentStanding]
    tables: list[TournamentTable]
    """The latest first."""
    open_table: dict[str, int]
    """Each player at an open table with a room: that table's index in :attr:`tables`."""
    in_play: list[TournamentTable]
    """The tables in play (a room, no places yet), the latest first."""
    in_play_at: dict[int, int]
    """Each table in play: its index in :attr:`in_play`, by its index in :attr:`tables`."""
    entry_of: dict[str, Entry]
    """Each player's entry (a watcher's own part is looked up, not searched for, among a thousand)."""

    @classmethod
    def of(cls, snap: Snapshot, made: TablesMade | None = None) -> Shared:
        """Build them (``made``: the tables built for an earlier snapshot of the same tournament,
        kept by the caller: a table whose row did not change is not built again)."""
        lines, tables = _lines(snap), _tables(snap, {} if made is None else made)
        playing = [i for i, row in enumerate(tables) if row["places"] is None and row["room"]]
        open_table = {p: i for i in playing for p in tables[i]["players"]}
        in_play = [tables[i] for i in playing]
        in_play_at = {i: k for k, i in enumerate(playing)}
        entry_of = {e.player_id: e for e in snap.entries}
        return cls(snap, lines, tables, open_table, in_play, in_play_at, entry_of)

    def me(self, player_id: str | None) -> TournamentMe:
        """:func:`me`, from the shared parts."""
        entry = self.entry_of.get(player_id or "")
        table: TournamentSeat | None = None
        if entry is not None and (i := self.open_table.get(entry.player_id)) is not None:
            row = self.tables[i]
            table = TournamentSeat(room=str(row["room"]), seat=row["players"].index(entry.player_id))
        return _me(entry, table)

    def answer(self, player_id: str | None, now: float) -> TournamentAnswer:
        """The whole answer for ``player_id``."""
        snap = self.snap
        return TournamentAnswer(
            tournament=summary(snap.tournament, len(snap.entries)),
            club=snap.tournament.club_id,
            club_name=snap.club_name,
            standings=self.standings,
            tables=self.tables,
            byes=[TournamentBye(round=r, player=p) for r, p in snap.byes],
            me=self.me(player_id),
            now=now,
        )


LIVE_STANDINGS: Final = 25
"""Standings lines in a page of the live socket (the page the connection asked for, the first by
default, and the player's own line besides)."""
LIVE_TABLES: Final = 20
"""Tables in a page of the live socket (latest first: the page the connection asked for, of every
table or of those in play, the first of every table by default; the player's open one besides)."""


def pages(shared: Shared) -> int:
    """How many pages of :data:`LIVE_STANDINGS` lines the standings make (one when empty)."""
    return max(1, -(-len(shared.standings) // LIVE_STANDINGS))


def page_of(shared: Shared, page: int) -> int:
    """``page`` within the pages there are (a page past the last is the last)."""
    return min(max(1, page), pages(shared))


def table_pages(shared: Shared, playing: bool) -> int:
    """How many pages of :data:`LIVE_TABLES` tables make every table (``playing``: those in play;
    one when there are none)."""
    return max(1, -(-len(shared.in_play if playing else shared.tables) // LIVE_TABLES))


def table_page_of(shared: Shared, page: int, playing: bool) -> int:
    """``page`` within the pages of tables there are (a page past the last is the last)."""
    return min(max(1, page), table_pages(shared, playing))


def live_answer(
    shared: Shared,
    player_id: str | None,
    now: float,
    page: int = 1,
    tables_page: int = 1,
    playing: bool = False,
) -> TournamentAnswer:
    """What the live socket sends ``player_id`` viewing the standings' ``page`` and the tables'
    ``tables_page`` (of those in play only if ``playing``): the answer with that page's
    :data:`LIVE_STANDINGS` lines (and the player's own after them when it is not among them) and
    that page's :data:`LIVE_TABLES` tables (and the player's open one after them when it is not
    among them)."""
    whole = shared.answer(player_id, now)
    first = (page_of(shared, page) - 1) * LIVE_STANDINGS
    lines = shared.standings[first : first + LIVE_STANDINGS]
    own = next((x for x in shared.standings if x["player"] == player_id), None)
    listing = shared.in_play if playing else shared.tables
    first_table = (table_page_of(shared, tables_page, playing) - 1) * LIVE_TABLES
    tables = listing[first_table : first_table + LIVE_TABLES]
    at = shared.open_table.get(player_id or "")
    own_table = None if at is None else shared.tables[at]
    return TournamentAnswer(
        tournament=whole["tournament"],
        club=whole["club"],
        club_name=whole["club_name"],
        standings=lines if own is None or own in lines else [*lines, own],
        tables=tables if own_table is None or own_table in tables else [*tables, own_table],
        byes=whole["byes"],
        me=whole["me"],
        now=now,
    )


class Own(NamedTuple):
    """A player's own parts of the live message, encoded."""

    line: str
    """Their standings line ("" if they have none)."""
    table: str
    """Their open table ("" if none): sent after the page of tables when it is not among them."""
    me: str
    """Their ``me``."""
    place: int
    """Their line's place in the standings, from 0 (-1: none)."""
    table_at: int
    """Their open table's place among every table, from 0 (-1: none)."""
    playing_at: int
    """Their open table's place among the tables in play, from 0 (-1: none)."""


class Live:
    """:func:`live_answer` as the socket's ``tournament`` message, the parts every player shares
    encoded once (a member sends it to each of the tournament's watchers it holds)."""

    def __init__(self, shared: Shared) -> None:
        self.shared = shared
        snap = shared.snap
        self.line_of = {x["player"]: x for x in shared.standings}
        self._index = {x["player"]: i for i, x in enumerate(shared.standings)}
        self.pages = pages(shared)
        self._own: dict[str | None, Own] = {}
        """Each player's own parts, encoded when first asked for."""
        self._pages: dict[int, str] = {}
        """Each page's lines, encoded when first asked for."""
        self.table_pages = (table_pages(shared, False), table_pages(shared, True))
        """How many pages every table makes, and the tables in play."""
        self._table_pages: dict[tuple[int, bool], str] = {}
        """Each page of tables (of those in play or not), encoded when first asked for."""
        head = compact(
            {
                "tournament": summary(snap.tournament, len(snap.entries)),
                "club": snap.tournament.club_id,
                "club_name": snap.club_name,
            }
        )
        byes = compact([TournamentBye(round=r, player=p) for r, p in snap.byes])
        self.shared_text = (head[:-1], byes)
        """What every watcher is sent alike besides the standings' lines and the tables."""
        self.keys: dict[str, tuple[object, ...]] = {}
        """What each player's own parts are made of (:meth:`changed_since`)."""
        for player in shared.entry_of.keys() | shared.open_table.keys():
            at, line = shared.open_table.get(player), self.line_of.get(player)
            self.keys[player] = (
                None if at is None else shared.tables[at]["room"],
                shared.entry_of.get(player),
                None if line is None else (line["points"], line["games"]),
            )

    def same_shared(self, before: Live) -> bool:
        """Whether what every watcher is sent alike, every page of the standings and of the tables
        included, is as in ``before`` (then a player whose own parts did not change either is sent
        nothing)."""
        now, was = self.shared, before.shared
        return (
            self.shared_text == before.shared_text
            and now.standings == was.standings
            and now.tables == was.tables
        )

    def changed_since(self, before: Live) -> set[str]:
        """The players whose own parts may differ from those of ``before``."""
        was = before.keys
        changed = {p for p, key in self.keys.items() if was.get(p) != key}
        changed.update(p for p in was if p not in self.keys)
        return changed

    def own(self, player_id: str | None) -> Own:
        """The player's own parts: their standings line, their open table, their ``me``."""
        found = self._own.get(player_id)
        if found is None:
            shared = self.shared
            at = shared.open_table.get(player_id or "")
            line = self.line_of.get(player_id or "")
            found = self._own[player_id] = Own(
                "" if line is None else compact(line),
                "" if at is None else compact(shared.tables[at]),
                compact(shared.me(player_id)),
                self._index.get(player_id or "", -1),
                -1 if at is None else at,
                -1 if at is None else shared.in_play_at[at],
            )
        return found

    def line(self, player_id: str | None) -> TournamentStanding | None:
        """The player's standings line, wherever it is."""
        return self.line_of.get(player_id or "")

    def page(self, page: int) -> int:
        """``page`` within the pages there are (:func:`page_of`)."""
        return page_of(self.shared, page)

    def tables_page(self, page: int, playing: bool) -> int:
        """``page`` within the pages of tables there are (:func:`table_page_of`)."""
        return table_page_of(self.shared, page, playing)

    def _tables_text(self, page: int, playing: bool) -> str:
        found = self._table_pages.get((page, playing))
        if found is None:
            first = (page - 1) * LIVE_TABLES
            listing = self.shared.in_play if playing else self.shared.tables
            found = self._table_pages[page, playing] = compact(listing[first : first + LIVE_TABLES])[:-1]
        return found

    def _page_text(self, page: int) -> str:
        found = self._pages.get(page)
        if found is None:
            first = (page - 1) * LIVE_STANDINGS
            found = self._pages[page] = compact(self.shared.standings[first : first + LIVE_STANDINGS])[:-1]
        return found

    def message(
        self, own: Own, now: float, page: int = 1, tables_page: int = 1, playing: bool = False
    ) -> str:
        """The ``tournament`` message of the standings' ``page`` and the tables' ``tables_page`` (of
        those in play only if ``playing``) with the player's ``own`` parts."""
        page = self.page(page)
        tables_page = self.tables_page(tables_page, playing)
        head, byes = self.shared_text
        lines = self._page_text(page)
        first = (page - 1) * LIVE_STANDINGS
        if own.line and not first <= own.place < first + LIVE_STANDINGS:
            lines += ("," if len(lines) > 1 else "") + own.line
        tables = self._tables_text(tables_page, playing)
        first = (tables_page - 1) * LIVE_TABLES
        if own.table and not first <= (own.playing_at if playing else own.table_at) < first + LIVE_TABLES:
            tables += ("," if len(tables) > 1 else "") + own.table
        return (
            f'{{"type":"tournament","page":{page},"pages":{self.pages},"tables_page":{tables_page},'
            f'"tables_pages":{self.table_pages[playing]},"playing":{"true" if playing else "false"},'
            f'"tournament":{head},'
            f'"standings":{lines}],"tables":{tables}],"byes":{byes},"me":{own.me},"now":{compact(now)}}}}}'
        )


def _lines(snap: Snapshot) -> list[TournamentStanding]:
    t = snap.tournament
    by_id = {e.player_id: e for e in snap.entries}
    return [
        TournamentStanding(
            rank=s.rank,
            player=s.player_id,
            name=by_id[s.player_id].name,
            points=s.points,
            buchholz=s.buchholz,
            sonneborn_berger=s.sonneborn_berger,
            wins=s.wins,
            games=s.games,
            byes=s.byes,
            streak=s.streak,
            withdrawn=s.withdrawn,
            paused=by_id[s.player_id].paused,
            tie_break=s.tie_break,
        )
        for s in standings(t, snap.entries, snap.tables, snap.byes, snap.tally)
        if s.player_id in by_id
    ]


TablesMade = dict[int, tuple[TableRow, TournamentTable]]
"""Tables as answers show them, by number, with the row each was built from."""


def _tables(snap: Snapshot, made: TablesMade) -> list[TournamentTable]:
    by_id = {e.player_id: e for e in snap.entries}
    tables = []
    for row in reversed(snap.tables):
        hit = made.get(row.number)
        if hit is None or (hit[0] is not row and hit[0] != row):
            hit = made[row.number] = (row, _table(row, by_id))
        tables.append(hit[1])
    return tables


def _table(row: TableRow, by_id: dict[str, Entry]) -> TournamentTable:
    return TournamentTable(
        number=row.number,
        round=row.round,
        room=row.room_id,
        players=list(row.players),
        names=[by_id[p].name if p in by_id else "" for p in row.players],
        places=None if row.places is None else list(row.places),
        abandoned=sorted(row.abandoned),
        watch=None if row.room_id is None else f"/r/{row.room_id}",
        record=None if row.room_id is None or row.places is None else f"/api/games/{row.room_id}/record",
    )


CSV_COLUMNS = (
    "rank",
    "player",
    "name",
    "points",
    "buchholz",
    "sonneborn_berger",
    "wins",
    "games",
    "byes",
    "withdrawn",
    "tie_break",
)


def standings_csv(snap: Snapshot, now: float) -> str:
    """The standings as CSV (a header line, then one line a player in rank order)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for line in answer(snap, None, now)["standings"]:
        writer.writerow([_cell(line[c]) for c in CSV_COLUMNS])  # type: ignore[literal-required]
    return out.getvalue()


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:g}"
    cell = str(value)
    # a cell a spreadsheet would take for a formula is quoted as text
    return "'" + cell if cell[:1] in ("=", "+", "-", "@", "\t", "\r") else cell


def may_join(conn: Connection, tournament: Tournament, player_id: str) -> str | None:
    """Why the player may not join ``tournament`` (a message template of server/wire/text.py), or None.

    A club-only tournament takes the members of its club (server/club/clubs.py).  Public and
    private tournaments take anyone (a private one is found by its link)."""
    if tournament.visibility == "club" and (
        tournament.club_id is None or not clubs.is_member(conn, tournament.club_id, player_id)
    ):
        return text.TOURNAMENT_CLUB_ONLY
    return None
