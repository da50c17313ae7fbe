"""Following players, and who of them is online or playing: rules and SQL (docs/PROTOCOL.md "Friends").

Any player (a guest or an account's player) may follow another by id, up to
``Limits.max_follows`` (lichess's 400); the followed player sees their followers
(the newest :data:`FOLLOWERS_SHOWN`, and how many there are).  A player who blocks
another cannot be followed by them (server/people/blocks.py), nor follow them.

**Presence.**  A player is online while one of their lobby or room sockets is open on
some member: each member writes the ``presence`` row of its connected players every
:data:`PRESENCE_TICK` seconds (server/club/presence.py), and a row older than
:data:`PRESENCE_TTL` means offline, so a cluster's members agree.  A player is playing
while they hold a seat (``seat_players``) of a room whose game is being played; the
room is named (to watch it) only if it is public.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from sqlalchemy import Connection, delete, func, insert, select, union_all, update

from roppyakken.server.people.blocks import Refused, blocks_me, existing, i_block
from roppyakken.server.store.tables import follows, players, presence, rooms, seat_players
from roppyakken.server.wire import text
from roppyakken.server.wire.answers import PlayerEntry
from roppyakken.server.wire.lobby import FriendEntry

PRESENCE_TICK: Final = 2.0
"""Seconds between two writes of a member's connected players' presence."""
PRESENCE_TTL: Final = 8.0
"""Seconds a presence row counts as online without being written again."""
FOLLOWERS_SHOWN: Final = 400
"""Followers a player's list shows (the newest); the answer counts them all."""


def follow(conn: Connection, me: str, other: str, now: float, most: int) -> bool:
    """``me`` follows ``other`` (at most ``most`` followed); whether it is new; :class:`Refused` if
    ``other`` blocks ``me`` or ``me`` blocks ``other``."""
    existing(conn, me, other)
    if blocks_me(conn, me, other):
        raise Refused(403, text.FOLLOW_REFUSED)
    if i_block(conn, me, other):
        raise Refused(409, text.YOU_BLOCK)
    found = conn.execute(
        select(follows.c.since).where(follows.c.follower == me, follows.c.followed == other)
    ).first()
    if found is not None:
        return False
    count = conn.execute(select(func.count()).select_from(follows).where(follows.c.follower == me)).scalar()
    if int(count or 0) >= most:
        raise Refused(409, text.FOLLOWS_FULL, max=most)
    conn.execute(insert(follows).values(follower=me, followed=other, since=now))
    return True


def unfollow(conn: Connection, me: str, other: str) -> bool:
    """``me`` no longer follows ``other``; whether it did."""
    result = conn.execute(delete(follows).where(follows.c.follower == me, follows.c.followed == other))
    return bool(result.rowcount)


def touch(conn: Connection, ids: Iterable[str], now: float) -> None:
    """The players ``ids`` are connected now (their presence rows written)."""
    wanted = sorted(set(ids))
    if not wanted:
        return
    conn.execute(update(presence).where(presence.c.player_id.in_(wanted)).values(seen_at=now))
    have = {
        str(r[0]) for r in conn.execute(select(presence.c.player_id).where(presence.c.player_id.in_(wanted)))
    }
    missing = [p for p in wanted if p not in have]
    if missing:
        conn.execute(insert(presence), [{"player_id": p, "seen_at": now} for p in missing])
    conn.execute(delete(presence).where(presence.c.seen_at < now - 10 * PRESENCE_TTL))


def status(conn: Connection, ids: list[str], now: float) -> dict[str, tuple[bool, bool, str | None]]:
    """Each of ``ids``: (online, playing, the public room it plays in)."""
    if not ids:
        return {}
    online = {
        str(r[0])
        for r in conn.execute(
            select(presence.c.player_id).where(
                presence.c.player_id.in_(ids), presence.c.seen_at >= now - PRESENCE_TTL
            )
        )
    }
    playing: dict[str, str | None] = {}
    for player_id, room_id, public in conn.execute(
        select(seat_players.c.player_id, rooms.c.id, rooms.c.public)
        .join(rooms, rooms.c.id == seat_players.c.room_id)
        .where(seat_players.c.player_id.in_(ids), rooms.c.status == "playing")
        .order_by(rooms.c.created_at)
    ):
        playing[str(player_id)] = str(room_id) if public else None
    return {i: (i in online, i in playing, playing.get(i)) for i in ids}


def following(conn: Connection, me: str, now: float) -> list[FriendEntry]:
    """The players ``me`` follows, with whether each is online or playing (the newest first)."""
    rows = conn.execute(
        select(follows.c.followed, players.c.name, follows.c.since)
        .join(players, players.c.id == follows.c.followed)
        .where(follows.c.follower == me)
        .order_by(follows.c.since.desc(), follows.c.followed)
    ).all()
    seen = status(conn, [str(r[0]) for r in rows], now)
    return [
        FriendEntry(
            id=str(r[0]),
            name=str(r[1]),
            since=float(r[2]),
            online=seen[str(r[0])][0],
            playing=seen[str(r[0])][1],
            room=seen[str(r[0])][2],
        )
        for r in rows
    ]


def online(conn: Connection, me: str, now: float) -> list[FriendEntry]:
    """The players ``me`` follows who are online or playing."""
    return online_of(conn, [me], now)[me]


def online_of(conn: Connection, ids: Iterable[str], now: float) -> dict[str, list[FriendEntry]]:
    """For each of ``ids``, the players they follow who are online or playing, the newest follow first.

    One query walks the follows of ``ids`` (their primary key) and keeps those of a live player: one
    of a list read once, the players online (``presence``, by its ``seen_at`` index) and those
    seated at a game being played (by ``rooms``' status index).  The test is on ``followed || ''``
    so that the planner walks the follows by follower and probes that list, rather than the list
    by ``ix_follows_followed`` for every follower; only the follows kept are then named
    (``players``, by its key).  A second query names the public rooms of those playing.
    """
    wanted = sorted(set(ids))
    out: dict[str, list[FriendEntry]] = {i: [] for i in wanted}
    if not wanted:
        return out
    here = select(presence.c.player_id).where(presence.c.seen_at >= now - PRESENCE_TTL)
    seated = (
        select(seat_players.c.player_id)
        .join(rooms, rooms.c.id == seat_players.c.room_id)
        .where(rooms.c.status == "playing")
    )
    live = union_all(here, seated)
    rows = conn.execute(
        select(
            follows.c.follower,
            follows.c.followed,
            players.c.name,
            follows.c.since,
            follows.c.followed.in_(here),
            follows.c.followed.in_(seated),
        )
        .join(players, players.c.id == follows.c.followed)
        .where(follows.c.follower.in_(wanted), follows.c.followed.concat("").in_(live))
        .order_by(follows.c.since.desc(), follows.c.followed)
    ).all()
    rooms_of = _public_rooms(conn, sorted({r[1] for r in rows if r[5]}))
    for follower, followed, name, since, online, playing in rows:  # str, str, str, float: as stored
        out[follower].append(
            FriendEntry(
                id=followed,
                name=name,
                since=since,
                online=bool(online),
                playing=bool(playing),
                room=rooms_of.get(followed) if playing else None,
            )
        )
    return out


def _public_rooms(conn: Connection, ids: list[str]) -> dict[str, str | None]:
    """The room each of ``ids`` plays in if it is public (the newest, when at two tables)."""
    found: dict[str, str | None] = {}
    if not ids:
        return found
    for player_id, room_id, public in conn.execute(
        select(seat_players.c.player_id, rooms.c.id, rooms.c.public)
        .join(rooms, rooms.c.id == seat_players.c.room_id)
        .where(seat_players.c.player_id.in_(ids), rooms.c.status == "playing")
        .order_by(rooms.c.created_at)
    ):
        found[str(player_id)] = str(room_id) if public else None
    return found


def followers(conn: Connection, me: str) -> tuple[list[PlayerEntry], int]:
    """The newest :data:`FOLLOWERS_SHOWN` players following ``me``, and how many follow ``me``."""
    rows = conn.execute(
        select(follows.c.follower, players.c.name, follows.c.since)
        .join(players, players.c.id == follows.c.follower)
        .where(follows.c.followed == me)
        .order_by(follows.c.since.desc(), follows.c.follower)
        .limit(FOLLOWERS_SHOWN)
    ).all()
    count = conn.execute(select(func.count()).select_from(follows).where(follows.c.followed == me)).scalar()
    return [PlayerEntry(id=str(r[0]), name=str(r[1]), since=float(r[2])) for r in rows], int(count or 0)
