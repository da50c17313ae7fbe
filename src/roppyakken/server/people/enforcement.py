"""Where fair play and moderation are enforced: taking a seat, seeking a rated game, and admission.

- a suspended address is refused every HTTP request and websocket
  (server/web/fair_play.py: 403 with :func:`address_barred`'s line; a websocket is told
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

import math
import time
from typing import Any

from roppyakken.errors import RoppyakkenError
from roppyakken.server.config import Limits
from roppyakken.server.people import moderation, playban
from roppyakken.server.people.moderation import SUSPEND, Sanction
from roppyakken.server.people.players import Player
from roppyakken.server.store.database import Database
from roppyakken.server.wire import text, wording


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


async def current_playban(db: Database, limits: Limits, player_id: str) -> playban.Playban | None:
    """The player's playban in effect now (read from the database), or None."""
    now, scale = time.time(), limits.clock_scale
    found: playban.Playban | None = await db.run(lambda c: playban.current(c, player_id, now, scale))
    return found


async def may_play_rated(db: Database, limits: Limits, player: Player | None) -> None:
    """Refuse (:class:`Barred`) a seat in a rated game to a player under a playban, and to a guest
    when only accounts play rated games (making a rated room calls this before making it)."""
    if limits.rated_accounts_only and (player is None or player.account_id is None):
        raise Barred(text.RATED_ACCOUNTS_ONLY)
    if player is None:
        return
    ban = await current_playban(db, limits, player.id)
    if ban is not None:
        raise playban_barred(ban, time.time())


async def may_seek(db: Database, limits: Limits, player: Player) -> None:
    """Refuse (:class:`Barred`) a suspended player or one under a playban entering quick pairing."""
    suspension = await moderation.cache_for(db).find(SUSPEND, player_id=player.id)
    if suspension is not None:
        raise suspension_barred(suspension)
    await may_play_rated(db, limits, player)


async def may_take_seat(db: Database, limits: Limits, player: Player | None, room_id: str | None) -> bool:
    """Refuse (:class:`Barred`) a suspended player making (``room_id`` None) or joining a room, and a
    player under a playban (or a guest, when only accounts play rated games) joining a rated room;
    whether the room joined is rated (False when making one, or without a player)."""
    if player is None and not limits.rated_accounts_only:
        return False
    if player is not None:
        suspension = await moderation.cache_for(db).find(SUSPEND, player_id=player.id)
        if suspension is not None:
            raise suspension_barred(suspension)
    if room_id is None:
        return False
    rated: bool = await db.run(lambda c: playban.room_rated(c, room_id))
    if rated:
        await may_play_rated(db, limits, player)
    return rated
