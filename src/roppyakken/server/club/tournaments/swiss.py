"""Swiss pairings: tables of 2 by a maximum-weight matching, tables of 3 by a repeat-free search.

A round is made from every active player's score, the tables already played (``met``) and the
byes already had.  Players are first put in *order*: score (high first), then rating (high
first), then a shuffle by the seed, so the same arguments always give the same round.

**Byes.**  When the count does not divide by the table size, the bye (one for tables of 2; one
or two for tables of 3) only ever goes to a player with the fewest byes so far, so nobody has a
second bye while an active player has none.  Among those, tables of 2 prefer (after repeats) the
lowest score; tables of 3 take the lowest score, then the lowest in order.

**Tables of 2** (FIDE's Dutch system in spirit, as a maximum-weight perfect matching, after
lichess's and bbpPairings' use of Edmonds' algorithm; networkx's ``max_weight_matching``).  Each
possible pair (and each player with the bye, when the count is odd) has a cost of five tiers,
minimised over the whole round in strict priority:

1. repeats: the pair already met at a table (never while a repeat-free pairing exists);
2. the bye's score (the bye goes to the lowest score the other tiers allow);
3. mixed pairs: the pair's scores differ (players of one score paired together first);
4. the squared difference of the pair's scores in half points (then the smallest differences);
5. Dutch seeding: within a score group in order, the first half meets the second half
   (1 v n/2+1, 2 v n/2+2 …): the distance from that, and the bye to the lowest in order.

A pair's weight is ``BIG - sum(tier_k * UNIT_k)`` where the unit of each tier is one more than the
largest total the tiers below it can reach over a round's ``m`` tables (``UNIT_k = 1 + sum over
lower tiers j of m * MAX_j * UNIT_j``).  Every perfect matching has the same ``m`` pairs, so the
heaviest one has the smallest cost, and one unit of a higher tier outweighs any difference in
all the tiers below: the tiers are minimised lexicographically, exactly.  Rounds of more than
:data:`DENSE_LIMIT` players are matched in blocks of about :data:`BLOCK` consecutive players in
order (cut at a change of score where one is near); a block whose best matching repeats a pair
is merged with its neighbour and matched again, up to the whole round, so tier 1 stays exact at
every size while tiers 2-5 are exact within each block.

**Tables of 3.**  After the byes, the players in order are grouped by a depth-first search that
takes the first player not yet seated and the nearest two after them in order with whom no pair
has met; it backtracks, and so finds a repeat-free grouping whenever one exists, within a budget
of :data:`SEARCH_BUDGET` steps, for rounds of up to :data:`SEARCH_MOST` players (checked against
an exhaustive search for every round of up to 12).  When none is found the grouping in order is
improved by swaps minimising repeated pairs.  Either way swaps of two players between nearby
tables then improve (repeated pairs, tables of mixed scores, the sum of each table's squared score
spread), in that order, never making a higher one worse.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

import networkx as nx

from roppyakken.server.club.tournaments.records import TABLE_SIZES, SwissRound

DENSE_LIMIT: Final = 64
"""Rounds of up to this many players (tables of 2) are one matching over every pair."""

BLOCK: Final = 32
"""The players in one block of a larger round's matching (about)."""

SEARCH_BUDGET: Final = 50_000
"""The steps the search for a repeat-free grouping in threes may take."""

SEARCH_MOST: Final = 1_500
"""Tables of 3: rounds of more players skip the search (its depth is a table) for the swaps alone."""

SWAP_REACH: Final = 6
"""Tables of 3: swaps are tried between tables at most this many apart in order."""

_BYE = "\x00bye"

Pair = frozenset[str]


def met_pairs(met: Iterable[Sequence[str]]) -> set[Pair]:
    """Every pair of players who shared a table in ``met``."""
    pairs: set[Pair] = set()
    for table in met:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                if a != b:
                    pairs.add(frozenset((a, b)))
    return pairs


def swiss_order(scores: Mapping[str, float], ratings: Mapping[str, float] | None, seed: int) -> list[str]:
    """The players by score, then rating (high first), then a shuffle by ``seed``."""
    rng = random.Random(seed)
    players = sorted(scores)
    rng.shuffle(players)
    rated = ratings or {}
    return sorted(players, key=lambda p: (-scores[p], -rated.get(p, 0.0)))


def swiss_pairing(
    scores: dict[str, float],
    met: Iterable[tuple[str, ...]],
    byes_had: dict[str, int],
    table_size: int,
    seed: int = 0,
    *,
    ratings: Mapping[str, float] | None = None,
    apart: Iterable[Sequence[str]] = (),
) -> SwissRound:
    """The next Swiss round: tables of ``table_size`` by score group, no repeat opponents while
    another pairing exists, byes (when the count does not divide) to the lowest-scored players
    who had the fewest.  ``met``: the tables played so far; ``scores`` holds every active player;
    ``ratings`` (optional) orders players of one score; ``apart``: pairs of players counted as
    having met (one blocks the other).  Fewer players than a table: all byes.
    """
    if table_size not in TABLE_SIZES:
        raise ValueError(f"a table seats 2 or 3 players, not {table_size}")
    order = swiss_order(scores, ratings, seed)
    if len(order) < table_size:
        return SwissRound(tables=(), byes=tuple(order))
    pairs = met_pairs(met) | met_pairs(apart)
    halves = {p: round(scores[p] * 2) for p in order}
    if table_size == 2:
        return _pairs(order, halves, pairs, byes_had)
    return _triples(order, halves, pairs, byes_had)


# Tables of 2 ------------------------------------------------------------------------------------


def _pair_costs(
    block: Sequence[str], halves: Mapping[str, int], pairs: set[Pair], bye_takers: Sequence[str]
) -> dict[tuple[str, str], tuple[int, int, int, int, int]]:
    """Each possible pair's five tiers (see the module's docstring)."""
    position: dict[str, tuple[int, int]] = {}
    groups: dict[int, list[str]] = {}
    for p in block:
        groups.setdefault(halves[p], []).append(p)
    for group in groups.values():
        for i, p in enumerate(group):
            position[p] = (i, len(group))
    costs: dict[tuple[str, str], tuple[int, int, int, int, int]] = {}
    for i, a in enumerate(block):
        for b in block[i + 1 :]:
            diff = halves[a] - halves[b]
            if diff == 0:
                (ia, size), (ib, _) = position[a], position[b]
                seeding = abs(abs(ia - ib) - size // 2)
            else:
                seeding = 0
            costs[(a, b)] = (int(frozenset((a, b)) in pairs), 0, int(diff != 0), diff * diff, seeding)
    if bye_takers:
        lowest = min(halves[p] for p in bye_takers)
        for p in bye_takers:
            i, size = position[p]
            costs[(p, _BYE)] = (0, halves[p] - lowest, 0, 0, size - 1 - i)
    return costs


def _match(costs: Mapping[tuple[str, str], tuple[int, ...]]) -> list[tuple[str, str]]:
    """The perfect matching of least cost, tiers compared lexicographically (weights as proved in
    the module's docstring)."""
    nodes = {p for edge in costs for p in edge}
    m = len(nodes) // 2
    tiers = len(next(iter(costs.values())))
    highest = [max(c[k] for c in costs.values()) for k in range(tiers)]
    units = [0] * tiers
    below = 0  # the largest total every tier below k can reach over m pairs, in weight
    for k in reversed(range(tiers)):
        units[k] = below + 1
        below += m * highest[k] * units[k]
    big = 1 + sum(h * u for h, u in zip(highest, units, strict=True))
    graph: nx.Graph[str] = nx.Graph()
    for (a, b), cost in costs.items():
        graph.add_edge(a, b, weight=big - sum(c * u for c, u in zip(cost, units, strict=True)))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    if len(matching) != m:
        raise AssertionError("a complete graph has a perfect matching")
    return [(a, b) for a, b in matching]


def _blocks(order: Sequence[str], halves: Mapping[str, int]) -> list[list[str]]:
    """``order`` cut into blocks of an even count, about :data:`BLOCK`, at a change of score near."""
    if len(order) <= DENSE_LIMIT:
        return [list(order)]
    blocks: list[list[str]] = []
    start = 0
    while len(order) - start > BLOCK + BLOCK // 2:
        cut = start + BLOCK
        for end in range(start + BLOCK // 2, start + BLOCK + BLOCK // 2 + 1, 2):
            if halves[order[end - 1]] != halves[order[end]]:
                cut = end
                break
        blocks.append(list(order[start:cut]))
        start = cut
    blocks.append(list(order[start:]))
    return blocks


def _pairs(
    order: list[str], halves: Mapping[str, int], pairs: set[Pair], byes_had: Mapping[str, int]
) -> SwissRound:
    fewest = min(byes_had.get(p, 0) for p in order)
    takers = [p for p in order if byes_had.get(p, 0) == fewest] if len(order) % 2 else []
    bye: list[str] = []
    if takers and len(order) > DENSE_LIMIT:  # fixed before cutting into blocks: lowest in order
        bye = [takers[-1]]
        order = [p for p in order if p != bye[0]]
        takers = []
    blocks = _blocks(order, halves)
    matched: list[list[tuple[str, str]]] = []
    i = 0
    while i < len(blocks):
        block = blocks[i]
        in_block = [p for p in takers if p in set(block)] if i == len(blocks) - 1 else []
        pairing = _match(_pair_costs(block, halves, pairs, in_block))
        if len(blocks) > 1 and any(frozenset(pair) in pairs for pair in pairing):
            j = i + 1 if i + 1 < len(blocks) else i - 1
            lo, hi = min(i, j), max(i, j)
            blocks[lo : hi + 1] = [blocks[lo] + blocks[hi]]
            del matched[lo:]
            i = lo
            continue
        matched.append(pairing)
        i += 1
    tables: list[tuple[str, str]] = []
    rank = {p: i for i, p in enumerate(order)}
    for pairing in matched:
        for a, b in pairing:
            if _BYE in (a, b):
                bye.append(a if b == _BYE else b)
            else:
                tables.append((a, b) if rank[a] < rank[b] else (b, a))
    tables.sort(key=lambda t: rank[t[0]])
    return SwissRound(tables=tuple(tables), byes=tuple(bye))


# Tables of 3 ------------------------------------------------------------------------------------


def _triples(
    order: list[str], halves: Mapping[str, int], pairs: set[Pair], byes_had: Mapping[str, int]
) -> SwissRound:
    extra = len(order) % 3
    rank = {p: i for i, p in enumerate(order)}
    byes = sorted(order, key=lambda p: (byes_had.get(p, 0), halves[p], -rank[p]))[:extra]
    seated = [p for p in order if p not in byes]
    tables = group_in_threes(seated, halves, pairs)
    return SwissRound(tables=tuple(tables), byes=tuple(sorted(byes, key=rank.__getitem__)))


def group_in_threes(
    seated: Sequence[str],
    halves: Mapping[str, int],
    pairs: set[Pair],
    budget: int = SEARCH_BUDGET,
) -> list[tuple[str, str, str]]:
    """Tables of 3 for ``seated`` (in order; a multiple of 3): repeat-free when the search finds
    one within ``budget`` steps, then improved by swaps (see the module's docstring)."""
    found = _repeat_free(list(seated), pairs, budget) if len(seated) <= SEARCH_MOST else None
    tables = found if found is not None else [tuple(seated[i : i + 3]) for i in range(0, len(seated), 3)]
    rank = {p: i for i, p in enumerate(seated)}
    improved = _improve([list(t) for t in tables], halves, pairs)
    ordered = [tuple(sorted(t, key=rank.__getitem__)) for t in improved]
    ordered.sort(key=lambda t: rank[t[0]])
    return [(t[0], t[1], t[2]) for t in ordered]


class _OverBudget(Exception):
    """The search took its budget of steps."""


def _repeat_free(seated: list[str], pairs: set[Pair], budget: int) -> list[tuple[str, str, str]] | None:
    """The first repeat-free grouping of the depth-first search, or None (none, or over budget)."""
    steps = 0

    def met(a: str, b: str) -> bool:
        return frozenset((a, b)) in pairs

    def search(rest: list[str]) -> list[tuple[str, str, str]] | None:
        nonlocal steps
        if not rest:
            return []
        p, others = rest[0], rest[1:]
        free = [q for q in others if not met(p, q)]
        for i, q in enumerate(free):
            for r in free[i + 1 :]:
                if met(q, r):
                    continue
                steps += 1
                if steps > budget:
                    raise _OverBudget
                below = search([x for x in others if x is not q and x is not r])
                if below is not None:
                    return [(p, q, r), *below]
        return None

    try:
        return search(seated)
    except _OverBudget:
        return None


def _cost(table: Sequence[str], halves: Mapping[str, int], pairs: set[Pair]) -> tuple[int, int, int]:
    a, b, c = table
    repeats = (frozenset((a, b)) in pairs) + (frozenset((a, c)) in pairs) + (frozenset((b, c)) in pairs)
    scores = (halves[a], halves[b], halves[c])
    spread = max(scores) - min(scores)
    return (repeats, int(spread != 0), spread * spread)


def _improve(tables: list[list[str]], halves: Mapping[str, int], pairs: set[Pair]) -> list[list[str]]:
    """Swap players between tables (at most :data:`SWAP_REACH` apart) while a swap lowers the two
    tables' cost, compared tier by tier."""
    costs = [_cost(t, halves, pairs) for t in tables]
    changed = True
    passes = 0
    while changed and passes < 50:
        changed = False
        passes += 1
        for i in range(len(tables)):
            for j in range(i + 1, min(len(tables), i + 1 + SWAP_REACH)):
                for x in range(3):
                    for y in range(3):
                        ti, tj = tables[i], tables[j]
                        ni = [*ti[:x], tj[y], *ti[x + 1 :]]
                        nj = [*tj[:y], ti[x], *tj[y + 1 :]]
                        ci, cj = _cost(ni, halves, pairs), _cost(nj, halves, pairs)
                        before = tuple(u + v for u, v in zip(costs[i], costs[j], strict=True))
                        after = tuple(u + v for u, v in zip(ci, cj, strict=True))
                        if after < before:
                            tables[i], tables[j], costs[i], costs[j] = ni, nj, ci, cj
                            changed = True
    return tables
