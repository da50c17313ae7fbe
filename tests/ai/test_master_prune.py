"""The master's pruning from running sums keeps exactly the moves the two-pass test keeps.

The search keeps running sums (``_Sums``), so that each world's test costs the same however
many worlds came before, and falls back on the exact two-pass test (``_paired``) only near
its threshold.  Seeded random values, including candidates built to sit on the threshold.
"""

from __future__ import annotations

import math
import random

from roppyakken.ai.master import _paired, _prune, _Sums


def _exact_prune(active: list[int], values: list[list[float]]) -> list[int]:
    """The reference pruning: sums and paired tests over all the worlds."""
    leader = max(active, key=lambda i: sum(values[i]))
    keep = []
    for i in active:
        mean, se = _paired(values[i], values[leader])
        if i == leader or mean + 2.5 * (se + 1e-3) >= 0.0:
            keep.append(i)
    return keep


def _sums_of(active: list[int], values: list[list[float]]) -> _Sums:
    """The running sums of ``values``, built afresh world by world."""
    sums = _Sums(len(values))
    for j in range(len(values[active[0]])):
        sums.add(active, [values[i][j] for i in active])
    return sums


def test_running_totals_are_the_sums_of_the_values() -> None:
    """The totals are added in world order: the very float ``sum`` gives (it picks the leader)."""
    rng = random.Random(5)
    values: list[list[float]] = [[], [], []]
    sums = _Sums(3)
    for _ in range(500):
        results = [rng.random() for _ in range(3)]
        for i, v in enumerate(results):
            values[i].append(v)
        sums.add([0, 1, 2], results)
    assert sums.total == [sum(v) for v in values]
    m = len(values[0])
    mean, se = _paired(values[1], values[0])
    assert math.isclose(sums.paired_test(1, 0, m), mean + 2.5 * (se + 1e-3), abs_tol=1e-9)


def test_pruning_from_running_sums_keeps_what_the_exact_test_keeps() -> None:
    rng = random.Random(11)
    decided = 0
    for trial in range(300):
        n = rng.randint(2, 5)
        active = list(range(n))
        values: list[list[float]] = [[] for _ in range(n)]
        sums = _Sums(n)
        edge = rng.random() * 0.2
        for _ in range(rng.randint(8, 120)):
            base = rng.random()
            results = []
            for i in active:
                if trial % 3 == 0:  # rollouts that win or lose: many ties, zero variances
                    v = float(rng.random() < 0.5 - 0.05 * i)
                elif trial % 3 == 1:  # candidates that differ by a near-constant amount
                    v = min(1.0, max(0.0, base - edge * i + 1e-4 * rng.random()))
                else:
                    v = rng.random()
                results.append(v)
            for i, v in zip(active, results, strict=True):
                values[i].append(v)
            sums.add(active, results)
            kept = _prune(active, values, sums)
            assert kept == _exact_prune(active, values)
            assert _prune(active, values, _sums_of(active, values)) == kept  # sums built afresh
            decided += len(active) - len(kept)
            if kept != active:
                # The search goes on with the kept moves only (their sums stay valid).
                active = kept
            if len(active) == 1:
                break
    assert decided > 100  # the tests did drop moves, not only keep them all
