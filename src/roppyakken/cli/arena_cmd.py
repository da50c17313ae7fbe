"""``roppyakken arena``: duplicate matches between bots, with confidence intervals (FORMATS.md §5)."""

from __future__ import annotations

import argparse
import shutil
import sys
from typing import Any, Final

from roppyakken.ai.arena import Progress, run_arena, summary
from roppyakken.ai.base import BOT_LEVELS, BOT_OPTIONS
from roppyakken.ai.ray_backend import document_stdout
from roppyakken.cli.common import (
    add_rules_arguments,
    add_worker_arguments,
    check_players,
    print_json,
    rules_from_args,
    seed_argument,
)
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import N_, Plural, _, cell_width, decimal, fill, nfill, pad, right
from roppyakken.text import preset_label


def levels_help() -> str:
    """The bot levels and their options, for ``--help``."""
    parts = []
    for name in BOT_LEVELS:
        extra = f" ({BOT_OPTIONS[name][1]})" if name in BOT_OPTIONS else ""
        parts.append(f"{name}{extra}")
    return "; ".join(parts)


def register(sub: Any, help_text: str) -> None:
    """Add the ``arena`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    p = sub.add_parser(
        "arena",
        help=help_text,
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
    p.add_argument("--seed", type=seed_argument, default=0, help=_("batch seed (0)"))
    add_worker_arguments(p)
    p.add_argument("--json", action="store_true", help=_("print the FORMATS.md §5 document"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken arena``."""
    rules = rules_from_args(args)
    levels = [s.strip() for s in args.bots.split(",") if s.strip()]
    if len(levels) not in (2, 3):
        raise RoppyakkenError(
            N_("--bots names {bots}: an arena is for 2 or 3"), bots=Plural("{n} bot", "{n} bots", len(levels))
        )
    if args.players is not None and args.players != len(levels):
        raise RoppyakkenError(
            N_("--bots names {bots} for {players}"),
            bots=Plural("{n} bot", "{n} bots", len(levels)),
            players=Plural("{n} player", "{n} players", args.players),
        )
    if args.games < 1:
        raise RoppyakkenError(N_("--games must be at least 1"))
    check_players(args, rules, len(levels))
    deals = -(-args.games // len(levels))
    show = not args.json or sys.stderr.isatty()
    progress = Progress(deals * len(levels), lambda s: print(s, end="", file=sys.stderr, flush=True))
    report = progress if show else None
    with document_stdout(args.ray):  # Ray's own messages go to stderr, not into the document
        totals = run_arena(rules, levels, deals, args.seed, args.jobs, report, ray=args.ray)
    if show:
        print(file=sys.stderr)
    result = summary(totals, rules.preset)
    if args.json:
        print_json(result)
        return 0
    print_table(result, args.seed, shutil.get_terminal_size().columns)
    return 0


ARENA_HEAD: Final = N_("{games} ({deals} x {seatings}), {rules} rules, {players}, seed {seed}")
COLUMN_BOT: Final = N_("bot")
COLUMN_WINS: Final = N_("wins")
COLUMN_WIN_RATE: Final = N_("win rate")
COLUMN_CI: Final = N_("95% CI")
COLUMN_POINTS_GAME: Final = N_("points/game")
COLUMN_MARGIN_ROUND: Final = N_("margin/round")
COLUMN_DECISIONS: Final = N_("decisions")
INTERVAL: Final = N_("{low} to {high}")
DRAWS: Final = N_("draws: {n}")
DECISION_TIME: Final = N_("decision time (ms):")


def print_table(result: dict[str, Any], seed: int, columns: int = 80) -> None:
    """The arena result as a readable table, in the current language (bot levels by slug), as
    narrow as its cells allow so that it fits ``columns`` cells."""
    n = result["players"]
    print(
        fill(
            ARENA_HEAD,
            games=nfill("{n} game", "{n} games", result["games"]),
            deals=nfill("{n} deal", "{n} deals", result["deals"]),
            seatings=nfill("{n} seating", "{n} seatings", n),
            rules=preset_label(result["rules"]),
            players=nfill("{n} player", "{n} players", n),
            seed=seed,
        )
    )
    bot = _(COLUMN_BOT)
    heads = [
        _(h)
        for h in (COLUMN_WINS, COLUMN_WIN_RATE, COLUMN_CI, COLUMN_POINTS_GAME, COLUMN_MARGIN_ROUND, COLUMN_CI)
    ]
    rows = []
    for i, name in enumerate(result["bots"]):
        lo, hi = result["ci95"][i]
        plo, phi = result["points_per_round_ci95"][i]
        unknown = plo is None or phi is None
        low, high = ("", "") if unknown else (decimal(f"{plo:+.1f}"), decimal(f"{phi:+.1f}"))
        margin_ci = fill(INTERVAL, low=low, high=high) if low else "-"
        cells = [
            str(result["wins"][i]),
            decimal(f"{result['win_rate'][i]:.1%}"),
            decimal(f"{100 * lo:.1f}-{hi:.1%}"),  # 0.0-49.0%
            decimal(f"{result['mean_points_per_game'][i]:.1f}"),
            decimal(f"{result['points_per_round'][i]:+.1f}"),
            margin_ci,
        ]
        rows.append((name, cells))
    width = max(cell_width(bot), *(len(name) for name, _cells in rows))
    widths = [max(cell_width(h), *(cell_width(c[j]) for _n, c in rows)) for j, h in enumerate(heads)]
    # two spaces between columns, one where two would not fit the terminal
    gap = "  " if width + sum(widths) + 2 * len(widths) <= columns else " "
    for first, cells in [(bot, heads), *rows]:
        print(
            first
            + " " * (width - cell_width(first))
            + "".join(gap + right(c, w) for c, w in zip(cells, widths, strict=True))
        )
    if result["draws"]:
        print(fill(DRAWS, n=result["draws"]))
    print(_(DECISION_TIME))
    decisions = _(COLUMN_DECISIONS)
    dwidth = max(9, cell_width(decisions))
    print(f"{pad(bot, width + 1)} {'p50':>8}  {'p99':>8}  {'max':>8}  {right(decisions, dwidth)}")
    for name, t in result["decision_ms"].items():
        times = "  ".join(decimal(format(t[key], ">8.2f")) for key in ("p50", "p99", "max"))
        print(f"{pad(name, width + 1)} {times}  {right(str(t['decisions']), dwidth)}")
