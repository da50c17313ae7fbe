"""``GET /api/schema``: the declared protocol, as JSON Schema, gathered from the modules that declare it."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.server.web import lobby_socket, passkey_routes
from roppyakken.server.wire import bodies, protocol


async def schema(request: Request) -> Response:
    """``GET /api/schema``: the JSON Schema of the request bodies and of every websocket message."""
    published = {
        "protocol_version": protocol.VERSION,
        "http": {**bodies.schemas(), **passkey_routes.schemas()},
        **protocol.schemas(),
        **lobby_socket.schemas(),
    }
    return JSONResponse(published)
