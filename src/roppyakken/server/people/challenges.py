"""Direct challenges: one player asks another to play, who accepts or declines (docs/PROTOCOL.md "Friends").

A challenge names the preset, 2 players (a challenge is between two people: a
three-player game is made at a table or by quick pairing), the time control (or
none) and whether it is rated.  Anyone may challenge casually, a guest too; a rated
challenge is between two players signed in to an account (lichess's rule), with a clock
and a preset that has ratings.  A player may have ``Limits.challenges_out`` pending
challenges sent and ``Limits.challenges_in`` received, one at a time to the same
player; a challenge not answered within ``Limits.challenge_ttl`` seconds expires.  A
player who blocks or is blocked by the other can neither challenge them nor accept
their challenge (server/people/blocks.py).

The challenger holds a seat token from the moment they challenge (only its hash is
stored): accepted, the challenge becomes a room (server/web/friend_routes.py) with the
challenger in seat 0 and the challenged player in seat 1, private unless rated (a rated
game's result is public, as every rated game's).  The answer stays readable for
:data:`KEEP` seconds so that the challenger's page learns it, wherever it is connected
(server/club/presence.py polls the database: a cluster needs no relay).
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

from sqlalchemy import Column, ColumnElement, Connection, and_, delete, func, insert, or_, select, update

from roppyakken.server.config import Limits
from roppyakken.server.people.blocks import Refused, blocks_me, existing, i_block
from roppyakken.server.people.players import NOWHERE, Origin
from roppyakken.server.store.tables import accounts, challenges, players
from roppyakken.server.wire import text
from roppyakken.server.wire.lobby import ChallengeInfo, PublicPlayer

KEEP: Final = 600.0
"""Seconds an answered (or expired) challenge stays readable before it is deleted."""
ANSWERS: Final = ("accepted", "declined", "cancelled", "expired")
"""A challenge's statuses after ``pending``."""


@dataclass(frozen=True, slots=True)
class Asked:
    """What a challenge asks for."""

    preset: str
    players: int
    clock: str
    rated: bool


def _has_account(conn: Connection, player_id: str) -> bool:
    found = conn.execute(select(accounts.c.id).where(accounts.c.player_id == player_id)).first()
    return found is not None


def _pending(conn: Connection, column: Column[str], player_id: str) -> int:
    count = conn.execute(
        select(func.count())
        .select_from(challenges)
        .where(column == player_id, challenges.c.status == "pending")
    ).scalar()
    return int(count or 0)


def create(
    conn: Connection,
    me: str,
    other: str,
    asked: Asked,
    token_hash: str,
    now: float,
    limits: Limits,
    *,
    rateable: bool,
    came_from: Origin = NOWHERE,
) -> ChallengeInfo:
    """``me`` challenges ``other`` (``rateable``: the preset and clock may be rated; ``came_from``: the
    hashes of the challenger's address and browser, kept for a rated challenge); the challenge, or
    :class:`Refused`."""
    expire(conn, now)
    existing(conn, me, other)
    if blocks_me(conn, me, other):
        raise Refused(403, text.CHALLENGE_REFUSED)
    if i_block(conn, me, other):
        raise Refused(409, text.YOU_BLOCK)
    if asked.players != 2:
        raise Refused(400, text.CHALLENGE_TWO_PLAYERS)
    if asked.rated:
        if not rateable:
            raise Refused(400, text.CHALLENGE_RATED_CLOCK)
        if not (_has_account(conn, me) and _has_account(conn, other)):
            raise Refused(403, text.CHALLENGE_RATED_ACCOUNTS)
    again = conn.execute(
        select(challenges.c.id).where(
            challenges.c.from_id == me, challenges.c.to_id == other, challenges.c.status == "pending"
        )
    ).first()
    if again is not None:
        raise Refused(409, text.CHALLENGE_AGAIN)
    if _pending(conn, challenges.c.from_id, me) >= limits.challenges_out:
        raise Refused(409, text.CHALLENGES_OUT_FULL, max=limits.challenges_out)
    if _pending(conn, challenges.c.to_id, other) >= limits.challenges_in:
        raise Refused(409, text.CHALLENGES_IN_FULL)
    challenge_id = secrets.token_hex(8)
    conn.execute(
        insert(challenges).values(
            id=challenge_id,
            from_id=me,
            to_id=other,
            preset=asked.preset,
            players=asked.players,
            clock=asked.clock,
            rated=asked.rated,
            status="pending",
            created=now,
            expires=now + limits.challenge_ttl,
            token_hash=token_hash,
            address_hash=came_from[0],
            browser_hash=came_from[1],
        )
    )
    found = _read(conn, [challenges.c.id == challenge_id])
    return found[0]


def expire(conn: Connection, now: float) -> None:
    """Pending challenges past their time expire; answers older than :data:`KEEP` are deleted."""
    conn.execute(
        update(challenges)
        .where(challenges.c.status == "pending", challenges.c.expires < now)
        .values(status="expired", answered=challenges.c.expires)
    )
    conn.execute(
        delete(challenges).where(challenges.c.status != "pending", challenges.c.answered < now - KEEP)
    )


_FROM = players.alias("challenger")
_TO = players.alias("challenged")


def _read(conn: Connection, where: list[ColumnElement[bool]]) -> list[ChallengeInfo]:
    c = challenges.c
    rows = conn.execute(
        select(
            c.id,
            c.from_id,
            _FROM.c.name,
            c.to_id,
            _TO.c.name,
            c.preset,
            c.players,
            c.clock,
            c.rated,
            c.status,
            c.created,
            c.expires,
            c.room_id,
        )
        .join(_FROM, _FROM.c.id == c.from_id)
        .join(_TO, _TO.c.id == c.to_id)
        .where(*where)
        .order_by(c.created.desc(), c.id)
    ).all()
    return [
        ChallengeInfo(
            id=str(r[0]),
            challenger=PublicPlayer(id=str(r[1]), name=str(r[2])),
            challenged=PublicPlayer(id=str(r[3]), name=str(r[4])),
            preset=str(r[5]),
            players=int(r[6]),
            clock=str(r[7]),
            rated=bool(r[8]),
            status=str(r[9]),
            created=float(r[10]),
            expires=float(r[11]),
            room=None if r[12] is None else str(r[12]),
        )
        for r in rows
    ]


def mine(conn: Connection, me: str, now: float) -> tuple[list[ChallengeInfo], list[ChallengeInfo]]:
    """``me``'s challenges: those received and pending, those sent (pending or answered lately)."""
    expire(conn, now)
    incoming = _read(conn, [challenges.c.to_id == me, challenges.c.status == "pending"])
    outgoing = _read(conn, [challenges.c.from_id == me])
    return incoming, outgoing


def changed(conn: Connection, ids: Iterable[str]) -> list[ChallengeInfo]:
    """Every challenge to or from ``ids`` still readable (pending, or answered within :data:`KEEP`);
    a read only (:func:`expire` is the caller's, less often)."""
    wanted = list(set(ids))
    if not wanted:
        return []
    return _read(conn, [or_(challenges.c.to_id.in_(wanted), challenges.c.from_id.in_(wanted))])


@dataclass(frozen=True, slots=True)
class Taken:
    """A challenge being accepted: what the room needs."""

    info: ChallengeInfo
    token_hash: str
    """The challenger's seat token, hashed (seat 0)."""
    came_from: Origin
    """The hashes of the challenger's address and browser (a rated challenge's)."""


def take(conn: Connection, challenge_id: str, me: str, now: float, came_from: Origin = NOWHERE) -> Taken:
    """``me`` accepts the pending challenge ``challenge_id`` sent to them (it is ``accepted`` from now:
    no other answer can take it); :class:`Refused` if there is none, if a block came between them, or
    if it is rated and ``came_from`` (the accepter's address and browser hashes) shares one with the
    challenger's: a rated game is between different people."""
    expire(conn, now)
    found = conn.execute(
        select(
            challenges.c.from_id,
            challenges.c.token_hash,
            challenges.c.address_hash,
            challenges.c.browser_hash,
        ).where(challenges.c.id == challenge_id, challenges.c.to_id == me, challenges.c.status == "pending")
    ).first()
    if found is None:
        raise Refused(404, text.NO_CHALLENGE, challenge=challenge_id[:40])
    if blocks_me(conn, me, str(found[0])) or i_block(conn, me, str(found[0])):
        raise Refused(403, text.CHALLENGE_REFUSED)
    theirs: Origin = (found[2], found[3])
    if any(mine is not None and mine == other for mine, other in zip(came_from, theirs, strict=True)):
        raise Refused(403, text.RATED_SAME_ORIGIN)
    result = conn.execute(
        update(challenges)
        .where(challenges.c.id == challenge_id, challenges.c.status == "pending")
        .values(status="accepted", answered=now)
    )
    if result.rowcount != 1:
        raise Refused(404, text.NO_CHALLENGE, challenge=challenge_id[:40])
    return Taken(_read(conn, [challenges.c.id == challenge_id])[0], str(found[1]), theirs)


def made(conn: Connection, challenge_id: str, room_id: str) -> None:
    """The accepted challenge's room exists."""
    conn.execute(update(challenges).where(challenges.c.id == challenge_id).values(room_id=room_id))


def untake(conn: Connection, challenge_id: str) -> None:
    """The accepted challenge's room could not be made: it waits for an answer again."""
    conn.execute(
        update(challenges)
        .where(challenges.c.id == challenge_id, challenges.c.room_id.is_(None))
        .values(status="pending", answered=None)
    )


def answer(conn: Connection, challenge_id: str, me: str, status: str, now: float) -> ChallengeInfo:
    """``me`` declines (``declined``: a challenge to them) or cancels (``cancelled``: one they sent) a
    pending challenge; :class:`Refused` if there is no such challenge."""
    expire(conn, now)
    column = challenges.c.to_id if status == "declined" else challenges.c.from_id
    result = conn.execute(
        update(challenges)
        .where(challenges.c.id == challenge_id, column == me, challenges.c.status == "pending")
        .values(status=status, answered=now)
    )
    if result.rowcount != 1:
        raise Refused(404, text.NO_CHALLENGE, challenge=challenge_id[:40])
    return _read(conn, [challenges.c.id == challenge_id])[0]


def between(conn: Connection, a: str, b: str) -> list[ChallengeInfo]:
    """The challenges between ``a`` and ``b`` still readable (tests, the blocks' effect)."""
    return _read(
        conn,
        [
            or_(
                and_(challenges.c.from_id == a, challenges.c.to_id == b),
                and_(challenges.c.from_id == b, challenges.c.to_id == a),
            )
        ],
    )
