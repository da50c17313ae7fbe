"""Clubs (docs/PROTOCOL.md, "Clubs"), over server/club/clubs.py.

==============================================  ==================================================
``GET /api/clubs?q=``                           public clubs (by name), the asker's, its invitations
``POST /api/clubs``                             make one (its creator owns it)
``GET /api/clubs/<club>``                       its page: members and ratings, leaderboards, requests
``POST /api/clubs/<club>/join``                 join, ask to join, or accept an invitation
``POST /api/clubs/<club>/leave``                leave
``POST /api/clubs/<club>/invite``               ``{"player"}``: a leader invites
``POST /api/clubs/<club>/accept``               ``{"player"}``: a leader accepts a request
``POST /api/clubs/<club>/decline``              ``{"player"}``: a request or invitation declined
``POST /api/clubs/<club>/remove``               ``{"player"}``: a leader removes a member
``POST /api/clubs/<club>/role``                 ``{"player", "role"}``: the owner's changes of roles
``POST /api/clubs/<club>/settings``             description, language, admission, privacy (leaders)
``GET /api/clubs/<club>/chat``                  the newest lines (members)
``POST /api/clubs/<club>/chat``                 ``{"text"}``: post a line (members)
``POST /api/clubs/<club>/chat/<line>/hide``     a leader hides a line
``POST /api/clubs/<club>/chat/<line>/report``   ``{"reason"}``: a member reports a line
==============================================  ==================================================

Reading needs no account (a private club exists only for its members and those it invited);
every change needs one, the ``X-CSRF-Token`` header and a same-site origin (server/web/identity.py).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any, Final, TypeVar

from sqlalchemy import Connection
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.server.addresses import client_address
from roppyakken.server.club import clubs
from roppyakken.server.club.clubs import ClubRefused
from roppyakken.server.club.tournaments import view as tournament_view
from roppyakken.server.config import Limits
from roppyakken.server.people import moderation
from roppyakken.server.store.database import StaleRoom
from roppyakken.server.web import api, identity
from roppyakken.server.web.session_routes import signed_in
from roppyakken.server.wire import answers, bodies, text

T = TypeVar("T")

_CLUB_ID: Final = re.compile(r"[A-Za-z0-9]{1,16}")
_LINE_ID: Final = re.compile(r"[0-9]{1,12}")
MAX_QUERY: Final = 64
"""Characters of a search looked at."""
NO_STORE: Final = {"Cache-Control": "no-store"}


def _limits(request: Request) -> Limits:
    limits: Limits = request.app.state.services.limits
    return limits


def _club_id(request: Request) -> str:
    club_id = str(request.path_params["club"])
    if not _CLUB_ID.fullmatch(club_id):
        raise api.ApiError(404, text.CLUB_NONE, club=club_id[:40])
    return club_id


def _line_id(request: Request) -> int:
    line = str(request.path_params["line"])
    if not _LINE_ID.fullmatch(line):
        raise api.ApiError(404, text.CLUB_NO_LINE, line=line[:20])
    return int(line)


async def _run(request: Request, op: Callable[[Connection], T | ClubRefused]) -> T:
    """``op``'s result, or its refusal as an error answer."""
    done = await identity.database(request).run(op)
    if isinstance(done, ClubRefused):
        raise api.ApiError(done.status, done.template, **done.fields)
    return done


async def _viewer(request: Request) -> str | None:
    player = await identity.current(request)
    return None if player is None or player.account_id is None else player.id


async def _actor(request: Request) -> str:
    """The signed-in player making a change (401 without an account; CSRF checked)."""
    player = await signed_in(request, change=True)
    return player.id


async def _body(request: Request) -> dict[str, Any]:
    data: dict[str, Any] = await api.read_body(request)
    return data


async def list_clubs(request: Request) -> Response:
    """``GET /api/clubs?q=``: public clubs whose name contains ``q``, the asker's clubs and invitations."""
    query = request.query_params.get("q", "")[:MAX_QUERY]
    viewer = await _viewer(request)
    found = await identity.database(request).run(lambda c: clubs.listing(c, viewer, query))
    return JSONResponse(found, headers={"Cache-Control": "private, no-cache", "Vary": "Cookie"})


async def create_club(request: Request) -> Response:
    """``POST /api/clubs`` ``{"name", "description", "language", "admission", "private"}`` (201)."""
    owner = await _actor(request)
    body = bodies.club_body(bodies.CreateClubBody, await _body(request))
    limits, now = _limits(request), time.time()
    try:
        made = await _run(
            request,
            lambda c: clubs.create(
                c,
                owner,
                body.name,
                body.description,
                body.language,
                body.admission,
                body.private,
                now,
                limits,
            ),
        )
    except StaleRoom:  # the same name taken at the same moment (the unique index)
        raise api.ApiError(409, text.CLUB_NAME_TAKEN) from None
    return JSONResponse(answers.ClubCreated(club=made), status_code=201, headers=NO_STORE)


async def get_club(request: Request) -> Response:
    """``GET /api/clubs/<club>``: the club's page as the asker sees it."""
    club_id = _club_id(request)
    viewer = await _viewer(request)
    found = await _run(request, lambda c: clubs.page(c, club_id, viewer, tournament_view.of_club))
    return JSONResponse(found, headers={"Cache-Control": "private, no-cache", "Vary": "Cookie"})


async def join_club(request: Request) -> Response:
    """``POST /api/clubs/<club>/join``: join, ask to join, or accept an invitation."""
    club_id, actor = _club_id(request), await _actor(request)
    limits, now = _limits(request), time.time()
    done = await _run(request, lambda c: clubs.join(c, club_id, actor, now, limits))
    return JSONResponse(done, headers=NO_STORE)


async def leave_club(request: Request) -> Response:
    """``POST /api/clubs/<club>/leave``."""
    club_id, actor = _club_id(request), await _actor(request)
    done = await _run(request, lambda c: clubs.leave(c, club_id, actor))
    return JSONResponse(done, headers=NO_STORE)


async def _player_change(
    request: Request,
    change: Callable[[Connection, str, str, str, float, Limits], answers.ClubChanged | ClubRefused],
) -> Response:
    club_id, actor = _club_id(request), await _actor(request)
    player = bodies.club_body(bodies.ClubPlayerBody, await _body(request)).player
    limits, now = _limits(request), time.time()
    done = await _run(request, lambda c: change(c, club_id, actor, player, now, limits))
    return JSONResponse(done, headers=NO_STORE)


async def invite(request: Request) -> Response:
    """``POST /api/clubs/<club>/invite`` ``{"player"}``."""
    return await _player_change(request, clubs.invite)


async def accept(request: Request) -> Response:
    """``POST /api/clubs/<club>/accept`` ``{"player"}``."""
    return await _player_change(request, clubs.accept)


async def decline(request: Request) -> Response:
    """``POST /api/clubs/<club>/decline`` ``{"player"}``."""
    return await _player_change(
        request, lambda c, club, actor, player, _n, _l: clubs.decline(c, club, actor, player)
    )


async def remove(request: Request) -> Response:
    """``POST /api/clubs/<club>/remove`` ``{"player"}``."""
    return await _player_change(
        request, lambda c, club, actor, player, _n, _l: clubs.remove(c, club, actor, player)
    )


async def set_role(request: Request) -> Response:
    """``POST /api/clubs/<club>/role`` ``{"player", "role"}``."""
    club_id, actor = _club_id(request), await _actor(request)
    body = bodies.club_body(bodies.ClubRoleBody, await _body(request))
    limits = _limits(request)
    done = await _run(request, lambda c: clubs.set_role(c, club_id, actor, body.player, body.role, limits))
    return JSONResponse(done, headers=NO_STORE)


async def settings(request: Request) -> Response:
    """``POST /api/clubs/<club>/settings`` ``{"description"?, "language"?, "admission"?, "private"?}``."""
    club_id, actor = _club_id(request), await _actor(request)
    body = bodies.club_body(bodies.ClubSettingsBody, await _body(request))
    done = await _run(
        request,
        lambda c: clubs.settle(
            c, club_id, actor, body.description, body.language, body.admission, body.private
        ),
    )
    return JSONResponse(done, headers=NO_STORE)


async def read_chat(request: Request) -> Response:
    """``GET /api/clubs/<club>/chat``: the newest lines (the club page asks again every few seconds)."""
    club_id = _club_id(request)
    viewer = await _viewer(request)
    lines = await _run(request, lambda c: clubs.chat(c, club_id, viewer))
    return JSONResponse(answers.ClubChat(lines=lines), headers=NO_STORE)


async def post_chat(request: Request) -> Response:
    """``POST /api/clubs/<club>/chat`` ``{"text"}`` (201): the line as stored."""
    club_id, actor = _club_id(request), await _actor(request)
    line = bodies.club_body(bodies.ClubChatBody, await _body(request)).text
    mute = await moderation.cache_for(identity.database(request)).find(moderation.MUTE, player_id=actor)
    if mute is not None:
        template, fields = moderation.worded(mute, text.MUTED, text.MUTED_UNTIL)
        raise api.ApiError(403, template, **fields)
    limits, now = _limits(request), round(time.time(), 3)
    posted = await _run(request, lambda c: clubs.post(c, club_id, actor, line, now, limits))
    return JSONResponse(posted, status_code=201, headers=NO_STORE)


async def hide_line(request: Request) -> Response:
    """``POST /api/clubs/<club>/chat/<line>/hide``: gone for everyone."""
    club_id, line = _club_id(request), _line_id(request)
    actor = await _actor(request)
    hidden = await _run(request, lambda c: clubs.hide(c, club_id, actor, line))
    return JSONResponse(answers.ClubLineHidden(hidden=hidden), headers=NO_STORE)


async def report_line(request: Request) -> Response:
    """``POST /api/clubs/<club>/chat/<line>/report`` ``{"reason"}`` (201)."""
    club_id, line = _club_id(request), _line_id(request)
    actor = await _actor(request)
    reason = bodies.club_body(bodies.ClubReportBody, await _body(request)).reason
    address, now = client_address(request.scope), time.time()
    made = await _run(request, lambda c: clubs.report(c, club_id, actor, address, line, reason, now))
    return JSONResponse(answers.report_filed(made), status_code=201, headers=NO_STORE)
