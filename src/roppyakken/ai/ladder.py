"""The ladder: every pair of bot levels in a duplicate arena, then Elo-style ratings."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations
from typing import Any

from roppyakken.ai.arena import ArenaTotals, run_arena, summary
from roppyakken.ai.elo import PairResult, ratings
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import N_
from roppyakken.rules import Rules

DEFAULT_LEVELS = ("random", "greedy", "expert", "master")
"""The levels a ladder plays when none are named."""


def run_ladder(
    rules: Rules,
    levels: Sequence[str],
    games_per_pair: int,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[str, ArenaTotals], None] | None = None,
    resamples: int = 200,
    ray: str | None = None,
) -> dict[str, Any]:
    """Play every pair of ``levels`` (2 players, duplicate deals) and rate them.

    Each pair plays ``games_per_pair`` games (rounded up to whole deals) on the deals
    of the batch seed ``seed``.  Returns a JSON-ready document: the ratings with 95%
    intervals (first level rated 0), and each pair's arena summary.  ``jobs`` and
    ``ray`` are those of :func:`~roppyakken.ai.arena.run_arena`.
    """
    levels = list(levels)
    if len(levels) < 2:
        raise RoppyakkenError(N_("a ladder needs at least two levels"))
    if len(set(levels)) != len(levels):
        raise RoppyakkenError(N_("a ladder names each level once"))
    if games_per_pair < 2:
        raise RoppyakkenError(N_("--games must be at least 2 (one deal, both seatings)"))
    rules.check_players(2)
    deals = -(-games_per_pair // 2)
    pairs: list[PairResult] = []
    arenas: list[dict[str, Any]] = []
    for a, b in combinations(range(len(levels)), 2):
        label = f"{levels[a]} vs {levels[b]}"

        def report(t: ArenaTotals, label: str = label) -> None:
            if progress is not None:
                progress(label, t)

        totals = run_arena(rules, [levels[a], levels[b]], deals, seed, jobs, report, ray=ray)
        pairs.append(PairResult(a, b, tuple((d.wins[0], d.wins[1]) for d in totals.per_deal)))
        arenas.append(summary(totals, rules.preset))
    point, intervals = ratings(len(levels), pairs, resamples=resamples, seed=seed)
    return {
        "levels": levels,
        "rules": rules.preset,
        "seed": seed,
        "games_per_pair": deals * 2,
        "ratings": [
            {"level": lv, "rating": round(r, 1), "ci95": [round(lo, 1), round(hi, 1)]}
            for lv, r, (lo, hi) in zip(levels, point, intervals, strict=True)
        ],
        "pairs": arenas,
    }
