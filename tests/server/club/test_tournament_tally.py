"""Standings kept game by game (tally.py) equal the standings counted from every game
(tiebreaks.standings, R-free: docs/TOURNAMENTS.md "Standings") at every step of random tournaments."""

from __future__ import annotations

import random

import pytest

from roppyakken.server.club.tournaments.model import Entrant, Format, TableResult, standings
from roppyakken.server.club.tournaments.tally import Tally


def _places(size: int, rng: random.Random) -> tuple[int, ...]:
    """Random places with ties (tied players share the better place)."""
    scores = [rng.randrange(3) for _ in range(size)]
    return tuple(1 + sum(1 for other in scores if other > mine) for mine in scores)


def _random_event(seed: int, fmt: Format) -> None:
    rng = random.Random(seed)
    size = rng.choice((2, 3))
    pool = [f"p{i:02d}" for i in range(rng.randrange(size, 16))]
    first = pool[: rng.randrange(size, len(pool) + 1)]
    entrants = [Entrant(p, rng.choice((1400.0, 1500.0, 1600.0))) for p in first]
    tally = Tally(fmt, (e.player_id for e in entrants))
    results: list[TableResult] = []
    byes: list[str] = []
    withdrawn: set[str] = set()
    for _ in range(rng.randrange(1, 60)):
        roll = rng.random()
        if roll < 0.06 and len(entrants) < len(pool):
            # a late entrant: in an arena one who never played; elsewhere any (a recount)
            entrants.append(Entrant(pool[len(entrants)], 1500.0))
        elif roll < 0.08 and fmt != "arena" and len(entrants) > size:
            entrants.pop(rng.randrange(len(entrants)))  # left: the games are counted again
        elif roll < 0.14 and fmt != "arena":
            byes.append(rng.choice(pool))
        elif roll < 0.17:
            withdrawn.add(rng.choice(entrants).player_id)
        else:
            # a table, now and then with a player who is not (yet) an entrant
            players = tuple(rng.sample(pool if rng.random() < 0.1 else [e.player_id for e in entrants], size))
            gave_up = frozenset(p for p in players if rng.random() < 0.08)
            result = TableResult(players, _places(size, rng), gave_up)
            results.append(result)
            tally.add(result)
        counts: dict[str, int] = {}
        for p in byes:
            counts[p] = counts.get(p, 0) + 1
        tally.set_byes(counts)
        expected = standings(fmt, entrants, results, byes, withdrawn)
        assert tally.standings(entrants, withdrawn) == expected, (seed, len(results))
        for line in expected:
            assert tally.points(line.player_id) == line.points


@pytest.mark.parametrize("fmt", ["arena", "swiss", "round_robin"])
def test_standings_kept_game_by_game_are_the_standings_counted_again_over_random_events(fmt: Format) -> None:
    for seed in range(300):
        _random_event(seed, fmt)


def test_a_game_touches_only_its_players_and_those_who_met_them() -> None:
    tally = Tally("swiss", ["a", "b", "c", "d"])
    tally.add(TableResult(("a", "b"), (1, 2)))
    tally.add(TableResult(("c", "d"), (1, 2)))
    lines = {s.player_id: s for s in tally.standings([Entrant(p, 1500.0) for p in "abcd"])}
    assert (lines["a"].points, lines["a"].buchholz, lines["b"].buchholz) == (2.0, 0.0, 2.0)
    tally.add(TableResult(("b", "c"), (1, 2)))  # b now has 2: a's Buchholz follows, d's does not
    lines = {s.player_id: s for s in tally.standings([Entrant(p, 1500.0) for p in "abcd"])}
    assert (lines["a"].buchholz, lines["d"].buchholz, lines["c"].buchholz) == (2.0, 2.0, 2.0)
    assert lines["b"].sonneborn_berger == 2.0  # beat c (2 points); lost to a
    assert lines["a"].sonneborn_berger == 2.0  # beat b, now on 2
