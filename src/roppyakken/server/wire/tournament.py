"""The tournament websocket ``/ws/tournament/<id>`` (docs/PROTOCOL.md): what the server sends.

The server sends ``tournament`` (the page's whole answer, as ``GET /api/tournaments/<id>`` gives it
to this player) when the connection opens and whenever it changes; the client may send ``ping``
(``{"type": "ping", "id": ...}``), answered by ``pong``, and ``visible`` (``{"type": "visible",
"visible": false}``: the page is hidden, and is sent only what is the player's own until it says
``true`` again), ``standings`` (``{"type": "standings", "page": 2}``: the page of the standings'
lines it shows) and ``tables`` (``{"type": "tables", "page": 2, "playing": true}``: the page of the
tables it shows, of those in play only if ``playing``).  Nothing else is read; a message that is
none of these is ignored.
"""

from __future__ import annotations

from typing import Annotated, Any, Final, Literal, NotRequired

from pydantic import Field, TypeAdapter
from typing_extensions import TypedDict  # pydantic needs it for a TypedDict before Python 3.12

from roppyakken.server.wire.answers import TournamentAnswer
from roppyakken.server.wire.protocol import MessageId
from roppyakken.server.wire.server import PongMessage, compact

MAX_TOURNAMENT_MESSAGE: Final = 256
"""The largest message a client may send on the tournament websocket (bytes)."""


class TournamentMessage(TypedDict):
    """``tournament``: the tournament as its page shows it to this player, sent whenever it changes,
    with the page of the standings and the page of the tables the connection asked for
    (``standings``, ``tables``), the first of each (of every table) by default."""

    type: Literal["tournament"]
    page: int
    """The page of the standings' lines in ``tournament.standings`` (from 1)."""
    pages: int
    """How many pages the standings make."""
    tables_page: int
    """The page of the tables in ``tournament.tables`` (from 1; the latest first)."""
    tables_pages: int
    """How many pages the tables make (those in play only, if ``playing``)."""
    playing: bool
    """Whether ``tournament.tables`` are of the tables in play only."""
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


MAX_PAGE: Final = 100_000
"""The largest page a client may ask for (a page past the last is sent as the last)."""


class TournamentStandingsPage(TypedDict):
    """``standings``: which page of the standings' lines the page shows (sent at once, and from then
    on)."""

    type: Literal["standings"]
    page: Annotated[int, Field(ge=1, le=MAX_PAGE, strict=True)]


class TournamentTablesPage(TypedDict):
    """``tables``: which page of the tables the page shows, of every table or (``playing``) of those
    in play only (sent at once, and from then on)."""

    type: Literal["tables"]
    page: Annotated[int, Field(ge=1, le=MAX_PAGE, strict=True)]
    playing: NotRequired[Annotated[bool, Field(strict=True)]]


TournamentClientMessage = TournamentPing | TournamentVisible | TournamentStandingsPage | TournamentTablesPage
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


def tournament(
    answer: TournamentAnswer,
    page: int = 1,
    pages: int = 1,
    tables_page: int = 1,
    tables_pages: int = 1,
    playing: bool = False,
) -> str:
    """``tournament``, as compact JSON text."""
    return compact(
        TournamentMessage(
            type="tournament",
            page=page,
            pages=pages,
            tables_page=tables_page,
            tables_pages=tables_pages,
            playing=playing,
            tournament=answer,
        )
    )
