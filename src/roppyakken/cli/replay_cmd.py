"""``roppyakken replay FILE``: verify a game record and print the game round by round."""

from __future__ import annotations

import argparse
from typing import Any, Final

from roppyakken.cards import iter_cards
from roppyakken.explain import explain_round
from roppyakken.i18n import N_, SOURCE_LANGUAGE, _, fill, language, nfill
from roppyakken.record import committed, load, replay
from roppyakken.text import bot_label, card_name, yaku_name


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
_YOUR_PLAYS = {
    (True, True): N_("You play {card}, take {taken}"),
    (True, False): N_("You play {card}, to the table"),
    (False, True): N_("You turn up {card}, take {taken}"),
    (False, False): N_("You turn up {card}, to the table"),
}
"""What a play of the human who gave no name (the terminal game's "You") says."""
_DECLARES: Final = (N_("{name} declares {hands}"), N_("You declare {hands}"))
_WINS: Final = (
    N_("verified: {name} wins ({reason}), {rounds}"),
    N_("verified: you win ({reason}), {rounds}"),
)
"""What a declaration and the winner say: of a named player, of "You"."""


def _cards(mask: int) -> str:
    return _(", ").join(card_name(c) for c in iter_cards(mask))


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken replay``."""
    if args.watch:
        return watch(args.file)
    record = load(args.file)
    game, names = replay(record)
    you = [unnamed(name) for name in names]
    names = seat_labels(names)
    if not args.quiet:
        for index, log in enumerate(game.history):
            print(fill("Round {n} (dealer: {name})", n=index + 1, name=names[log.dealer]))
            print("  " + fill("table: {cards}", cards=_cards(log.table)))
            for seat, decl in enumerate(log.declared):
                if decl:
                    hands = _(", ").join(yaku_name(slug) for slug in decl)
                    print("  " + fill(_DECLARES[you[seat]], name=names[seat], hands=hands))
            for seat, source, card, taken in log.plays:
                play = (_YOUR_PLAYS if you[seat] else _PLAYS)[(source == "hand", bool(taken))]
                print("  " + fill(play, name=names[seat], card=card_name(card), taken=_cards(taken)))
            if log.score is not None:
                captures = log.captures or [0] * game.players
                print("  " + explain_round(game.rules, log.score, captures, names).replace("\n", "\n  "))
                totals = _(", ").join(f"{names[s]} {t}" for s, t in enumerate(log.totals or []))
                print("  " + fill("totals: {totals}", totals=totals))
    if game.over and game.winner is not None:
        print(
            fill(
                _WINS[you[game.winner]],
                name=names[game.winner],
                reason=reason_phrase(game.end_reason),
                rounds=nfill("{n} round", "{n} rounds", len(game.history)),
            )
        )
    else:
        print(
            fill(
                "verified: unfinished game, {rounds} so far",
                rounds=nfill("{n} round", "{n} rounds", len(game.history)),
            )
        )
    commitment = committed(record)
    if commitment is not None:
        print(
            fill(
                "fair deal verified: the revealed seed matches commitment {commitment} and deals every round",
                commitment=commitment,
            )
        )
    return 0


REASONS: Final[dict[str, str]] = {
    "target": N_("reached the target"),
    "target:four-brights": N_("reached the target, with Four Brights"),
    "target:seven-ribbons": N_("reached the target, with Seven Ribbons"),
    "instant:four-brights": N_("instant win, Four Brights"),
    "instant:seven-ribbons": N_("instant win, Seven Ribbons"),
    "tie:play-order": N_("a tie for the top, first in play order"),
    "legs": N_("won the match"),
    "most-legs": N_("won the most games"),
    "most-legs:total": N_("won the most games, on total"),
    "most-legs:play-order": N_("won the most games, on play order"),
}
"""Why a game ended, by its end reason (FORMATS.md §3), in a few words."""
BOT_NAME: Final = N_("{level} bot")
SEAT_LABEL: Final = N_("{name} (seat {n})")


def reason_phrase(reason: str) -> str:
    """An end reason in a few words in the current language (the slug itself if unknown)."""
    phrase = REASONS.get(reason)
    return _(phrase) if phrase else reason


def unnamed(name: str) -> bool:
    """Whether a record's player name stands for the terminal game's human who gave no name."""
    from roppyakken.tui.session import BOT_PREFIX, UNNAMED, seat_from_record_name

    return not name.startswith(BOT_PREFIX) and seat_from_record_name(name).name == UNNAMED


def player_label(name: str) -> str:
    """A record's player name as running text says it: in English as the record has it
    (``bot:master``, what the commands take), else the bot named in the language; the human
    who gave no name (the terminal game's "You") in the language."""
    from roppyakken.tui.session import HUMAN, Seat

    if name.startswith("bot:"):
        return fill(BOT_NAME, level=bot_label(name[4:])) if language() != SOURCE_LANGUAGE else name
    return Seat(HUMAN).shown_name if unnamed(name) else name


def seat_labels(names: list[str]) -> list[str]:
    """The record's player names (bots named in the current language), a repeated one (two
    ``bot:random``) with its seat number."""
    labels = [player_label(n) for n in names]
    return [
        fill(SEAT_LABEL, name=label, n=i + 1) if labels.count(label) > 1 else label
        for i, label in enumerate(labels)
    ]


def watch(path: str) -> int:
    """``--watch``: the record in the terminal game's table view (Textual imported only here)."""
    from roppyakken.cli.play_cmd import require_textual

    require_textual()
    from roppyakken.tui.app import RoppyakkenApp
    from roppyakken.tui.session import RecordScript

    RoppyakkenApp(script=RecordScript(load(path))).run()
    return 0
