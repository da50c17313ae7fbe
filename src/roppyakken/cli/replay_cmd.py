"""``roppyakken replay FILE``: verify a game record and print the game round by round."""

from __future__ import annotations

import argparse
from typing import Any

from roppyakken.cards import iter_cards
from roppyakken.explain import explain_round
from roppyakken.i18n import N_, _, fill
from roppyakken.record import committed, load, replay
from roppyakken.text import card_name, yaku_name


def register(sub: Any, help_text: str) -> None:
    """Add the ``replay`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    p = sub.add_parser(
        "replay",
        help=help_text,
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


_PLAYS = {
    (True, True): N_("{name} plays {card}, takes {taken}"),
    (True, False): N_("{name} plays {card}, to the table"),
    (False, True): N_("{name} turns up {card}, takes {taken}"),
    (False, False): N_("{name} turns up {card}, to the table"),
}
"""What a play says, by (from the hand, captured something)."""


def _cards(mask: int) -> str:
    return _(", ").join(card_name(c) for c in iter_cards(mask))


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken replay``."""
    if args.watch:
        return watch(args.file)
    record = load(args.file)
    game, names = replay(record)
    names = seat_labels(names)
    if not args.quiet:
        for index, log in enumerate(game.history):
            print(fill("Round {n} (dealer: {name})", n=index + 1, name=names[log.dealer]))
            print("  " + fill("table: {cards}", cards=_cards(log.table)))
            for seat, decl in enumerate(log.declared):
                if decl:
                    hands = _(", ").join(yaku_name(slug) for slug in decl)
                    print("  " + fill("{name} declares {hands}", name=names[seat], hands=hands))
            for seat, source, card, taken in log.plays:
                play = _PLAYS[(source == "hand", bool(taken))]
                print("  " + fill(play, name=names[seat], card=card_name(card), taken=_cards(taken)))
            if log.score is not None:
                captures = log.captures or [0] * game.players
                print("  " + explain_round(game.rules, log.score, captures, names).replace("\n", "\n  "))
                totals = _(", ").join(f"{names[s]} {t}" for s, t in enumerate(log.totals or []))
                print("  " + fill("totals: {totals}", totals=totals))
    if game.over and game.winner is not None:
        print(
            fill(
                "verified: {name} wins ({reason}), {n} rounds",
                name=names[game.winner],
                reason=game.end_reason,
                n=len(game.history),
            )
        )
    else:
        print(fill("verified: unfinished game, {n} rounds so far", n=len(game.history)))
    commitment = committed(record)
    if commitment is not None:
        print(
            fill(
                "fair deal verified: the revealed seed matches commitment {commitment} and deals every round",
                commitment=commitment,
            )
        )
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
