"""The help screen's text, generated from the rule options so it is always true for them.

Each function returns Markdown; every sentence is picked or filled from
:mod:`roppyakken.tui.text` according to an option's value.
"""

from __future__ import annotations

from roppyakken.cards import KIND, NUM_CARDS, POINTS, iter_cards
from roppyakken.engine import deal_sizes
from roppyakken.explain import option_value
from roppyakken.i18n import _
from roppyakken.rules import PRESETS, Rules, preset
from roppyakken.text import (
    card_name,
    kind_mark,
    lucky_condition,
    month_name,
    option_description,
    preset_description,
    preset_label,
    yaku_name,
)
from roppyakken.tui import text as t
from roppyakken.tui.progress import yaku_mask
from roppyakken.yaku import LUCKY_HAND_SLUGS, SEVEN_RIBBONS, YAKU_SLUGS


def _names(mask: int) -> str:
    return _(", ").join(card_name(c) for c in iter_cards(mask))


def is_house_rules(rules: Rules) -> bool:
    """Whether ``rules`` differ from the preset they are based on (a house-rules file)."""
    return rules.preset not in PRESETS or rules != preset(rules.preset)


def rules_intro(rules: Rules) -> str:
    """One line naming the preset (or that these are house rules based on it)."""
    if is_house_rules(rules):
        return t.HELP_HOUSE.format(preset=preset_label(rules.preset))
    return t.HELP_PRESET.format(
        preset=preset_label(rules.preset), description=preset_description(rules.preset)
    )


def how_to_play(rules: Rules, players: int) -> str:
    """Goal, deal, turn and scoring of ``rules`` for ``players`` players, in plain words."""
    hand, table = deal_sizes(rules, players)
    pile = NUM_CARDS - players * hand - table
    goal = [t.RULES_GOAL.format(target=rules.target)]
    if rules.win_margin:
        goal.append(t.RULES_WIN_MARGIN.format(margin=rules.win_margin))
    goal.append(t.RULES_TOP_TIE[rules.top_tie])
    match = rules.match_rule
    if match.kind != "single":
        goal.append(t.RULES_MATCH[match.kind].format(count=match.count))
    deal = [
        t.RULES_DEAL.format(players=players, hand=hand, table=table, pile=pile),
        t.RULES_FIRST_DEALER,
        t.RULES_NEXT_DEALER[rules.next_dealer],
        t.RULES_TABLE_FOUR[rules.table_four],
        t.RULES_HAND_FOUR[rules.hand_four],
    ]
    turn = [t.RULES_TURN, t.RULES_CAPTURE, t.RULES_TWO_TARGETS[rules.auto_capture_higher], t.RULES_STACK]
    if rules.joker == "none":
        turn.append(t.RULES_NO_JOKER)
    else:
        turn.append(t.RULES_JOKER.format(joker=t.card_name(rules.joker_card)))
        turn.append(t.RULES_JOKER_ON_TABLE[rules.joker_wild_on_table])
    scoring = [t.RULES_ROUND_SCORE, t.RULES_CARD_POINTS]
    if rules.fuke != "off":
        scoring.append(t.RULES_FUKE[rules.fuke].format(threshold=rules.fuke_threshold))
        exempt = [yaku_name(s) for s in rules.fuke_exempt if s in rules.yaku]
        if exempt:
            scoring.append(t.RULES_FUKE_EXEMPT.format(yaku=t.or_phrase(exempt)))
    scoring.append(t.RULES_ROUND_SCORING[rules.round_scoring])
    if any(s in rules.yaku for s in ("four-brights", SEVEN_RIBBONS)):
        scoring.append(t.RULES_INSTANT[rules.instant_win])
    sections = [
        rules_intro(rules),
        f"## {t.HELP_H_GOAL}",
        *goal,
        f"## {t.HELP_H_DEAL}",
        *deal,
        f"## {t.HELP_H_TURN}",
        *turn,
        f"## {t.HELP_H_SCORING}",
        *scoring,
    ]
    return "\n\n".join(s for s in sections if s)


def yaku_cards_text(rules: Rules, slug: str) -> str:
    """The cards a yaku needs under ``rules``, in words."""
    if slug == SEVEN_RIBBONS:
        words = t.RULES_SEVEN_RIBBONS[rules.seven_ribbons_willow]
        if rules.seven_ribbons_extra:
            return t.RULES_SEVEN_EXTRA.format(ribbons=words, extra=rules.seven_ribbons_extra)
        return words
    words = _names(yaku_mask(rules, slug))
    if slug == "four-brights" and rules.four_brights_needs_warbler:
        return t.RULES_WARBLER.format(cards=words)
    return words


def yaku_and_lucky_hands(rules: Rules) -> str:
    """Tables of the enabled yaku and lucky hands with their values, and the rules around them."""
    parts = [f"## {t.HELP_H_YAKU}"]
    if rules.yaku:
        exclusive = rules.viewing_exclusive and "cannon" in rules.yaku
        parts.append(t.RULES_YAKU_INTRO_EXCLUSIVE if exclusive else t.RULES_YAKU_INTRO)
        rows = [f"| {t.HELP_COL_NAME} | {t.HELP_COL_POINTS} | {t.HELP_COL_CARDS} |", "| --- | ---: | --- |"]
        for slug in YAKU_SLUGS:
            if slug in rules.yaku:
                rows.append(f"| {yaku_name(slug)} | {rules.yaku[slug]} | {yaku_cards_text(rules, slug)} |")
        parts.append("\n".join(rows))
        if rules.rain_off != "off" and any(
            s in rules.yaku for s in ("flower-viewing", "moon-viewing", "cannon")
        ):
            parts.append(t.RULES_RAIN_OFF[rules.rain_off])
        if any(s in rules.yaku for s in ("four-brights", SEVEN_RIBBONS)):
            parts.append(t.RULES_INSTANT[rules.instant_win])
    else:
        parts.append(t.YAKU_NONE)
    parts.append(f"## {t.HELP_H_LUCKY}")
    if rules.lucky_hands:
        parts.append(t.RULES_LUCKY_INTRO[rules.declare])
        rows = [
            f"| {t.HELP_COL_NAME} | {t.HELP_COL_POINTS} | {t.HELP_COL_CONDITION} |",
            "| --- | ---: | --- |",
        ]
        for slug in LUCKY_HAND_SLUGS:
            if slug in rules.lucky_hands:
                if slug in ("hand-four", "iris-hand-four") and rules.hand_four != "play":
                    continue  # hand-four values score only with hand_four = play
                rows.append(f"| {yaku_name(slug)} | {rules.lucky_hands[slug]} | {lucky_condition(slug)} |")
        parts.append("\n".join(rows))
        parts.append(t.RULES_LUCKY_EXCLUSIVE)
    else:
        parts.append(t.RULES_NO_LUCKY)
    return "\n\n".join(parts)


def card_values(rules: Rules) -> str:
    """A table of the 48 cards: month by month, each card with its kind's mark and points."""
    rows = [f"## {t.HELP_H_CARDS}", "", t.RULES_CARD_POINTS, ""]
    rows.append(f"| {t.HELP_COL_MONTH} | 1 | 2 | 3 | 4 |")
    rows.append("| --- | --- | --- | --- | --- |")
    joker = rules.joker_card
    for month in range(1, 13):
        cells = []
        for card in range((month - 1) * 4, month * 4):
            mark = f" *{t.JOKER_MARK}*" if card == joker else ""
            cells.append(f"{card_name(card)} {kind_mark(KIND[card])} {POINTS[card]}{mark}")
        rows.append(f"| {month} {month_name(month)} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def all_options(rules: Rules) -> str:
    """Every option with its value and meaning (:func:`roppyakken.explain.describe_rules`)."""
    items = [
        t.HELP_OPTION_ITEM.format(name=name, value=option_value(value), meaning=option_description(name))
        for name, value in rules.options().items()
    ]
    head = t.HELP_OPTION_ITEM.format(name="preset", value=rules.preset, meaning=t.HELP_OPTION_PRESET)
    return t.HELP_OPTIONS_INTRO + "\n\n" + "\n".join([head, *items])
