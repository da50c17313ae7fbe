"""The game's public events as the log lines the table shows (in the current language)."""

from __future__ import annotations

from collections.abc import Sequence

from roppyakken.cards import MONTH, iter_cards
from roppyakken.events import (
    DealerTookFour,
    Declared,
    Event,
    FirstDealerDrawn,
    GameEnded,
    LegWon,
    Played,
    Redealt,
    RoundEnded,
    RoundStarted,
    Turned,
)
from roppyakken.text import enumeration, month_name, yaku_name
from roppyakken.tui import text as t


def event_line(event: Event, names: Sequence[str]) -> str | None:
    """The log line of ``event`` with the players called ``names``; None: the event says nothing."""
    if isinstance(event, FirstDealerDrawn):
        return t.say(t.EVENT_FIRST_DEALER, names[event.dealer])
    if isinstance(event, RoundStarted):
        return t.say(t.EVENT_ROUND, names[event.dealer], round=event.round + 1)
    if isinstance(event, Redealt):
        month = month_name(event.month)
        if event.reason == "table-four" or event.seat is None:
            return str(t.EVENT_REDEAL_TABLE.format(month=month))
        return t.say(t.EVENT_REDEAL_HAND, names[event.seat], month=month)
    if isinstance(event, DealerTookFour):
        month = month_name(MONTH[(event.cards & -event.cards).bit_length() - 1])
        return t.say(t.EVENT_DEALER_TOOK, names[event.seat], month=month)
    if isinstance(event, Declared):
        if not event.hands:
            return None
        hands = enumeration([f"{yaku_name(s)} ({p})" for s, p in event.hands])
        cards = enumeration([t.card_name(c) for c in iter_cards(event.cards)])
        return t.say(t.EVENT_DECLARED, names[event.seat], hands=hands, cards=cards)
    if isinstance(event, Turned):
        return t.say(t.EVENT_TURNED_CHOICE, names[event.seat], card=t.card_name(event.card))
    if isinstance(event, Played):
        card = t.card_name(event.card)
        taken = t.cards_phrase([t.card_name(c) for c in iter_cards(event.captured)])
        if event.source == "hand":
            template = t.EVENT_PLAYED_TAKES if event.captured else t.EVENT_PLAYED_TABLE
        else:
            template = t.EVENT_TURNED_TAKES if event.captured else t.EVENT_TURNED_TABLE
        return t.say(template, names[event.seat], card=card, taken=taken)
    if isinstance(event, RoundEnded):
        return str(t.EVENT_ROUND_ENDED.format(round=event.round + 1))
    if isinstance(event, LegWon):
        return t.say(t.EVENT_LEG_WON, names[event.seat], leg=sum(event.legs))
    if isinstance(event, GameEnded):
        return t.say(t.EVENT_GAME_ENDED, names[event.winner])
    return None
