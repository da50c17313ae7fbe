"""Elo-style ratings from pairwise results (Bradley-Terry), with bootstrap confidence intervals.

The chance that a player rated ``a`` beats one rated ``b`` is ``1 / (1 + 10 ** ((b - a) / 400))``.
Ratings are the maximum-likelihood fit of all the pairwise games, with half a win and
half a loss added to every pair so that a clean sweep still gives a finite rating, and
are anchored so that the first level has rating 0.  The 95% intervals come from
resampling each pair's deals (a deal is the unit: its games are played on the same
cards) and fitting again.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from roppyakken.ai.stats import percentile

PRIOR = 0.5
"""Virtual wins (and as many losses) added to every pair."""


@dataclass(frozen=True, slots=True)
class PairResult:
    """The games between levels ``a`` and ``b``: per deal, the wins of a and of b."""

    a: int
    b: int
    deals: tuple[tuple[int, int], ...]

    @property
    def wins_a(self) -> int:
        """Games won by ``a``."""
        return sum(w for w, _ in self.deals)

    @property
    def wins_b(self) -> int:
        """Games won by ``b``."""
        return sum(w for _, w in self.deals)


def fit(count: int, pairs: Sequence[tuple[int, int, float, float]], iterations: int = 2000) -> list[float]:
    """Ratings of ``count`` levels from ``(a, b, wins_a, wins_b)``; level 0 is rated 0.

    Minorization-maximization for the Bradley-Terry model, then the Elo scale.
    """
    strength = [1.0] * count
    wins = [0.0] * count
    games: dict[tuple[int, int], float] = {}
    for a, b, wa, wb in pairs:
        wins[a] += wa + PRIOR
        wins[b] += wb + PRIOR
        key = (min(a, b), max(a, b))
        games[key] = games.get(key, 0.0) + wa + wb + 2 * PRIOR
    for _ in range(iterations):
        new = []
        for i in range(count):
            denom = 0.0
            for (a, b), n in games.items():
                if a == i:
                    denom += n / (strength[i] + strength[b])
                elif b == i:
                    denom += n / (strength[i] + strength[a])
            new.append(wins[i] / denom if denom > 0 else strength[i])
        base = new[0]
        new = [s / base for s in new]
        change = max(abs(math.log(x / y)) for x, y in zip(new, strength, strict=True))
        strength = new
        if change < 1e-10:
            break
    return [400.0 * math.log10(s) for s in strength]


def ratings(
    count: int, results: Sequence[PairResult], resamples: int = 200, seed: int = 0
) -> tuple[list[float], list[tuple[float, float]]]:
    """Ratings and their 95% bootstrap intervals (deals resampled within each pair)."""
    point = fit(count, [(r.a, r.b, r.wins_a, r.wins_b) for r in results])
    rng = random.Random(f"elo:{seed}")
    samples: list[list[float]] = [[] for _ in range(count)]
    for _ in range(resamples):
        pairs = []
        for r in results:
            picked = [r.deals[rng.randrange(len(r.deals))] for _ in r.deals] if r.deals else []
            pairs.append((r.a, r.b, float(sum(w for w, _ in picked)), float(sum(w for _, w in picked))))
        for i, v in enumerate(fit(count, pairs, iterations=500)):
            samples[i].append(v)
    intervals = [(percentile(s, 2.5), percentile(s, 97.5)) for s in samples]
    return point, intervals


def expected_score(a: float, b: float) -> float:
    """The chance that a player rated ``a`` beats one rated ``b``."""
    return 1.0 / (1.0 + math.pow(10.0, (b - a) / 400.0))
