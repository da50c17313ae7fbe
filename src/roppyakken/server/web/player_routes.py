"""The player of this browser (docs/PROTOCOL.md), over server/people/players.py, guests.py and history.py.

=====================  ==========================================================================
``GET /api/me``        the player of the cookie and its CSRF token, and the account signed in
``POST /api/me``       ``{"name"}``: become a player (a new guest and its cookie), or change the
                       player's name
``GET /api/me/games``  the games of this browser's player; for an account, of every guest it
                       adopted
=====================  ==========================================================================

One address may make ``Limits.guests_per_hour`` guests (server/people/guests.py): past
it, 429 with ``Retry-After`` and one line.
"""

from __future__ import annotations

import math

from sqlalchemy import select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.errors import RoppyakkenError
from roppyakken.server.addresses import client_address
from roppyakken.server.limits import take_token
from roppyakken.server.people import guests, history, players
from roppyakken.server.people.guests import TooManyGuests
from roppyakken.server.store import tables
from roppyakken.server.web import api, identity
from roppyakken.server.web.guard import app_limiter
from roppyakken.server.wire import answers, bodies, wording


def me_answer(player: players.Player | None, login: str | None) -> answers.MeAnswer:
    """``/api/me``'s answer: the player, its CSRF token, and the account signed in (or null)."""
    if player is None:
        return answers.me(None, None, None, None)
    return answers.me(player.public(), player.csrf, player.account_id, login)


async def _me(request: Request, player: players.Player | None) -> answers.MeAnswer:
    """:func:`me_answer` for ``player``, its account's sign-in name read from the database."""
    if player is None or player.account_id is None:
        return me_answer(player, None)
    query = select(tables.accounts.c.login).where(tables.accounts.c.id == player.account_id)
    login = await identity.database(request).run(lambda c: c.execute(query).scalar())
    return me_answer(player, None if login is None else str(login))


async def may_create(request: Request) -> None:
    """Count one new guest of the request's address; :class:`~roppyakken.server.people.guests.TooManyGuests`
    past the bound."""
    refill, burst = guests.bucket(float(request.app.state.services.limits.guests_per_hour))
    limiter = app_limiter(request.app, "guest_limiter")
    wait = await take_token(limiter, f"guest:{client_address(request.scope)}", refill, burst)
    if wait:
        raise TooManyGuests(3600 if math.isinf(wait) else max(1, math.ceil(wait)))


async def handle_too_many(request: Request, exc: Exception) -> Response:
    """:class:`~roppyakken.server.people.guests.TooManyGuests` as a 429 ``{"error"}`` answer with
    ``Retry-After``."""
    seconds = exc.seconds if isinstance(exc, TooManyGuests) else 3600
    headers = {"Retry-After": str(seconds)}
    return JSONResponse(wording.answer(exc if isinstance(exc, RoppyakkenError) else str(exc)), 429, headers)


async def get_me(request: Request) -> Response:
    """``GET /api/me``: the player of the cookie and its CSRF token, and the account signed in (or
    nulls: no cookie yet, not signed in)."""
    answer = await _me(request, await identity.current(request))
    response = JSONResponse(answer, headers={"Cache-Control": "no-store"})
    identity.mark_browser(response, request)
    return response


async def post_me(request: Request) -> Response:
    """``POST /api/me`` ``{"name"}``: become a player (a new cookie), or change the player's name."""
    player = await identity.current(request)
    identity.check_change(request, player)
    name = bodies.me(await api.read_body(request))
    db = identity.database(request)
    if player is None:
        await may_create(request)
        made = await db.run(lambda c: players.create(c, name))
        response = JSONResponse(
            await _me(request, made), status_code=201, headers={"Cache-Control": "no-store"}
        )
        identity.set_player_cookie(response, request, made)
        identity.mark_browser(response, request)
        return response
    known = player
    renamed = await db.run(lambda c: players.rename(c, known, name))
    response = JSONResponse(await _me(request, renamed), headers={"Cache-Control": "no-store"})
    identity.mark_browser(response, request)
    return response


async def my_history(request: Request) -> Response:
    """``GET /api/me/games``: the games of this browser's player; for an account, of all its guests."""
    player = await identity.current(request)
    if player is None:
        return JSONResponse(answers.player_games([]), headers={"Cache-Control": "no-store"})
    known = player
    games = await identity.database(request).read(
        lambda c: history.player_games(c, known.id, known.account_id), own=True
    )
    return JSONResponse(answers.player_games(games), headers={"Cache-Control": "no-store"})
