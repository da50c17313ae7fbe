"""``roppyakken ratings``: rebuild every rating from the stored rated games, or check the stored ones."""

from __future__ import annotations

import argparse
import time
from typing import Any

from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import N_, _, fill, install_extra, nfill
from roppyakken.numerals import LocalFloat

RECOMPUTED = N_("{games} replayed in {seconds:.2f} s: {ratings} and {rows} rewritten")
CHECKED_SAME = N_("{games} replayed in {seconds:.2f} s: every stored rating is exactly the same")
CHECKED_DIFFERENT = N_("{games} replayed: the stored ratings differ ({count} shown):")
NEEDS_OPENSKILL = N_("ratings need the 'web' extra (openskill): {install}")


def register(sub: Any, help_text: str) -> None:
    """Add the ``ratings`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    p = sub.add_parser(
        "ratings",
        help=help_text,
        description=_(
            "Replay every stored rated game in the order the ratings were updated (OpenSkill, "
            "Plackett-Luce): --recompute rewrites every rating from them, --check compares them "
            "with the stored ones without changing anything."
        ),
    )
    what = p.add_mutually_exclusive_group(required=True)
    what.add_argument("--recompute", action="store_true", help=_("rebuild and store every rating"))
    what.add_argument("--check", action="store_true", help=_("compare the stored ratings with a replay"))
    p.add_argument(
        "--database",
        metavar="URL",
        help=_("the server's database: postgresql://… or a SQLite file (default: the server's default)"),
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken ratings``."""
    try:
        import openskill  # noqa: F401  (the web extras are installed)

        from roppyakken.server.club.ratings import store
        from roppyakken.server.store.database import Database
    except ImportError:
        raise RoppyakkenError(NEEDS_OPENSKILL, install=install_extra("web")) from None
    db = Database(args.database)
    db.open()
    try:
        began = time.perf_counter()
        if args.recompute:
            replayed = db.run_now(store.recompute)
            print(
                fill(
                    RECOMPUTED,
                    games=nfill("{n} rated game", "{n} rated games", replayed.games),
                    seconds=LocalFloat(time.perf_counter() - began),
                    ratings=nfill("{n} rating", "{n} ratings", len(replayed.ratings)),
                    rows=nfill("{n} history row", "{n} history rows", len(replayed.history)),
                )
            )
            return 0

        def check(conn: Any) -> tuple[int, list[str]]:
            replayed = store.replay(list(store.stored_games(conn)))
            return replayed.games, store.differences(conn, replayed)

        games, found = db.run_now(check)
        if not found:
            print(
                fill(
                    CHECKED_SAME,
                    games=nfill("{n} rated game", "{n} rated games", games),
                    seconds=LocalFloat(time.perf_counter() - began),
                )
            )
            return 0
        print(
            fill(CHECKED_DIFFERENT, games=nfill("{n} rated game", "{n} rated games", games), count=len(found))
        )
        for line in found:
            print("  " + line)
        return 1
    finally:
        db.engine.dispose()
