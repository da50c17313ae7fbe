"""``roppyakken replay FILE``: verify a game record and print the game round by round."""

from __future__ import annotations

import argparse
from typing import Any

from roppyakken.cards import SLUGS, slugs_of
from roppyakken.explain import explain_round
from roppyakken.i18n import _
from roppyakken.record import committed, load, replay


def register(sub: Any) -> None:
    """Add the ``replay`` subcommand."""
    p = sub.add_parser(
        "replay",
        help=_("verify a game record and print it round by round"),
        description=_(
            "Replay a roppyakken-record/1 file through the engine, re-deriving every "
            "score; fail on any disagreement.  A record with a deal commitment (online games) is "
            "also checked against it: the revealed seed must match it and give every deal."
        ),
    )
    p.add_argument("file", help=_("a game record (JSON)"))
    p.add_argument("--quiet", action="store_true", help=_("only verify; print one line"))
    p.add_argument(
        "--watch",
        action="store_true",
        help=_("step through the game in the terminal table view (needs Textual)"),
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken replay``."""
    if args.watch:
        return watch(args.file)
    record = load(args.file)
    game, names = replay(record)
    names = seat_labels(names)
    if not args.quiet:
        for index, log in enumerate(game.history):
            print(f"Round {index + 1} (dealer: {names[log.dealer]})")
            print(f"  table: {', '.join(slugs_of(log.table))}")
            for seat, decl in enumerate(log.declared):
                if decl:
                    print(f"  {names[seat]}: declares {', '.join(decl)}")
            for seat, source, card, taken in log.plays:
                verb = f"takes {', '.join(slugs_of(taken))}" if taken else "to the table"
                origin = "plays" if source == "hand" else "turns up"
                print(f"  {names[seat]}: {origin} {SLUGS[card]}, {verb}")
            if log.score is not None:
                captures = log.captures or [0] * game.players
                print("  " + explain_round(game.rules, log.score, captures, names).replace("\n", "\n  "))
                print(f"  totals: {', '.join(f'{names[s]} {t}' for s, t in enumerate(log.totals or []))}")
    if game.over and game.winner is not None:
        print(f"verified: {names[game.winner]} wins ({game.end_reason}), {len(game.history)} rounds")
    else:
        print(f"verified: unfinished game, {len(game.history)} rounds so far")
    commitment = committed(record)
    if commitment is not None:
        print(f"fair deal verified: the revealed seed matches commitment {commitment} and deals every round")
    return 0


def seat_labels(names: list[str]) -> list[str]:
    """The record's player names, a repeated one (two ``bot:random``) with its seat number."""
    return [f"{n} (seat {i + 1})" if names.count(n) > 1 else n for i, n in enumerate(names)]


def watch(path: str) -> int:
    """``--watch``: the record in the terminal game's table view (Textual imported only here)."""
    from roppyakken.cli.play_cmd import require_textual

    require_textual()
    from roppyakken.tui.app import RoppyakkenApp
    from roppyakken.tui.session import RecordScript

    RoppyakkenApp(script=RecordScript(load(path))).run()
    return 0
