"""Tournaments over HTTP and their live websocket (server/club/tournaments: rules, store, director).

* ``GET /api/tournaments``: public tournaments not over, soonest first, then the latest finished;
* ``POST /api/tournaments``: a player signed in to an account makes one (at most
  ``Limits.tournaments_per_day`` a day, and ``Limits.open_tournaments`` not over on the server);
* ``GET /api/tournaments/<id>``: its standings, tables (rooms to watch, records) and the asking
  player's own entry and table; ``GET /api/tournaments/<id>/standings.csv``: the standings as CSV;
* ``POST /api/tournaments/<id>/join`` (answers the seat token of every table the player will get),
  ``/withdraw`` and ``/pause`` (an arena's players);
* ``/ws/tournament/<id>``: the ``GET`` answer again whenever it changes (server/wire/tournament.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
import time
from dataclasses import dataclass
from typing import Final

from sqlalchemy import Connection
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from roppyakken.errors import RulesError
from roppyakken.rules import preset
from roppyakken.server.club import clubs
from roppyakken.server.club.ratings import store as rating_store
from roppyakken.server.club.ratings.pools import FAMILIES, pool_of
from roppyakken.server.club.ratings.scale import skill_points
from roppyakken.server.club.tournaments import blocking, model, origins, store, view
from roppyakken.server.club.tournaments.store import Entry
from roppyakken.server.club.tournaments.view import Snapshot
from roppyakken.server.config import Limits
from roppyakken.server.people import enforcement, players
from roppyakken.server.people.players import Player
from roppyakken.server.play.seats import hash_token, new_token
from roppyakken.server.store.database import Database
from roppyakken.server.web import identity
from roppyakken.server.web.api import ApiError, read_json_object
from roppyakken.server.web.room_socket import admission
from roppyakken.server.web.tournament_feed import Watched, follow
from roppyakken.server.wire import bodies, text
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire import tournament as to_page
from roppyakken.server.wire.answers import (
    TournamentCreated,
    TournamentEntryAnswer,
    TournamentJoined,
    TournamentList,
    TournamentMe,
)
from roppyakken.server.wire.protocol import what

log = logging.getLogger("roppyakken.server")

TOURNAMENT_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,32}")
LISTED: Final = 50
"""Tournaments ``GET /api/tournaments`` lists of each kind (not over; finished)."""
NO_STORE: Final = {"Cache-Control": "no-store"}


def _db(request: Request | WebSocket) -> Database:
    return identity.database(request)


def _rated_origin(request: Request) -> players.Origin:
    """Where a rated tournament is joined from (kept apart from its other entrants' unless the server
    lets one address play itself: ``serve --rated-same-address``)."""
    if _limits(request).rated_same_address:
        return players.NOWHERE
    return identity.origin_of(request)


def _limits(request: Request | WebSocket) -> Limits:
    limits: Limits = request.app.state.services.limits
    return limits


def _id(request: Request | WebSocket) -> str:
    tournament_id = str(request.path_params["tournament"])
    if not TOURNAMENT_ID.fullmatch(tournament_id):
        raise ApiError(404, text.NO_TOURNAMENT, tournament=tournament_id[:40])
    return tournament_id


async def _snapshot(request: Request | WebSocket, tournament_id: str) -> Snapshot:
    """The whole tournament, read beside the database's writer (it sees what is committed)."""
    snap: Snapshot | None = await _db(request).look(lambda c: view.read(c, tournament_id))
    if snap is None:
        raise ApiError(404, text.NO_TOURNAMENT, tournament=tournament_id)
    return snap


async def _tournament(request: Request, tournament_id: str) -> store.Tournament:
    """The tournament's row alone."""
    t: store.Tournament | None = await _db(request).look(lambda c: store.get(c, tournament_id))
    if t is None:
        raise ApiError(404, text.NO_TOURNAMENT, tournament=tournament_id)
    return t


async def _me(request: Request, tournament_id: str, player_id: str) -> TournamentMe:
    """The player's own part (their entry and table), read alone."""
    me: TournamentMe = await _db(request).look(lambda c: view.read_me(c, tournament_id, player_id))
    return me


async def _player(request: Request) -> Player:
    player = await identity.acting(request)
    if player is None:
        raise ApiError(401, text.NO_PLAYER)
    return player


async def list_tournaments(request: Request) -> Response:
    """``GET /api/tournaments``."""

    def read(c: Connection) -> list[tuple[store.Tournament, int]]:
        found = store.listed(c, LISTED)
        return [(t, store.entry_count(c, t.id)) for t in found]

    rows = await _db(request).run(read)
    answer = TournamentList(tournaments=[view.summary(t, n) for t, n in rows], now=time.time())
    return JSONResponse(answer, headers=NO_STORE)


async def create_tournament(request: Request) -> Response:
    """``POST /api/tournaments``: 201 ``{"id", "page"}``."""
    limits = _limits(request)
    data = await read_json_object(request, limits.max_body)
    player = await _player(request)
    if player.account_id is None:
        raise ApiError(403, text.TOURNAMENT_NEEDS_ACCOUNT)
    body = bodies.create_tournament(data)
    if body.visibility == "club" and body.club is None:
        raise ApiError(400, text.FIELD_TYPE, field="club", what=what("club", {}))
    if body.preset not in FAMILIES:
        raise ApiError(
            400, text.TOURNAMENT_PRESET, preset=body.preset[:64], known=", ".join(sorted(FAMILIES))
        )
    try:  # a preset played by 2 only (ten-card) makes no tables of 3
        preset(body.preset).check_players(body.players)
    except RulesError as exc:
        raise ApiError(400, exc.template, **exc.fields) from None
    await enforcement.may_take_seat(_db(request), limits, player, None)
    now = time.time()
    tournament_id = secrets.token_urlsafe(12)
    values = {
        "id": tournament_id,
        "name": body.name,
        "format": body.format,
        "preset": body.preset,
        "players": body.players,
        "clock": body.clock,
        "rated": body.rated,
        "visibility": body.visibility,
        "club_id": body.club if body.visibility == "club" else None,
        "creator": player.id,
        "created_at": now,
        "starts_at": now + body.starts_in,
        "duration": None if body.minutes is None else body.minutes * 60.0,
        "rounds": body.rounds,
        "status": store.SCHEDULED,
    }

    def make(c: Connection) -> str | None:
        if body.visibility == "club" and clubs.role_of(c, str(body.club), player.id) not in (
            "owner",
            "leader",
        ):
            return text.TOURNAMENT_CLUB_LEADERS
        if store.made_since(c, player.id, now - 86_400.0) >= limits.tournaments_per_day:
            return text.TOURNAMENTS_PER_DAY
        if store.open_count(c) >= limits.open_tournaments:
            return text.TOURNAMENTS_FULL
        store.create(c, values)
        return None

    refused = await _db(request).run(make)
    if refused == text.TOURNAMENT_CLUB_LEADERS:
        raise ApiError(403, refused)
    if refused == text.TOURNAMENTS_PER_DAY:
        raise ApiError(429, refused, count=limits.tournaments_per_day)
    if refused is not None:
        raise ApiError(503, refused, count=limits.open_tournaments)
    _wake(request)
    return JSONResponse(TournamentCreated(id=tournament_id, page=view.page(tournament_id)), status_code=201)


def _wake(request: Request) -> None:
    director = getattr(request.app.state.services, "director", None)
    if director is not None:
        director.wake_soon()


async def get_tournament(request: Request) -> Response:
    """``GET /api/tournaments/<id>``."""
    tournament_id = _id(request)
    player = await identity.current(request)
    snap = await _snapshot(request, tournament_id)
    answer = view.answer(snap, None if player is None else player.id, time.time())
    return JSONResponse(answer, headers=NO_STORE)


async def standings_csv(request: Request) -> Response:
    """``GET /api/tournaments/<id>/standings.csv``."""
    tournament_id = _id(request)
    snap = await _snapshot(request, tournament_id)
    return Response(
        view.standings_csv(snap, time.time()),
        media_type="text/csv; charset=utf-8",
        headers={**NO_STORE, "Content-Disposition": f'attachment; filename="{tournament_id}.csv"'},
    )


@dataclass(frozen=True, slots=True)
class _Joined:
    refused: str | None
    count: int = 0


async def join_tournament(request: Request) -> Response:
    """``POST /api/tournaments/<id>/join``: the player enters (or comes back); the answer's ``token`` is
    their seat in every table they will get (only its hash is stored: a new join gives a new one)."""
    tournament_id = _id(request)
    limits = _limits(request)
    player = await _player(request)
    await read_json_object(request, limits.max_body)
    t = await _tournament(request, tournament_id)
    if t.rated:
        await enforcement.may_seek(_db(request), limits, player)
    else:
        await enforcement.may_take_seat(_db(request), limits, player, None)
    token = new_token()
    now = time.time()
    came_from = _rated_origin(request) if t.rated else players.NOWHERE

    def join(c: Connection) -> _Joined:
        if came_from != players.NOWHERE:  # one person's guests never meet in a rated game
            origins.lock(c, tournament_id)
            if origins.taken_from(c, tournament_id, player.id, came_from):
                return _Joined(text.RATED_TOURNAMENT_SAME_ORIGIN)
        current = store.get(c, tournament_id)
        if current is None or current.status not in store.OPEN:
            return _Joined(text.TOURNAMENT_CLOSED)
        if current.status == store.RUNNING and current.format != "arena":
            return _Joined(text.TOURNAMENT_CLOSED)
        why = view.may_join(c, current, player.id)
        if why is not None:
            return _Joined(why)
        if current.format == "round_robin":  # every pair meets: no blocked pair enters (blocking.py)
            why = blocking.refusal(c, tournament_id, player.id)
            if why is not None:
                return _Joined(why)
        mine = store.entry(c, tournament_id, player.id)
        if mine is not None and mine.abandonments >= store.WITHDRAW_AFTER:
            return _Joined(text.TOURNAMENT_ABANDONED)
        most = limits.tournament_entries
        if current.format == "round_robin":  # its schedule takes at most MAX_ROUND_ROBIN players
            most = min(most, model.MAX_ROUND_ROBIN)
        if mine is None and store.entry_count(c, tournament_id) >= most:
            return _Joined(text.TOURNAMENT_FULL, most)
        pool = pool_of(current.preset, current.players)
        rating = skill_points(rating_store.skills(c, pool, [player.id])[player.id])
        entry = Entry(player.id, player.name, rating, hash_token(token), now, now, False, False, 0)
        if not store.join(c, tournament_id, entry):
            store.set_entry(c, tournament_id, player.id, token_hash=entry.token_hash)
        origins.remember(c, tournament_id, player.id, came_from)
        return _Joined(None)

    # a rated join holds the tournament's row (one entrant an origin): alone, as work that holds
    # rows another member writes too is (server/store/database.py)
    joined: _Joined = await _db(request).run(join, alone=t.rated)
    if joined.refused is not None:
        forbidden = (
            text.TOURNAMENT_CLUB_ONLY,
            text.TOURNAMENT_ABANDONED,
            text.RATED_TOURNAMENT_SAME_ORIGIN,
            text.ROUND_ROBIN_REFUSED,
        )
        status = 403 if joined.refused in forbidden else 409
        raise ApiError(status, joined.refused, count=joined.count)
    me = await _me(request, tournament_id, player.id)
    _wake(request)
    answer = TournamentJoined(tournament=tournament_id, token=token, me=me)
    return JSONResponse(answer, headers=NO_STORE)


async def _change_entry(request: Request, pausing: bool) -> Response:
    tournament_id = _id(request)
    limits = _limits(request)
    player = await _player(request)
    data = await read_json_object(request, limits.max_body)
    paused = bodies.pause_tournament(data) if pausing else False
    t = await _tournament(request, tournament_id)
    if pausing and t.format != "arena":
        raise ApiError(409, text.TOURNAMENT_PAUSE_ARENA)

    def change(c: Connection) -> bool:
        if not pausing and t.status == store.SCHEDULED:
            return store.leave(c, tournament_id, player.id)
        values = {"paused": paused} if pausing else {"withdrawn": True}
        return store.set_entry(c, tournament_id, player.id, **values)

    if not await _db(request).run(change):
        raise ApiError(409, text.TOURNAMENT_NOT_ENTERED)
    me = await _me(request, tournament_id, player.id)
    _wake(request)
    answer = TournamentEntryAnswer(tournament=tournament_id, me=me)
    return JSONResponse(answer, headers=NO_STORE)


async def withdraw(request: Request) -> Response:
    """``POST /api/tournaments/<id>/withdraw``: the player is paired no more (before the start: leaves)."""
    return await _change_entry(request, pausing=False)


async def pause(request: Request) -> Response:
    """``POST /api/tournaments/<id>/pause`` ``{"paused": true|false}``: an arena player stops being paired
    (or comes back)."""
    return await _change_entry(request, pausing=True)


# --- live ----------------------------------------------------------------------------------------


def _watched(websocket: WebSocket) -> Watched:
    state = websocket.app.state
    found: Watched | None = getattr(state, "tournaments_watched", None)
    if found is None:
        found = state.tournaments_watched = Watched(identity.database(websocket))
        director = getattr(state.services, "director", None)
        if director is not None:
            director.listeners.add(found.changed)
    return found


async def tournament_socket(websocket: WebSocket) -> None:
    """``/ws/tournament/<id>``: see docs/PROTOCOL.md."""
    services = websocket.app.state.services
    tournament_id = str(websocket.path_params["tournament"])
    async with admission(websocket, services) as admitted:
        if not admitted:
            return
        if not TOURNAMENT_ID.fullmatch(tournament_id):
            await websocket.close(4404, "no such tournament")
            return
        player = await identity.current(websocket)
        player_id = None if player is None else player.id
        watched = _watched(websocket)
        await websocket.accept()
        send_timeout = services.limits.send_timeout

        async def send(message: str) -> None:
            async with asyncio.timeout(send_timeout):
                await websocket.send_text(message)

        feed = watched.feed(tournament_id)
        watcher = feed.watch(player_id)

        async def push() -> None:
            await follow(feed, watcher, send)
            await websocket.close(4404, "no such tournament")

        async def read() -> None:
            while True:
                raw = await websocket.receive_text()
                if len(raw) > to_page.MAX_TOURNAMENT_MESSAGE:
                    await websocket.close(1009, "message too large")
                    return
                message = to_page.client_message(raw)
                if message is None:
                    continue
                if message["type"] == "ping":
                    await send(to_client.pong(message.get("id")))
                elif message["type"] == "standings":
                    watcher.paged(message["page"])
                elif message["type"] == "tables":
                    watcher.tables_paged(message["page"], message.get("playing", False))
                else:
                    watcher.shown(message["visible"])

        tasks = [asyncio.create_task(push()), asyncio.create_task(read())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        except (WebSocketDisconnect, TimeoutError):
            pass
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await task
            feed.unwatch(watcher)
            watched.forget(tournament_id)


def routes() -> list[BaseRoute]:
    """The tournaments' routes (server/web/app.py adds them)."""
    return [
        Route("/api/tournaments", list_tournaments, methods=["GET"]),
        Route("/api/tournaments", create_tournament, methods=["POST"]),
        Route("/api/tournaments/{tournament}", get_tournament, methods=["GET"]),
        Route("/api/tournaments/{tournament}/standings.csv", standings_csv, methods=["GET"]),
        Route("/api/tournaments/{tournament}/join", join_tournament, methods=["POST"]),
        Route("/api/tournaments/{tournament}/withdraw", withdraw, methods=["POST"]),
        Route("/api/tournaments/{tournament}/pause", pause, methods=["POST"]),
        WebSocketRoute("/ws/tournament/{tournament}", tournament_socket),
    ]
