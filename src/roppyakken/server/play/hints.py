"""Hints and round reviews for one seat, worked out off the event loop from that seat's view only.

A player asks for a hint with a ``hint`` message on its own turn to play or take a
card; the server answers with a ``hint`` message built from
:func:`roppyakken.ai.hint.hint` over ``view_of(game, seat)`` — the very view the
seat was sent, never the game — computed where the masters think (the bot runner's fair pool).  After each
round, each seat that may have hints gets a ``review`` message:
:func:`roppyakken.ai.hint.review` over the views that seat was sent at its own
decisions of the round and the moves it made.

Who may have hints: a person playing alone against bots always; in a room with
other people only if it was created with ``hints`` on (every player sees it in
``room_info``).  Bounds: one hint being worked out at a time per seat, the hint
for a decision worked out once (asked again, it is sent again), at most
:data:`HINTS_PER_MINUTE` asks per connection, and :data:`HINT_WORLDS` worlds.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Sequence
from typing import Any, Final, Protocol, cast

from roppyakken.actions import Action, Play, Take
from roppyakken.ai.hint import REVIEW_WORLDS
from roppyakken.ai.offline import (
    HINT_WORLDS,
    decides,
    hint_payload,
    public_seed,
    review_items,
)
from roppyakken.engine import Game
from roppyakken.errors import RoppyakkenError
from roppyakken.server.play.bots import BotRunner
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire import text
from roppyakken.server.wire.protocol import ProtocolError
from roppyakken.server.wire.server import ReviewItem
from roppyakken.view import SeatView, view_of

log = logging.getLogger("roppyakken.server")

HINTS_PER_MINUTE: Final = 20
"""Hints one connection may ask for in a minute."""
OPTION_KEY: Final = "room:hints"
"""Where the room's ``hints`` option is kept in the stored options (beside the rules' own)."""


class Client(Protocol):
    """A connected client as a room holds it (rooms.Client: its seat, a way to send to it)."""

    seat: int | None

    def send(self, message: str) -> None:
        """Queue one message for this client."""
        ...


class SeatLike(Protocol):
    """A room's seat: its kind (``human``, ``bot`` or ``empty``)."""

    kind: str


class Room(Protocol):
    """What the hints read of a room (rooms.Room; not imported, so that the modules do not cycle)."""

    id: str
    actions: int
    owner: str
    bots: BotRunner

    @property
    def seats(self) -> Sequence[SeatLike]:
        """The seats in order."""
        ...

    @property
    def game(self) -> Game | None:
        """The running game, if any."""
        ...

    @property
    def clients(self) -> Sequence[Client]:
        """The connected clients."""
        ...


def compute_hint(view: SeatView, worlds: int, seed: int) -> dict[str, Any]:
    """The hint for ``view`` as the protocol's fields (runs in a worker)."""
    return hint_payload(view, seed, min(worlds, HINT_WORLDS))


def compute_review(
    decisions: Sequence[tuple[int, SeatView, Action]], worlds: int, seed: int
) -> list[ReviewItem]:
    """The review of one seat's round as the protocol's items (runs in a worker).

    ``decisions`` are ``(turn, view, action)``: the seat's turn number in the round (1
    for its first card-play decision), the view it was sent then, the move it made.
    """
    return cast(list[ReviewItem], review_items(decisions, seed, min(worlds, HINT_WORLDS)))


def hint_message(seq: int, seat: int, payload: dict[str, Any], msg_id: str | None) -> str:
    """``hint``: the answer to a ``hint`` request (``payload``: :func:`compute_hint`'s), to its sender."""
    return to_client.hint(seq, seat, payload["worlds"], payload["moves"], msg_id)


class HintDesk:
    """A room's hints: who may have them, the ones being worked out, the decisions of the round."""

    def __init__(self, enabled: bool = False) -> None:
        self.enabled = enabled
        """The room option: hints for everyone even with other people at the table."""
        self._busy: set[int] = set()
        self._cache: dict[int, tuple[int, dict[str, Any]]] = {}
        self._asks: dict[int, deque[float]] = {}
        self._decisions: dict[int, list[tuple[int, SeatView, Action]]] = {}
        self._turns: dict[int, int] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # ----------------------------------------------------------------- who may

    def allowed(self, room: Room, seat: int | None) -> bool:
        """Whether ``seat`` may have hints: a person alone against bots, or anyone if the room allows."""
        if seat is None or not 0 <= seat < len(room.seats) or room.seats[seat].kind != "human":
            return False
        if self.enabled:
            return True
        return all(s.kind == "bot" for i, s in enumerate(room.seats) if i != seat)

    # ----------------------------------------------------------------- hints

    def _rate_ok(self, client: Client) -> bool:
        now = time.monotonic()
        asks = self._asks.setdefault(id(client), deque())
        while asks and now - asks[0] > 60.0:
            asks.popleft()
        if len(asks) >= HINTS_PER_MINUTE:
            return False
        asks.append(now)
        return True

    def forget(self, client: Client) -> None:
        """The client went away."""
        self._asks.pop(id(client), None)

    async def ask(self, room: Room, client: Client, msg_id: str | None) -> None:
        """Answer a ``hint`` request (raise ProtocolError to refuse it with one line)."""
        seat = client.seat
        if seat is None:
            raise ProtocolError(text.HINT_SPECTATOR, msg_id)
        if not self.allowed(room, seat):
            raise ProtocolError(text.HINTS_OFF, msg_id)
        game = room.game
        if game is None or game.over:
            raise ProtocolError(text.HINT_NOT_YOUR_TURN, msg_id)
        seq = room.actions
        view = view_of(game, seat)
        if not decides(view):
            raise ProtocolError(text.HINT_NOT_YOUR_TURN, msg_id)
        cached = self._cache.get(seat)
        if cached is not None and cached[0] == seq:
            client.send(hint_message(seq, seat, cached[1], msg_id))
            return
        if seat in self._busy:
            raise ProtocolError(text.HINT_BUSY, msg_id)
        if not self._rate_ok(client):
            raise ProtocolError(text.HINT_TOO_MANY, msg_id, n=HINTS_PER_MINUTE)
        self._busy.add(seat)  # worked out in a task: the connection's other messages go on meanwhile
        task = asyncio.create_task(self._answer(room, client, seat, seq, view, msg_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _answer(
        self, room: Room, client: Client, seat: int, seq: int, view: SeatView, msg_id: str | None
    ) -> None:
        try:
            payload = await room.bots.run_heavy(
                room.owner, compute_hint, view, HINT_WORLDS, public_seed(room.id, seq)
            )
        except RoppyakkenError as exc:
            client.send(to_client.error(exc, msg_id))
            return
        except Exception:
            log.exception("room %s: the hint for seat %d failed", room.id, seat)
            client.send(to_client.error(text.HINT_FAILED, msg_id))
            return
        finally:
            self._busy.discard(seat)
        self._cache[seat] = (seq, payload)
        if room.actions == seq:  # still that decision: a hint for a past one would mislead
            client.send(hint_message(seq, seat, payload, msg_id))

    # ----------------------------------------------------------------- reviews

    def before(self, room: Room, game: Game, seat: int, action: Action) -> SeatView | None:
        """Before ``action`` is applied for ``seat``: the view it was sent, if the review will want it."""
        if not isinstance(action, (Play, Take)) or not self.allowed(room, seat):
            return None
        view = view_of(game, seat)
        return view if len(view.legal) >= 2 else None  # nothing to choose: nothing to review

    def made(self, seat: int, view: SeatView | None, action: Action) -> None:
        """``action`` was applied (and stored) for ``seat``: keep its decision for the round's review."""
        if view is None:
            return
        turn = self._turns.get(seat, 0) + 1
        self._turns[seat] = turn
        self._decisions.setdefault(seat, []).append((turn, view, action))

    def round_ended(self, room: Room, round_index: int) -> None:
        """A round was scored: work out each seat's review and send it to that seat's clients only."""
        decisions, self._decisions, self._turns = self._decisions, {}, {}
        for seat, made in decisions.items():
            if made:
                task = asyncio.create_task(self._review(room, seat, round_index, made))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _review(
        self, room: Room, seat: int, round_index: int, made: list[tuple[int, SeatView, Action]]
    ) -> None:
        try:
            seed = public_seed(room.id, round_index * 10_000 + seat)
            items = await room.bots.run_heavy(room.owner, compute_review, made, REVIEW_WORLDS, seed)
        except Exception:
            log.exception("room %s: the review of seat %d failed", room.id, seat)
            return
        message = to_client.review(round_index, seat, items)
        for client in room.clients:
            if client.seat == seat:
                client.send(message)

    async def stop(self) -> None:
        """Cancel the reviews being worked out (server shutdown)."""
        for task in list(self._tasks):
            task.cancel()
