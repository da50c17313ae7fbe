"""End-of-round scoring (RULES.md R-7, R-8.5): breakdown, fuke, instant wins, round scoring."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from roppyakken.cards import WILLOW_PAULOWNIA_MASK, points_of
from roppyakken.compiled import swap_in
from roppyakken.errors import RoppyakkenError
from roppyakken.rules import Rules
from roppyakken.yaku import YakuTable


class PlayerScore(NamedTuple):
    """One player's round: the FORMATS.md §1 player object.

    A named tuple rather than a frozen dataclass: searchers score rounds by the
    hundred thousand, and a tuple is built several times faster.
    """

    card_points: int
    yaku: tuple[tuple[str, int], ...]
    lucky_hands: tuple[tuple[str, int], ...]
    round_score: int
    counted: int
    final: int

    def to_json(self) -> dict[str, Any]:
        """The FORMATS.md §1 player object."""
        return {
            "card_points": self.card_points,
            "yaku": [{"slug": s, "points": p} for s, p in self.yaku],
            "lucky_hands": [{"slug": s, "points": p} for s, p in self.lucky_hands],
            "round_score": self.round_score,
            "counted": self.counted,
            "final": self.final,
        }


class RoundScore(NamedTuple):
    """A scored round: every player's breakdown, whether it was void, any instant win."""

    players: tuple[PlayerScore, ...]
    fuke: bool
    instant_win: tuple[int, str] | None

    def to_json(self) -> dict[str, Any]:
        """The FORMATS.md §1 output document."""
        win = None
        if self.instant_win is not None:
            win = {"seat": self.instant_win[0], "yaku": self.instant_win[1]}
        return {
            "players": [p.to_json() for p in self.players],
            "fuke": self.fuke,
            "instant_win": win,
        }


def lucky_points(rules: Rules, declared: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """The points of declared lucky hands; refuse one these rules do not score."""
    out = []
    for slug in declared:
        if slug not in rules.lucky_hands:
            raise RoppyakkenError(f"lucky hand {slug!r} does not score under these rules")
        out.append((slug, rules.lucky_hands[slug]))
    return tuple(out)


def _counted(rules: Rules, captured: int, card_points: int, round_score: int) -> int:
    """R-7.3: what the fuke check counts."""
    mode = rules.fuke
    if mode == "no-willow-paulownia":
        return round_score - points_of(captured & WILLOW_PAULOWNIA_MASK)
    if mode == "cards-only":
        return card_points - points_of(captured & WILLOW_PAULOWNIA_MASK)
    return round_score


def round_up(score: int) -> int:
    """R-7.4 ``round-up``: to the next hundred (320 → 400, 600 → 600, 0 → 0)."""
    return -(-score // 100) * 100


def apply_round_scoring(rules: Rules, scores: Sequence[int]) -> list[int]:
    """R-7.4: what each round score adds to its player's total."""
    if rules.round_scoring == "plain":
        return list(scores)
    if rules.round_scoring == "round-up":
        return [round_up(s) for s in scores]
    if rules.round_scoring == "difference":
        ordered = sorted(scores, reverse=True)
        top, second = ordered[0], ordered[1]
        return [top - second if s == top else 0 for s in scores]
    return list(scores)


def yaku_table(rules: Rules) -> YakuTable:
    """``rules.table``, typed as this module's :class:`YakuTable` (compiled, the compiled class:
    its methods are then called natively, not looked up as Python attributes)."""
    table: object = rules.table
    if not isinstance(table, YakuTable):  # pragma: no cover - Rules always builds one
        raise TypeError(f"rules.table is not a YakuTable: {table!r}")
    return table


def score_round(
    rules: Rules,
    captures: Sequence[int],
    orders: Sequence[Sequence[int]],
    declared: Sequence[Sequence[str]],
) -> RoundScore:
    """Score a finished round from each seat's captured cards (R-7.2 to R-7.6).

    ``captures`` are card masks, ``orders`` the capture order of each seat (R-5.6,
    used by ordered rain-off), ``declared`` each seat's declared lucky hands.
    """
    table = yaku_table(rules)
    fuke = rules.fuke
    parts = []
    round_scores = []
    void = False
    n = len(captures)
    if len(orders) != n or len(declared) != n:
        raise ValueError(f"{n} captures, {len(orders)} capture orders, {len(declared)} declarations")
    for seat in range(n):  # (indexes, not zip(strict=True): a generic call when compiled)
        captured, order, lucky_slugs = captures[seat], orders[seat], declared[seat]
        card_points = points_of(captured)
        yaku = tuple(table.evaluate(captured, order))
        lucky = lucky_points(rules, lucky_slugs) if lucky_slugs else ()
        score = card_points
        for _, p in yaku:
            score += p
        for _, p in lucky:
            score += p
        counted = score if fuke == "off" else _counted(rules, captured, card_points, score)
        if fuke != "off" and counted <= rules.fuke_threshold:
            void = True
        parts.append((card_points, yaku, lucky, score, counted))
        round_scores.append(score)
    if void:  # a round in which an exempt yaku was completed is spared
        exempt = rules.fuke_exempt
        void = not any(slug in exempt for part in parts for slug, _ in part[1])
    instant = None
    if rules.instant_win != "off" and not void:
        instant = instant_winner(rules, captures)
    finals = apply_round_scoring(rules, [0] * len(parts) if void else round_scores)
    # tuple.__new__ is what a named tuple's own __new__ calls, without its Python-level frame
    # (3-4 times faster: searchers score rounds by the hundred thousand); read once (compiled,
    # ``tuple.__new__(...)`` looks the method up on each call).
    players = tuple(
        [
            _new_tuple(PlayerScore, (cp, y, lh, rs, ct, finals[seat]))
            for seat, (cp, y, lh, rs, ct) in enumerate(parts)
        ]
    )
    return _new_tuple(RoundScore, (players, void, instant))


_new_tuple: Final = tuple.__new__
"""``tuple.__new__``, which builds the named tuples of a score."""


def instant_winner(rules: Rules, captures: Sequence[int]) -> tuple[int, str] | None:
    """R-8.5: the seat that completed Four Brights, failing that Seven Ribbons."""
    table = yaku_table(rules)
    for slug, mask in table.instant_masks:
        for seat, captured in enumerate(captures):
            if mask == -1:
                if table.has_seven_ribbons(captured):
                    return seat, slug
            elif captured & mask == mask:
                return seat, slug
    return None


# --- end of the compiled part: what follows swaps in the compiled module when it is there.

swap_in(globals())
