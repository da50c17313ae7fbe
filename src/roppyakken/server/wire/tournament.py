"""The tournament websocket ``/ws/tournament/<id>`` (docs/PROTOCOL.md): what the server sends.

The server sends ``tournament`` (the page's whole answer, as ``GET /api/tournaments/<id>`` gives it
to this player) when the connection opens and whenever it changes; the client may send ``ping``
(``{"type": "ping", "id": ...}``), answered by ``pong``.  Nothing else is read.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict  # pydantic needs it for a TypedDict before Python 3.12

from roppyakken.server.wire.answers import TournamentAnswer
from roppyakken.server.wire.server import PongMessage, compact

MAX_TOURNAMENT_MESSAGE: Final = 256
"""The largest message a client may send on the tournament websocket (bytes)."""


class TournamentMessage(TypedDict):
    """``tournament``: the tournament as its page shows it to this player, sent whenever it changes."""

    type: Literal["tournament"]
    tournament: TournamentAnswer


TournamentServerMessage = TournamentMessage | PongMessage


def schemas() -> dict[str, Any]:
    """The JSON Schema of the tournament websocket's server messages."""
    return {
        "tournament_server_message": TypeAdapter(
            Annotated[TournamentServerMessage, Field(discriminator="type")]
        ).json_schema()
    }


def tournament(answer: TournamentAnswer) -> str:
    """``tournament``, as compact JSON text."""
    return compact(TournamentMessage(type="tournament", tournament=answer))
