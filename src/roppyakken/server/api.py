"""The HTTP JSON API of docs/PROTOCOL.md: presets, bots, rooms, finished games and records, scoring.

Every error is a 4xx answer ``{"error": "one line"}``; nothing here ever shows
a seat token other than to the client that takes the seat.
"""

from __future__ import annotations

import json
from typing import Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.ai.base import BOT_LEVELS
from roppyakken.documents import score_document
from roppyakken.rules import PRESETS, preset
from roppyakken.server import requests, storage, text
from roppyakken.server.hub import Hub
from roppyakken.server.rooms import Room
from roppyakken.text import PRESET_DESCRIPTIONS

MAX_BODY: Final = 65_536
GAMES_LIMIT: Final = 50
GAMES_LIMIT_MAX: Final = 500


class ApiError(Exception):
    """An HTTP error answer: status and one line."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def error_response(status: int, message: str) -> JSONResponse:
    """``{"error": message}`` with ``status``."""
    return JSONResponse({"error": message}, status_code=status)


def _hub(request: Request) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _body(request: Request) -> dict[str, Any]:
    raw = await request.body()
    if len(raw) > MAX_BODY:
        raise ApiError(413, text.BODY_TOO_LARGE)
    try:
        data = json.loads(raw or b"{}")
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
        raise ApiError(400, text.BODY_NOT_JSON) from None
    if not isinstance(data, dict):
        raise ApiError(400, text.BODY_NOT_OBJECT)
    return data


async def _room(request: Request) -> Room:
    room_id = str(request.path_params["room"])
    room = await _hub(request).get(room_id)
    if room is None:
        raise ApiError(404, text.NO_ROOM.format(room=room_id))
    return room


async def list_presets(request: Request) -> Response:
    """``GET /api/presets``."""
    out = []
    for name in PRESETS:
        rules = preset(name)
        out.append(
            {
                "name": name,
                "description": PRESET_DESCRIPTIONS.get(name, ""),
                "players": list(rules.players),
                "options": rules.options(),
            }
        )
    return JSONResponse({"presets": out})


async def list_bots(request: Request) -> Response:
    """``GET /api/bots``."""
    return JSONResponse({"bots": [{"level": lv, "description": d} for lv, (_, d) in BOT_LEVELS.items()]})


async def create_room(request: Request) -> Response:
    """``POST /api/rooms``: the creator gets seat 0 and its token."""
    data = await _body(request)
    room, token = await _hub(request).create(requests.create_room(data))
    return JSONResponse(
        {"room": room.id, "seat": 0, "token": token, "invite": f"/r/{room.id}"},
        status_code=201,
    )


async def join_room(request: Request) -> Response:
    """``POST /api/rooms/<room>/join``: the first empty seat and its token (409 if none)."""
    data = await _body(request)
    name = requests.join_room(data)
    room = await _room(request)
    joined = await room.join(name)
    if joined is None:
        message = text.ROOM_STARTED if room.status != "waiting" else text.ROOM_FULL
        raise ApiError(409, message.format(room=room.id))
    seat, token = joined
    return JSONResponse({"room": room.id, "seat": seat, "token": token})


async def room_info(request: Request) -> Response:
    """``GET /api/rooms/<room>``."""
    room = await _room(request)
    return JSONResponse(room.info())


async def list_games(request: Request) -> Response:
    """``GET /api/games``: finished games, newest first (``?limit=N``)."""
    raw = request.query_params.get("limit", str(GAMES_LIMIT))
    if not raw.isdigit() or not 1 <= int(raw) <= GAMES_LIMIT_MAX:
        raise ApiError(
            400, text.FIELD_TYPE.format(field="limit", what=f"a number from 1 to {GAMES_LIMIT_MAX}")
        )
    limit = int(raw)
    games = await _hub(request).db.run(lambda c: storage.finished_games(c, limit))
    return JSONResponse({"games": games})


async def game_record(request: Request) -> Response:
    """``GET /api/games/<room>/record``: the FORMATS.md §3 record of a finished game, as a download."""
    room_id = str(request.path_params["room"])
    record = await _hub(request).db.run(lambda c: storage.game_record(c, room_id))
    if record is None:
        if await _hub(request).get(room_id) is None:
            raise ApiError(404, text.NO_ROOM.format(room=room_id))
        raise ApiError(404, text.NO_RECORD.format(room=room_id))
    safe = "".join(ch for ch in room_id if ch.isalnum() or ch in "-_")
    return Response(
        record,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="roppyakken-{safe}.json"'},
    )


async def score(request: Request) -> Response:
    """``POST /api/score``: FORMATS.md §1 input plus ``rules``; the §1 output."""
    data = await _body(request)
    rules, document = requests.score_request(data)
    return JSONResponse(score_document(rules, document).to_json())


async def handle_api_error(request: Request, exc: Exception) -> Response:
    """ApiError and RoppyakkenError (bad input) as ``{"error"}`` answers."""
    if isinstance(exc, ApiError):
        return error_response(exc.status, str(exc))
    return error_response(400, str(exc))
