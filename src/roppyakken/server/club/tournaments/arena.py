"""Arena pairing: a wave of tables for the players waiting, as lichess's arena pairs them.

The waiting players are ranked by score (high first; then the longest waiting).  Players are
taken longest waiting first; each is seated with the waiting players nearest to them in that
rank (the longer waiting first among equally near), skipping anyone they or their table-mates
just played (:attr:`Waiting.last_opponents`, either way round), any pair kept ``apart`` (one
blocks the other: server/people/blocks.py), and anyone more than
``window`` places away.  A player who found no such table waits for the next wave, unless they
have waited ``max_wait`` seconds: then they are seated with whoever is nearest, last opponents
included.  Guaranteed:

* every table has ``table_size`` distinct waiting players, and nobody is at two tables;
* a table repeats a last opponent, or spans more than ``window`` places, only when one of its
  players had waited ``max_wait``;
* fewer than ``table_size`` of the players who waited ``max_wait`` are left waiting (the latest
  arrivals among them);
* without last opponents and within the window, everybody but the ``len % table_size`` latest
  arrivals is seated.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from roppyakken.server.club.tournaments.records import (
    ARENA_MAX_WAIT,
    ARENA_RANK_WINDOW,
    TABLE_SIZES,
    Waiting,
)


def arena_pairing(
    waiting: Sequence[Waiting],
    table_size: int,
    *,
    now: float | None = None,
    max_wait: float = ARENA_MAX_WAIT,
    window: int = ARENA_RANK_WINDOW,
    apart: Collection[frozenset[str]] = frozenset(),
) -> list[tuple[str, ...]]:
    """Tables for the arena's waiting players: near scores together, the longest waiting first,
    not the same opponents again at once while others wait (see the module's docstring).

    ``now`` (the same clock as :attr:`Waiting.since`; default: the latest arrival) tells who has
    waited ``max_wait``.  ``apart``: pairs of players treated as last opponents of each other.
    Players left over wait for the next wave.
    """
    if table_size not in TABLE_SIZES:
        raise ValueError(f"a table seats 2 or 3 players, not {table_size}")
    if len({w.player_id for w in waiting}) != len(waiting):
        raise ValueError("a player waits only once")
    if not waiting:
        return []
    clock = max(w.since for w in waiting) if now is None else now
    ranked = sorted(waiting, key=lambda w: (-w.score, w.since, w.player_id))
    rank = {w.player_id: i for i, w in enumerate(ranked)}
    free = [True] * len(ranked)
    left = len(ranked)

    def clash(a: Waiting, b: Waiting) -> bool:
        return (
            a.player_id in b.last_opponents
            or b.player_id in a.last_opponents
            or frozenset((a.player_id, b.player_id)) in apart
        )

    tables: list[tuple[str, ...]] = []
    for first in sorted(waiting, key=lambda w: (w.since, rank[w.player_id])):
        i = rank[first.player_id]
        if not free[i] or left < table_size:
            continue
        overdue = clock - first.since >= max_wait
        reach = len(ranked) if overdue else window
        table = [first]
        later: list[Waiting] = []  # clashing players, taken only when overdue
        for d in range(1, reach + 1):
            near = [j for j in (i - d, i + d) if 0 <= j < len(ranked) and free[j]]
            near.sort(key=lambda j: (ranked[j].since, j))
            for j in near:
                other = ranked[j]
                if any(clash(other, seated) for seated in table):
                    later.append(other)
                elif len(table) < table_size:
                    table.append(other)
            if len(table) == table_size:
                break
        if overdue:
            table.extend(later[: table_size - len(table)])
        if len(table) < table_size:
            continue
        for w in table:
            free[rank[w.player_id]] = False
        left -= table_size
        tables.append(tuple(w.player_id for w in sorted(table, key=lambda w: rank[w.player_id])))
    return tables
