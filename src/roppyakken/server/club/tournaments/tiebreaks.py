"""Standings: points, then named tie-breaks in :data:`TIE_BREAKS` order, valid for tables of 3.

1. **points**: places' points, byes, the arena's doubled streak points (:mod:`.points`);
2. **buchholz**: the sum of the final points of every table-mate of every game (both opponents
   of a table of 3 count; a withdrawn player counts with their final points; a bye adds
   nothing), as FIDE's Buchholz sums the opponents' scores;
3. **sonneborn_berger**: over every table-mate of every game, the mate's final points if the
   player finished above them, half if they tied on a place (a table of 3 is three pairwise
   games, as FIDE's Sonneborn-Berger counts defeated and drawn opponents' scores); an abandoning
   player finished below everyone at the table;
4. **wins**: games finished first alone;
5. **rating**: the rating on entry.

Players equal on all five share a rank.  :attr:`Standing.tie_break` names the first key that set
a line apart from the line above (None when points did).  A withdrawn player keeps their line.
"""

from __future__ import annotations

from collections.abc import Container, Iterable, Mapping, Sequence

from roppyakken.server.club.tournaments.points import StreakCounter, place_points
from roppyakken.server.club.tournaments.records import (
    BYE_POINTS,
    TIE_BREAKS,
    Entrant,
    Format,
    Standing,
    TableResult,
)

ABANDONED_PLACE = 99
"""An abandoning player's place for Sonneborn–Berger: below everyone at the table."""


def standings(
    fmt: Format,
    entrants: Sequence[Entrant],
    results: Sequence[TableResult],
    byes: Iterable[str] = (),
    withdrawn: Iterable[str] = (),
) -> list[Standing]:
    """The standings after ``results`` (in the order they ended) and the byes given."""
    ids = [e.player_id for e in entrants]
    rating = {e.player_id: e.rating for e in entrants}
    byes_of = dict.fromkeys(ids, 0)
    for p in byes:
        if p in byes_of:
            byes_of[p] += 1
    gone = set(withdrawn)
    counters = {p: StreakCounter() for p in ids}
    wins = dict.fromkeys(ids, 0)
    games = dict.fromkeys(ids, 0)
    arena = fmt == "arena"
    for result in results:
        # game_points and is_win for each player of the table, worked out once for the table
        given, places, gave_up = place_points(result.places), result.places, result.abandoned
        alone_first = places.count(1) == 1
        for i, pid in enumerate(result.players):
            counter = counters.get(pid)
            if counter is None:
                continue
            games[pid] += 1
            kept = pid not in gave_up
            win = kept and alone_first and places[i] == 1
            wins[pid] += win
            if arena:
                counter.count(given[i] if kept else 0.0, win)
            else:
                counter.total += given[i] if kept else 0.0
    points = {p: counters[p].total + (0.0 if fmt == "arena" else BYE_POINTS * byes_of[p]) for p in ids}
    buchholz = dict.fromkeys(ids, 0.0)
    berger = dict.fromkeys(ids, 0.0)
    for result in results:
        places = result.places
        if result.abandoned:
            places = tuple(
                ABANDONED_PLACE if p in result.abandoned else place
                for p, place in zip(result.players, result.places, strict=True)
            )
        for i, pid in enumerate(result.players):
            if pid not in buchholz:
                continue
            for j, other in enumerate(result.players):
                if j == i or other not in points:
                    continue
                buchholz[pid] += points[other]
                if places[i] < places[j]:
                    berger[pid] += points[other]
                elif places[i] == places[j]:
                    berger[pid] += points[other] / 2

    streaks = {p for p in ids if arena and counters[p].on_streak}
    return ranked(ids, rating, points, buchholz, berger, wins, games, byes_of, streaks, gone)


def ranked(
    ids: Sequence[str],
    rating: Mapping[str, float],
    points: Mapping[str, float],
    buchholz: Mapping[str, float],
    berger: Mapping[str, float],
    wins: Mapping[str, int],
    games: Mapping[str, int],
    byes: Mapping[str, int],
    streaks: Container[str],
    withdrawn: Container[str],
) -> list[Standing]:
    """The players ``ids`` ranked by their points and tie-breaks, each tie-break said where it
    set a line apart from the line above."""
    keys = {p: (-points[p], -buchholz[p], -berger[p], -wins[p], -rating[p]) for p in ids}
    ordered = sorted(ids, key=lambda p: (keys[p], p))
    lines: list[Standing] = []
    above: tuple[float, ...] | None = None
    for i, pid in enumerate(ordered):
        rank = i + 1
        tie_break: str | None = None
        here = keys[pid]
        if above is not None:
            if above == here:
                rank = lines[-1].rank
            else:
                first = next(k for k in range(len(here)) if above[k] != here[k])
                tie_break = None if first == 0 else TIE_BREAKS[first]
        above = here
        lines.append(
            Standing(
                rank=rank,
                player_id=pid,
                points=points[pid],
                buchholz=buchholz[pid],
                wins=wins[pid],
                games=games[pid],
                byes=byes.get(pid, 0),
                streak=pid in streaks,
                withdrawn=pid in withdrawn,
                tie_break=tie_break,
                sonneborn_berger=berger[pid],
            )
        )
    return lines
