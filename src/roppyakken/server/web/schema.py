"""``GET /api/schema``: the declared protocol, as JSON Schema, gathered from the modules that declare it."""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.server.web import passkey_routes
from roppyakken.server.wire import answers, bodies, client, lobby, protocol, server, tournament


def published() -> dict[str, Any]:
    """The JSON Schema of every declared message: the HTTP request bodies and answers (and the
    error answer: server/wire/bodies.py, server/wire/answers.py), the client and server messages of
    ``/ws/<room>`` (server/wire/client.py, server/wire/server.py) and both directions of
    ``/ws/lobby`` (server/wire/lobby.py), and what ``/ws/tournament/<id>`` sends
    (server/wire/tournament.py)."""
    return {
        "protocol_version": protocol.VERSION,
        "http": {**bodies.schemas(), **passkey_routes.schemas()},
        "http_answers": answers.schemas(),
        "http_error": answers.error_schema(),
        "client_message": client.schema(),
        "server_message": server.schema(),
        **lobby.schemas(),
        **tournament.schemas(),
    }


async def schema(request: Request) -> Response:
    """``GET /api/schema``: the JSON Schema of the HTTP requests and answers and of every websocket
    message."""
    return JSONResponse(published())
