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
from starlette.requests import HTTPConnection
from starlette.responses import Response

from roppyakken.server.store.tables import accounts, players, sessions

COOKIE: Final = "rp_session"
IDLE_TTL: Final = 30 * 86_400.0
"""Seconds a session lives without being used."""
MAX_TTL: Final = 400 * 86_400.0
"""Seconds a session lives at most (the most a browser keeps a cookie)."""
TOUCH_EVERY: Final = 600.0
"""Seconds between two writes of a session's ``seen_at``."""
AGENT_CHARS: Final = 200


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
        insert(sessions).values(
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
            sessions.c.account_id,
            sessions.c.seen_at,
            sessions.c.expires_at,
            accounts.c.player_id,
            players.c.name,
        )
        .join(accounts, accounts.c.id == sessions.c.account_id)
        .join(players, players.c.id == accounts.c.player_id)
        .where(sessions.c.token_hash == hash_token(token))
    ).first()
    if row is None:
        return None
    account_id, seen_at, expires_at, player_id, name = row
    if now >= float(expires_at) or now >= float(seen_at) + IDLE_TTL:
        end(conn, token)
        return None
    if now >= float(seen_at) + TOUCH_EVERY:
        conn.execute(update(sessions).where(sessions.c.token_hash == hash_token(token)).values(seen_at=now))
    return Session(token, str(account_id), str(player_id), str(name))


def end(conn: Connection, token: str) -> bool:
    """End one session; whether it existed."""
    return bool(conn.execute(delete(sessions).where(sessions.c.token_hash == hash_token(token))).rowcount)


def end_all(conn: Connection, account_id: str) -> int:
    """End every session of the account ("sign out everywhere"); how many there were."""
    return int(conn.execute(delete(sessions).where(sessions.c.account_id == account_id)).rowcount or 0)


def count(conn: Connection, account_id: str) -> int:
    """How many sessions the account has (valid or not yet swept)."""
    query = select(func.count()).select_from(sessions).where(sessions.c.account_id == account_id)
    return int(conn.execute(query).scalar() or 0)


def sweep(conn: Connection, now: float, limit: int = 1000) -> int:
    """Delete up to ``limit`` ended sessions; how many."""
    stale = (
        select(sessions.c.token_hash)
        .where((sessions.c.expires_at <= now) | (sessions.c.seen_at <= now - IDLE_TTL))
        .limit(limit)
    )
    hashes = [str(r[0]) for r in conn.execute(stale)]
    if not hashes:
        return 0
    return int(conn.execute(delete(sessions).where(sessions.c.token_hash.in_(hashes))).rowcount or 0)


def from_cookie(conn: HTTPConnection) -> str | None:
    """The session token the request carries, if it looks like one."""
    return valid_token(conn.cookies.get(COOKIE))


def set_cookie(response: Response, secure: bool, token: str) -> None:
    """Give the browser its session cookie (HttpOnly, SameSite=Lax, Secure over TLS)."""
    response.set_cookie(
        COOKIE, token, max_age=int(MAX_TTL), path="/", secure=secure, httponly=True, samesite="lax"
    )


def clear_cookie(response: Response, secure: bool) -> None:
    """Make the browser forget its session cookie."""
    response.delete_cookie(COOKIE, path="/", secure=secure, httponly=True, samesite="lax")
