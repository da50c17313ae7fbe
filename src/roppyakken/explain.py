"""Readable text for people: a round's scoring breakdown and a rule set's description."""

from __future__ import annotations

from collections.abc import Sequence

from roppyakken.cards import KIND, KINDS, POINTS, iter_cards
from roppyakken.i18n import N_, _, cell_width, fill, pad
from roppyakken.linebreak import wrap
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore
from roppyakken.text import card_name, kind_plural, option_description, preset_name, yaku_name

LABEL_WIDTH = 13
YES_NO = {True: N_("yes"), False: N_("no")}
LABEL_CARDS = N_("card points")
LABEL_YAKU = N_("yaku")
LABEL_LUCKY = N_("lucky hand")


def _label_width() -> int:
    """The label column: the longest label in the current language, wide characters counted
    twice, and at least :data:`LABEL_WIDTH` (labels never run into the points)."""
    labels = [kind_plural(kind) for kind in KINDS] + [_(LABEL_CARDS), _(LABEL_YAKU), _(LABEL_LUCKY)]
    return max(LABEL_WIDTH, *(cell_width(label) + 1 for label in labels))


def explain_round(
    rules: Rules,
    score: RoundScore,
    captures: Sequence[int],
    names: Sequence[str] | None = None,
) -> str:
    """A breakdown of a scored round, player by player (R-7, R-8), in the current language."""
    names = names or [fill("Player {n}", n=i + 1) for i in range(len(score.players))]
    width = _label_width()

    def _label(text: str) -> str:
        return pad(text, width)

    lines: list[str] = []
    for seat, (p, captured) in enumerate(zip(score.players, captures, strict=True)):
        lines.append(
            fill(
                "{name}: round score {score}, adds {adds}",
                name=names[seat],
                score=p.round_score,
                adds=p.final,
            )
        )
        for kind in KINDS:
            cards = [c for c in iter_cards(captured) if KIND[c] == kind]
            if cards:
                listed = _(", ").join(
                    fill("{card} {points}", card=card_name(c), points=POINTS[c])
                    if POINTS[c]
                    else card_name(c)
                    for c in cards
                )
                total = sum(POINTS[c] for c in cards)
                lines.append(f"  {_label(kind_plural(kind))}{total:>4}  {listed}")
        lines.append(f"  {_label(_(LABEL_CARDS))}{p.card_points:>4}")
        for slug, points in p.yaku:
            lines.append(f"  {_label(_(LABEL_YAKU))}{points:>4}  {yaku_name(slug)} [{slug}]")
        for slug, points in p.lucky_hands:
            lines.append(f"  {_label(_(LABEL_LUCKY))}{points:>4}  {yaku_name(slug)} [{slug}]")
        if rules.fuke != "off":
            lines.append(
                "  "
                + fill(
                    "counted for fuke: {counted} (fuke at {threshold} or less)",
                    counted=p.counted,
                    threshold=rules.fuke_threshold,
                )
            )
    if score.fuke:
        lines.append(_("Fuke: a counted score is too low, so every round score is void (R-7.3)."))
    if rules.round_scoring != "plain":
        lines.append(fill("Round scoring: {scoring} (R-7.4).", scoring=rules.round_scoring))
    if score.instant_win is not None:
        seat, slug = score.instant_win
        lines.append(fill("Instant win: {name} with {yaku} (R-8.5).", name=names[seat], yaku=yaku_name(slug)))
    return "\n".join(lines)


def option_value(value: object) -> str:
    """An option's value in words, in the current language: ``'a 1, b 2'``, ``'yes'``, ``'none'``."""
    if isinstance(value, dict):
        return _(", ").join(f"{k} {v}" for k, v in value.items()) or _("none")
    if isinstance(value, list):
        return _(", ").join(str(v) for v in value) or _("none")
    if isinstance(value, bool):
        return _(YES_NO[value])
    return str(value)


def describe_rules(rules: Rules, columns: int = 80) -> str:
    """Every option of ``rules`` with its value and what it means, in the current language, in
    lines of at most ``columns`` cells (the option names in a column of their own)."""
    lines = [fill("preset {preset} ({name})", preset=rules.preset, name=preset_name(rules.preset))]
    options = rules.options()
    indent = 2 + max(len(name) for name in options) + 2
    room = max(20, columns - indent)
    for name, value in options.items():
        text = [*wrap(option_value(value), room), *wrap(f"({option_description(name)})", room)]
        for i, line in enumerate(text):
            lines.append(f"  {name if i == 0 else '':{indent - 2}}{line}")
    return "\n".join(lines)
