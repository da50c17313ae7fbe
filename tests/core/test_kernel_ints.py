"""The kernel's int forms against list-based reference forms.

``targets_of`` gives a card's capture targets as one int (:data:`roppyakken.kernel.WHOLE`
flag or a set of single-card choices); :func:`reference_targets` below is the list-based
``capture_targets``, kept here as the reference.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given
from hypothesis import strategies as st

from roppyakken.cards import (
    ALL_CARDS,
    MONTH,
    MONTH_MASK,
    POINTS,
    SCORING_MASK,
    WILLOW,
    card_count,
    count_by_arithmetic,
    iter_cards,
    points_of,
    triple_months,
)
from roppyakken.kernel import (
    WHOLE,
    WILD_MODES,
    capture_targets,
    nth_target,
    target_count,
    target_list,
    targets_of,
)
from roppyakken.options import JokerWild
from roppyakken.rules import PRESETS, Rules, preset

masks = st.integers(min_value=0, max_value=(1 << 48) - 1)
cards = st.integers(min_value=0, max_value=47)
WILLOWS = MONTH_MASK[WILLOW]


def reference_pair(rules: Rules, pair: int) -> list[int]:
    low = pair & -pair
    high = pair ^ low
    if rules.auto_capture_higher:
        lp, hp = POINTS[low.bit_length() - 1], POINTS[high.bit_length() - 1]
        if lp != hp:
            return [low if lp > hp else high]
    return [low, high]


def reference_month_choices(rules: Rules, month_cards: int) -> int:
    if month_cards.bit_count() == 2:
        out = 0
        for choice in reference_pair(rules, month_cards):
            out |= choice
        return out
    return month_cards


def reference_targets(rules: Rules, table: int, card: int, from_pile: bool) -> list[int]:
    """``capture_targets`` as it was written with lists (before the int kernel)."""
    month_cards = table & MONTH_MASK[MONTH[card]]
    joker = rules.joker_card
    if joker < 0 or not (card == joker or table >> joker & 1):
        if not month_cards:
            return []
        if month_cards & (month_cards - 1) == 0 or month_cards.bit_count() == 3:
            return [month_cards]
        return reference_pair(rules, month_cards)
    if card == joker:
        willows = table & WILLOWS
        if willows.bit_count() == 3:
            return [willows]
        wild = table & SCORING_MASK & ~triple_months(table) & ~WILLOWS
        return [1 << c for c in iter_cards(reference_month_choices(rules, willows) | wild)]
    if month_cards.bit_count() == 3:
        return [month_cards]
    wild = 0
    if POINTS[card] > 0 and not month_cards >> joker & 1 and (table & WILLOWS).bit_count() < 3:
        mode = rules.joker_wild_on_table
        if mode == "any" or (mode == "turned-up" and from_pile):
            wild = 1 << joker
    if not wild and month_cards.bit_count() == 2:
        return reference_pair(rules, month_cards)
    return [1 << c for c in iter_cards(reference_month_choices(rules, month_cards) | wild)]


def playable_table(table: int, card: int) -> int:
    """A table ``card`` can meet: without the card, and no month's four cards on it."""
    table &= ~(1 << card)
    for month in range(12):
        if table >> (4 * month) & 15 == 15:
            table &= ~(1 << (4 * month))
    return table


MODES: list[JokerWild] = ["any", "turned-up", "off"]
JOKER_RULES = [preset(name) for name in PRESETS if preset(name).joker_card >= 0]


@given(masks, cards, st.booleans(), st.sampled_from([*PRESETS]))
def test_targets_int_is_the_list_it_replaced(table: int, card: int, from_pile: bool, name: str) -> None:
    rules = preset(name)
    table = playable_table(table, card)
    expected = reference_targets(rules, table, card, from_pile)
    assert capture_targets(rules, table, card, from_pile) == expected
    joker = rules.joker_card
    wild = WILD_MODES[rules.joker_wild_on_table] if joker >= 0 else 0
    targets = targets_of(table, card, from_pile, joker, wild, rules.auto_capture_higher)
    assert target_list(targets) == expected
    assert target_count(targets) == len(expected)
    assert [nth_target(targets, k) for k in range(len(expected))] == expected
    assert (targets == 0) == (not expected)


@given(masks, cards, st.booleans(), st.sampled_from(MODES), st.booleans())
def test_joker_targets_under_every_wild_mode(
    table: int, card: int, from_pile: bool, mode: JokerWild, higher: bool
) -> None:
    base = JOKER_RULES[0]
    rules = dataclasses.replace(base, joker_wild_on_table=mode, auto_capture_higher=higher)
    table = playable_table(table | 1 << rules.joker_card, card)
    expected = reference_targets(rules, table, card, from_pile)
    targets = targets_of(table, card, from_pile, rules.joker_card, WILD_MODES[mode], higher)
    assert target_list(targets) == expected
    assert [nth_target(targets, k) for k in range(target_count(targets))] == expected


def test_whole_flag_only_on_a_mask_taken_whole() -> None:
    rules = preset("classic")
    table = MONTH_MASK[1] & ~1  # three pine cards: a stack for the fourth
    targets = targets_of(table, 0, False, -1, 0, False)
    assert targets == table | WHOLE and target_count(targets) == 1 and nth_target(targets, 0) == table
    pair = 0b0110
    assert targets_of(pair, 0, False, -1, 0, False) == pair
    assert capture_targets(rules, pair, 0) == [0b0010, 0b0100]


@given(st.integers(min_value=0, max_value=(1 << 62) - 1))
def test_card_count_by_arithmetic_is_bit_count(mask: int) -> None:
    """The compiled card count (bit arithmetic on 62 bits) counts what int.bit_count counts,
    which the pure modules run instead; so do the card points made of it."""
    assert count_by_arithmetic(mask) == card_count(mask) == mask.bit_count()
    assert points_of(mask & ALL_CARDS) == sum(POINTS[c] for c in iter_cards(mask & ALL_CARDS))


def test_card_count_edges() -> None:
    for mask in (
        0,
        1,
        ALL_CARDS,
        1 << 47,
        1 << 48,
        (1 << 62) - 1,
        0x1555_5555_5555_5555,
        0x2AAA_AAAA_AAAA_AAAA,
    ):
        assert count_by_arithmetic(mask) == mask.bit_count()
