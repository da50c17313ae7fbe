"""Fair play and moderation over HTTP: suspended addresses refused, refusals answered.

The checks themselves (who is suspended, who is under a playban, who may take a seat)
are server/people/enforcement.py's; here a suspended address is refused every HTTP
request and websocket (:class:`AddressBans`, ASGI middleware: 403 with one line; a
websocket is told the line in an ``error`` and closed with 1008), and a refusal
(:class:`~roppyakken.server.people.enforcement.Barred`) raised by a route becomes its
answer (:func:`handle_barred`).
"""

from __future__ import annotations

import json

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.server.addresses import Scope, client_address
from roppyakken.server.people import moderation
from roppyakken.server.people.enforcement import Barred, address_barred
from roppyakken.server.people.moderation import SUSPEND
from roppyakken.server.web.guard import ASGIApp, Receive, Send
from roppyakken.server.wire import server as to_client


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
            await send({"type": "websocket.send", "text": to_client.error(barred, None, **barred.extra)})
            await send({"type": "websocket.close", "code": 1008, "reason": str(barred)[:120]})
            return
        data = json.dumps(barred.to_json()).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", str(len(data)).encode())]
        await send({"type": "http.response.start", "status": 403, "headers": headers})
        await send({"type": "http.response.body", "body": data})
