"""A tournament's pure rules: entrants, tables, results, points, pairings and standings.

Every function here is deterministic: the same arguments give the same answer (a random choice
takes a ``seed``); nothing reads a database, a clock or a file.  Player ids are strings; a table
is a tuple of player ids in seat order; a result gives each player of a table a finishing
*place* (1 first; players tied share the better place: ``(1, 1, 3)``).

This module is the formats' one entry point; each rule lives beside it: the data in
``records.py``, points and the arena's streak in ``points.py``, Swiss pairings in ``swiss.py``,
round robins in ``round_robin.py``, arena waves in ``arena.py`` and standings with their
tie-breaks in ``tiebreaks.py``.  docs/TOURNAMENTS.md ("Formats") says what each guarantees.
"""

from __future__ import annotations

from roppyakken.server.club.tournaments.arena import arena_pairing
from roppyakken.server.club.tournaments.points import (
    StreakCounter,
    arena_points,
    game_points,
    is_win,
    place_points,
)
from roppyakken.server.club.tournaments.records import (
    ARENA_MAX_WAIT,
    ARENA_RANK_WINDOW,
    BYE_POINTS,
    FORMATS,
    PLACE_POINTS,
    STREAK_AFTER,
    TABLE_SIZES,
    TIE_BREAKS,
    Entrant,
    Format,
    Standing,
    SwissRound,
    TableResult,
    Waiting,
)
from roppyakken.server.club.tournaments.round_robin import MAX_ROUND_ROBIN, round_robin_schedule
from roppyakken.server.club.tournaments.swiss import swiss_pairing
from roppyakken.server.club.tournaments.tiebreaks import standings

__all__ = [
    "ARENA_MAX_WAIT",
    "ARENA_RANK_WINDOW",
    "BYE_POINTS",
    "FORMATS",
    "MAX_ROUND_ROBIN",
    "PLACE_POINTS",
    "STREAK_AFTER",
    "TABLE_SIZES",
    "TIE_BREAKS",
    "Entrant",
    "Format",
    "Standing",
    "StreakCounter",
    "SwissRound",
    "TableResult",
    "Waiting",
    "arena_pairing",
    "arena_points",
    "game_points",
    "is_win",
    "place_points",
    "round_robin_schedule",
    "standings",
    "swiss_pairing",
]
