"""Who a request acts as, read from its cookies, and the cookies an answer gives.

A request (or a websocket) acts as the account signed in by its ``rp_session``
cookie, else as the guest of its ``rp_player`` cookie (server/people/players.py,
server/people/sessions.py say what those values are and prove).  A change made on
a cookie's authority must come from a page of this site and carry the CSRF token
(:func:`check_change`).  Every cookie is HttpOnly, SameSite=Lax, and Secure when the
browser reached the server over TLS (:func:`behind_tls`).
"""

from __future__ import annotations

import time

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from roppyakken.server.addresses import client_address, header, origin_allowed
from roppyakken.server.people import players, recovery, sessions
from roppyakken.server.people.players import CsrfRefused, Player
from roppyakken.server.store.database import Database
from roppyakken.server.wire import text, wording


def database(conn: HTTPConnection) -> Database:
    """The server's database."""
    db: Database = conn.app.state.services.db
    return db


def session_token(conn: HTTPConnection) -> str | None:
    """The session token the request carries, if it looks like one."""
    return sessions.valid_token(conn.cookies.get(sessions.COOKIE))


def device_token(conn: HTTPConnection) -> str | None:
    """The device cookie's token (server/people/recovery.py), if the request carries one that looks
    like one."""
    return recovery.valid_device_token(conn.cookies.get(recovery.DEVICE_COOKIE))


def browser_of(conn: HTTPConnection) -> str | None:
    """The browser's mark (its ``rp_browser`` cookie), or None if it has none (or not one of ours)."""
    return players.valid_browser_mark(conn.cookies.get(players.BROWSER_COOKIE))


def origin_of(conn: HTTPConnection) -> players.Origin:
    """The :func:`~roppyakken.server.people.players.origin` of a request or websocket."""
    return players.origin(client_address(conn.scope), browser_of(conn))


async def current(conn: HTTPConnection) -> Player | None:
    """The player this request acts as (:func:`~roppyakken.server.people.players.identify`), or None
    (no cookie, unknown, wrong secret)."""
    token = session_token(conn)
    cookie = conn.cookies.get(players.COOKIE)
    if token is None and players.parse_cookie(cookie) is None:
        return None
    player: Player | None = await database(conn).run(
        lambda c: players.identify(c, token, cookie, time.time())
    )
    return player


def allowed_origins(conn: HTTPConnection) -> tuple[str, ...]:
    """The other origins the server accepts pages from (``serve --allowed-origin``)."""
    limits = getattr(conn.app.state, "limits", None)
    return () if limits is None else tuple(limits.allowed_origins)


def from_another_site(conn: HTTPConnection, allowed: tuple[str, ...]) -> bool:
    """Whether the browser says the request comes from another site (``Origin``, ``Sec-Fetch-Site``)."""
    if header(conn.scope, b"sec-fetch-site") == "cross-site":
        return True
    return not origin_allowed(conn.scope, allowed)


def check_change(request: Request, player: Player | None) -> None:
    """Refuse (:class:`~roppyakken.server.people.players.CsrfRefused`) a change on a cookie's authority
    that a page of this site did not make: another site's request, or, with a player's cookie, no
    matching ``X-CSRF-Token``."""
    if from_another_site(request, allowed_origins(request)):
        raise CsrfRefused(text.CSRF_REFUSED)
    if not players.csrf_matches(player, request.headers.get(players.CSRF_HEADER)):
        raise CsrfRefused(text.CSRF_REFUSED)


async def acting(request: Request) -> Player | None:
    """The player a changing request acts for: None without a (valid) cookie, as before there were
    players; with one, the CSRF check must pass (else
    :class:`~roppyakken.server.people.players.CsrfRefused`)."""
    player = await current(request)
    if player is not None:
        check_change(request, player)
    return player


def behind_tls(conn: HTTPConnection) -> bool:
    """Whether the browser reached the server over TLS (uvicorn takes ``X-Forwarded-Proto`` from
    trusted proxies only, into the scheme)."""
    return conn.url.scheme in ("https", "wss")


def set_player_cookie(response: Response, request: HTTPConnection, player: Player) -> None:
    """Give the browser the player's cookie."""
    _set_cookie(response, request, players.COOKIE, players.cookie_value(player), players.COOKIE_MAX_AGE)


def clear_player_cookie(response: Response, request: HTTPConnection) -> None:
    """Make the browser forget its player cookie."""
    response.delete_cookie(
        players.COOKIE, path="/", secure=behind_tls(request), httponly=True, samesite="lax"
    )


def mark_browser(response: Response, request: HTTPConnection) -> None:
    """Give the browser its ``rp_browser`` mark if it has none."""
    if browser_of(request) is None:
        _set_cookie(
            response, request, players.BROWSER_COOKIE, players.new_browser_mark(), players.COOKIE_MAX_AGE
        )


def set_session_cookie(response: Response, request: HTTPConnection, token: str) -> None:
    """Give the browser its session cookie."""
    _set_cookie(response, request, sessions.COOKIE, token, int(sessions.MAX_TTL))


def clear_session_cookie(response: Response, request: HTTPConnection) -> None:
    """Make the browser forget its session cookie."""
    response.delete_cookie(
        sessions.COOKIE, path="/", secure=behind_tls(request), httponly=True, samesite="lax"
    )


def _set_cookie(response: Response, request: HTTPConnection, name: str, value: str, max_age: int) -> None:
    """Set cookie ``name``, as every cookie here is: the whole site, HTTP only, SameSite=Lax, Secure
    behind TLS."""
    response.set_cookie(
        name, value, max_age=max_age, path="/", secure=behind_tls(request), httponly=True, samesite="lax"
    )


def set_device_cookie(response: Response, request: HTTPConnection, token: str) -> None:
    """Give the browser its device cookie (server/people/recovery.py)."""
    response.set_cookie(
        recovery.DEVICE_COOKIE,
        token,
        max_age=int(recovery.DEVICE_TTL),
        path="/",
        secure=behind_tls(request),
        httponly=True,
        samesite="lax",
    )


async def handle_csrf(request: Request, exc: Exception) -> Response:
    """:class:`~roppyakken.server.people.players.CsrfRefused` as a 403 ``{"error"}`` answer."""
    return JSONResponse(wording.answer(str(exc)), status_code=403)
