"""The web application (Starlette): the browser client's pages and files, the JSON API, the websocket.

:func:`create_app` builds it over a database (opened and migrated at start-up
unless already open); ``roppyakken serve`` runs it with uvicorn.
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Final

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

from roppyakken.errors import RoppyakkenError
from roppyakken.server.club.tournaments.schedules import Schedule
from roppyakken.server.cluster.link import Cluster
from roppyakken.server.config import Limits
from roppyakken.server.people import enforcement, guests, players
from roppyakken.server.play.registry import HubFull
from roppyakken.server.play.room import RestoreError
from roppyakken.server.store.database import Database, StorageError
from roppyakken.server.web import (
    account_routes,
    api,
    club_routes,
    fair_play,
    friend_routes,
    identity,
    offline_games,
    offline_routes,
    passkey_routes,
    player_routes,
    profile_routes,
    rating_routes,
    report_routes,
    schema,
    session_routes,
    tournament_routes,
)
from roppyakken.server.web.collector import Collector
from roppyakken.server.web.guard import Guard
from roppyakken.server.web.lobby_socket import lobby_endpoint
from roppyakken.server.web.metrics import Metrics
from roppyakken.server.web.room_socket import websocket_endpoint
from roppyakken.server.web.services import Services
from roppyakken.server.wire import text

STATIC: Final = Path(__file__).parent.parent / "static"
"""The browser client: plain HTML, JavaScript and CSS, no build step."""


async def page(request: Request) -> Response:
    """Any page address (``/``, ``/r/<room>``, ``/replay/<room>``, ...) answers the client's index.html.

    The client reads ``location.pathname`` to know what to show.  Addresses that
    look like files, or under ``/api``, are not pages: 404.
    """
    path = str(request.path_params.get("path", ""))
    last = path.rsplit("/", 1)[-1]
    if path.startswith(("api/", "ws/", "static/")) or path in ("api", "ws", "static") or "." in last:
        return api.error_response(404, text.NOT_FOUND)
    index = STATIC / "index.html"
    if not index.is_file():
        return PlainTextResponse(text.NO_CLIENT, status_code=503)
    return FileResponse(index, headers={"Cache-Control": "no-cache"})


async def favicon(request: Request) -> Response:
    """``/favicon.ico`` from the client's files if it has one."""
    for name in ("favicon.ico", "favicon.svg"):
        icon = STATIC / name
        if icon.is_file():
            return FileResponse(icon)
    return Response(status_code=404)


async def not_found(request: Request, exc: Exception) -> Response:
    """Unknown API addresses answer JSON."""
    return api.error_response(404, text.NOT_FOUND)


def routes() -> list[BaseRoute]:
    """Every address the application answers."""
    return [
        Route("/api/presets", api.list_presets, methods=["GET"]),
        Route("/api/bots", api.list_bots, methods=["GET"]),
        Route("/api/rooms", api.create_room, methods=["POST"]),
        Route("/api/rooms/{room}", api.room_info, methods=["GET"]),
        Route("/api/rooms/{room}/join", api.join_room, methods=["POST"]),
        Route("/api/games", api.list_games, methods=["GET"]),
        Route("/api/my-games", api.my_games, methods=["POST"]),
        Route("/api/games/{room}/record", api.game_record, methods=["GET"]),
        Route("/api/score", api.score, methods=["POST"]),
        Route("/api/schema", schema.schema, methods=["GET"]),
        # the player of this browser and its games across devices (server/web/player_routes.py)
        Route("/api/me", player_routes.get_me, methods=["GET"]),
        Route("/api/me", player_routes.post_me, methods=["POST"]),
        Route("/api/me/games", player_routes.my_history, methods=["GET"]),
        # accounts and sessions (server/web/account_routes.py, server/web/session_routes.py)
        Route("/api/account", account_routes.get_account, methods=["GET"]),
        Route("/api/account", account_routes.create, methods=["POST"]),
        Route("/api/account", account_routes.delete_account, methods=["DELETE"]),
        Route("/api/account/export", account_routes.export_account, methods=["GET"]),
        Route("/api/account/password", account_routes.change_password, methods=["POST"]),
        Route("/api/account/recovery-codes", account_routes.new_recovery_codes, methods=["POST"]),
        Route("/api/account/recover", account_routes.recover, methods=["POST"]),
        Route("/api/account/reset", account_routes.reset_password, methods=["POST"]),
        Route("/api/session", session_routes.start_session, methods=["POST"]),
        Route("/api/session", session_routes.end_session, methods=["DELETE"]),
        Route("/api/sessions", session_routes.list_sessions, methods=["GET"]),
        Route("/api/sessions", session_routes.end_all_sessions, methods=["DELETE"]),
        Route("/api/sessions/{session}", session_routes.end_one_session, methods=["DELETE"]),
        # passkeys (server/web/passkey_routes.py)
        Route("/api/passkeys", passkey_routes.list_passkeys, methods=["GET"]),
        Route("/api/passkeys/register/options", passkey_routes.register_options, methods=["POST"]),
        Route("/api/passkeys/register/verify", passkey_routes.register_verify, methods=["POST"]),
        Route("/api/passkeys/signin/options", passkey_routes.sign_in_options, methods=["POST"]),
        Route("/api/passkeys/signin/verify", passkey_routes.sign_in_verify, methods=["POST"]),
        Route("/api/passkeys/remove", passkey_routes.remove_passkey, methods=["POST"]),
        # fair play and moderation
        Route("/api/rooms/{room}/report", report_routes.report_room, methods=["POST"]),
        # --- ratings ---
        Route("/api/me/ratings", rating_routes.my_ratings, methods=["GET"]),
        # leaderboards and profiles
        Route("/api/leaderboard/{pool}", profile_routes.get_leaderboard, methods=["GET"]),
        Route("/api/players/{player}", profile_routes.get_profile, methods=["GET"]),
        # games played offline and uploaded (server/web/offline_games.py): on the profile, never rated
        Route("/api/me/offline-games", offline_games.upload, methods=["POST"]),
        Route("/api/players/{player}/offline-games", offline_games.player_offline_games, methods=["GET"]),
        Route("/api/offline-games/{game}/record", offline_games.offline_record, methods=["GET"]),
        # clubs (server/web/club_routes.py)
        Route("/api/clubs", club_routes.list_clubs, methods=["GET"]),
        Route("/api/clubs", club_routes.create_club, methods=["POST"]),
        Route("/api/clubs/{club}", club_routes.get_club, methods=["GET"]),
        Route("/api/clubs/{club}/join", club_routes.join_club, methods=["POST"]),
        Route("/api/clubs/{club}/leave", club_routes.leave_club, methods=["POST"]),
        Route("/api/clubs/{club}/invite", club_routes.invite, methods=["POST"]),
        Route("/api/clubs/{club}/accept", club_routes.accept, methods=["POST"]),
        Route("/api/clubs/{club}/decline", club_routes.decline, methods=["POST"]),
        Route("/api/clubs/{club}/remove", club_routes.remove, methods=["POST"]),
        Route("/api/clubs/{club}/role", club_routes.set_role, methods=["POST"]),
        Route("/api/clubs/{club}/settings", club_routes.settings, methods=["POST"]),
        Route("/api/clubs/{club}/chat", club_routes.read_chat, methods=["GET"]),
        Route("/api/clubs/{club}/chat", club_routes.post_chat, methods=["POST"]),
        Route("/api/clubs/{club}/chat/{line}/hide", club_routes.hide_line, methods=["POST"]),
        Route("/api/clubs/{club}/chat/{line}/report", club_routes.report_line, methods=["POST"]),
        # friends: follows, blocks, direct challenges (server/web/friend_routes.py)
        Route("/api/friends", friend_routes.get_friends, methods=["GET"]),
        Route("/api/follows", friend_routes.post_follow, methods=["POST"]),
        Route("/api/follows/{player}", friend_routes.delete_follow, methods=["DELETE"]),
        Route("/api/blocks", friend_routes.post_block, methods=["POST"]),
        Route("/api/blocks/{player}", friend_routes.delete_block, methods=["DELETE"]),
        Route("/api/challenges", friend_routes.post_challenge, methods=["POST"]),
        Route("/api/challenges/{challenge}/accept", friend_routes.accept_challenge, methods=["POST"]),
        Route("/api/challenges/{challenge}/decline", friend_routes.decline_challenge, methods=["POST"]),
        Route("/api/challenges/{challenge}/cancel", friend_routes.cancel_challenge, methods=["POST"]),
        Route("/healthz", api.healthz, methods=["GET"]),
        Route("/readyz", api.readyz, methods=["GET"]),
        Route("/metrics", api.metrics, methods=["GET"]),
        # tournaments (server/web/tournament_routes.py)
        *tournament_routes.routes(),
        WebSocketRoute("/ws/lobby", lobby_endpoint),
        WebSocketRoute("/ws/{room}", websocket_endpoint),
        # the installable, offline client (server/web/offline_routes.py)
        *offline_routes.routes(),
        Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
        Route("/favicon.ico", favicon, methods=["GET"]),
        Route("/", page, methods=["GET"]),
        Route("/{path:path}", page, methods=["GET"]),
    ]


def create_app(
    database: Database | str | None = None,
    *,
    bot_delay: float = 0.6,
    bot_threads: int = 4,
    limits: Limits | None = None,
    draw_seed: Callable[[], int] | None = None,
    redis: str | None = None,
    tournaments: Sequence[Schedule] = (),
) -> Starlette:
    """The application over ``database`` (a :class:`Database`, a URL, or None: the default SQLite file).

    ``tournaments``: the operator's recurring tournaments (``serve --tournaments FILE``).

    ``bot_delay`` is the pause in seconds before each bot decision, so that people
    can follow the game (0 in tests and benchmarks); ``limits`` are the server's
    bounds (:class:`~roppyakken.server.config.Limits`, defaults if None);
    ``draw_seed`` replaces the secret random seeds of rooms (tests only);
    ``redis`` (a ``redis://`` URL, with a PostgreSQL database) makes this server
    one member of a cluster (server/cluster/link.py).
    """
    limits = limits or Limits()
    metrics = Metrics()
    cluster = None if redis is None else Cluster(redis, max_rooms=limits.max_rooms)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        db = (
            database
            if isinstance(database, Database)
            else Database(database, write_timeout=limits.write_timeout)
        )
        if not isinstance(database, Database):
            db.open()
        await db.start()
        services = Services.build(
            db,
            limits,
            metrics,
            cluster=cluster,
            bot_delay=bot_delay,
            bot_threads=bot_threads,
            draw_seed=draw_seed,
            tournaments=tournaments,
        )
        await services.start()
        app.state.services = services
        app.state.limits = limits
        app.state.metrics = metrics
        # The code and data loaded so far live as long as the server: keep them out of
        # the garbage collector's full passes, which otherwise pause every game.
        gc.collect()
        gc.freeze()
        collector = Collector()  # full collections on a timer (server/web/collector.py)
        collector.start()
        try:
            yield
        finally:
            await collector.stop()
            await services.close()
            await db.close()

    return Starlette(
        routes=routes(),
        lifespan=lifespan,
        middleware=[
            Middleware(Guard, limits=limits, limiter=cluster, on_refusal=metrics.refuse),
            Middleware(fair_play.AddressBans),  # suspended addresses (fair play and moderation)
        ],
        exception_handlers={
            HubFull: api.handle_hub_full,
            api.ApiError: api.handle_api_error,
            RoppyakkenError: api.handle_api_error,
            StorageError: api.handle_storage_error,
            RestoreError: api.handle_restore_error,
            players.CsrfRefused: identity.handle_csrf,
            session_routes.Limited: session_routes.handle_limited,
            friend_routes.TooFast: friend_routes.handle_too_fast,
            guests.TooManyGuests: player_routes.handle_too_many,
            enforcement.Barred: fair_play.handle_barred,
            404: not_found,
        },
    )
