"""A tournament's rows: the tournament, its entries, the tables it paired and its byes (SQL only).

Two writers touch them, never the same columns:

* the **director** (server/club/tournaments/director.py) pairs and finishes: each of its
  transactions first checks that it still holds the tournament (:func:`fence`: the stored
  ``director_epoch`` is the one it took), so a director that lost its lease changes nothing;
* a **game's end** writes its table's result (:func:`record_end`) in the transaction that ends the
  game (server/club/game_end.py), fenced by the room's own holder epoch: a result is stored exactly
  when its game's end is.

Every time is in epoch seconds.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from sqlalchemy import ColumnElement, Connection, and_, delete, func, insert, select, update

from roppyakken.server.club.tournaments import model
from roppyakken.server.store.room_store import Fenced as RoomFenced
from roppyakken.server.store.tables import (
    tournament_byes,
    tournament_entries,
    tournament_tables,
    tournaments,
)

SCHEDULED: Final = "scheduled"
RUNNING: Final = "running"
FINISHED: Final = "finished"
CANCELLED: Final = "cancelled"
OPEN: Final = (SCHEDULED, RUNNING)
"""The statuses of a tournament that is not over."""
WITHDRAW_AFTER: Final = 2
"""Abandoned games after which a player is withdrawn."""


class Fenced(RoomFenced):
    """The director's write was refused: another member took the tournament (or it is over).  The
    database answers it as it answers a room's fence
    (:class:`~roppyakken.server.store.database.StaleRoom`)."""

    def __init__(self, tournament_id: str) -> None:
        Exception.__init__(self, f"tournament {tournament_id!r} is directed by another member")
        self.room_id = tournament_id


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament's row."""

    id: str
    name: str
    format: model.Format
    preset: str
    players: int
    clock: str
    rated: bool
    visibility: str
    club_id: str | None
    creator: str | None
    schedule: str | None
    created_at: float
    starts_at: float
    duration: float | None
    rounds: int | None
    round: int
    status: str
    finished_at: float | None

    @property
    def ends_at(self) -> float | None:
        """An arena's end of pairing (None for the other formats)."""
        return None if self.duration is None else self.starts_at + self.duration


@dataclass(frozen=True, slots=True)
class Entry:
    """A player in a tournament."""

    player_id: str
    name: str
    rating: float
    token_hash: str
    joined_at: float
    free_since: float
    paused: bool
    withdrawn: bool
    abandonments: int


@dataclass(frozen=True, slots=True)
class TableRow:
    """A table a tournament paired, and its result once its game ended."""

    number: int
    round: int
    players: tuple[str, ...]
    paired_at: float
    room_id: str | None
    finished_at: float | None
    places: tuple[int, ...] | None
    abandoned: frozenset[str]

    def result(self) -> model.TableResult | None:
        """The table's result for the rules (None while its game is on)."""
        if self.places is None:
            return None
        return model.TableResult(self.players, self.places, self.abandoned, self.round)


_COLUMNS: Final = [tournaments.c[name] for name in Tournament.__slots__]


def _tournament(row: Any) -> Tournament:
    values = dict(row._mapping)
    values["rated"] = bool(values["rated"])
    return Tournament(**values)


def create(conn: Connection, values: dict[str, Any]) -> None:
    """Store a new tournament (``values``: its columns)."""
    conn.execute(insert(tournaments).values(**values))


def get(conn: Connection, tournament_id: str) -> Tournament | None:
    """The tournament, or None."""
    row = conn.execute(select(*_COLUMNS).where(tournaments.c.id == tournament_id)).first()
    return None if row is None else _tournament(row)


def listed(conn: Connection, limit: int) -> list[Tournament]:
    """Public tournaments not over (soonest first), then the latest finished ones: at most ``limit`` each."""
    return _open_then_finished(conn, tournaments.c.visibility == "public", limit)


def of_club(conn: Connection, club_id: str, limit: int) -> list[Tournament]:
    """The club's club-only tournaments not over (soonest first), then its latest finished ones:
    at most ``limit`` each (by the ``club_id`` index)."""
    mine = and_(tournaments.c.club_id == club_id, tournaments.c.visibility == "club")
    return _open_then_finished(conn, mine, limit)


def _open_then_finished(conn: Connection, which: ColumnElement[bool], limit: int) -> list[Tournament]:
    """The tournaments ``which`` selects not over (soonest first), then the latest finished ones: at
    most ``limit`` each."""
    upcoming = conn.execute(
        select(*_COLUMNS)
        .where(which, tournaments.c.status.in_(OPEN))
        .order_by(tournaments.c.starts_at, tournaments.c.id)
        .limit(limit)
    ).all()
    done = conn.execute(
        select(*_COLUMNS)
        .where(which, tournaments.c.status == FINISHED)
        .order_by(tournaments.c.finished_at.desc(), tournaments.c.id)
        .limit(limit)
    ).all()
    return [_tournament(r) for r in [*upcoming, *done]]


def made_since(conn: Connection, creator: str, since: float) -> int:
    """Tournaments ``creator`` made since ``since``."""
    query = select(func.count()).where(tournaments.c.creator == creator, tournaments.c.created_at >= since)
    return int(conn.execute(query).scalar() or 0)


def open_count(conn: Connection) -> int:
    """Tournaments not over on the whole server."""
    query = select(func.count()).where(tournaments.c.status.in_(OPEN))
    return int(conn.execute(query).scalar() or 0)


Reused = dict[Any, tuple[tuple[Any, ...], Any]]
"""Objects made from rows read before, by key, with the row each was made from: a row read again
unchanged gives the same object (a reader that reads a thousand rows a second makes no new ones)."""


def _made(rows: Sequence[Any], make: Any, reuse: Reused | None, key: int = 0) -> list[Any]:
    if reuse is None:
        return [make(r) for r in rows]
    made = []
    for row in rows:
        raw = tuple(row)
        hit = reuse.get(raw[key])
        if hit is None or hit[0] != raw:
            hit = reuse[raw[key]] = (raw, make(row))
        made.append(hit[1])
    return made


def entries(conn: Connection, tournament_id: str, reuse: Reused | None = None) -> list[Entry]:
    """Its players, in the order they joined."""
    rows = conn.execute(
        select(*(tournament_entries.c[name] for name in Entry.__slots__))
        .where(tournament_entries.c.tournament_id == tournament_id)
        .order_by(tournament_entries.c.joined_at, tournament_entries.c.player_id)
    ).all()
    return _made(rows, _entry, reuse)


def _entry(row: Any) -> Entry:
    """An entry from a row of its columns in :class:`Entry`'s order."""
    player_id, name, rating, token_hash, joined_at, free_since, paused, withdrawn, abandonments = row
    return Entry(
        player_id,
        name,
        rating,
        token_hash,
        joined_at,
        free_since,
        bool(paused),
        bool(withdrawn),
        abandonments,
    )


def entry(conn: Connection, tournament_id: str, player_id: str) -> Entry | None:
    """The player's entry, or None."""
    row = conn.execute(
        select(*(tournament_entries.c[name] for name in Entry.__slots__)).where(
            tournament_entries.c.tournament_id == tournament_id, tournament_entries.c.player_id == player_id
        )
    ).first()
    return None if row is None else _entry(row)


def entry_count(conn: Connection, tournament_id: str) -> int:
    """How many players joined (withdrawn ones too)."""
    query = select(func.count()).where(tournament_entries.c.tournament_id == tournament_id)
    return int(conn.execute(query).scalar() or 0)


def tables(conn: Connection, tournament_id: str) -> list[TableRow]:
    """Its tables in the order paired."""
    return tables_from(conn, tournament_id, 0)


def tables_from(
    conn: Connection, tournament_id: str, first: int, reuse: Reused | None = None
) -> list[TableRow]:
    """Its tables numbered ``first`` or later, in the order paired (by the primary key's order)."""
    return _table_rows(
        conn,
        (tournament_tables.c.tournament_id == tournament_id) & (tournament_tables.c.number >= first),
        reuse,
    )


def _table_rows(conn: Connection, where: Any, reuse: Reused | None = None) -> list[TableRow]:
    rows = conn.execute(select(*_TABLE_COLUMNS).where(where).order_by(tournament_tables.c.number)).all()
    return _made(rows, _table, reuse)


_TABLE_COLUMNS: Final = [tournament_tables.c[name] for name in TableRow.__slots__]


def _table(r: Any) -> TableRow:
    """A table from a row of its columns in :class:`TableRow`'s order."""
    number, round_, players, paired_at, room_id, finished_at, places, abandoned = r
    return TableRow(
        number=int(number),
        round=int(round_),
        players=tuple(json.loads(players)),
        paired_at=float(paired_at),
        room_id=room_id,
        finished_at=finished_at,
        places=None if places is None else tuple(json.loads(places)),
        abandoned=frozenset(json.loads(abandoned or "[]")),
    )


def open_tables(conn: Connection, tournament_id: str) -> list[TableRow]:
    """Its tables in play (their game not ended), in the order paired."""
    return _table_rows(
        conn, (tournament_tables.c.tournament_id == tournament_id) & tournament_tables.c.places.is_(None)
    )


def byes(conn: Connection, tournament_id: str) -> list[tuple[int, str]]:
    """Its byes as (round, player), in round order."""
    rows = conn.execute(
        select(tournament_byes.c.round, tournament_byes.c.player_id)
        .where(tournament_byes.c.tournament_id == tournament_id)
        .order_by(tournament_byes.c.round, tournament_byes.c.player_id)
    ).all()
    return [(int(r[0]), str(r[1])) for r in rows]


def not_pairable(conn: Connection, tournament_id: str, players: Sequence[str]) -> set[str]:
    """Those of ``players`` who withdrew or paused (since a director read them)."""
    if not players:
        return set()
    rows = conn.execute(
        select(tournament_entries.c.player_id).where(
            tournament_entries.c.tournament_id == tournament_id,
            tournament_entries.c.player_id.in_(list(players)),
            (tournament_entries.c.withdrawn == True) | (tournament_entries.c.paused == True),  # noqa: E712
        )
    ).all()
    return {str(r[0]) for r in rows}


# --- a player's own changes ---------------------------------------------------------------------


def join(conn: Connection, tournament_id: str, entry: Entry) -> bool:
    """The player enters (False: they had joined before; a withdrawn player comes back)."""
    key = (tournament_entries.c.tournament_id == tournament_id) & (
        tournament_entries.c.player_id == entry.player_id
    )
    found = conn.execute(select(tournament_entries.c.abandonments).where(key)).first()
    if found is not None:
        if int(found[0]) >= WITHDRAW_AFTER:
            return False
        conn.execute(update(tournament_entries).where(key).values(withdrawn=False, paused=False))
        return False
    values = {name: getattr(entry, name) for name in Entry.__slots__}
    conn.execute(insert(tournament_entries).values(tournament_id=tournament_id, **values))
    return True


def leave(conn: Connection, tournament_id: str, player_id: str) -> bool:
    """The player leaves a tournament that has not started (their entry is gone); False if they had none."""
    result = conn.execute(
        delete(tournament_entries).where(
            tournament_entries.c.tournament_id == tournament_id, tournament_entries.c.player_id == player_id
        )
    )
    return bool(result.rowcount)


def set_entry(conn: Connection, tournament_id: str, player_id: str, **values: Any) -> bool:
    """Change the player's entry (``paused``, ``withdrawn``); False if they have none."""
    result = conn.execute(
        update(tournament_entries)
        .where(
            tournament_entries.c.tournament_id == tournament_id, tournament_entries.c.player_id == player_id
        )
        .values(**values)
    )
    return bool(result.rowcount)


# --- the director's lease and fence -------------------------------------------------------------


def take(conn: Connection, tournament_id: str, member: str, now: float, lease: float) -> int | None:
    """Take the tournament's lease for ``member`` if nobody holds it (or it lapsed): the new epoch,
    raised by one (any write of an earlier holder is refused from now on), or None."""
    result = conn.execute(
        update(tournaments)
        .where(
            tournaments.c.id == tournament_id,
            tournaments.c.status.in_(OPEN),
            tournaments.c.director_until < now,
        )
        .values(
            director=member,
            director_epoch=tournaments.c.director_epoch + 1,
            director_until=now + lease,
        )
    )
    if result.rowcount != 1:
        return None
    epoch = conn.execute(select(tournaments.c.director_epoch).where(tournaments.c.id == tournament_id))
    return int(epoch.scalar_one())


def fence(conn: Connection, tournament_id: str, epoch: int, now: float, lease: float) -> None:
    """Check, first in the director's transaction, that it still holds the tournament at ``epoch``
    and renew its lease; :class:`Fenced` (the transaction is rolled back) if not.  The row's update
    locks it until the commit: a member taking the lease over waits, then finds it renewed."""
    result = conn.execute(
        update(tournaments)
        .where(
            tournaments.c.id == tournament_id,
            tournaments.c.director_epoch == epoch,
            tournaments.c.status.in_(OPEN),
        )
        .values(director_until=now + lease)
    )
    if result.rowcount != 1:
        raise Fenced(tournament_id)


def release(conn: Connection, tournament_id: str, epoch: int) -> None:
    """Give the lease back (a clean stop): another member may take it at once."""
    conn.execute(
        update(tournaments)
        .where(tournaments.c.id == tournament_id, tournaments.c.director_epoch == epoch)
        .values(director_until=0.0)
    )


def due(conn: Connection, now: float, soon: float, limit: int) -> list[str]:
    """Tournaments a director must look after: running, or starting within ``soon`` seconds."""
    query = (
        select(tournaments.c.id)
        .where(
            tournaments.c.status.in_(OPEN),
            tournaments.c.starts_at <= now + soon,
        )
        .order_by(tournaments.c.starts_at, tournaments.c.id)
        .limit(limit)
    )
    return [str(r[0]) for r in conn.execute(query)]


def set_status(conn: Connection, tournament_id: str, **values: Any) -> None:
    """Change the tournament's row (the director, once fenced)."""
    conn.execute(update(tournaments).where(tournaments.c.id == tournament_id).values(**values))


def add_tables(
    conn: Connection, tournament_id: str, paired: Sequence[tuple[str, ...]], round_: int, now: float
) -> list[int]:
    """Store newly paired tables (their rooms are made next): their numbers."""
    last = conn.execute(
        select(func.max(tournament_tables.c.number)).where(tournament_tables.c.tournament_id == tournament_id)
    ).scalar()
    first = int(last or 0) + 1
    numbers = list(range(first, first + len(paired)))
    for number, players in zip(numbers, paired, strict=True):
        conn.execute(
            insert(tournament_tables).values(
                tournament_id=tournament_id,
                number=number,
                round=round_,
                players=json.dumps(list(players)),
                paired_at=now,
            )
        )
    return numbers


def add_byes(conn: Connection, tournament_id: str, round_: int, players: Sequence[str]) -> None:
    """Store a round's byes."""
    for player_id in players:
        conn.execute(
            insert(tournament_byes).values(tournament_id=tournament_id, round=round_, player_id=player_id)
        )


def link_room(conn: Connection, tournament_id: str, number: int, room_id: str) -> None:
    """The table's room is made (in the room's own insert): :class:`Fenced` if the table has one already."""
    result = conn.execute(
        update(tournament_tables)
        .where(
            tournament_tables.c.tournament_id == tournament_id,
            tournament_tables.c.number == number,
            tournament_tables.c.room_id.is_(None),
        )
        .values(room_id=room_id)
    )
    if result.rowcount != 1:
        raise Fenced(tournament_id)


# --- a game's end ----------------------------------------------------------------------------------


def places_of(record: dict[str, Any]) -> tuple[tuple[int, ...], list[int]]:
    """Each seat's finishing place in a finished game's record (its winner first, then by final
    total; equal totals share the better place) and the seats that abandoned (the clock gave them to a
    bot: docs/FORMATS-EXTENSIONS.md)."""
    players = len(record["players"])
    rounds = record.get("rounds") or []
    totals = rounds[-1].get("totals") if rounds else None
    if not isinstance(totals, list) or len(totals) != players:
        totals = [0] * players
    winner = record.get("winner")

    def key(seat: int) -> tuple[bool, int]:
        return (seat != winner, -int(totals[seat]))

    keys = [key(seat) for seat in range(players)]
    places = tuple(1 + sum(1 for other in keys if other < mine) for mine in keys)
    online = record.get("online") or {}
    abandoned = [int(s) for s in online.get("abandoned", [])]
    return places, abandoned


def record_end(conn: Connection, room_id: str, record_text: str, now: float) -> str | None:
    """Store a tournament game's result with its end (the room's own transaction): the table's places,
    who abandoned (an abandonment scores nothing; the second withdraws the player) and when each
    player became free again.  The tournament's id, or None if the room is no tournament's."""
    row = conn.execute(
        select(
            tournament_tables.c.tournament_id, tournament_tables.c.number, tournament_tables.c.players
        ).where(tournament_tables.c.room_id == room_id, tournament_tables.c.finished_at.is_(None))
    ).first()
    if row is None:
        return None
    tournament_id, number, players = str(row[0]), int(row[1]), list(json.loads(row[2]))
    places, seats_abandoned = places_of(json.loads(record_text))
    gone = [players[s] for s in seats_abandoned if 0 <= s < len(players)]
    conn.execute(
        update(tournament_tables)
        .where(tournament_tables.c.tournament_id == tournament_id, tournament_tables.c.number == number)
        .values(finished_at=now, places=json.dumps(list(places)), abandoned=json.dumps(gone))
    )
    mine = tournament_entries.c.tournament_id == tournament_id
    conn.execute(
        update(tournament_entries)
        .where(mine, tournament_entries.c.player_id.in_(players))
        .values(free_since=now)
    )
    for player_id in gone:
        conn.execute(
            update(tournament_entries)
            .where(mine, tournament_entries.c.player_id == player_id)
            .values(abandonments=tournament_entries.c.abandonments + 1)
        )
    if gone:  # (only an abandoner's count moved; a player withdrawn so may not join again: join)
        conn.execute(
            update(tournament_entries)
            .where(
                mine,
                tournament_entries.c.player_id.in_(gone),
                tournament_entries.c.abandonments >= WITHDRAW_AFTER,
            )
            .values(withdrawn=True)
        )
    return tournament_id


def seed_of(tournament_id: str, round_: int) -> int:
    """The seed of a round's pairing (the same on every member)."""
    return zlib.crc32(f"{tournament_id}:{round_}".encode())
