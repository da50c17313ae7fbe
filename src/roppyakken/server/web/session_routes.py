"""Signing in and out (docs/PROTOCOL.md, "Accounts"), over server/people/accounts.py and sessions.py.

===================================  ==========================================================
``POST /api/session``                ``{"login", "password"}``: sign in (a new session; the
                                     browser's old one ended)
``DELETE /api/session``              sign out (this browser's session ends)
``GET /api/sessions``                the account's sessions
``DELETE /api/sessions``             sign out everywhere
``DELETE /api/sessions/<id>``        end one session of the account
===================================  ==========================================================

Every change needs the ``X-CSRF-Token`` header and a same-site origin
(server/web/identity.py).  Here too is what the account routes and the passkey routes
share: :func:`sign_in` (the answer that signs a browser in), :func:`refuse_suspended`,
and the password attempts' rate limits (:func:`check_attempt`, the buckets of
server/people/accounts.py).
"""

from __future__ import annotations

import asyncio
import math
import time
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.server.addresses import client_address
from roppyakken.server.limits import RateLimiter, take_token
from roppyakken.server.people import accounts, enforcement, moderation, passwords, players, recovery, sessions
from roppyakken.server.people.accounts import AccountRow
from roppyakken.server.web import identity
from roppyakken.server.web.api import ApiError, read_json_object
from roppyakken.server.web.guard import app_limiter
from roppyakken.server.web.player_routes import me_answer
from roppyakken.server.wire import answers, text, wording

MAX_BODY: Final = 16_384
"""Bytes an account or session request's body may have."""


# --- requests ------------------------------------------------------------------------------------


async def read_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (at most :data:`MAX_BODY` bytes), or an ApiError with one line."""
    return await read_json_object(request, MAX_BODY)


def text_field(data: dict[str, Any], field: str, *, required: bool = True) -> str | None:
    """The text ``data[field]`` (None if absent and not ``required``), or a 400."""
    value = data.get(field)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ApiError(400, text.FIELD_NOT_TEXT, field=field)
    return value


def no_store(body: Any, status: int = 200) -> JSONResponse:
    """A JSON answer no cache keeps."""
    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


async def check_password(stored: str | None, password: str) -> passwords.Checked:
    """:func:`~roppyakken.server.people.passwords.check` off the event loop (argon2 takes a while)."""
    return await asyncio.to_thread(passwords.check, stored, password)


async def signed_in(request: Request, *, change: bool) -> players.Player:
    """The signed-in player (401 if none); for a change, after the CSRF check."""
    player = await identity.current(request)
    if change:
        identity.check_change(request, player)
    if player is None or player.account_id is None:
        raise ApiError(401, text.NOT_SIGNED_IN)
    return player


# --- signing in ----------------------------------------------------------------------------------


async def refuse_suspended(
    request: Request, account_id: str | None = None, player_id: str | None = None
) -> None:
    """Raise the refusal (403) if the account, any of its players, the player or the request's address
    is suspended (server/people/moderation.py).  Sign-in asks it only once the account is proven (password or
    passkey checked), so a suspension tells nothing about accounts to whoever does not hold one."""
    address = client_address(request.scope)
    found = await identity.database(request).run(
        lambda c: moderation.suspended(c, account_id=account_id, player_id=player_id, address=address)
    )
    if found is not None:
        raise enforcement.suspension_barred(found)


async def sign_in(
    request: Request,
    account_id: str,
    *,
    status_code: int = 200,
    codes: list[str] | None = None,
    codes_left: int | None = None,
) -> JSONResponse:
    """Sign the browser in as the account (:func:`~roppyakken.server.people.accounts.sign_in`):
    ``/api/me``'s answer (with a new account's recovery ``codes``, or the ``codes_left`` after one
    was used), with the session cookie and a device cookie
    (server/people/recovery.py) set; refused if the account is suspended (:func:`refuse_suspended`)."""
    await refuse_suspended(request, account_id)
    old = identity.session_token(request)
    cookie = request.cookies.get(players.COOKIE)
    current_device = identity.device_token(request)
    address = client_address(request.scope)
    agent = request.headers.get("user-agent")
    now = time.time()
    done = await identity.database(request).run(
        lambda c: accounts.sign_in(
            c,
            account_id,
            old_token=old,
            guest_cookie=cookie,
            device=current_device,
            now=now,
            address=address,
            agent=agent,
        )
    )
    answer = me_answer(done.player, done.login)
    if codes is not None:
        answer["recovery_codes"] = codes
    if codes_left is not None:
        answer["recovery_codes_left"] = codes_left
    response = no_store(answer, status_code)
    identity.set_session_cookie(response, request, done.token)
    identity.set_device_cookie(response, request, done.device)
    return response


# --- rate limits -------------------------------------------------------------------------------


async def _take(limiter: RateLimiter, key: str, attempts: float) -> float:
    return await take_token(limiter, key, attempts / accounts.WINDOW_MINUTES, attempts)


async def check_attempt(request: Request, *keys: str | None) -> None:
    """Count one password attempt from this address, then in each bucket of ``keys`` in turn (a
    sign-in name's, a name's from this address, a trusted browser's or an account's:
    server/people/accounts.py), each of :data:`~roppyakken.server.people.accounts.LOGIN_ATTEMPTS`:
    429 with ``Retry-After`` and one line at the first one past its limit."""
    limiter = app_limiter(request.app, "signin_limiter")
    wait = await _take(limiter, f"signin-addr:{client_address(request.scope)}", accounts.ADDRESS_ATTEMPTS)
    for key in keys:
        if wait:
            break
        if key is not None:
            wait = await _take(limiter, key, accounts.LOGIN_ATTEMPTS)
    if wait:
        seconds = 3600 if math.isinf(wait) else max(1, math.ceil(wait))
        raise Limited(seconds)


class Limited(ApiError):
    """Too many sign-in attempts: 429, with the seconds to wait."""

    def __init__(self, seconds: int) -> None:
        super().__init__(429, text.SIGN_IN_LIMITED, minutes=max(1, math.ceil(seconds / 60)))
        self.seconds = seconds


async def handle_limited(request: Request, exc: Exception) -> Response:
    """:class:`Limited` as a 429 ``{"error"}`` answer with ``Retry-After``."""
    seconds = exc.seconds if isinstance(exc, Limited) else 60
    said = exc if isinstance(exc, Limited) else str(exc)
    return JSONResponse(wording.answer(said), status_code=429, headers={"Retry-After": str(seconds)})


# --- handlers ----------------------------------------------------------------------------------


async def start_session(request: Request) -> Response:
    """``POST /api/session`` ``{"login", "password"}``: sign in (a new session; the old one ended)."""
    identity.check_change(request, await identity.current(request))
    data = await read_body(request)
    raw_login = text_field(data, "login")
    password = text_field(data, "password")
    assert raw_login is not None and password is not None
    typed = accounts.typed_name(raw_login)
    address = client_address(request.scope)
    device = identity.device_token(request)
    now = time.time()
    db = identity.database(request)

    def look(conn: Any) -> tuple[AccountRow | None, bool]:
        found = accounts.find_login(conn, raw_login)
        trusted = found is not None and recovery.device_account(conn, device, now) == found.id
        return found, trusted

    row, trusted = await db.run(look)
    if trusted and device is not None:
        await check_attempt(request, recovery.device_bucket(device))
    else:
        await check_attempt(request, accounts.pair_bucket(typed, address), accounts.name_bucket(typed))
    stored = None if row is None else row.password_hash
    checked = await check_password(stored, password)
    if row is None or checked is passwords.Checked.WRONG:
        raise ApiError(401, text.SIGN_IN_FAILED)
    if checked is passwords.Checked.RIGHT_REHASH:
        fresh = await asyncio.to_thread(passwords.make, password)
        account_id = row.id
        await db.run(lambda c: accounts.set_password(c, account_id, fresh))
    return await sign_in(request, row.id)


async def end_session(request: Request) -> Response:
    """``DELETE /api/session``: sign out (this browser's session ends; its cookie is cleared)."""
    player = await identity.current(request)
    identity.check_change(request, player)
    token = identity.session_token(request)
    if token is not None:
        await identity.database(request).run(lambda c: sessions.end(c, token))
    response = no_store(answers.signed_out())
    identity.clear_session_cookie(response, request)
    return response


async def list_sessions(request: Request) -> Response:
    """``GET /api/sessions``: the account's sessions (id, times, address, browser, this one)."""
    player = await signed_in(request, change=False)
    account_id = str(player.account_id)
    mine = sessions.hash_token(player.secret)
    found = await identity.database(request).run(lambda c: sessions.listing(c, account_id, mine))
    return no_store(answers.sessions(found))


async def end_all_sessions(request: Request) -> Response:
    """``DELETE /api/sessions``: sign out everywhere (every session of the account, this one too)."""
    player = await signed_in(request, change=True)
    account_id = str(player.account_id)
    ended = await identity.database(request).run(lambda c: sessions.end_all(c, account_id))
    response = no_store(answers.signed_out(ended))
    identity.clear_session_cookie(response, request)
    return response


async def end_one_session(request: Request) -> Response:
    """``DELETE /api/sessions/<id>``: end one session of the account (its id from the list)."""
    player = await signed_in(request, change=True)
    account_id = str(player.account_id)
    wanted = str(request.path_params["session"])
    if not sessions.valid_id(wanted):
        raise ApiError(404, text.NO_SESSION)
    if not await identity.database(request).run(lambda c: sessions.end_listed(c, account_id, wanted)):
        raise ApiError(404, text.NO_SESSION)
    return no_store(answers.session_ended())
