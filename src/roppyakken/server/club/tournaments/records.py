"""What a tournament is made of, as plain data: entrants, table results, waiting arena players,
rounds and standings lines, with the constants of every format."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

Format = Literal["arena", "swiss", "round_robin"]
FORMATS: Final[tuple[Format, ...]] = ("arena", "swiss", "round_robin")

TABLE_SIZES: Final[tuple[int, ...]] = (2, 3)
"""A tournament's tables seat 2 or 3 players."""

PLACE_POINTS: Final[dict[int, tuple[float, ...]]] = {2: (2.0, 0.0), 3: (2.0, 1.0, 0.0)}
"""Points by finishing place (index 0: first) for a table of 2 and of 3."""

BYE_POINTS: Final = 1.0
"""What a Swiss round's bye is worth (half a win)."""

STREAK_AFTER: Final = 2
"""An arena player who won this many games in a row is on a streak: their points count double."""

ARENA_MAX_WAIT: Final = 30.0
"""Seconds after which a waiting arena player is seated with whoever waits (last opponents and
players of distant score included)."""

ARENA_RANK_WINDOW: Final = 10
"""An arena table joins players at most this many places apart in the waiting players' score order
(until one has waited :data:`ARENA_MAX_WAIT`)."""

TIE_BREAKS: Final[tuple[str, ...]] = ("points", "buchholz", "sonneborn_berger", "wins", "rating")
"""The order standings are decided in (each named in the standings and their page)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """A player in a tournament."""

    player_id: str
    rating: float = 0.0
    """Their skill on the display scale when they joined (seeds the first pairings)."""


@dataclass(frozen=True, slots=True)
class TableResult:
    """How one tournament table ended."""

    players: tuple[str, ...]
    places: tuple[int, ...]
    """Each player's finishing place (1 first; tied players share the better place)."""
    abandoned: frozenset[str] = frozenset()
    """Players who abandoned the game (they score 0 whatever their place)."""
    round: int = 0
    """The Swiss or round-robin round (0 in an arena)."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """An arena player waiting for their next table."""

    player_id: str
    score: float
    since: float
    """When they started waiting (seconds: only the order matters)."""
    last_opponents: frozenset[str] = frozenset()
    """Whom they just played (not paired with them again at once while others wait)."""


@dataclass(frozen=True, slots=True)
class SwissRound:
    """One Swiss (or round-robin) round's tables and byes."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a tournament's standings."""

    rank: int
    """1 first; players equal on every tie-break share a rank."""
    player_id: str
    points: float
    buchholz: float
    """The sum of the final points of every player they met at a table (each table-mate counts)."""
    wins: int
    games: int
    byes: int = 0
    streak: bool = False
    """Arena only: on a streak now."""
    withdrawn: bool = False
    tie_break: str | None = None
    """The first tie-break that set them apart from the player just above (None: points did)."""
    extra: dict[str, float] = field(default_factory=dict)
    sonneborn_berger: float = 0.0
    """Over every table-mate at every game: the mate's final points if they finished above them,
    half of them if tied on a place."""
