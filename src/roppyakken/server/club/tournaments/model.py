"""A tournament's pure rules: entrants, tables, results, points, pairings and standings.

Every function here is deterministic: the same arguments give the same answer (a
random choice takes a ``seed``).  Player ids are strings; a table is a tuple of
player ids in seat order; a result gives each player of a table a finishing
*place* (1 first; players tied share the better place: ``(1, 1, 3)``).

Points are multiples of one half:

* a table's places give :data:`PLACE_POINTS` (2 for first, 1 for second of three,
  0 for last); players tied on a place share the points of the places they span
  (two tied first of two: 1 each);
* an arena doubles the points of a player on a *streak* (:func:`arena_points`);
* a Swiss bye is worth :data:`BYE_POINTS`;
* an abandoned game (:attr:`TableResult.abandoned`) scores 0 for whoever abandoned.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Final, Literal

Format = Literal["arena", "swiss", "round_robin"]
FORMATS: Final[tuple[Format, ...]] = ("arena", "swiss", "round_robin")

PLACE_POINTS: Final[dict[int, tuple[float, ...]]] = {2: (2.0, 0.0), 3: (2.0, 1.0, 0.0)}
"""Points by finishing place (index 0: first) for a table of 2 and of 3."""

BYE_POINTS: Final = 1.0
"""What a Swiss round's bye is worth (half a win)."""

STREAK_AFTER: Final = 2
"""An arena player who won this many games in a row is on a streak: their points count double."""


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


def place_points(places: Sequence[int]) -> tuple[float, ...]:
    """Each player's points for the places of one table (ties share the places they span)."""
    size = len(places)
    table = PLACE_POINTS[size]
    points: list[float] = []
    for place in places:
        tied = sum(1 for other in places if other == place)
        span = table[place - 1 : place - 1 + tied]
        points.append(sum(span) / tied)
    return tuple(points)


def is_win(result: TableResult, player_id: str) -> bool:
    """The player finished first alone and did not abandon."""
    index = result.players.index(player_id)
    return result.places[index] == 1 and result.places.count(1) == 1 and player_id not in result.abandoned


def arena_points(results: Iterable[TableResult], player_id: str) -> tuple[float, bool]:
    """An arena player's total points over their results in order, and whether they are on a streak.

    After :data:`STREAK_AFTER` wins in a row, each game's points count double until a game
    that is not a win.
    """
    total = 0.0
    wins_in_row = 0
    for result in results:
        if player_id not in result.players:
            continue
        index = result.players.index(player_id)
        points = 0.0 if player_id in result.abandoned else place_points(result.places)[index]
        total += points * (2 if wins_in_row >= STREAK_AFTER else 1)
        wins_in_row = wins_in_row + 1 if is_win(result, player_id) else 0
    return total, wins_in_row >= STREAK_AFTER


@dataclass(frozen=True, slots=True)
class Waiting:
    """An arena player waiting for their next table."""

    player_id: str
    score: float
    since: float
    """When they started waiting (seconds: only the order matters)."""
    last_opponents: frozenset[str] = frozenset()
    """Whom they just played (not paired with them again at once while others wait)."""


def arena_pairing(waiting: Sequence[Waiting], table_size: int) -> list[tuple[str, ...]]:
    """Tables for the arena's waiting players: near scores together, the longest waiting first.

    Players left over wait for the next wave.
    """
    ordered = sorted(waiting, key=lambda w: (-w.score, w.since, w.player_id))
    tables: list[tuple[str, ...]] = []
    for start in range(0, len(ordered) - table_size + 1, table_size):
        tables.append(tuple(w.player_id for w in ordered[start : start + table_size]))
    return tables


@dataclass(frozen=True, slots=True)
class SwissRound:
    """One Swiss (or round-robin) round's tables and byes."""

    tables: tuple[tuple[str, ...], ...]
    byes: tuple[str, ...] = ()


def swiss_pairing(
    scores: dict[str, float],
    met: Iterable[tuple[str, ...]],
    byes_had: dict[str, int],
    table_size: int,
    seed: int = 0,
) -> SwissRound:
    """The next Swiss round: tables of ``table_size`` by score group, no repeat opponents while
    another pairing exists, byes (when the count does not divide) to the lowest-scored players
    who had the fewest.  ``met``: the tables played so far; ``scores`` holds every active player.
    """
    rng = random.Random(seed)
    players = sorted(scores, key=lambda p: (-scores[p], rng.random()))
    extra = len(players) % table_size
    byes: list[str] = []
    if extra:
        by_need = sorted(players, key=lambda p: (byes_had.get(p, 0), scores[p], -players.index(p)))
        byes = by_need[:extra]
        players = [p for p in players if p not in byes]
    tables = tuple(tuple(players[i : i + table_size]) for i in range(0, len(players), table_size))
    return SwissRound(tables=tables, byes=tuple(byes))


def round_robin_schedule(players: Sequence[str], table_size: int, seed: int = 0) -> list[SwissRound]:
    """Every round of a round robin: with tables of 2, each pair meets once (the circle method)."""
    if table_size != 2:
        raise ValueError("round robin by tables of 3 is not scheduled yet")
    order = list(players)
    random.Random(seed).shuffle(order)
    if len(order) % 2:
        order.append("")
    rounds: list[SwissRound] = []
    n = len(order)
    for _ in range(n - 1):
        pairs = [(order[i], order[n - 1 - i]) for i in range(n // 2)]
        tables = tuple(p for p in pairs if "" not in p)
        byes = tuple(a or b for a, b in pairs if "" in (a, b))
        rounds.append(SwissRound(tables=tables, byes=byes))
        order = [order[0], order[-1], *order[1:-1]]
    return rounds


TIE_BREAKS: Final[tuple[str, ...]] = ("points", "buchholz", "wins", "rating")
"""The order standings are decided in (each named in the standings and their page)."""


@dataclass(frozen=True, slots=True)
class Standing:
    """One line of a tournament's standings."""

    rank: int
    """1 first; players equal on every tie-break share a rank."""
    player_id: str
    points: float
    buchholz: float
    """The sum of the final points of every player they met at a table."""
    wins: int
    games: int
    byes: int = 0
    streak: bool = False
    """Arena only: on a streak now."""
    withdrawn: bool = False
    tie_break: str | None = None
    """The first tie-break that set them apart from the player just above (None: points did)."""
    extra: dict[str, float] = field(default_factory=dict)


def standings(
    fmt: Format,
    entrants: Sequence[Entrant],
    results: Sequence[TableResult],
    byes: Iterable[str] = (),
    withdrawn: Iterable[str] = (),
) -> list[Standing]:
    """The standings after ``results`` (in the order they ended) and the byes given."""
    byes_of: dict[str, int] = {}
    for p in byes:
        byes_of[p] = byes_of.get(p, 0) + 1
    gone = set(withdrawn)
    rating = {e.player_id: e.rating for e in entrants}
    points: dict[str, float] = {}
    streak: dict[str, bool] = {}
    for entrant in entrants:
        pid = entrant.player_id
        if fmt == "arena":
            points[pid], streak[pid] = arena_points(results, pid)
        else:
            total = BYE_POINTS * byes_of.get(pid, 0)
            for result in results:
                if pid in result.players:
                    i = result.players.index(pid)
                    total += 0.0 if pid in result.abandoned else place_points(result.places)[i]
            points[pid], streak[pid] = total, False
    met: dict[str, list[str]] = {e.player_id: [] for e in entrants}
    wins = {e.player_id: 0 for e in entrants}
    games = {e.player_id: 0 for e in entrants}
    for result in results:
        for pid in result.players:
            if pid not in met:
                continue
            met[pid].extend(o for o in result.players if o != pid)
            games[pid] += 1
            wins[pid] += is_win(result, pid)
    buchholz = {p: sum(points.get(o, 0.0) for o in met[p]) for p in met}

    def key(pid: str) -> tuple[float, float, int, float]:
        return (-points[pid], -buchholz[pid], -wins[pid], -rating[pid])

    ordered = sorted(met, key=lambda p: (key(p), p))
    lines: list[Standing] = []
    for i, pid in enumerate(ordered):
        above = ordered[i - 1] if i else None
        tie_break: str | None = None
        rank = i + 1
        if above is not None:
            a, b = key(above), key(pid)
            if a == b:
                rank = lines[-1].rank
            else:
                first = next(j for j in range(len(a)) if a[j] != b[j])
                tie_break = None if first == 0 else TIE_BREAKS[first]
        lines.append(
            Standing(
                rank=rank,
                player_id=pid,
                points=points[pid],
                buchholz=buchholz[pid],
                wins=wins[pid],
                games=games[pid],
                byes=byes_of.get(pid, 0),
                streak=streak[pid],
                withdrawn=pid in gone,
                tie_break=tie_break,
            )
        )
    return lines
