"""A duplicate arena that prints its running figures as it goes (for long runs on a busy machine).

Plays the deals of a batch seed one by one, exactly as ``roppyakken arena`` does (the
same deals and bot seeds), and prints after every ``--every`` deals the first bot's
win rate and points a round with their 95% intervals, so that a run cut short still
says what it measured::

    nice -n 10 .venv/bin/python bench/duel.py master:iters=600 master:iters=150 \\
        --rules marguerite --games 200 --seed 29

``--paired LEVEL`` also plays ``LEVEL`` in the first bot's place on every deal, against
the same opponents, and prints the first bot's difference with it on the same deals
(points a round and win rate, 95% intervals): a variant screened against the current
bot on identical deals.  ``--jobs 2`` plays deals in two processes (in deal order)::

    nice -n 10 .venv/bin/python bench/duel.py master:iters=150:infer=100 expert \\
        --paired master:iters=150:infer=0 --games 400 --seed 29 --jobs 2
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from typing import TypeVar

from roppyakken.ai.arena import ArenaTotals, DealResult, play_deal, summary
from roppyakken.ai.driver import game_seeds
from roppyakken.ai.stats import Z95
from roppyakken.rules import preset

_R = TypeVar("_R")


def line(totals: ArenaTotals, rules: str, spent: float) -> str:
    """One progress line: games, win rate and points a round of the first bot."""
    doc = summary(totals, rules)
    lo, hi = doc["ci95"][0]
    plo, phi = doc["points_per_round_ci95"][0]
    return (
        f"{doc['games']:5d} games {doc['rounds']:5d} rounds  win {doc['win_rate'][0]:.1%} "
        f"({lo:.1%}..{hi:.1%})  a round {doc['points_per_round'][0]:+.1f} ({plo}..{phi})  {spent:.0f}s"
    )


def paired_line(a: ArenaTotals, b: ArenaTotals) -> str:
    """The first bot's difference between ``a`` and ``b`` on the same deals, 95% intervals."""
    n = len(a.per_deal)
    out = []
    for unit in ("a round", "win rate"):
        if unit == "a round":
            diffs = [
                x.margins[0] / max(1, x.rounds) - y.margins[0] / max(1, y.rounds) for x, y in _pairs(a, b)
            ]
        else:
            games = len(a.bots)
            diffs = [(x.wins[0] - y.wins[0]) / games for x, y in _pairs(a, b)]
        mean = sum(diffs) / n
        se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / n)
        if unit == "a round":
            out.append(f"{unit} {mean:+.1f} ({mean - Z95 * se:+.1f}..{mean + Z95 * se:+.1f})")
        else:
            out.append(f"{unit} {mean:+.1%} ({mean - Z95 * se:+.1%}..{mean + Z95 * se:+.1%})")
    return "paired: " + ", ".join(out)


def _per_round(deal: DealResult) -> float:
    return deal.margins[0] / max(1, deal.rounds)


def _pairs(a: ArenaTotals, b: ArenaTotals) -> list[tuple[DealResult, DealResult]]:
    return list(zip(a.per_deal, b.per_deal, strict=True))


_JOB: tuple[str, list[str], str | None] = ("classic", [], None)


def _deal(seed: int) -> tuple[DealResult, DealResult | None]:
    rules_name, bots, other = _JOB
    rules = preset(rules_name)
    first = play_deal(rules, bots, seed)
    second = play_deal(rules, [other, *bots[1:]], seed) if other else None
    return first, second


def main(argv: list[str] | None = None) -> int:
    """Play the duel; print running figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("bots", nargs="+", help="2 or 3 bot levels, the first measured")
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--every", type=int, default=10, help="print every this many deals (10)")
    parser.add_argument(
        "--start", type=int, default=0, help="skip the batch's first N deals (to go on with a run cut short)"
    )
    parser.add_argument(
        "--paired", help="also play this level in the first bot's place; print the difference"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes (deals are reported in order)")
    args = parser.parse_args(argv)
    preset(args.rules)  # a bad name fails here, in one line
    n = len(args.bots)
    deals = -(-args.games // n)
    totals = ArenaTotals(list(args.bots))
    other = ArenaTotals([args.paired, *args.bots[1:]]) if args.paired else None
    start = time.monotonic()
    global _JOB
    _JOB = (args.rules, list(args.bots), args.paired)
    seeds = game_seeds(args.seed, args.start + deals)[args.start :]
    with multiprocessing.Pool(args.jobs) if args.jobs > 1 else _Serial() as pool:
        for i, (first, second) in enumerate(pool.imap(_deal, seeds), 1):
            totals.add(first)
            if other is not None and second is not None:
                other.add(second)
            if i % args.every == 0 or i == deals:
                print(line(totals, args.rules, time.monotonic() - start), flush=True)
                if other is not None:
                    print(
                        f"{'':6s}{args.paired}: " + line(other, args.rules, time.monotonic() - start),
                        flush=True,
                    )
                    print(f"{'':6s}" + paired_line(totals, other), flush=True)
    return 0


class _Serial:
    """``imap`` in this process (``--jobs 1``)."""

    def __enter__(self) -> _Serial:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def imap(self, func: Callable[[int], _R], items: Sequence[int]) -> Iterator[_R]:
        """Apply ``func`` to each item, lazily."""
        return map(func, items)


if __name__ == "__main__":
    sys.exit(main())
