"""``GET /api/me/ratings``: the player's ratings in every pool, with the bot level nearest each."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.server.club.ratings import store
from roppyakken.server.club.ratings.pools import FAMILIES
from roppyakken.server.web import identity
from roppyakken.server.wire import answers


async def my_ratings(request: Request) -> Response:
    """The cookie's player's ratings (:func:`~.store.standing`); a newcomer's without a cookie."""
    player = await identity.current(request)
    db = identity.database(request)
    player_id = None if player is None else player.id
    standing = await db.run(lambda c: store.standing(c, player_id))
    return JSONResponse(answers.ratings(player_id, standing, dict(FAMILIES)))
