"""``POST /api/rooms/<room>/report`` (docs/PROTOCOL.md), over server/people/reporting.py.

``{"message": idx}`` or ``{"seat": n}``, and ``"reason"``: the player of the cookie
(with the CSRF header, server/web/identity.py) reports a chat line it could read or a
player of the room; 201 ``{"report": id}``, or the refusal's status and one line.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.server.addresses import client_address
from roppyakken.server.people.reporting import ReportRefused, file_report
from roppyakken.server.web import api, identity
from roppyakken.server.wire import answers, bodies, text, wording


async def report_room(request: Request) -> Response:
    """``POST /api/rooms/<room>/report`` ``{"message": idx}`` or ``{"seat": n}``, ``"reason"``."""
    data: dict[str, Any] = await api.read_body(request)
    body = bodies.report(data)
    player = await identity.acting(request)
    if player is None:
        raise api.ApiError(403, text.NO_PLAYER)
    room_id = str(request.path_params["room"])
    address = client_address(request.scope)
    reporter, now = player.id, time.time()
    made: int | ReportRefused = await identity.database(request).run(
        lambda c: file_report(c, room_id, reporter, address, body, now)
    )
    if isinstance(made, ReportRefused):
        return JSONResponse(wording.answer(made), status_code=made.status)
    return JSONResponse(answers.report_filed(made), status_code=201)
