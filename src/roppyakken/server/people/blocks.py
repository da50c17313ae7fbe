"""Blocking a player: rules and SQL (docs/PROTOCOL.md "Friends").

Any player (a guest or an account's player) may block another by id, up to
``Limits.max_blocks``.  A block is one-way and says nothing to the blocked player; it
removes the follows between the two (both ways) and cancels the pending challenges
between them.  While it lasts the two are never paired (server/club/pairing.py),
the blocker reads none of the blocked player's chat lines (server/play/chat.py), and
the blocked player can neither follow nor challenge the blocker: refused with a line
that says only that it cannot be done (server/people/follows.py, challenges.py).  Neither
takes a seat at a table where the other sits (``POST /api/rooms/<room>/join``: public or
private), nor sees the other's open tables in the lobby (server/web/lobby_socket.py), nor
enters a round robin the other is in (server/club/tournaments/blocking.py).
"""

from __future__ import annotations

from collections.abc import Iterable

from sqlalchemy import Connection, and_, delete, func, insert, or_, select, update

from roppyakken.errors import RoppyakkenError
from roppyakken.server.store.tables import blocks, challenges, follows, players, presence
from roppyakken.server.wire import text
from roppyakken.server.wire.answers import PlayerEntry


class Refused(RoppyakkenError):
    """A follow, block or challenge refused: the HTTP status and one line."""

    def __init__(self, status: int, message: object, /, **fields: object) -> None:
        super().__init__(message, **fields)
        self.status = status


def existing(conn: Connection, me: str, other: str) -> str:
    """``other``'s name, if it is a player other than ``me``; else :class:`Refused`."""
    if other == me:
        raise Refused(400, text.FRIEND_SELF)
    name = conn.execute(select(players.c.name).where(players.c.id == other)).scalar()
    if name is None:
        raise Refused(404, text.NO_PLAYER_ID, player=other[:40])
    return str(name)


def blocks_me(conn: Connection, me: str, other: str) -> bool:
    """Whether ``other`` blocks ``me``."""
    found = conn.execute(
        select(blocks.c.since).where(blocks.c.blocker == other, blocks.c.blocked == me)
    ).first()
    return found is not None


def i_block(conn: Connection, me: str, other: str) -> bool:
    """Whether ``me`` blocks ``other``."""
    return blocks_me(conn, other, me)


def block(conn: Connection, me: str, other: str, now: float, most: int) -> bool:
    """``me`` blocks ``other`` (at most ``most`` blocked); whether it is new.  Removes the follows both
    ways and cancels the pending challenges between them."""
    existing(conn, me, other)
    if i_block(conn, me, other):
        return False
    count = conn.execute(select(func.count()).select_from(blocks).where(blocks.c.blocker == me)).scalar()
    if int(count or 0) >= most:
        raise Refused(409, text.BLOCKS_FULL, max=most)
    conn.execute(insert(blocks).values(blocker=me, blocked=other, since=now))
    conn.execute(
        delete(follows).where(
            or_(
                and_(follows.c.follower == me, follows.c.followed == other),
                and_(follows.c.follower == other, follows.c.followed == me),
            )
        )
    )
    conn.execute(
        update(challenges)
        .where(
            challenges.c.status == "pending",
            or_(
                and_(challenges.c.from_id == me, challenges.c.to_id == other),
                and_(challenges.c.from_id == other, challenges.c.to_id == me),
            ),
        )
        .values(status="cancelled", answered=now)
    )
    return True


def unblock(conn: Connection, me: str, other: str) -> bool:
    """``me`` no longer blocks ``other``; whether it did."""
    result = conn.execute(delete(blocks).where(blocks.c.blocker == me, blocks.c.blocked == other))
    return bool(result.rowcount)


def blocked(conn: Connection, me: str) -> list[PlayerEntry]:
    """The players ``me`` blocks, the newest first (at most ``Limits.max_blocks``)."""
    rows = conn.execute(
        select(blocks.c.blocked, players.c.name, blocks.c.since)
        .join(players, players.c.id == blocks.c.blocked)
        .where(blocks.c.blocker == me)
        .order_by(blocks.c.since.desc(), blocks.c.blocked)
    ).all()
    return [PlayerEntry(id=str(r[0]), name=str(r[1]), since=float(r[2])) for r in rows]


def pairs_among(conn: Connection, ids: Iterable[str]) -> set[frozenset[str]]:
    """The pairs of ``ids`` one of whom blocks the other (one query)."""
    wanted = list(set(ids))
    if len(wanted) < 2:
        return set()
    rows = conn.execute(
        select(blocks.c.blocker, blocks.c.blocked).where(
            blocks.c.blocker.in_(wanted), blocks.c.blocked.in_(wanted)
        )
    ).all()
    return {frozenset((str(a), str(b))) for a, b in rows}


def partners(conn: Connection, ids: Iterable[str]) -> dict[str, frozenset[str]]:
    """For each of ``ids``, the players it blocks or who block it (one query; ``ix_blocks_blocked``
    serves the second direction)."""
    wanted = list(set(ids))
    out: dict[str, set[str]] = {i: set() for i in wanted}
    if wanted:
        rows = conn.execute(
            select(blocks.c.blocker, blocks.c.blocked).where(
                or_(blocks.c.blocker.in_(wanted), blocks.c.blocked.in_(wanted))
            )
        ).all()
        for blocker, blocked_id in rows:
            if blocker in out:
                out[str(blocker)].add(str(blocked_id))
            if blocked_id in out:
                out[str(blocked_id)].add(str(blocker))
    return {i: frozenset(found) for i, found in out.items()}


def apart_from(conn: Connection, me: str, others: Iterable[str]) -> bool:
    """Whether ``me`` blocks one of ``others`` or is blocked by one of them."""
    them = [o for o in set(others) if o != me]
    if not them:
        return False
    found = conn.execute(
        select(blocks.c.blocker)
        .where(
            or_(
                and_(blocks.c.blocker == me, blocks.c.blocked.in_(them)),
                and_(blocks.c.blocked == me, blocks.c.blocker.in_(them)),
            )
        )
        .limit(1)
    ).first()
    return found is not None


def blocked_by_any(conn: Connection, readers: Iterable[str], authors: Iterable[str]) -> set[tuple[str, str]]:
    """(reader, author) for each reader of ``readers`` who blocks an author of ``authors``."""
    readers, authors = list(set(readers)), list(set(authors))
    if not readers or not authors:
        return set()
    rows = conn.execute(
        select(blocks.c.blocker, blocks.c.blocked).where(
            blocks.c.blocker.in_(readers), blocks.c.blocked.in_(authors)
        )
    ).all()
    return {(str(a), str(b)) for a, b in rows}


def forget(conn: Connection, ids: list[str]) -> None:
    """Remove every follow, block, challenge and presence row naming one of ``ids`` (an erased
    account's players: server/people/erasure.py)."""
    conn.execute(delete(follows).where(or_(follows.c.follower.in_(ids), follows.c.followed.in_(ids))))
    conn.execute(delete(blocks).where(or_(blocks.c.blocker.in_(ids), blocks.c.blocked.in_(ids))))
    conn.execute(delete(challenges).where(or_(challenges.c.from_id.in_(ids), challenges.c.to_id.in_(ids))))
    conn.execute(delete(presence).where(presence.c.player_id.in_(ids)))
