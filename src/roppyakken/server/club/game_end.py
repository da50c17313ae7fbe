"""The club's part of a room's life, stored with the room's own writes: a public room listed in the
lobby when it is made; a finished game's seats summarised for the players' profiles and, if it
was rated with every seat a person, the players' ratings moved (in the same transaction as the
game's end: durable before anyone sees it).

:class:`ClubRecords` is the :class:`~roppyakken.server.play.effects.RoomRecords` the
application gives the room registry (server/web/services.py).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Any

from roppyakken.server.club import open_tables, profiles
from roppyakken.server.club.ratings import store as rating_store
from roppyakken.server.club.ratings.pools import pool_of
from roppyakken.server.club.tournaments import store as tournament_store
from roppyakken.server.play.effects import Ending, Work

log = logging.getLogger("roppyakken.server")


def rated_pool(ending: Ending) -> str | None:
    """The rating pool a finished game counts in; None if it does not count."""
    if ending.result is None:
        return None
    try:
        return pool_of(ending.preset, ending.players)
    except ValueError:
        return None


class ClubRecords:
    """Open tables, profiles, ratings and tournament results, stored with the rooms' writes."""

    def __init__(self) -> None:
        self.tournament_ended: Callable[[], None] | None = None
        """Called (on the database's thread) when a tournament's game ended: its director pairs again."""

    def created(self, room_id: str, public: bool) -> Work | None:
        """A public room is listed while its host comes to it."""
        if not public:
            return None
        return lambda c: open_tables.stamp(c, [room_id], time.time())

    def ended(self, ending: Ending) -> Work | None:
        """The seats' summaries for the profiles, and the ratings of a rated game."""
        pool = rated_pool(ending)

        def work(c: Any) -> None:
            try:
                profiles.store_game(c, ending.room_id, ending.record)
            except (
                ValueError,
                TypeError,
                KeyError,
                AttributeError,
            ) as exc:  # never keeps the game from ending
                log.error("room %s: its seats' summaries were not stored: %s", ending.room_id, exc)
            if pool is not None and ending.result is not None:
                rating_store.record_game(c, ending.room_id, pool, ending.at, **ending.result.fields())
            # a tournament's table: its result is stored with the game's end, never apart from it
            if tournament_store.record_end(c, ending.room_id, ending.record, ending.at.timestamp()):
                told = self.tournament_ended
                if told is not None:
                    told()

        return work
