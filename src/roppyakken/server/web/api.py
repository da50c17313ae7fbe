"""The HTTP JSON API of docs/PROTOCOL.md: presets, bots, rooms, finished games and records, scoring.

Every error is a 4xx answer ``{"error": "one line", "text": {"template", "fields"}}`` (the
line in English, and as a template for the client to say in its language: server/wire/wording.py);
nothing here ever shows
a seat token other than to the client that takes the seat.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, Any, Final

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.ai.base import BOT_LEVELS
from roppyakken.documents import score_document
from roppyakken.errors import Phrase, RoppyakkenError
from roppyakken.i18n import N_
from roppyakken.rules import PRESETS, preset
from roppyakken.server.club import listings, open_tables
from roppyakken.server.people import blocks, enforcement, players
from roppyakken.server.play.room import hash_token
from roppyakken.server.store import room_store
from roppyakken.server.web import identity
from roppyakken.server.wire import answers, bodies, jsonsafe, text, wording
from roppyakken.server.wire.member import InfoCall, JoinCall, Joined, Refused, RoomInfo
from roppyakken.text import PRESET_DESCRIPTIONS

if TYPE_CHECKING:
    from roppyakken.server.web.services import Services

MAX_BODY: Final = 65_536
GAMES_LIMIT: Final = 50
GAMES_LIMIT_MAX: Final = 500


class ApiError(RoppyakkenError):
    """An HTTP error answer: status and one line (a template and its fields, like every error)."""

    def __init__(self, status: int, message: object, /, **fields: object) -> None:
        super().__init__(message, **fields)
        self.status = status

    @classmethod
    def saying(cls, status: int, said: wording.Said) -> ApiError:
        """An answer with ``status`` saying ``said`` (an error or words, with their fields)."""
        if isinstance(said, str):
            return cls(status, said)
        return cls(status, said.template, **said.fields)


def error_response(status: int, message: wording.Said) -> JSONResponse:
    """``{"error": message, "text": its template and fields}`` with ``status``."""
    return JSONResponse(wording.answer(message), status_code=status)


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


def _max_body(request: Request) -> int:
    limits = getattr(request.app.state, "limits", None)
    return MAX_BODY if limits is None else int(limits.max_body)


async def read_capped(request: Request, limit: int) -> bytes:
    """The request body, refused with 413 as soon as it is known to be over ``limit`` bytes.

    A ``Content-Length`` over the limit is refused before a byte is read; a body
    without one (chunked) is read only up to the limit.
    """
    length = request.headers.get("content-length")
    if length is not None:
        if not re.fullmatch(r"[0-9]{1,18}", length.strip()):
            raise ApiError(400, text.BAD_CONTENT_LENGTH)
        if int(length) > limit:
            request.app.state.services.metrics.refuse("body_too_large")
            raise ApiError(413, text.BODY_TOO_LARGE)
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            request.app.state.services.metrics.refuse("body_too_large")
            raise ApiError(413, text.BODY_TOO_LARGE)
        chunks.append(chunk)
    return b"".join(chunks)


async def read_body(request: Request) -> dict[str, Any]:
    """The request's JSON object body (at most ``Limits.max_body`` bytes), or an :class:`ApiError`."""
    return await read_json_object(request, _max_body(request))


async def read_json_object(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object body (at most ``limit`` bytes), or an :class:`ApiError` of one line."""
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        raise ApiError(415, text.BODY_NOT_JSON_TYPE)
    raw = await read_capped(request, limit)
    try:
        data = jsonsafe.loads(raw or b"{}")
    except (ValueError, RecursionError):  # bad JSON, bad UTF-8, integers too long to convert
        raise ApiError(400, text.BODY_NOT_JSON) from None
    if not isinstance(data, dict):
        raise ApiError(400, text.BODY_NOT_OBJECT)
    return data


async def list_presets(request: Request) -> Response:
    """``GET /api/presets``."""
    out = []
    for name in PRESETS:
        rules = preset(name)
        out.append(
            answers.preset_entry(
                name, PRESET_DESCRIPTIONS.get(name, ""), list(rules.players), rules.options()
            )
        )
    return JSONResponse(answers.presets(out))


async def list_bots(request: Request) -> Response:
    """``GET /api/bots``."""
    return JSONResponse(answers.bots([(lv, d) for lv, (_, d) in BOT_LEVELS.items()]))


async def create_room(request: Request) -> Response:
    """``POST /api/rooms``: the creator gets seat 0 and its token."""
    data = await read_body(request)
    player = await identity.acting(request)
    hub = _services(request)
    await enforcement.may_take_seat(hub.db, hub.limits, player, None)
    asked = bodies.create_room(data)
    if asked.rated:  # making a rated room takes a rated seat: a playban refuses it
        await enforcement.may_play_rated(hub.db, hub.limits, player)
    owner = request.client.host if request.client else None
    room, token = await _services(request).registry.create(asked, owner)
    if player is not None:
        came_from = _rated_origin(request) if asked.rated else players.NOWHERE
        await players.remember_seat(_services(request).db, room.id, 0, player, came_from)
    return JSONResponse(answers.room_created(room.id, token), status_code=201)


async def join_room(request: Request) -> Response:
    """``POST /api/rooms/<room>/join``: the first empty seat and its token (409 if none)."""
    data = await read_body(request)
    name = bodies.join_room(data)
    player = await identity.acting(request)
    room_id = str(request.path_params["room"])
    hub = _services(request)
    rated = await enforcement.may_take_seat(hub.db, hub.limits, player, room_id)
    if player is not None:  # blocks: neither sits at a table where the other sits (public or private)
        me = player.id
        apart = await hub.db.run(
            lambda c: blocks.apart_from(c, me, open_tables.seated(c, [room_id])[room_id])
        )
        if apart:
            raise ApiError(403, text.TABLE_REFUSED)
    came_from = _rated_origin(request) if rated else players.NOWHERE
    if player is not None and came_from != players.NOWHERE:
        known = player
        taken = await _services(request).db.run(
            lambda c: players.origin_seated(c, room_id, known.id, came_from)
        )
        if taken:  # one person's guests never meet in a rated game (docs/PROTOCOL.md, "Quick pairing")
            raise enforcement.Barred(text.RATED_SAME_ORIGIN)
    joined = await _visit(request, JoinCall(room=room_id, name=name))
    if not isinstance(joined, Joined):
        raise ApiError(500, text.STORAGE_UNAVAILABLE)
    if player is not None:
        await players.remember_seat(_services(request).db, room_id, joined.seat, player, came_from)
    return JSONResponse(answers.room_joined(room_id, joined.seat, joined.token))


def _rated_origin(request: Request) -> players.Origin:
    """Where a rated room's seat is taken from (kept apart from the other seats' unless the server
    lets one address play itself: ``serve --rated-same-address``)."""
    if _services(request).limits.rated_same_address:
        return players.NOWHERE
    return identity.origin_of(request)


async def room_info(request: Request) -> Response:
    """``GET /api/rooms/<room>``."""
    answer = await _visit(request, InfoCall(room=str(request.path_params["room"])))
    if not isinstance(answer, RoomInfo):
        raise ApiError(500, text.STORAGE_UNAVAILABLE)
    return JSONResponse(answer.info)


async def _visit(request: Request, call: InfoCall | JoinCall) -> RoomInfo | Joined:
    """``call`` on its room wherever it is held (this server, or another member of the cluster)."""
    answer = await _services(request).visits.visit(call)
    if answer is None:
        raise ApiError(404, text.NO_ROOM, room=call.room)
    if isinstance(answer, Refused):
        said = wording.from_json(answer.text, answer.error)
        raise ApiError.saying(500 if answer.status is None else answer.status, said)
    return answer


async def list_games(request: Request) -> Response:
    """``GET /api/games``: finished games, newest first (``?limit=N``)."""
    raw = request.query_params.get("limit", str(GAMES_LIMIT))
    if not re.fullmatch(r"[0-9]{1,4}", raw) or not 1 <= int(raw) <= GAMES_LIMIT_MAX:
        what = Phrase(N_("a number from 1 to {max}"), max=GAMES_LIMIT_MAX)
        raise ApiError(400, text.FIELD_TYPE, field="limit", what=what)
    limit = int(raw)
    games = await _services(request).db.read(lambda c: listings.finished_games(c, limit))
    return JSONResponse(answers.finished_games(games))


async def my_games(request: Request) -> Response:
    """``POST /api/my-games``: the games whose seat tokens the client holds, with whose move it is."""
    wanted = bodies.my_games(await read_body(request))
    hashes = {room: hash_token(token) for room, token in wanted.items()}
    now = time.time()
    games = await _services(request).db.run(lambda c: listings.my_games(c, hashes, now))
    return JSONResponse(answers.held_games(games))


async def game_record(request: Request) -> Response:
    """``GET /api/games/<room>/record``: the FORMATS.md §3 record of a finished game, as a download."""
    room_id = str(request.path_params["room"])
    record = await _services(request).db.read(
        lambda c: room_store.game_record(c, room_id), missing=lambda found: found is None
    )
    if record is None:
        if not await _services(request).registry.exists(room_id):
            raise ApiError(404, text.NO_ROOM, room=room_id)
        raise ApiError(404, text.NO_RECORD, room=room_id)
    safe = "".join(ch for ch in room_id if ch.isalnum() or ch in "-_")
    return Response(
        record,
        media_type="application/json",
        headers={"Content-Disposition": f'attachment; filename="roppyakken-{safe}.json"'},
    )


async def score(request: Request) -> Response:
    """``POST /api/score``: FORMATS.md §1 input plus ``rules``; the §1 output."""
    data = await read_body(request)
    rules, document = bodies.score_request(data)
    return JSONResponse(score_document(rules, document).to_json())


async def handle_api_error(request: Request, exc: Exception) -> Response:
    """ApiError and RoppyakkenError (bad input) as ``{"error", "text"}`` answers."""
    if isinstance(exc, ApiError):
        return error_response(exc.status, exc)
    if isinstance(exc, RoppyakkenError):
        return error_response(400, exc)
    return error_response(400, str(exc))


async def handle_storage_error(request: Request, exc: Exception) -> Response:
    """A write that failed: 503 with ``Retry-After``; nothing was changed."""
    answer = error_response(503, text.STORAGE_UNAVAILABLE)
    answer.headers["Retry-After"] = "1"
    return answer


async def handle_hub_full(request: Request, exc: Exception) -> Response:
    """No room can be made now (the server is full or stopping): 503 with ``Retry-After``."""
    answer = error_response(503, exc if isinstance(exc, RoppyakkenError) else str(exc))
    answer.headers["Retry-After"] = "5"
    return answer


async def metrics(request: Request) -> Response:
    """``GET /metrics``: Prometheus metrics."""
    from roppyakken.server.web.metrics import CONTENT_TYPE

    return Response(request.app.state.services.metrics.render(), media_type=CONTENT_TYPE)


async def handle_restore_error(request: Request, exc: Exception) -> Response:
    """A stored room that cannot be rebuilt: say so in one line."""
    said = getattr(exc, "said", None)
    return error_response(500, said if isinstance(said, Phrase) else str(exc))


async def healthz(request: Request) -> Response:
    """``GET /healthz``: the process answers (in a cluster, with its member id)."""
    cluster = _services(request).cluster
    if cluster is not None:
        return JSONResponse(answers.health("ok", cluster.member))
    return JSONResponse(answers.health("ok"))


async def readyz(request: Request) -> Response:
    """``GET /readyz``: the database answers too (503 if not, or while stopping)."""
    services = _services(request)
    if services.registry.stopping:
        return JSONResponse(answers.health("stopping"), status_code=503)
    if not await services.db.ping():
        return JSONResponse(answers.health("database unreachable"), status_code=503)
    return JSONResponse(answers.health("ready"))
