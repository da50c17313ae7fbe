"""What a tournament's page, its JSON and its CSV show: read once, worded for each player.

A :class:`Snapshot` is everything stored of one tournament, read in one transaction; the answers
are built from it (the asking player's own part too), so that the live page of every player of a
member costs one read a second per tournament, not one per player.
"""

from __future__ import annotations

import csv
import io
from dataclasses import dataclass

from sqlalchemy import Connection

from roppyakken.server.club import clubs
from roppyakken.server.club.tournaments import store
from roppyakken.server.club.tournaments.director import standings
from roppyakken.server.club.tournaments.store import Entry, TableRow, Tournament
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


@dataclass(frozen=True, slots=True)
class Snapshot:
    """A tournament as stored: its row, entries, tables and byes."""

    tournament: Tournament
    entries: tuple[Entry, ...]
    tables: tuple[TableRow, ...]
    byes: tuple[tuple[int, str], ...]
    club_name: str | None = None
    """A club-only tournament's club's name, unless the club is private (or gone)."""


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
    table: TournamentSeat | None = None
    if entry is not None:
        for row in snap.tables:
            if row.places is None and row.room_id is not None and entry.player_id in row.players:
                table = TournamentSeat(room=row.room_id, seat=row.players.index(entry.player_id))
    return TournamentMe(
        entered=entry is not None,
        paused=entry is not None and entry.paused,
        withdrawn=entry is not None and entry.withdrawn,
        abandonments=0 if entry is None else entry.abandonments,
        table=table,
    )


def answer(snap: Snapshot, player_id: str | None, now: float) -> TournamentAnswer:
    """``GET /api/tournaments/<id>`` for ``player_id`` (None: nobody signed)."""
    t = snap.tournament
    by_id = {e.player_id: e for e in snap.entries}
    lines = [
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
        for s in standings(t, snap.entries, snap.tables, snap.byes)
        if s.player_id in by_id
    ]
    tables = [
        TournamentTable(
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
        for row in reversed(snap.tables)
    ]
    return TournamentAnswer(
        tournament=summary(t, len(snap.entries)),
        club=t.club_id,
        club_name=snap.club_name,
        standings=lines,
        tables=tables,
        byes=[TournamentBye(round=r, player=p) for r, p in snap.byes],
        me=me(snap, player_id),
        now=now,
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
