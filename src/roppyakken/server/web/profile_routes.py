"""The HTTP API of leaderboards and profiles (server/club/profiles.py): ``GET /api/leaderboard/<pool>`` and
``GET /api/players/<id>``.

A leaderboard is the same for everyone, so shared caches may keep it a minute; a profile's
list of recent games depends on who asks (their private games), so only the asker's
browser may keep it, and must ask again before using it.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from typing import Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.errors import Phrase
from roppyakken.i18n import N_
from roppyakken.server.club import profiles
from roppyakken.server.club.ratings import POOLS
from roppyakken.server.web import identity
from roppyakken.server.web.api import ApiError
from roppyakken.server.wire import text

_PLAYER_ID: Final = re.compile(r"[A-Za-z0-9]{1,32}")
BOARD_CACHE: Final = "public, max-age=60"
PROFILE_CACHE: Final = "private, no-cache"


def _number(request: Request, field: str, default: int, top: int) -> int:
    """The query parameter ``field``: a whole number from 1 to ``top`` (``default`` if absent)."""
    raw = request.query_params.get(field)
    if raw is None:
        return default
    if not re.fullmatch(r"[0-9]{1,7}", raw) or not 1 <= int(raw) <= top:
        raise ApiError(
            400, text.FIELD_TYPE, field=field, what=Phrase(N_("a number from 1 to {max}"), max=top)
        )
    return int(raw)


async def get_leaderboard(request: Request) -> Response:
    """``GET /api/leaderboard/<pool>?page=N&size=M``: one page of a pool's leaderboard."""
    pool = str(request.path_params["pool"])
    if pool not in POOLS:
        raise ApiError(404, text.NO_POOL, pool=pool[:40], known=", ".join(POOLS))
    page = _number(request, "page", 1, profiles.MAX_PAGE)
    size = _number(request, "size", profiles.PAGE_SIZE, profiles.MAX_PAGE_SIZE)
    db = identity.database(request)
    now = datetime.now(UTC)
    board = await db.read(lambda c: profiles.leaderboard(c, pool, page, size, now))
    return JSONResponse(board, headers={"Cache-Control": BOARD_CACHE})


async def get_profile(request: Request) -> Response:
    """``GET /api/players/<id>``: a player's profile as the asker may see it."""
    player_id = str(request.path_params["player"])
    if not _PLAYER_ID.fullmatch(player_id):
        raise ApiError(404, text.NO_PLAYER_ID, player=player_id[:40])
    viewer = await identity.current(request)
    viewer_id = None if viewer is None else viewer.id
    db = identity.database(request)
    found = await db.read(
        lambda c: profiles.profile(c, player_id, viewer_id),
        own=viewer_id == player_id,
        missing=lambda answer: answer is None,
    )
    if found is None:
        raise ApiError(404, text.NO_PLAYER_ID, player=player_id)
    return JSONResponse(found, headers={"Cache-Control": PROFILE_CACHE, "Vary": "Cookie"})
