"""``roppyakken ladder``: every pair of bot levels, then an Elo-style rating table."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from roppyakken.ai.arena import ArenaTotals, elapsed_text
from roppyakken.ai.base import bot_description
from roppyakken.ai.ladder import DEFAULT_LEVELS, run_ladder
from roppyakken.cli.arena_cmd import levels_help
from roppyakken.cli.common import add_rules_arguments, print_json, rules_from_args
from roppyakken.i18n import _, fill


def register(sub: Any) -> None:
    """Add the ``ladder`` subcommand."""
    p = sub.add_parser(
        "ladder",
        help=_("rate the bot levels against each other (Elo-style, with 95%% intervals)"),
        description=fill(
            "Play every pair of bot levels in duplicate 2-player matches and fit Elo-style "
            "ratings (the first level is rated 0; 400 points = 10 to 1 odds). Bot levels: {levels}.",
            levels=levels_help(),
        ),
    )
    p.add_argument(
        "--levels",
        default=",".join(DEFAULT_LEVELS),
        help=fill("levels to rate, comma-separated ({levels})", levels=",".join(DEFAULT_LEVELS)),
    )
    p.add_argument("--games", type=int, default=100, metavar="N", help=_("games per pair of levels (100)"))
    add_rules_arguments(p)
    p.add_argument("--seed", type=int, default=0, help=_("batch seed (0)"))
    p.add_argument(
        "--jobs", type=int, default=1, metavar="N", help=_("worker processes (1); results do not change")
    )
    p.add_argument("--json", action="store_true", help=_("print the ratings and every pair's arena as JSON"))
    p.set_defaults(run=run)


class _Progress:
    def __init__(self) -> None:
        import time

        self.clock = time.monotonic
        self.start = self.clock()
        self.last = 0.0

    def __call__(self, label: str, totals: ArenaTotals) -> None:
        now = self.clock()
        if now - self.last < 0.5:
            return
        self.last = now
        print(
            f"\r{label}: {totals.games} games, {elapsed_text(now - self.start)} elapsed   ",
            end="",
            file=sys.stderr,
            flush=True,
        )


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken ladder``."""
    rules = rules_from_args(args)
    levels = [s.strip() for s in args.levels.split(",") if s.strip()]
    show = not args.json or sys.stderr.isatty()
    doc = run_ladder(rules, levels, args.games, args.seed, args.jobs, _Progress() if show else None)
    if show:
        print(file=sys.stderr)
    if args.json:
        print_json(doc)
        return 0
    print_ladder(doc)
    return 0


def print_ladder(doc: dict[str, Any]) -> None:
    """The ladder as readable tables: ratings, then each pair."""
    print(
        f"ladder: {doc['rules']} rules, 2 players, {doc['games_per_pair']} games per pair, seed {doc['seed']}"
    )
    width = max(6, *(len(r["level"]) for r in doc["ratings"]))
    print(f"{'level':<{width}}  {'rating':>7}  {'95% CI':>15}  description")
    for r in sorted(doc["ratings"], key=lambda r: -r["rating"]):
        lo, hi = r["ci95"]
        interval = f"{lo:.0f} .. {hi:.0f}"
        print(f"{r['level']:<{width}}  {r['rating']:>7.0f}  {interval:>15}  {bot_description(r['level'])}")
    print("pairs (first level's wins):")
    for arena in doc["pairs"]:
        a, b = arena["bots"]
        lo, hi = arena["ci95"][0]
        print(
            f"  {a} vs {b}: {arena['wins'][0]}/{arena['games']} = {arena['win_rate'][0]:.1%} "
            f"(95% CI {lo:.1%} - {hi:.1%})"
        )
