"""The tournament websocket ``/ws/tournament/<id>`` (docs/PROTOCOL.md): what the server sends.

The server sends ``tournament`` (the page's whole answer, as ``GET /api/tournaments/<id>`` gives it
to this player) when the connection opens and whenever it changes; the client may send ``ping``
(``{"type": "ping", "id": ...}``), answered by ``pong``, and ``visible`` (``{"type": "visible",
"visible": false}``: the page is hidden, and is sent only what is the player's own until it says
``true`` again).  Nothing else is read; a message that is none of these is ignored.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal

from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict  # pydantic needs it for a TypedDict before Python 3.12

from roppyakken.server.wire.answers import TournamentAnswer
from roppyakken.server.wire.protocol import MessageId
from roppyakken.server.wire.server import PongMessage, compact

MAX_TOURNAMENT_MESSAGE: Final = 256
"""The largest message a client may send on the tournament websocket (bytes)."""


class TournamentMessage(TypedDict):
    """``tournament``: the tournament as its page shows it to this player, sent whenever it changes."""

    type: Literal["tournament"]
    tournament: TournamentAnswer


TournamentServerMessage = TournamentMessage | PongMessage


class TournamentPing(TypedDict):
    """``ping``: answered by ``pong`` with the same ``id``."""

    type: Literal["ping"]
    id: MessageId


class TournamentVisible(TypedDict):
    """``visible``: whether the page is shown (a hidden page is sent only the player's own parts:
    their table, entry, points and games; what all share again once shown)."""

    type: Literal["visible"]
    visible: bool


TournamentClientMessage = TournamentPing | TournamentVisible
_CLIENT: Final = TypeAdapter(Annotated[TournamentClientMessage, Field(discriminator="type")])


def client_message(raw: str) -> TournamentClientMessage | None:
    """A client's message, or None if it is none that the socket reads (it is then ignored)."""
    try:
        return _CLIENT.validate_json(raw)
    except ValueError:
        return None


def schemas() -> dict[str, Any]:
    """The JSON Schema of the tournament websocket's messages, each way."""
    return {
        "tournament_server_message": TypeAdapter(
            Annotated[TournamentServerMessage, Field(discriminator="type")]
        ).json_schema(),
        "tournament_client_message": _CLIENT.json_schema(),
    }


def tournament(answer: TournamentAnswer) -> str:
    """``tournament``, as compact JSON text."""
    return compact(TournamentMessage(type="tournament", tournament=answer))
