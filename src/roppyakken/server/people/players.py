"""Players without sign-up: a server-side player id bound to a secret the browser keeps in a cookie.

The cookie ``rp_player`` holds ``<player id>.<secret>``; it is HttpOnly,
SameSite=Lax, and Secure when the request came over TLS (directly, or through a
``--trusted-proxy`` that says so with ``X-Forwarded-Proto``).  The database keeps
only the secret's SHA-256.  Every change made on the cookie's authority must
carry the header ``X-CSRF-Token`` with the player's CSRF token (derived from the
secret, given only by ``GET``/``POST /api/me`` to pages of this site) and must not
come from another site (``Origin``, ``Sec-Fetch-Site``): see docs/PROTOCOL.md.
Reading the cookies of a request and setting them on an answer is the web's
(server/web/identity.py); their values, and what they prove, are here.

Seats a player takes are written to ``seat_players``: an account made later
adopts a guest by pointing ``players.account_id`` at itself.

The cookie ``rp_browser`` marks the browser itself: a random id given by ``/api/me``
when the browser has none, kept when the player changes (a new guest, a sign-in).
It names nobody; quick pairing never pairs two seats of one browser
(server/club/pairing.py), nor of one address, and a rated room seats neither twice
(:func:`origin_seated`; ``serve --rated-same-address`` allows both).
"""

from __future__ import annotations

import hashlib
import hmac
import logging
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from sqlalchemy import Connection, delete, insert, or_, select, update

from roppyakken.server.people import guests, sessions
from roppyakken.server.store import tables
from roppyakken.server.store.database import Database, StorageError
from roppyakken.server.wire.lobby import PublicPlayer

ORIGIN_COLUMNS: Final = (tables.seat_players.c.address_hash, tables.seat_players.c.browser_hash)

log = logging.getLogger("roppyakken.server")

COOKIE: Final = "rp_player"
CSRF_HEADER: Final = "x-csrf-token"
COOKIE_MAX_AGE: Final = 400 * 86_400
"""Seconds the browser keeps the cookie (the most browsers allow)."""
BROWSER_COOKIE: Final = "rp_browser"
"""The cookie that marks one browser, whichever player it acts as."""


@dataclass(frozen=True, slots=True)
class Player:
    """A player known to the server, and the secret its cookie proved."""

    id: str
    name: str
    secret: str
    """The cookie's secret, or the session's token when signed in (the CSRF token comes from it)."""
    account_id: str | None = None
    """The account signed in (through a session, server/people/sessions.py), if any."""

    @property
    def csrf(self) -> str:
        """The token that must accompany every change made on this player's cookie."""
        return csrf_token(self.secret)

    def public(self) -> PublicPlayer:
        """What ``/api/me`` shows of the player."""
        return PublicPlayer(id=self.id, name=self.name)


def hash_secret(secret: str) -> str:
    """The stored form of a cookie secret."""
    return hashlib.sha256(secret.encode()).hexdigest()


def csrf_token(secret: str) -> str:
    """The CSRF token of a cookie secret (an HMAC of it: no table, the same on every member)."""
    return hmac.new(secret.encode(), b"roppyakken-csrf", hashlib.sha256).hexdigest()[:32]


def parse_cookie(value: str | None) -> tuple[str, str] | None:
    """``(player id, secret)`` from the cookie's value, or None if it is not one."""
    if not value or len(value) > 200 or value.count(".") != 1:
        return None
    player_id, secret = value.split(".")
    if not player_id or not secret or not player_id.isalnum():
        return None
    return player_id, secret


def load(conn: Connection, player_id: str, secret: str) -> Player | None:
    """The guest player whose id and secret these are, or None (also for a guest an account adopted:
    only a session acts for an account); seen now (server/people/guests.py)."""
    p = tables.players.c
    row = conn.execute(
        select(p.secret_hash, p.name, p.account_id, p.seen_at).where(p.id == player_id)
    ).first()
    if row is None or row[2] is not None or not hmac.compare_digest(row[0], hash_secret(secret)):
        return None
    guests.seen(conn, player_id, row[3], time.time())
    return Player(player_id, row[1], secret)


def reload(conn: Connection, player: Player) -> Player | None:
    """``player`` as it is stored now (its name may have changed), or None if it can no longer act."""
    if player.account_id is None:
        return load(conn, player.id, player.secret)
    session = sessions.load(conn, player.secret, time.time())
    if session is None:
        return None
    return Player(session.player_id, session.name, session.token, session.account_id)


def create(conn: Connection, name: str) -> Player:
    """A new player named ``name`` with a fresh secret (stored hashed)."""
    player = Player(secrets.token_hex(8), name, secrets.token_urlsafe(32))
    conn.execute(
        insert(tables.players).values(
            id=player.id,
            secret_hash=hash_secret(player.secret),
            name=name,
            created_at=datetime.now(UTC),
            seen_at=time.time(),
        )
    )
    return player


def rename(conn: Connection, player: Player, name: str) -> Player:
    """The player with its new name (stored)."""
    conn.execute(update(tables.players).where(tables.players.c.id == player.id).values(name=name))
    return Player(player.id, name, player.secret, player.account_id)


Origin = tuple[str | None, str | None]
"""Where a seat or a seek came from: the SHA-256 of its address and of its browser mark (None: unknown)."""
NOWHERE: Final[Origin] = (None, None)


def origin(address: str | None, browser: str | None) -> Origin:
    """The stored hashes of ``address`` (as the bounds count it) and of the browser mark ``browser``."""

    def hashed(kind: str, value: str | None) -> str | None:
        return None if not value else hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()

    return hashed("address", address), hashed("browser", browser)


def link_seat(conn: Connection, room_id: str, seat: int, player_id: str, came_from: Origin = NOWHERE) -> None:
    """Record that the player took this seat (the player's history; a seat given away and taken
    again belongs to its new player), from where (:func:`origin`, kept for rated rooms)."""
    conn.execute(
        delete(tables.seat_players).where(
            tables.seat_players.c.room_id == room_id, tables.seat_players.c.seat == seat
        )
    )
    conn.execute(
        insert(tables.seat_players).values(
            room_id=room_id,
            seat=seat,
            player_id=player_id,
            address_hash=came_from[0],
            browser_hash=came_from[1],
        )
    )


def origin_seated(conn: Connection, room_id: str, player_id: str, came_from: Origin) -> bool:
    """Whether another player holds a seat of the room from the same address or browser."""
    same = [column == value for column, value in zip(ORIGIN_COLUMNS, came_from, strict=True) if value]
    if not same:
        return False
    found = conn.execute(
        select(tables.seat_players.c.seat).where(
            tables.seat_players.c.room_id == room_id, tables.seat_players.c.player_id != player_id, or_(*same)
        )
    ).first()
    return found is not None


async def remember_seat(
    db: Database, room_id: str, seat: int, player: Player, came_from: Origin = NOWHERE
) -> None:
    """Record (after the fact: the seat is taken already) that ``player`` holds this seat.

    The seat is the player's whatever happens here: a write that fails is logged, not
    turned into an error for a join that succeeded."""
    try:
        await db.run(lambda c: link_seat(c, room_id, seat, player.id, came_from))
    except StorageError as exc:
        log.warning("the seat %s of room %s was not recorded for its player: %s", seat, room_id, exc)


class CsrfRefused(Exception):
    """A change on a cookie's authority without the CSRF token, or from another site (HTTP 403)."""


def csrf_matches(player: Player | None, given: str | None) -> bool:
    """Whether a change carrying ``given`` in its ``X-CSRF-Token`` header may act on ``player``'s
    cookie: the player's CSRF token; without a player, any non-empty value (a custom header, which a
    cross-site form or image cannot send)."""
    if player is None:
        return bool(given)
    return given is not None and hmac.compare_digest(given, player.csrf)


def identify(conn: Connection, session_token: str | None, cookie: str | None, now: float) -> Player | None:
    """The player a request acts as: the signed-in account's player if the session is valid, else the
    guest of the player cookie, else None."""
    if session_token is not None:
        session = sessions.load(conn, session_token, now)
        if session is not None:
            return Player(session.player_id, session.name, session.token, session.account_id)
    parsed = parse_cookie(cookie)
    if parsed is None:
        return None
    return load(conn, parsed[0], parsed[1])


def valid_browser_mark(value: str | None) -> str | None:
    """``value`` if it can be a browser's mark (what :func:`new_browser_mark` makes), else None."""
    if not value or len(value) > 64 or not all(ch.isalnum() or ch in "-_" for ch in value):
        return None
    return value


def new_browser_mark() -> str:
    """A fresh browser mark (the value of the ``rp_browser`` cookie)."""
    return secrets.token_urlsafe(16)


def cookie_value(player: Player) -> str:
    """The value of the player's ``rp_player`` cookie (:func:`parse_cookie` reads it)."""
    return f"{player.id}.{player.secret}"
