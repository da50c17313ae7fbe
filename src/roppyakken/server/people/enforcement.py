"""Where fair play and moderation are enforced: taking a seat, seeking a rated game, and admission.

- a suspended address is refused every HTTP request and websocket
  (:class:`AddressBans`, ASGI middleware: 403 with one line; a websocket is told
  the line in an ``error`` and closed with 1008);
- a suspended player (or a player of a suspended account) may not make or join a
  room nor seek a game (:func:`may_take_seat`, :func:`may_seek`);
- a player under a playban (server/people/playban.py) may not seek a game in quick
  pairing (every paired game is rated) nor take a seat in a rated room;
- with ``serve --rated-accounts-only`` (``Limits.rated_accounts_only``), neither may a
  guest (a player not signed in to an account, or a request without a player).

Refusals are :class:`Barred`: a template and its fields, which the browser says in its
reader's language (server/wire/wording.py), and structured fields (``playban``, ``sanction``).
Sanctions come from the server's cache (at most
:data:`~roppyakken.server.people.moderation.REFRESH` seconds old); playbans are read from the
database each time (a seek or a join).
"""

from __future__ import annotations

import json
import math
import time
from typing import TYPE_CHECKING, Any, Protocol

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.errors import RoppyakkenError
from roppyakken.server.addresses import Scope, client_address
from roppyakken.server.people import moderation, playban
from roppyakken.server.people.moderation import SUSPEND, Sanction
from roppyakken.server.web.guard import ASGIApp, Receive, Send
from roppyakken.server.wire import protocol, text, wording

if TYPE_CHECKING:
    from roppyakken.server.config import Limits
    from roppyakken.server.people.players import Player
    from roppyakken.server.store.database import Database


class Reach(Protocol):
    """What the checks read: the database and the bounds (server/web/services.py ``Services`` has them)."""

    db: Database
    limits: Limits


class Barred(RoppyakkenError):
    """A refusal by fair play or moderation: a template and its fields (said in each reader's
    language, server/wire/wording.py), the HTTP status, and structured fields (``playban``,
    ``sanction``)."""

    status = 403

    def __init__(self, message: object, extra: dict[str, Any] | None = None, /, **fields: object) -> None:
        super().__init__(message, **fields)
        self.extra = extra or {}

    def to_json(self) -> dict[str, Any]:
        """``{"error": line, "text": {template, fields}, ...structured fields}``."""
        return {**wording.answer(self), **self.extra}


def sanction_fields(sanction: Sanction) -> dict[str, Any]:
    """The ``sanction`` field of a refusal: its kind and end (None: until cleared)."""
    return {"sanction": {"kind": sanction.kind, "until": sanction.expires_at, "reason": sanction.reason}}


def suspension_barred(sanction: Sanction) -> Barred:
    """The refusal of a suspended player or account."""
    template, fields = moderation.worded(sanction, text.SUSPENDED, text.SUSPENDED_UNTIL)
    return Barred(template, sanction_fields(sanction), **fields)


def address_barred(sanction: Sanction) -> Barred:
    """The refusal of a suspended address."""
    template, fields = moderation.worded(sanction, text.ADDRESS_SUSPENDED, text.ADDRESS_SUSPENDED_UNTIL)
    return Barred(template, sanction_fields(sanction), **fields)


def playban_barred(ban: playban.Playban, now: float) -> Barred:
    """The refusal of a player under a playban."""
    wait = max(1, math.ceil(ban.left(now) / 60))
    return Barred(text.PLAYBAN, {"playban": ban.to_json(now)}, recent=ban.recent, wait=wait)


async def current_playban(hub: Reach, player_id: str) -> playban.Playban | None:
    """The player's playban in effect now (read from the database), or None."""
    now, scale = time.time(), hub.limits.clock_scale
    found: playban.Playban | None = await hub.db.run(lambda c: playban.current(c, player_id, now, scale))
    return found


async def may_play_rated(hub: Reach, player: Player | None) -> None:
    """Refuse (:class:`Barred`) a seat in a rated game to a player under a playban, and to a guest
    when only accounts play rated games (making a rated room calls this before making it)."""
    if hub.limits.rated_accounts_only and (player is None or player.account_id is None):
        raise Barred(text.RATED_ACCOUNTS_ONLY)
    if player is None:
        return
    ban = await current_playban(hub, player.id)
    if ban is not None:
        raise playban_barred(ban, time.time())


async def may_seek(hub: Reach, player: Player) -> None:
    """Refuse (:class:`Barred`) a suspended player or one under a playban entering quick pairing."""
    suspension = await moderation.cache_for(hub.db).find(SUSPEND, player_id=player.id)
    if suspension is not None:
        raise suspension_barred(suspension)
    await may_play_rated(hub, player)


async def may_take_seat(hub: Reach, player: Player | None, room_id: str | None) -> bool:
    """Refuse (:class:`Barred`) a suspended player making (``room_id`` None) or joining a room, and a
    player under a playban (or a guest, when only accounts play rated games) joining a rated room;
    whether the room joined is rated (False when making one, or without a player)."""
    if player is None and not hub.limits.rated_accounts_only:
        return False
    if player is not None:
        suspension = await moderation.cache_for(hub.db).find(SUSPEND, player_id=player.id)
        if suspension is not None:
            raise suspension_barred(suspension)
    if room_id is None:
        return False
    rated: bool = await hub.db.run(lambda c: playban.room_rated(c, room_id))
    if rated:
        await may_play_rated(hub, player)
    return rated


async def handle_barred(request: Request, exc: Exception) -> Response:
    """:class:`Barred` as its HTTP answer."""
    assert isinstance(exc, Barred)
    return JSONResponse(exc.to_json(), status_code=exc.status)


class AddressBans:
    """ASGI middleware: a suspended address gets 403 (HTTP) or an ``error`` and a close (websocket)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Refuse a suspended address, else pass the request on."""
        kind = scope["type"]
        hub = getattr(getattr(scope.get("app"), "state", None), "services", None)
        if kind not in ("http", "websocket") or hub is None:
            await self.app(scope, receive, send)
            return
        address = client_address(scope)
        sanction = await moderation.cache_for(hub.db).find(SUSPEND, address=address)
        if sanction is None:
            await self.app(scope, receive, send)
            return
        barred = address_barred(sanction)
        if kind == "websocket":
            if (await receive())["type"] != "websocket.connect":
                return
            await send({"type": "websocket.accept"})
            await send({"type": "websocket.send", "text": protocol.error(barred, None, barred.extra)})
            await send({"type": "websocket.close", "code": 1008, "reason": str(barred)[:120]})
            return
        data = json.dumps(barred.to_json()).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
        await send({"type": "http.response.start", "status": 403, "headers": headers})
        await send({"type": "http.response.body", "body": data})
