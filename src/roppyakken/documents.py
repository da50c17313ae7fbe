"""The JSON documents of FORMATS.md §1 (score a round) and §2 (a card's targets).

Core functions: the CLI (``roppyakken score`` / ``targets``), the web server's HTTP API
and the tests all answer these documents through them.  Bad input raises
:class:`~roppyakken.errors.RoppyakkenError` with one line naming the problem.
"""

from __future__ import annotations

from typing import Any

from roppyakken.cards import mask_of, parse_cards, slugs_of
from roppyakken.errors import Phrase, RoppyakkenError, RulesError, shown
from roppyakken.i18n import N_
from roppyakken.kernel import capture_targets
from roppyakken.rules import Rules, unknown_name
from roppyakken.scoring import RoundScore, score_round
from roppyakken.yaku import LUCKY_HAND_SLUGS

INPUT = Phrase(N_("input"))


def expect_object(data: Any, what: str | Phrase) -> dict[str, Any]:
    """Refuse anything but a JSON object."""
    if not isinstance(data, dict):
        raise RoppyakkenError(N_("{what} must be a JSON object"), what=what)
    return data


def parse_round(rules: Rules, data: Any) -> tuple[list[int], list[list[int]], list[list[str]]]:
    """Check a §1 input document: captures as masks and orders, declared lucky hands."""
    doc = expect_object(data, INPUT)
    unknown = set(doc) - {"players"}
    if unknown:
        raise RoppyakkenError(N_("input: unknown key '{key}' (expected 'players')"), key=sorted(unknown)[0])
    players = doc.get("players")
    if not isinstance(players, list):
        raise RoppyakkenError(N_("input: 'players' must be a list of player objects"))
    rules.check_players(len(players))
    seen: dict[int, int] = {}
    masks: list[int] = []
    orders: list[list[int]] = []
    declared: list[list[str]] = []
    for seat, player in enumerate(players):
        where = Phrase(N_("player {n}"), n=seat + 1)  # numbered from 1, as --explain and the players say
        player = expect_object(player, where)
        extra = set(player) - {"captures", "lucky_hands"}
        if extra:
            raise RoppyakkenError(N_("{where}: unknown key '{key}'"), where=where, key=sorted(extra)[0])
        captures = player.get("captures", [])
        if not isinstance(captures, list):
            raise RoppyakkenError(N_("{where}: 'captures' must be a list of card slugs"), where=where)
        cards = parse_cards(captures, Phrase(N_("{where} captures"), where=where))
        for c in cards:
            if c in seen:
                raise RoppyakkenError(
                    N_("{where}: card '{slug}' was also captured by player {n}"),
                    where=where,
                    slug=captures[cards.index(c)],
                    n=seen[c] + 1,
                )
            seen[c] = seat
        lucky = player.get("lucky_hands", [])
        if not isinstance(lucky, list) or not all(isinstance(s, str) for s in lucky):
            raise RoppyakkenError(
                N_("{where}: 'lucky_hands' must be a list of lucky-hand slugs"), where=where
            )
        if len(set(lucky)) != len(lucky):
            raise RoppyakkenError(N_("{where}: a lucky hand is listed twice"), where=where)
        for slug in lucky:
            if slug not in LUCKY_HAND_SLUGS:
                raise unknown_name(
                    RulesError(N_("{where}: unknown lucky hand '{slug}'"), where=where, slug=slug),
                    slug,
                    LUCKY_HAND_SLUGS,
                )
            if slug not in rules.lucky_hands:  # said here, where the player is known
                raise RoppyakkenError(
                    N_("{where}: lucky hand '{slug}' does not score under these rules"),
                    where=where,
                    slug=slug,
                )
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
        raise RoppyakkenError(N_("input: {error}"), error=exc) from None


def targets_document(rules: Rules, data: Any) -> dict[str, Any]:
    """Answer one §2 input document."""
    doc = expect_object(data, INPUT)
    unknown = set(doc) - {"table", "card", "source"}
    if unknown:
        raise RoppyakkenError(N_("input: unknown key '{key}'"), key=sorted(unknown)[0])
    table_slugs = doc.get("table", [])
    if not isinstance(table_slugs, list):
        raise RoppyakkenError(N_("input: 'table' must be a list of card slugs"))
    table = parse_cards(table_slugs, Phrase(N_("table")))
    card_slug = doc.get("card")
    if not isinstance(card_slug, str):
        raise RoppyakkenError(N_("input: 'card' must be a card slug"))
    (card,) = parse_cards([card_slug], Phrase(N_("card")))
    if card in table:
        raise RoppyakkenError(N_("card '{slug}' is also on the table"), slug=card_slug)
    source = doc.get("source", "hand")
    if source not in ("hand", "pile"):
        raise RoppyakkenError(
            N_("input: 'source' must be 'hand' or 'pile', not {value}"), value=shown(source)
        )
    for month in range(1, 13):
        if sum(1 for c in table if (c // 4) + 1 == month) == 4:
            raise RoppyakkenError(
                N_("table: four cards of month {month} cannot lie on the table"), month=month
            )
    choices = capture_targets(rules, mask_of(table), card, source == "pile")
    return {"targets": [slugs_of(t) for t in choices]}


__all__ = ["expect_object", "parse_round", "score_document", "targets_document"]
