"""Points: by finishing place (ties share), Swiss byes, abandonment, the arena's streak.

Points are multiples of one half:

* a table's places give :data:`PLACE_POINTS` (2 for first, 1 for second of three, 0 for last);
  players tied on a place share the points of the places they span (two tied first of two: 1
  each; three tied of three: 1 each; ``(1, 2, 2)``: 2, 0.5, 0.5);
* an arena doubles the points of a player on a *streak* (:func:`arena_points`);
* a Swiss or round-robin bye is worth :data:`BYE_POINTS`;
* an abandoned game (:attr:`TableResult.abandoned`) scores 0 for whoever abandoned.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence

from roppyakken.server.club.tournaments.records import PLACE_POINTS, STREAK_AFTER, TableResult


def place_points(places: Sequence[int]) -> tuple[float, ...]:
    """Each player's points for the places of one table (ties share the places they span)."""
    return _place_points(tuple(places))


@functools.cache
def _place_points(places: tuple[int, ...]) -> tuple[float, ...]:
    """:func:`place_points`, worked out once for each of the few tuples of places there are."""
    size = len(places)
    if size not in PLACE_POINTS:
        raise ValueError(f"a table seats 2 or 3 players, not {size}")
    if any(not 1 <= place <= size for place in places):
        raise ValueError(f"places must be between 1 and {size}: {tuple(places)}")
    table = PLACE_POINTS[size]
    points: list[float] = []
    for place in places:
        tied = sum(1 for other in places if other == place)
        span = table[place - 1 : place - 1 + tied]
        points.append(sum(span) / tied)
    return tuple(points)


def game_points(result: TableResult, player_id: str) -> float:
    """What one game gave a player before any streak: their place's points, 0 if they abandoned."""
    if player_id in result.abandoned:
        return 0.0
    return place_points(result.places)[result.players.index(player_id)]


def is_win(result: TableResult, player_id: str) -> bool:
    """The player finished first alone and did not abandon."""
    index = result.players.index(player_id)
    return result.places[index] == 1 and result.places.count(1) == 1 and player_id not in result.abandoned


class StreakCounter:
    """An arena player's points game after game (lichess's arena streak).

    After :data:`STREAK_AFTER` wins in a row each game's points count double, until a game that is
    not a win (a shared first place, a lower place or an abandonment), whose points still count
    double, ends the streak.
    """

    __slots__ = ("total", "wins_in_row")

    def __init__(self) -> None:
        self.total = 0.0
        self.wins_in_row = 0

    @property
    def on_streak(self) -> bool:
        """The next game's points count double."""
        return self.wins_in_row >= STREAK_AFTER

    def add(self, result: TableResult, player_id: str) -> float:
        """Count one game; the points it gave."""
        return self.count(game_points(result, player_id), is_win(result, player_id))

    def count(self, points: float, win: bool) -> float:
        """Count one game that gave ``points`` before the streak (``win``: the player won it); the
        points it gave."""
        points *= 2 if self.on_streak else 1
        self.total += points
        self.wins_in_row = self.wins_in_row + 1 if win else 0
        return points


def arena_points(results: Iterable[TableResult], player_id: str) -> tuple[float, bool]:
    """An arena player's total points over their results in order, and whether they are on a streak.

    After :data:`STREAK_AFTER` wins in a row, each game's points count double until a game that is
    not a win.
    """
    counter = StreakCounter()
    for result in results:
        if player_id in result.players:
            counter.add(result, player_id)
    return counter.total, counter.on_streak
