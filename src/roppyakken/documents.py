"""The JSON documents of FORMATS.md §1 (score a round) and §2 (a card's targets).

Core functions: the CLI (``roppyakken score`` / ``targets``), the web server's HTTP API
and the tests all answer these documents through them.  Bad input raises
:class:`~roppyakken.errors.RoppyakkenError` with one line naming the problem.
"""

from __future__ import annotations

from typing import Any

from roppyakken.cards import mask_of, parse_cards, slugs_of
from roppyakken.errors import RoppyakkenError
from roppyakken.kernel import capture_targets
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore, score_round


def expect_object(data: Any, what: str) -> dict[str, Any]:
    """Refuse anything but a JSON object."""
    if not isinstance(data, dict):
        raise RoppyakkenError(f"{what} must be a JSON object")
    return data


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
        where = f"player {seat + 1}"  # numbered from 1, as --explain and the players say
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
                    f"{where}: card {captures[cards.index(c)]!r} was also captured by player {seen[c] + 1}"
                )
            seen[c] = seat
        lucky = player.get("lucky_hands", [])
        if not isinstance(lucky, list) or not all(isinstance(s, str) for s in lucky):
            raise RoppyakkenError(f"{where}: 'lucky_hands' must be a list of lucky-hand slugs")
        if len(set(lucky)) != len(lucky):
            raise RoppyakkenError(f"{where}: a lucky hand is listed twice")
        for slug in lucky:
            if slug not in rules.lucky_hands:  # said here, where the player is known
                raise RoppyakkenError(f"{where}: lucky hand {slug!r} does not score under these rules")
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


def targets_document(rules: Rules, data: Any) -> dict[str, Any]:
    """Answer one §2 input document."""
    doc = expect_object(data, "input")
    unknown = set(doc) - {"table", "card", "source"}
    if unknown:
        raise RoppyakkenError(f"input: unknown key {sorted(unknown)[0]!r}")
    table_slugs = doc.get("table", [])
    if not isinstance(table_slugs, list):
        raise RoppyakkenError("input: 'table' must be a list of card slugs")
    table = parse_cards(table_slugs, "table")
    card_slug = doc.get("card")
    if not isinstance(card_slug, str):
        raise RoppyakkenError("input: 'card' must be a card slug")
    (card,) = parse_cards([card_slug], "card")
    if card in table:
        raise RoppyakkenError(f"card {card_slug!r} is also on the table")
    source = doc.get("source", "hand")
    if source not in ("hand", "pile"):
        raise RoppyakkenError(f"input: 'source' must be 'hand' or 'pile', not {source!r}")
    for month in range(1, 13):
        if sum(1 for c in table if (c // 4) + 1 == month) == 4:
            raise RoppyakkenError(f"table: four cards of month {month} cannot lie on the table")
    choices = capture_targets(rules, mask_of(table), card, source == "pile")
    return {"targets": [slugs_of(t) for t in choices]}


__all__ = ["expect_object", "parse_round", "score_document", "targets_document"]
