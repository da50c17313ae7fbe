"""``roppyakken ladder``: every pair of bot levels, then an Elo-style rating table."""

from __future__ import annotations

import argparse
import shutil
import sys
from typing import Any, Final

from roppyakken.ai.arena import ArenaTotals, elapsed_text
from roppyakken.ai.ladder import DEFAULT_LEVELS, run_ladder
from roppyakken.ai.ray_backend import document_stdout
from roppyakken.cli.arena_cmd import COLUMN_CI, levels_help
from roppyakken.cli.common import (
    add_rules_arguments,
    add_worker_arguments,
    print_json,
    rules_from_args,
    seed_argument,
)
from roppyakken.i18n import N_, _, cell_width, decimal, fill, nfill, pad, right
from roppyakken.linebreak import wrap
from roppyakken.text import bot_level_description, preset_label


def register(sub: Any, help_text: str) -> None:
    """Add the ``ladder`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    p = sub.add_parser(
        "ladder",
        help=help_text,
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
    p.add_argument("--seed", type=seed_argument, default=0, help=_("batch seed (0)"))
    add_worker_arguments(p)
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
            "\r"
            + fill(
                PROGRESS,
                label=label,
                games=nfill("{n} game", "{n} games", totals.games),
                elapsed=elapsed_text(now - self.start),
            )
            + "   ",
            end="",
            file=sys.stderr,
            flush=True,
        )


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken ladder``."""
    rules = rules_from_args(args)
    levels = [s.strip() for s in args.levels.split(",") if s.strip()]
    show = not args.json or sys.stderr.isatty()
    with document_stdout(args.ray):  # Ray's own messages go to stderr, not into the document
        doc = run_ladder(
            rules, levels, args.games, args.seed, args.jobs, _Progress() if show else None, ray=args.ray
        )
    if show:
        print(file=sys.stderr)
    if args.json:
        print_json(doc)
        return 0
    print_ladder(doc, shutil.get_terminal_size().columns)
    return 0


LADDER_HEAD: Final = N_("ladder: {rules} rules, 2 players, {games} per pair, seed {seed}")
COLUMN_LEVEL: Final = N_("level")
COLUMN_RATING: Final = N_("rating")
COLUMN_DESCRIPTION: Final = N_("description")
PAIRS: Final = N_("pairs (first level's wins):")
PAIR: Final = N_("{first} vs {second}: {wins}/{games} = {rate} (95% CI {low} - {high})")
PROGRESS: Final = N_("{label}: {games}, {elapsed} elapsed")


def print_ladder(doc: dict[str, Any], columns: int = 80) -> None:
    """The ladder as readable tables, in the current language: ratings, then each pair; the
    descriptions wrapped to ``columns`` cells under their own column."""
    print(
        fill(
            LADDER_HEAD,
            rules=preset_label(doc["rules"]),
            games=nfill("{n} game", "{n} games", doc["games_per_pair"]),
            seed=doc["seed"],
        )
    )
    level, rating, ci = _(COLUMN_LEVEL), _(COLUMN_RATING), _(COLUMN_CI)
    rows = []
    for r in sorted(doc["ratings"], key=lambda r: -r["rating"]):
        lo, hi = r["ci95"]
        interval = f"{lo:.0f} .. {hi:.0f}"
        rows.append((r["level"], f"{r['rating']:.0f}", interval, bot_level_description(r["level"])))
    width = max(cell_width(level), *(len(row[0]) for row in rows))
    rating_width = max(cell_width(rating), *(len(row[1]) for row in rows))
    ci_width = max(cell_width(ci), *(len(row[2]) for row in rows))
    head = f"{pad(level, width + 2)}{right(rating, rating_width)}  {right(ci, ci_width)}  "
    indent = " " * cell_width(head)
    room = max(20, columns - len(indent))
    print(head + _(COLUMN_DESCRIPTION))
    for name, value, interval, description in rows:
        lines = wrap(description, room)
        print(f"{pad(name, width + 2)}{right(value, rating_width)}  {right(interval, ci_width)}  {lines[0]}")
        for line in lines[1:]:
            print(indent + line)
    print(_(PAIRS))
    for arena in doc["pairs"]:
        a, b = arena["bots"]
        lo, hi = arena["ci95"][0]
        rate, low, high = (decimal(f"{x:.1%}") for x in (arena["win_rate"][0], lo, hi))
        games, wins = arena["games"], arena["wins"][0]
        line = fill(PAIR, first=a, second=b, wins=wins, games=games, rate=rate, low=low, high=high)
        for i, part in enumerate(wrap(line, columns - 4)):
            print(("  " if i == 0 else "    ") + part)
