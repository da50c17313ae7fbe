"""Readable text for people: a round's scoring breakdown and a rule set's description."""

from __future__ import annotations

from collections.abc import Sequence

from roppyakken.cards import KIND, KINDS, POINTS, SLUGS, iter_cards
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore
from roppyakken.text import OPTION_DESCRIPTIONS, yaku_name


def explain_round(
    rules: Rules,
    score: RoundScore,
    captures: Sequence[int],
    names: Sequence[str] | None = None,
) -> str:
    """A breakdown of a scored round, player by player (R-7, R-8)."""
    names = names or [f"Player {i + 1}" for i in range(len(score.players))]
    lines: list[str] = []
    for seat, (p, captured) in enumerate(zip(score.players, captures, strict=True)):
        lines.append(f"{names[seat]}: round score {p.round_score}, adds {p.final}")
        for kind in KINDS:
            cards = [c for c in iter_cards(captured) if KIND[c] == kind]
            if cards:
                listed = ", ".join(f"{SLUGS[c]} {POINTS[c]}" if POINTS[c] else SLUGS[c] for c in cards)
                lines.append(f"  {kind + 's':8} {sum(POINTS[c] for c in cards):>4}  {listed}")
        lines.append(f"  {'cards':8} {p.card_points:>4}")
        for slug, points in p.yaku:
            lines.append(f"  {'yaku':8} {points:>4}  {yaku_name(slug)} [{slug}]")
        for slug, points in p.lucky_hands:
            lines.append(f"  {'lucky':8} {points:>4}  {yaku_name(slug)} [{slug}]")
        if rules.fuke != "off":
            lines.append(f"  counted for fuke: {p.counted} (fuke at {rules.fuke_threshold} or less)")
    if score.fuke:
        lines.append("Fuke: a counted score is too low, so every round score is void (R-7.3).")
    if rules.round_scoring != "plain":
        lines.append(f"Round scoring: {rules.round_scoring} (R-7.4).")
    if score.instant_win is not None:
        seat, slug = score.instant_win
        lines.append(f"Instant win: {names[seat]} with {yaku_name(slug)} (R-8.5).")
    return "\n".join(lines)


def option_value(value: object) -> str:
    """An option's value in words: ``'a 1, b 2'``, ``'2, 3'``, ``'yes'``, ``'none'``."""
    if isinstance(value, dict):
        return ", ".join(f"{k} {v}" for k, v in value.items()) or "none"
    if isinstance(value, list):
        return ", ".join(str(v) for v in value) or "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def describe_rules(rules: Rules) -> str:
    """Every option of ``rules`` with its value and what it means."""
    lines = [f"preset {rules.preset}"]
    for name, value in rules.options().items():
        shown = option_value(value)
        lines.append(f"  {name:28} {shown}")
        lines.append(f"  {'':28} ({OPTION_DESCRIPTIONS[name]})")
    return "\n".join(lines)
