"""Players without sign-up: a server-side player id bound to a secret the browser keeps in a cookie.

The cookie ``rp_player`` holds ``<player id>.<secret>``; it is HttpOnly,
SameSite=Lax, and Secure when the request came over TLS (directly, or through a
``--trusted-proxy`` that says so with ``X-Forwarded-Proto``).  The database keeps
only the secret's SHA-256.  Every change made on the cookie's authority must
carry the header ``X-CSRF-Token`` with the player's CSRF token (derived from the
secret, given only by ``GET``/``POST /api/me`` to pages of this site) and must not
come from another site (``Origin``, ``Sec-Fetch-Site``): see docs/PROTOCOL.md.

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
from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from roppyakken.server.addresses import client_address, header, origin_allowed
from roppyakken.server.people import guests, sessions
from roppyakken.server.store.database import Database, StorageError
from roppyakken.server.store.tables import players, seat_players
from roppyakken.server.wire import text, wording

ORIGIN_COLUMNS: Final = (seat_players.c.address_hash, seat_players.c.browser_hash)

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

    def public(self) -> dict[str, str]:
        """What ``/api/me`` shows of the player."""
        return {"id": self.id, "name": self.name}


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
    row = conn.execute(
        select(players.c.secret_hash, players.c.name, players.c.account_id, players.c.seen_at).where(
            players.c.id == player_id
        )
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
        insert(players).values(
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
    conn.execute(update(players).where(players.c.id == player.id).values(name=name))
    return Player(player.id, name, player.secret, player.account_id)


Origin = tuple[str | None, str | None]
"""Where a seat or a seek came from: the SHA-256 of its address and of its browser mark (None: unknown)."""
NOWHERE: Final[Origin] = (None, None)


def origin(address: str | None, browser: str | None) -> Origin:
    """The stored hashes of ``address`` (as the bounds count it) and of the browser mark ``browser``."""

    def hashed(kind: str, value: str | None) -> str | None:
        return None if not value else hashlib.sha256(f"{kind}:{value}".encode()).hexdigest()

    return hashed("address", address), hashed("browser", browser)


def origin_of(conn: HTTPConnection) -> Origin:
    """The :func:`origin` of a request or websocket."""
    return origin(client_address(conn.scope), browser_of(conn))


def link_seat(conn: Connection, room_id: str, seat: int, player_id: str, came_from: Origin = NOWHERE) -> None:
    """Record that the player took this seat (the player's history; a seat given away and taken
    again belongs to its new player), from where (:func:`origin`, kept for rated rooms)."""
    conn.execute(delete(seat_players).where(seat_players.c.room_id == room_id, seat_players.c.seat == seat))
    conn.execute(
        insert(seat_players).values(
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
        select(seat_players.c.seat).where(
            seat_players.c.room_id == room_id, seat_players.c.player_id != player_id, or_(*same)
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


def from_another_site(conn: HTTPConnection, allowed: tuple[str, ...]) -> bool:
    """Whether the browser says the request comes from another site (``Origin``, ``Sec-Fetch-Site``)."""
    if header(conn.scope, b"sec-fetch-site") == "cross-site":
        return True
    return not origin_allowed(conn.scope, allowed)


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


async def current(conn: HTTPConnection) -> Player | None:
    """The player this request acts as (:func:`identify`), or None (no cookie, unknown, wrong secret)."""
    token = sessions.from_cookie(conn)
    cookie = conn.cookies.get(COOKIE)
    if token is None and parse_cookie(cookie) is None:
        return None
    db: Database = conn.app.state.services.db
    player: Player | None = await db.run(lambda c: identify(c, token, cookie, time.time()))
    return player


def _allowed(conn: HTTPConnection) -> tuple[str, ...]:
    limits = getattr(conn.app.state, "limits", None)
    return () if limits is None else tuple(limits.allowed_origins)


def check_change(request: Request, player: Player | None) -> None:
    """Refuse (:class:`CsrfRefused`) a change on a cookie's authority that a page of this site did not
    make: another site's request, or, with a player's cookie, no matching ``X-CSRF-Token``."""
    if from_another_site(request, _allowed(request)):
        raise CsrfRefused(text.CSRF_REFUSED)
    given = request.headers.get(CSRF_HEADER)
    if player is None:
        if not given:  # a custom header: a cross-site form or image cannot send one
            raise CsrfRefused(text.CSRF_REFUSED)
        return
    if given is None or not hmac.compare_digest(given, player.csrf):
        raise CsrfRefused(text.CSRF_REFUSED)


async def acting(request: Request) -> Player | None:
    """The player a changing request acts for: None without a (valid) cookie, as before there were
    players; with one, the CSRF check must pass (else :class:`CsrfRefused`)."""
    player = await current(request)
    if player is not None:
        check_change(request, player)
    return player


def behind_tls(conn: HTTPConnection) -> bool:
    """Whether the browser reached the server over TLS (uvicorn takes ``X-Forwarded-Proto`` from
    trusted proxies only, into the scheme)."""
    return conn.url.scheme in ("https", "wss")


def set_cookie(response: Response, request: HTTPConnection, player: Player) -> None:
    """Give the browser the player's cookie."""
    response.set_cookie(
        COOKIE,
        f"{player.id}.{player.secret}",
        max_age=COOKIE_MAX_AGE,
        path="/",
        secure=behind_tls(request),
        httponly=True,
        samesite="lax",
    )


def browser_of(conn: HTTPConnection) -> str | None:
    """The browser's mark (its ``rp_browser`` cookie), or None if it has none (or not one of ours)."""
    value = conn.cookies.get(BROWSER_COOKIE)
    if not value or len(value) > 64 or not all(ch.isalnum() or ch in "-_" for ch in value):
        return None
    return value


def mark_browser(response: Response, request: HTTPConnection) -> None:
    """Give the browser its ``rp_browser`` mark if it has none."""
    if browser_of(request) is None:
        response.set_cookie(
            BROWSER_COOKIE,
            secrets.token_urlsafe(16),
            max_age=COOKIE_MAX_AGE,
            path="/",
            secure=behind_tls(request),
            httponly=True,
            samesite="lax",
        )


async def handle_csrf(request: Request, exc: Exception) -> Response:
    """:class:`CsrfRefused` as a 403 ``{"error"}`` answer."""
    return JSONResponse(wording.answer(str(exc)), status_code=403)
