"""Games played offline, uploaded to a profile: ``POST /api/me/offline-games`` and their lists.

A player (a guest or signed in) who played against bots in the browser without a network
uploads the game's record once back online.  The server believes nothing of it until
:func:`roppyakken.record.replay` has played it through the engine: a record that does not
replay, or whose game is not over, or that is not one person against bots, is refused with
one line.  What is stored is the record as the engine writes it again from the replayed game,
the person's seat named :data:`PERSON`: the record is served with the player's name as it is
then (so a renamed or erased player's offline games follow their name, as their rooms do).
Offline games are shown on the player's profile (``GET /api/players/<id>/offline-games``)
and are never rated.
"""

from __future__ import annotations

import hashlib
import json
import re
import secrets
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Connection, insert, select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.ai.base import BOT_LEVELS
from roppyakken.errors import RecordError
from roppyakken.i18n import N_
from roppyakken.record import dumps, record_of, replay
from roppyakken.server.store.tables import offline_games
from roppyakken.server.store.tables import players as players_table
from roppyakken.server.web import identity
from roppyakken.server.web.api import ApiError, read_json_object
from roppyakken.server.wire import text
from roppyakken.server.wire.answers import OfflineGame, OfflineGames, OfflineUploaded

MAX_RECORD_BYTES: Final = 512 * 1024
"""The largest upload (a long match's record is well under 100 KB)."""
LISTED: Final = 20
"""Offline games a profile lists (the latest)."""
BOT_PREFIX: Final = "bot:"
PERSON: Final = "player"
"""The person's seat name in a stored record (the player's name is put in when it is served)."""
NOT_REPLAYED: Final = N_("this record does not replay: {error}")
NOT_OVER: Final = N_("this record's game is not over")
NOT_AGAINST_BOTS: Final = N_("an offline game is one player against bots")
NO_RECORD: Final = N_("send the record as 'record'")
_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")


def checked(record: Any) -> tuple[dict[str, Any], int, list[str]]:
    """The record as the engine writes it again after replaying it (the person's seat named
    :data:`PERSON`), the person's seat and the bots' levels; :class:`ApiError` (400) if it does
    not replay, is not over, or is not one person against bots."""
    if not isinstance(record, dict):
        raise ApiError(400, NO_RECORD)
    try:
        game, names = replay(record)
    except RecordError as exc:
        raise ApiError(400, NOT_REPLAYED, error=exc) from None
    if not game.over:
        raise ApiError(400, NOT_OVER)
    people = [i for i, name in enumerate(names) if not name.startswith(BOT_PREFIX)]
    levels = [name[len(BOT_PREFIX) :] for name in names if name.startswith(BOT_PREFIX)]
    if len(people) != 1 or not all(level in BOT_LEVELS for level in levels):
        raise ApiError(400, NOT_AGAINST_BOTS)
    seat = people[0]
    names[seat] = PERSON
    return record_of(game, names), seat, levels


def _store(conn: Connection, row: dict[str, Any]) -> tuple[str, bool]:
    """Insert ``row`` unless the player uploaded the same record before: (its id, whether new)."""
    found = conn.execute(
        select(offline_games.c.id).where(
            offline_games.c.player_id == row["player_id"], offline_games.c.digest == row["digest"]
        )
    ).scalar()
    if found is not None:
        return str(found), False
    conn.execute(insert(offline_games).values(**row))
    return str(row["id"]), True


async def upload(request: Request) -> Response:
    """``POST /api/me/offline-games`` ``{"record": ...}``: 201 ``{"id", "profile", "record"}``
    (200 if this player uploaded that game before)."""
    data = await read_json_object(request, MAX_RECORD_BYTES)
    player = await identity.acting(request)
    if player is None:
        raise ApiError(401, text.NO_PLAYER)
    record, seat, levels = checked(data.get("record"))
    stored = dumps(record)
    rounds = record["rounds"]
    totals = rounds[-1].get("totals") if rounds and isinstance(rounds[-1], dict) else None
    row = {
        "id": secrets.token_urlsafe(12),
        "player_id": player.id,
        "uploaded_at": datetime.now(UTC),
        "digest": hashlib.sha256(stored.encode()).hexdigest(),
        "preset": str(record["rules"]["preset"]),
        "players": len(record["players"]),
        "seat": seat,
        "opponents": json.dumps(levels),
        "winner": record["winner"],
        "rounds": len(rounds),
        "totals": json.dumps(totals if isinstance(totals, list) else []),
        "record": stored,
    }
    game_id, new = await identity.database(request).run(lambda c: _store(c, row))
    answer = OfflineUploaded(
        id=game_id, profile=f"/#/player/{player.id}", record=f"/api/offline-games/{game_id}/record"
    )
    return JSONResponse(answer, status_code=201 if new else 200)


def _listed(conn: Connection, player_id: str) -> list[OfflineGame]:
    rows = conn.execute(
        select(offline_games)
        .where(offline_games.c.player_id == player_id)
        .order_by(offline_games.c.uploaded_at.desc())
        .limit(LISTED)
    ).mappings()
    return [
        OfflineGame(
            id=r["id"],
            uploaded_at=r["uploaded_at"].replace(tzinfo=UTC).isoformat().replace("+00:00", "Z"),
            preset=r["preset"],
            players=r["players"],
            seat=r["seat"],
            opponents=json.loads(r["opponents"]),
            winner=r["winner"],
            won=r["winner"] == r["seat"],
            rounds=r["rounds"],
            totals=json.loads(r["totals"]),
            rated=False,
            record=f"/api/offline-games/{r['id']}/record",
        )
        for r in rows
    ]


async def player_offline_games(request: Request) -> Response:
    """``GET /api/players/<id>/offline-games``: the player's latest uploaded offline games."""
    player_id = str(request.path_params["player"])
    if not _ID.fullmatch(player_id):
        raise ApiError(404, text.NO_PLAYER_ID, player=player_id[:40])
    games = await identity.database(request).run(lambda c: _listed(c, player_id))
    return JSONResponse(OfflineGames(games=games), headers={"Cache-Control": "private, no-cache"})


async def offline_record(request: Request) -> Response:
    """``GET /api/offline-games/<id>/record``: an uploaded offline game's record."""
    game_id = str(request.path_params["game"])
    found = None
    if _ID.fullmatch(game_id):
        query = (
            select(offline_games.c.record, offline_games.c.seat, players_table.c.name)
            .join(players_table, players_table.c.id == offline_games.c.player_id)
            .where(offline_games.c.id == game_id)
        )
        found = await identity.database(request).run(lambda c: c.execute(query).first())
    if found is None:
        raise ApiError(404, text.NOT_FOUND)
    record = json.loads(found.record)
    record["players"][found.seat] = found.name
    return Response(dumps(record), media_type="application/json")
