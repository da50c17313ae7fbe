"""Small statistics for bot strength: confidence intervals and percentiles."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.959963984540054
"""The two-sided 95% quantile of the normal distribution."""


def wilson(successes: float, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); ``(0, 1)`` for no trials."""
    if trials <= 0:
        return 0.0, 1.0
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) of ``values``, linearly interpolated; 0 if empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    if len(ordered) == 1:
        return ordered[0]
    rank = (len(ordered) - 1) * q / 100.0
    low = math.floor(rank)
    high = min(low + 1, len(ordered) - 1)
    frac = rank - low
    return ordered[low] * (1 - frac) + ordered[high] * frac


def ratio_interval(
    numerators: Sequence[float], denominators: Sequence[float], z: float = Z95
) -> tuple[float, float, float]:
    """The ratio ``sum(numerators) / sum(denominators)`` with its 95% interval, by clusters.

    Each pair is one cluster (a duplicate deal: the points margin summed over its rounds,
    and its number of rounds), so rounds of one deal may be correlated but deals are
    independent.  The interval is the delta method's for a ratio estimator; with fewer
    than two clusters it is infinite.
    """
    n = len(numerators)
    total = sum(denominators)
    if n == 0 or total <= 0:
        return 0.0, -math.inf, math.inf
    ratio = sum(numerators) / total
    if n < 2:
        return ratio, -math.inf, math.inf
    mean_den = total / n
    residuals = sum((x - ratio * y) ** 2 for x, y in zip(numerators, denominators, strict=True))
    half = z * math.sqrt(residuals / (n * (n - 1))) / mean_den
    return ratio, ratio - half, ratio + half
