"""``roppyakken arena``: duplicate matches between bots, with confidence intervals (FORMATS.md §5)."""

from __future__ import annotations

import argparse
import sys
from typing import Any

from roppyakken.ai.arena import Progress, run_arena, summary
from roppyakken.ai.base import BOT_LEVELS, BOT_OPTIONS
from roppyakken.cli.common import add_rules_arguments, print_json, rules_from_args
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import _, fill


def levels_help() -> str:
    """The bot levels and their options, for ``--help``."""
    parts = []
    for name in BOT_LEVELS:
        extra = f" ({BOT_OPTIONS[name][1]})" if name in BOT_OPTIONS else ""
        parts.append(f"{name}{extra}")
    return "; ".join(parts)


def register(sub: Any) -> None:
    """Add the ``arena`` subcommand."""
    p = sub.add_parser(
        "arena",
        help=_("measure bots against each other (duplicate deals, win rates with 95%% CIs)"),
        description=fill(
            "Play duplicate matches between 2 or 3 bots: every deal is played once per seat "
            "rotation, so the luck of the deal cancels out (FORMATS.md §5). "
            "Bot levels: {levels}. Options follow the level: master:ms=500.",
            levels=levels_help(),
        ),
    )
    p.add_argument(
        "--bots", required=True, help=_("bot levels, comma-separated, 2 or 3 (e.g. expert,greedy)")
    )
    p.add_argument(
        "--games",
        type=int,
        default=100,
        metavar="N",
        help=_("games to play (100), rounded up to whole deals"),
    )
    p.add_argument("--players", type=int, choices=(2, 3), help=_("2 or 3 (the number of bots)"))
    add_rules_arguments(p)
    p.add_argument("--seed", type=int, default=0, help=_("batch seed (0)"))
    p.add_argument(
        "--jobs", type=int, default=1, metavar="N", help=_("worker processes (1); results do not change")
    )
    p.add_argument("--json", action="store_true", help=_("print the FORMATS.md §5 document"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken arena``."""
    rules = rules_from_args(args)
    levels = [s.strip() for s in args.bots.split(",") if s.strip()]
    if len(levels) not in (2, 3):
        raise RoppyakkenError(f"--bots names {len(levels)} bots: an arena is for 2 or 3")
    if args.players is not None and args.players != len(levels):
        raise RoppyakkenError(f"--bots names {len(levels)} bots for {args.players} players")
    if args.games < 1:
        raise RoppyakkenError("--games must be at least 1")
    deals = -(-args.games // len(levels))
    show = not args.json or sys.stderr.isatty()
    progress = Progress(deals * len(levels), lambda s: print(s, end="", file=sys.stderr, flush=True))
    totals = run_arena(rules, levels, deals, args.seed, args.jobs, progress if show else None)
    if show:
        print(file=sys.stderr)
    result = summary(totals, rules.preset)
    if args.json:
        print_json(result)
        return 0
    print_table(result, args.seed)
    return 0


def print_table(result: dict[str, Any], seed: int) -> None:
    """The arena result as a readable table."""
    n = result["players"]
    print(
        f"{result['games']} games ({result['deals']} deals x {n} seatings), "
        f"{result['rules']} rules, {n} players, seed {seed}"
    )
    width = max(6, *(len(b) for b in result["bots"]))
    print(
        f"{'bot':<{width}}  {'wins':>6}  {'win rate':>8}  {'95% CI':>15}  {'points/game':>11}  "
        f"{'margin/round':>12}  {'95% CI':>17}"
    )
    for i, bot in enumerate(result["bots"]):
        lo, hi = result["ci95"][i]
        plo, phi = result["points_per_round_ci95"][i]
        margin_ci = "-" if plo is None or phi is None else f"{plo:+.1f} to {phi:+.1f}"
        print(
            f"{bot:<{width}}  {result['wins'][i]:>6}  {result['win_rate'][i]:>8.1%}  "
            f"{f'{lo:.1%} - {hi:.1%}':>15}  {result['mean_points_per_game'][i]:>11.1f}  "
            f"{result['points_per_round'][i]:>+12.1f}  {margin_ci:>17}"
        )
    if result["draws"]:
        print(f"draws: {result['draws']}")
    print("decision time (ms):")
    print(f"{'bot':<{width}}  {'p50':>8}  {'p99':>8}  {'max':>8}  {'decisions':>9}")
    for bot, t in result["decision_ms"].items():
        print(f"{bot:<{width}}  {t['p50']:>8.2f}  {t['p99']:>8.2f}  {t['max']:>8.2f}  {t['decisions']:>9}")
