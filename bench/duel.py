"""A duplicate arena that prints its running figures as it goes (for long runs on a busy machine).

Plays the deals of a batch seed one by one, exactly as ``roppyakken arena`` does (the
same deals and bot seeds), and prints after every ``--every`` deals the first bot's
win rate and points a round with their 95% intervals, so that a run cut short still
says what it measured::

    nice -n 10 .venv/bin/python bench/duel.py master:iters=60:exact=6 master:iters=60 \\
        --rules classic --games 200 --seed 29
"""

from __future__ import annotations

import argparse
import sys
import time

from roppyakken.ai.arena import ArenaTotals, play_deal, summary
from roppyakken.ai.driver import game_seeds
from roppyakken.rules import preset


def line(totals: ArenaTotals, rules: str, spent: float) -> str:
    """One progress line: games, win rate and points a round of the first bot."""
    doc = summary(totals, rules)
    lo, hi = doc["ci95"][0]
    plo, phi = doc["points_per_round_ci95"][0]
    return (
        f"{doc['games']:5d} games {doc['rounds']:5d} rounds  win {doc['win_rate'][0]:.1%} "
        f"({lo:.1%}..{hi:.1%})  a round {doc['points_per_round'][0]:+.1f} ({plo}..{phi})  {spent:.0f}s"
    )


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
    args = parser.parse_args(argv)
    rules = preset(args.rules)
    n = len(args.bots)
    deals = -(-args.games // n)
    totals = ArenaTotals(list(args.bots))
    start = time.monotonic()
    for i, seed in enumerate(game_seeds(args.seed, args.start + deals)[args.start :], 1):
        totals.add(play_deal(rules, args.bots, seed))
        if i % args.every == 0 or i == deals:
            print(line(totals, args.rules, time.monotonic() - start), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
