"""Round robins for small clubs: every round of the event, made at its start.

**Tables of 2**: the circle method (Berger tables).  With ``n`` players (one more, a bye, when
``n`` is odd) there are ``n - 1`` rounds (``n`` when odd); every pair meets exactly once and, when
``n`` is odd, every player has exactly one bye.

**Tables of 3**: for 3, 9, 15 or 27 players a *Kirkman* schedule (a resolvable Steiner triple
system: the lines of the affine space over the field of three elements by parallel classes, and
for 15 the packing of the projective space PG(3, 2)): ``(n - 1) / 2`` rounds, no byes, every pair
meets exactly once.  For any other count the rounds go on until every pair has met: each round
the ``n mod 3`` byes go to the players with the fewest byes (then the fewest pairs left to meet),
and the rest are grouped by the Swiss search for tables of 3 with the pairs already met as
repeats, so a table repeats a pair only when the search found no grouping without.  Guaranteed
then: every pair meets at least once; byes differ by at most one between any two players, and
so do games played.  The count of rounds is the function's (the docs list it for small counts).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import product
from typing import Final

from roppyakken.server.club.tournaments.records import TABLE_SIZES, SwissRound
from roppyakken.server.club.tournaments.swiss import Pair, group_in_threes, met_pairs

COVERING_BUDGET: Final = 2_000
"""The steps each round's search for a grouping without met pairs may take (past the first rounds
there is rarely one: the swaps then do the work)."""

MAX_ROUND_ROBIN: Final = 32
"""The most players a round robin schedules (a club's event: 16 rounds by 3, 31 by 2)."""

_KIRKMAN_15: Final = (
    ((3, 9, 13), (5, 10, 12), (4, 8, 11), (6, 7, 14), (0, 1, 2)),
    ((6, 8, 13), (4, 9, 14), (1, 3, 5), (2, 7, 10), (0, 11, 12)),
    ((4, 10, 13), (2, 8, 9), (0, 5, 6), (3, 7, 11), (1, 12, 14)),
    ((5, 7, 13), (3, 8, 12), (0, 9, 10), (2, 11, 14), (1, 4, 6)),
    ((1, 7, 9), (0, 3, 4), (6, 10, 11), (5, 8, 14), (2, 12, 13)),
    ((0, 7, 8), (3, 10, 14), (1, 11, 13), (2, 4, 5), (6, 9, 12)),
    ((1, 8, 10), (2, 3, 6), (4, 7, 12), (5, 9, 11), (0, 13, 14)),
)
"""A Kirkman schedule of 15 (the fifteen schoolgirls): 7 rounds of 5 disjoint triples."""


def round_robin_schedule(players: Sequence[str], table_size: int, seed: int = 0) -> list[SwissRound]:
    """Every round of a round robin (see the module's docstring for what each size guarantees);
    ``seed`` shuffles who is who in the schedule."""
    if table_size not in TABLE_SIZES:
        raise ValueError(f"a table seats 2 or 3 players, not {table_size}")
    if len(set(players)) != len(players) or "" in players:
        raise ValueError("a round robin's players must be distinct, non-empty ids")
    if len(players) > MAX_ROUND_ROBIN:
        raise ValueError(f"a round robin has at most {MAX_ROUND_ROBIN} players, not {len(players)}")
    order = list(players)
    random.Random(seed).shuffle(order)
    if len(order) < table_size:
        return []
    if table_size == 2:
        return _circle(order)
    kirkman = _kirkman(len(order))
    if kirkman is not None:
        return [SwissRound(tables=tuple(tuple(order[i] for i in table) for table in rnd)) for rnd in kirkman]
    return _covering(order)


def _circle(order: list[str]) -> list[SwissRound]:
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


def _kirkman(n: int) -> list[list[tuple[int, ...]]] | None:
    """A Kirkman schedule of ``n`` players as indices, or None for a count without one here."""
    if n == 15:
        return [list(rnd) for rnd in _KIRKMAN_15]
    k = 0
    while 3**k < n:
        k += 1
    if 3**k != n or k == 0:
        return None
    # AG(k, 3): each direction up to sign gives a parallel class of lines {x, x + d, x + 2d}.
    points = list(product(range(3), repeat=k))
    index = {p: i for i, p in enumerate(points)}
    rounds: list[list[tuple[int, ...]]] = []
    for d in points:
        first = next((c for c in d if c), 0)
        if first != 1:  # the zero vector, or a direction already taken as its negative
            continue
        seen: set[int] = set()
        lines: list[tuple[int, ...]] = []
        for x in points:
            if index[x] in seen:
                continue
            line = tuple(
                index[tuple((xi + t * di) % 3 for xi, di in zip(x, d, strict=True))] for t in range(3)
            )
            seen.update(line)
            lines.append(line)
        rounds.append(lines)
    return rounds


def _covering(order: list[str]) -> list[SwissRound]:
    """Rounds until every pair has met (counts without a Kirkman schedule)."""
    everyone = set(order)
    unmet: dict[str, set[str]] = {p: everyone - {p} for p in order}
    met: set[Pair] = set()
    byes_had = dict.fromkeys(order, 0)
    rank = {p: i for i, p in enumerate(order)}
    halves = dict.fromkeys(order, 0)
    rounds: list[SwissRound] = []
    extra = len(order) % 3
    while any(unmet.values()):
        if len(rounds) > 3 * len(order):
            raise AssertionError("a round robin by threes did not cover every pair")
        byes = sorted(order, key=lambda p: (byes_had[p], len(unmet[p]), rank[p]))[:extra]
        seated = [p for p in order if p not in byes]
        # The players with most pairs left first, so the search seats them together.
        seated.sort(key=lambda p: (-len(unmet[p]), rank[p]))
        tables = group_in_threes(seated, halves, met, COVERING_BUDGET)
        for p in byes:
            byes_had[p] += 1
        for table in tables:
            for pair in met_pairs([table]):
                a, b = tuple(pair)
                unmet[a].discard(b)
                unmet[b].discard(a)
                met.add(pair)
        rounds.append(SwissRound(tables=tuple(tables), byes=tuple(byes)))
    return rounds
