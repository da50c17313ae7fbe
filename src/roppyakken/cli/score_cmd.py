"""``roppyakken score``: score a finished round (FORMATS.md §1); the physical-cards calculator."""

from __future__ import annotations

import argparse
from typing import Any

from roppyakken.cards import mask_of, parse_cards
from roppyakken.cli.common import (
    add_rules_arguments,
    expect_object,
    print_json,
    read_stdin_json,
    rules_from_args,
    run_jsonl,
)
from roppyakken.errors import RoppyakkenError
from roppyakken.explain import explain_round
from roppyakken.i18n import _
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore, score_round


def register(sub: Any) -> None:
    """Add the ``score`` subcommand."""
    p = sub.add_parser(
        "score",
        help=_("score a finished round from each player's captured cards"),
        description=_(
            'Read {"players": [{"captures": [...], "lucky_hands": [...]}, ...]} '
            "on standard input and print the scoring breakdown (FORMATS.md §1)."
        ),
    )
    add_rules_arguments(p)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--jsonl", action="store_true", help=_("one document per line in and out"))
    mode.add_argument("--explain", action="store_true", help=_("print a readable breakdown"))
    p.set_defaults(run=run)


def parse_round(rules: Rules, data: Any) -> tuple[list[int], list[list[int]], list[list[str]]]:
    """Check a §1 input document: captures as masks and orders, declared lucky hands."""
    doc = expect_object(data, "input")
    unknown = set(doc) - {"players"}
    if unknown:
        raise RoppyakkenError(f"input: unknown key {sorted(unknown)[0]!r} (expected 'players')")
    players = doc.get("players")
    if not isinstance(players, list):
        raise RoppyakkenError("input: 'players' must be a list of player objects")
    rules.check_players(len(players))
    seen: dict[int, int] = {}
    masks: list[int] = []
    orders: list[list[int]] = []
    declared: list[list[str]] = []
    for seat, player in enumerate(players):
        where = f"player {seat}"
        player = expect_object(player, where)
        extra = set(player) - {"captures", "lucky_hands"}
        if extra:
            raise RoppyakkenError(f"{where}: unknown key {sorted(extra)[0]!r}")
        captures = player.get("captures", [])
        if not isinstance(captures, list):
            raise RoppyakkenError(f"{where}: 'captures' must be a list of card slugs")
        cards = parse_cards(captures, f"{where} captures")
        for c in cards:
            if c in seen:
                raise RoppyakkenError(
                    f"{where}: card {captures[cards.index(c)]!r} was also captured by player {seen[c]}"
                )
            seen[c] = seat
        lucky = player.get("lucky_hands", [])
        if not isinstance(lucky, list) or not all(isinstance(s, str) for s in lucky):
            raise RoppyakkenError(f"{where}: 'lucky_hands' must be a list of lucky-hand slugs")
        if len(set(lucky)) != len(lucky):
            raise RoppyakkenError(f"{where}: a lucky hand is listed twice")
        masks.append(mask_of(cards))
        orders.append(cards)
        declared.append(list(lucky))
    return masks, orders, declared


def score_document(rules: Rules, data: Any) -> RoundScore:
    """Score one §1 input document."""
    masks, orders, declared = parse_round(rules, data)
    try:
        return score_round(rules, masks, orders, declared)
    except RoppyakkenError as exc:
        raise RoppyakkenError(f"input: {exc}") from None


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken score``."""
    rules = rules_from_args(args)
    if args.jsonl:
        return run_jsonl(lambda doc: score_document(rules, doc).to_json())
    data = read_stdin_json()
    score = score_document(rules, data)
    if args.explain:
        masks, _, _ = parse_round(rules, data)
        print(explain_round(rules, score, masks))
    else:
        print_json(score.to_json())
    return 0
