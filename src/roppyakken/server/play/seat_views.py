"""The ``state`` messages of one change for every seat, built from the engine's views, quickly.

Each seat's view is :func:`~roppyakken.view.view_of` for that seat.  Its fields
that depend on the seat (:data:`SEAT_FIELDS`) are encoded per seat; all the
others are the same for every seat and the spectators, so they are taken from
the spectator's view (public information only) and encoded once per change.
Each message is the same text as :func:`roppyakken.server.wire.server.state` makes
of ``view_of(game, seat).to_json()`` and its choices (a test checks it byte for byte at
every step of whole games), for a fraction of the work.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from roppyakken.cards import slugs_of
from roppyakken.choices import choices
from roppyakken.engine import Game
from roppyakken.server.wire.server import ClockView, compact
from roppyakken.view import SeatView, view_of

SEAT_FIELDS: Final = ("seat", "hand", "legal", "lucky_hands")
"""The view fields that differ between seats; everything else is public."""


def seat_fields(view: SeatView) -> dict[str, Any]:
    """The seat-dependent fields of ``view.to_json()``."""
    return {
        "seat": view.seat,
        "hand": slugs_of(view.hand),
        "legal": [a.to_json() for a in view.legal],
        "lucky_hands": [
            {"slug": h.slug, "points": h.points, "cards": slugs_of(h.cards)} for h in view.lucky_hands
        ],
    }


class StateMessages:
    """The ``state`` message for each seat (``None``: spectators) after one change."""

    def __init__(self, game: Game, names: Sequence[str], seq: int, clock: ClockView | None = None) -> None:
        self.game = game
        self._tail = "}" if clock is None else f',"clock":{compact(clock)}}}'
        """The end of every message: the room's clock (public) if it has one."""
        spectator = view_of(game, None)
        public = spectator.to_json()
        for key in SEAT_FIELDS:
            del public[key]
        self._public = compact(public)[1:-1]
        self._head = f'{{"type":"state","seq":{seq},"names":{compact(list(names))},"view":{{'
        self._cache: dict[int | None, str] = {None: self._message(spectator)}

    def _message(self, view: SeatView) -> str:
        own = compact(seat_fields(view))[1:-1]
        extra = compact([c.to_json() for c in choices(view)])
        return f'{self._head}{own},{self._public}}},"choices":{extra}{self._tail}'

    def for_seat(self, seat: int | None) -> str:
        """The message for ``seat``: its own hand and legal actions, and the public rest."""
        message = self._cache.get(seat)
        if message is None:
            message = self._cache[seat] = self._message(view_of(self.game, seat))
        return message
