"""What the server stores and reads back: rooms, seats, actions and finished records (one function each).

Each function takes an open :class:`~sqlalchemy.Connection` (inside the
caller's transaction); :class:`~roppyakken.server.store.database.Database` runs them.

**Fencing.**  A room's row keeps its holder epoch.  A server that takes a room
raises it (:func:`load_room` with ``take``) in the transaction that reads the
room, and each of its writes to the room checks it first (:func:`fence`), in the
write's own transaction and under a lock of the room's row: a server that lost
the room to another (which raised the epoch since) has its write refused by the
database itself, whatever the clocks or pauses (docs/DEPLOY.md, "Fencing").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Connection, delete, select, update

from roppyakken.server.store.tables import actions, rooms, seats


class Fenced(Exception):
    """A write for a room whose stored holder epoch is not the writer's: another server took it."""

    def __init__(self, room_id: str) -> None:
        super().__init__(f"room {room_id!r} was taken by another server")
        self.room_id = room_id


@dataclass(slots=True)
class SeatRow:
    """A stored seat: its kind, the player's name or the bot's level, the token's hash."""

    seat: int
    kind: str
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None


@dataclass(slots=True)
class RoomRow:
    """A stored room."""

    id: str
    created_at: datetime
    players: int
    preset: str
    options: dict[str, Any]
    seed: int
    status: str
    salt: str | None = None
    finished_at: datetime | None = None
    winner: int | None = None
    public: bool = False
    clock: dict[str, Any] | None = None
    """server/play/clocks.py ``Clock.to_json()`` (None: no clock)."""
    clock_deadline: float | None = None
    epoch: int = 1
    """The holder epoch (see the module docstring)."""
    rated: bool = False
    """Whether the game's result moves ratings (server/club/ratings)."""


@dataclass(slots=True)
class StoredRoom:
    """A room as stored: its row, its seats in order, and its game's actions (JSON text) in order.

    ``indexes`` are the stored actions' indexes: ``0, 1, 2, …`` unless a move is missing.
    """

    room: RoomRow
    seats: list[SeatRow]
    actions: list[str]
    indexes: list[int]


def utc(moment: datetime | None) -> datetime | None:
    """A stored time as an aware UTC time (SQLite gives them back naive)."""
    if moment is None or moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=UTC)


def insert_room(conn: Connection, room: RoomRow, room_seats: list[SeatRow]) -> None:
    """Store a new room and its seats."""
    conn.execute(
        rooms.insert().values(
            id=room.id,
            created_at=room.created_at,
            players=room.players,
            preset=room.preset,
            options=json.dumps(room.options, separators=(",", ":")),
            seed=room.seed,
            salt=room.salt,
            status=room.status,
            public=room.public,
            clock=None if room.clock is None else json.dumps(room.clock, separators=(",", ":")),
            clock_deadline=room.clock_deadline,
            epoch=room.epoch,
            rated=room.rated,
        )
    )
    conn.execute(
        seats.insert(),
        [
            {
                "room_id": room.id,
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "level": s.level,
                "token_hash": s.token_hash,
            }
            for s in room_seats
        ],
    )


def save_seat(conn: Connection, room_id: str, seat: SeatRow) -> None:
    """Store a seat's new occupant."""
    conn.execute(
        update(seats)
        .where(seats.c.room_id == room_id, seats.c.seat == seat.seat)
        .values(kind=seat.kind, name=seat.name, level=seat.level, token_hash=seat.token_hash)
    )


def set_status(conn: Connection, room_id: str, status: str) -> None:
    """Store a room's status (``waiting``, ``playing``)."""
    conn.execute(update(rooms).where(rooms.c.id == room_id).values(status=status))


def save_clock(conn: Connection, room_id: str, clock: dict[str, Any], deadline: float | None) -> None:
    """Store a room's clock and its next deadline."""
    conn.execute(
        update(rooms)
        .where(rooms.c.id == room_id)
        .values(clock=json.dumps(clock, separators=(",", ":")), clock_deadline=deadline)
    )


def due_rooms(conn: Connection, before: float, limit: int) -> list[str]:
    """Unfinished rooms whose clock's next deadline is before ``before`` (epoch seconds), soonest first."""
    rows = conn.execute(
        select(rooms.c.id)
        .where(rooms.c.clock_deadline < before, rooms.c.status != "over")
        .order_by(rooms.c.clock_deadline)
        .limit(limit)
    )
    return [r[0] for r in rows]


def running_clocks(conn: Connection) -> list[tuple[str, dict[str, Any]]]:
    """Every unfinished room's stored clock that has a deadline: (room, the clock as stored, JSON)."""
    rows = conn.execute(
        select(rooms.c.id, rooms.c.clock).where(
            rooms.c.clock_deadline.is_not(None), rooms.c.status == "playing"
        )
    )
    return [(r[0], json.loads(r[1])) for r in rows if r[1] is not None]


def finish_room(conn: Connection, room_id: str, winner: int | None, record: str, at: datetime) -> None:
    """Store a finished game: status ``over``, its winner and its record."""
    conn.execute(
        update(rooms)
        .where(rooms.c.id == room_id)
        .values(status="over", winner=winner, record=record, finished_at=at)
    )


def fence(conn: Connection, room_id: str, epoch: int) -> None:
    """Lock ``room_id``'s row until the transaction ends and check its holder epoch is ``epoch``;
    :class:`Fenced` if not (or if the room is gone).

    The lock (``FOR NO KEY UPDATE``) makes a takeover's raise of the epoch wait for
    this transaction: a write that passed the check commits before any later holder
    reads the room, and one that comes after a takeover finds the new epoch."""
    fenced(conn, {room_id: epoch}, strict=True)


def fenced(conn: Connection, epochs: dict[str, int], *, strict: bool = False) -> set[str]:
    """Lock the rows of the rooms in ``epochs`` (room: the writer's epoch) as :func:`fence` does,
    in id order (two servers' batches lock alike), and return those whose stored epoch differs;
    ``strict``: raise :class:`Fenced` for the first of those instead."""
    found = dict(
        conn.execute(
            select(rooms.c.id, rooms.c.epoch)
            .where(rooms.c.id.in_(sorted(epochs)))
            .order_by(rooms.c.id)
            .with_for_update(key_share=True)
        ).all()
    )
    stale = {room for room, epoch in epochs.items() if found.get(room) != epoch}
    if stale and strict:
        raise Fenced(min(stale))
    return stale


def load_room(conn: Connection, room_id: str, *, take: bool = False) -> StoredRoom | None:
    """A stored room with its seats and actions, or None.

    ``take``: this server takes the room: its holder epoch is raised first (waiting for a
    write of the last holder under way to commit or fail), and the room is read after that,
    with every write the last holder made; the new epoch is ``room.epoch``."""
    if take:
        conn.execute(update(rooms).where(rooms.c.id == room_id).values(epoch=rooms.c.epoch + 1))
    row = conn.execute(select(rooms).where(rooms.c.id == room_id)).mappings().first()
    if row is None:
        return None
    room = RoomRow(
        id=row["id"],
        created_at=utc(row["created_at"]) or datetime.now(UTC),
        players=row["players"],
        preset=row["preset"],
        options=json.loads(row["options"]),
        seed=row["seed"],
        status=row["status"],
        salt=row["salt"],
        finished_at=utc(row["finished_at"]),
        winner=row["winner"],
        public=bool(row["public"]),
        clock=None if row["clock"] is None else json.loads(row["clock"]),
        clock_deadline=row["clock_deadline"],
        epoch=row["epoch"],
        rated=bool(row["rated"]),
    )
    seat_rows = [
        SeatRow(r["seat"], r["kind"], r["name"], r["level"], r["token_hash"])
        for r in conn.execute(
            select(seats).where(seats.c.room_id == room_id).order_by(seats.c.seat)
        ).mappings()
    ]
    found = conn.execute(
        select(actions.c.idx, actions.c.action).where(actions.c.room_id == room_id).order_by(actions.c.idx)
    ).all()
    return StoredRoom(room, seat_rows, [r[1] for r in found], [r[0] for r in found])


def append_action(conn: Connection, room_id: str, idx: int, seat: int, action: str) -> None:
    """Store one applied action."""
    conn.execute(actions.insert().values(room_id=room_id, idx=idx, seat=seat, action=action))


def room_epoch(conn: Connection, room_id: str) -> int | None:
    """The stored holder epoch of a room (None: no such room)."""
    return conn.execute(select(rooms.c.epoch).where(rooms.c.id == room_id)).scalar()


def game_record(conn: Connection, room_id: str) -> str | None:
    """The stored record of a finished game, or None (no such room, or not finished)."""
    row = conn.execute(select(rooms.c.record).where(rooms.c.id == room_id, rooms.c.status == "over")).first()
    return None if row is None else row[0]


def delete_unfinished(conn: Connection, before: datetime) -> int:
    """Forget unfinished rooms created before ``before`` (their seats and actions go with them)."""
    stale = select(rooms.c.id).where(rooms.c.status != "over", rooms.c.created_at < before)
    ids = [r[0] for r in conn.execute(stale)]
    if ids:
        conn.execute(delete(actions).where(actions.c.room_id.in_(ids)))
        conn.execute(delete(seats).where(seats.c.room_id.in_(ids)))
        conn.execute(delete(rooms).where(rooms.c.id.in_(ids)))
    return len(ids)
