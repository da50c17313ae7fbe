"""Signed-in sessions: a token in the ``rp_session`` cookie, its SHA-256 in the ``sessions`` table.

A session binds a browser to an account (server/people/accounts.py makes accounts and
checks passwords; server/people/passkeys.py checks passkeys): while it is valid the
browser acts as the account's player (``accounts.player_id``), whatever its
``rp_player`` cookie says, and its CSRF token is derived from the session's token.
Sessions live on the server, so each can be revoked (:func:`end`), all of an
account's at once (:func:`end_all`, "sign out everywhere"); a sign-in always makes
a new token (:func:`start`) and ends the one the browser had (rotation). A guest
player adopted by an account (``players.account_id`` set) no longer acts through
its own cookie: only a session acts for an account.

A session ends :data:`IDLE_TTL` after it was last used, and :data:`MAX_TTL` after
it began, whichever comes first; ``seen_at`` is written at most every
:data:`TOUCH_EVERY` seconds.
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Final

from sqlalchemy import Connection, delete, func, insert, select, update

from roppyakken.server.people import history
from roppyakken.server.store import tables
from roppyakken.server.wire.answers import SessionEntry

COOKIE: Final = "rp_session"
IDLE_TTL: Final = 30 * 86_400.0
"""Seconds a session lives without being used."""
MAX_TTL: Final = 400 * 86_400.0
"""Seconds a session lives at most (the most a browser keeps a cookie)."""
TOUCH_EVERY: Final = 600.0
"""Seconds between two writes of a session's ``seen_at``."""
AGENT_CHARS: Final = 200
SESSION_ID_CHARS: Final = 16
"""Hex digits of a token's hash that name a session in its account's list (never the token)."""

_c = tables.sessions.c


@dataclass(frozen=True, slots=True)
class Session:
    """A valid session: its token (from the cookie), account, and the account's player and name."""

    token: str
    account_id: str
    player_id: str
    name: str


def hash_token(token: str) -> str:
    """The stored form of a session token."""
    return hashlib.sha256(token.encode()).hexdigest()


def valid_token(value: str | None) -> str | None:
    """The cookie's value if it can be a session token, else None."""
    if not value or len(value) > 100 or not all(ch.isalnum() or ch in "-_" for ch in value):
        return None
    return value


def start(conn: Connection, account_id: str, now: float, *, address: str | None, agent: str | None) -> str:
    """A new session of the account (stored hashed); returns its token, for the cookie."""
    token = secrets.token_urlsafe(32)
    conn.execute(
        insert(tables.sessions).values(
            token_hash=hash_token(token),
            account_id=account_id,
            created_at=now,
            seen_at=now,
            expires_at=now + MAX_TTL,
            address=None if address is None else address[:64],
            agent=None if agent is None else agent[:AGENT_CHARS],
        )
    )
    return token


def load(conn: Connection, token: str, now: float) -> Session | None:
    """The valid session of this token, or None (unknown, ended, idle too long, too old)."""
    row = conn.execute(
        select(
            _c.account_id,
            _c.seen_at,
            _c.expires_at,
            tables.accounts.c.player_id,
            tables.players.c.name,
        )
        .join(tables.accounts, tables.accounts.c.id == _c.account_id)
        .join(tables.players, tables.players.c.id == tables.accounts.c.player_id)
        .where(_c.token_hash == hash_token(token))
    ).first()
    if row is None:
        return None
    account_id, seen_at, expires_at, player_id, name = row
    if now >= float(expires_at) or now >= float(seen_at) + IDLE_TTL:
        end(conn, token)
        return None
    if now >= float(seen_at) + TOUCH_EVERY:
        conn.execute(update(tables.sessions).where(_c.token_hash == hash_token(token)).values(seen_at=now))
    return Session(token, str(account_id), str(player_id), str(name))


def end(conn: Connection, token: str) -> bool:
    """End one session; whether it existed."""
    return bool(conn.execute(delete(tables.sessions).where(_c.token_hash == hash_token(token))).rowcount)


def end_all(conn: Connection, account_id: str) -> int:
    """End every session of the account ("sign out everywhere"); how many there were."""
    return int(conn.execute(delete(tables.sessions).where(_c.account_id == account_id)).rowcount or 0)


def count(conn: Connection, account_id: str) -> int:
    """How many sessions the account has (valid or not yet swept)."""
    query = select(func.count()).select_from(tables.sessions).where(_c.account_id == account_id)
    return int(conn.execute(query).scalar() or 0)


def sweep(conn: Connection, now: float, limit: int = 1000) -> int:
    """Delete up to ``limit`` ended sessions; how many."""
    stale = select(_c.token_hash).where((_c.expires_at <= now) | (_c.seen_at <= now - IDLE_TTL)).limit(limit)
    hashes = [str(r[0]) for r in conn.execute(stale)]
    if not hashes:
        return 0
    return int(conn.execute(delete(tables.sessions).where(_c.token_hash.in_(hashes))).rowcount or 0)


def listing(conn: Connection, account_id: str, current_hash: str | None) -> list[SessionEntry]:
    """The account's sessions, newest first; ``id`` is a prefix of the token's hash (never the token),
    ``current`` marks the one whose hash is ``current_hash``."""
    rows = conn.execute(
        select(_c.token_hash, _c.created_at, _c.seen_at, _c.expires_at, _c.address, _c.agent)
        .where(_c.account_id == account_id)
        .order_by(_c.created_at.desc())
    ).all()
    return [
        {
            "id": str(r[0])[:SESSION_ID_CHARS],
            "created_at": history.iso(r[1]),
            "seen_at": history.iso(r[2]),
            "expires_at": history.iso(r[3]),
            "address": r[4],
            "agent": r[5],
            "current": r[0] == current_hash,
        }
        for r in rows
    ]


def valid_id(value: str) -> bool:
    """Whether ``value`` can name a session of :func:`listing`."""
    return len(value) == SESSION_ID_CHARS and all(ch in "0123456789abcdef" for ch in value)


def end_listed(conn: Connection, account_id: str, session_id: str) -> int:
    """End the account's session named ``session_id`` in :func:`listing` (:func:`valid_id`); how many
    ended (0: none of the account's)."""
    found = delete(tables.sessions).where(_c.account_id == account_id, _c.token_hash.like(f"{session_id}%"))
    return int(conn.execute(found).rowcount or 0)


def end_others(conn: Connection, account_id: str, keep_token: str) -> int:
    """End every session of the account but the one of ``keep_token``; how many."""
    others = delete(tables.sessions).where(
        _c.account_id == account_id, _c.token_hash != hash_token(keep_token)
    )
    return int(conn.execute(others).rowcount or 0)


def started_at(conn: Connection, token: str) -> float | None:
    """When the session of ``token`` began (epoch seconds), or None if there is none."""
    began = conn.execute(select(_c.created_at).where(_c.token_hash == hash_token(token))).scalar()
    return None if began is None else float(began)
