"""Yaku (RULES.md R-8) and lucky hands (R-4) as data, and their evaluation on card sets."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from typing import Any, Final, Protocol

from roppyakken.cards import (
    MONTH_MASK,
    PINE_CRANE,
    PLUM_WARBLER,
    RIBBON_MASK,
    SCORING_MASK,
    card_count,
    card_id,
    full_months,
    mask_of,
    month_of_nibbles,
    triple_months,
)
from roppyakken.compiled import swap_in
from roppyakken.options import HandFour, RainOff, SevenRibbonsWillow


class YakuOptions(Protocol):
    """The options of :class:`roppyakken.rules.Rules` that the yaku table is compiled from
    (a protocol, so that this module does not import the rules module that imports it)."""

    @property
    def yaku(self) -> Mapping[str, int]:
        """Enabled yaku and their values."""

    @property
    def four_brights_needs_warbler(self) -> bool:
        """R-8.4 (Yukbaek)."""

    @property
    def seven_ribbons_willow(self) -> SevenRibbonsWillow:
        """R-8.4: count, require or exclude the Willow ribbon."""

    @property
    def seven_ribbons_extra(self) -> int:
        """R-8.4: points per ribbon beyond seven."""

    @property
    def viewing_exclusive(self) -> bool:
        """R-8.3: the cannon replaces the two viewings."""

    @property
    def rain_off(self) -> RainOff:
        """R-8.3: when a Willow capture voids the viewings."""


class LuckyOptions(Protocol):
    """The options of :class:`roppyakken.rules.Rules` that lucky hands depend on (R-4)."""

    @property
    def lucky_hands(self) -> Mapping[str, int]:
        """Enabled lucky hands and their values."""

    @property
    def hand_four(self) -> HandFour:
        """R-3.4: what a hand four is."""


def _mask(*slugs: str) -> int:
    return mask_of(card_id(s) for s in slugs)


FOUR_BRIGHTS: Final = "four-brights"
SEVEN_RIBBONS: Final = "seven-ribbons"
INSTANT_YAKU: Final = (FOUR_BRIGHTS, SEVEN_RIBBONS)
"""R-8.5: the instant-win yaku, in order of precedence."""

# the cards of every yaku that is "these cards, all captured".
# Four Brights and Seven Ribbons depend on options and are evaluated apart.
SET_YAKU: Final[dict[str, int]] = {
    "four-brights": _mask("pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"),
    "matsu-kiri-bozu": _mask("pine-crane", "pampas-moon", "paulownia-phoenix"),
    "great-three": _mask("pine-crane", "plum-warbler", "cherry-curtain"),
    "red-poems": _mask("pine-ribbon", "plum-ribbon", "cherry-ribbon"),
    "blue-ribbons": _mask("peony-ribbon", "chrysanthemum-ribbon", "maple-ribbon"),
    "grass-ribbons": _mask("wisteria-ribbon", "iris-ribbon", "clover-ribbon"),
    "boar-deer-butterflies": _mask("clover-boar", "maple-deer", "peony-butterflies"),
    "cannon": _mask("cherry-curtain", "pampas-moon", "chrysanthemum-sake"),
    "flower-viewing": _mask("cherry-curtain", "chrysanthemum-sake"),
    "moon-viewing": _mask("pampas-moon", "chrysanthemum-sake"),
    "four-willow": MONTH_MASK[11],
    "four-pine": MONTH_MASK[1],
    "four-plum": MONTH_MASK[2],
    "four-cherry": MONTH_MASK[3],
    "four-wisteria": MONTH_MASK[4],
    "four-pampas": MONTH_MASK[8],
    "four-maple": MONTH_MASK[10],
    "four-paulownia": MONTH_MASK[12],
    "ribbon-boar-deer-butterflies": _mask("clover-ribbon", "maple-ribbon", "peony-ribbon"),
    "ribbon-cannon": _mask("cherry-ribbon", "pampas-geese", "chrysanthemum-ribbon"),
    "ribbon-flower-viewing": _mask("cherry-ribbon", "chrysanthemum-ribbon"),
    "ribbon-moon-viewing": _mask("chrysanthemum-ribbon", "pampas-geese"),
}

YAKU_SLUGS: Final[tuple[str, ...]] = (
    "four-brights",
    "matsu-kiri-bozu",
    "great-three",
    "seven-ribbons",
    "red-poems",
    "blue-ribbons",
    "grass-ribbons",
    "boar-deer-butterflies",
    "cannon",
    "flower-viewing",
    "moon-viewing",
    "four-willow",
    "four-pine",
    "four-plum",
    "four-cherry",
    "four-wisteria",
    "four-pampas",
    "four-maple",
    "four-paulownia",
    "ribbon-boar-deer-butterflies",
    "ribbon-cannon",
    "ribbon-flower-viewing",
    "ribbon-moon-viewing",
)
"""Every yaku the rules know, in display order."""

VIEWING_GROUP: Final = ("cannon", "flower-viewing", "moon-viewing")
"""R-8.1: exclusive group, Cannon first.  *(reading)* Also the yaku rain-off voids (R-8.3)."""
RIBBON_VIEWING_GROUP: Final = ("ribbon-cannon", "ribbon-flower-viewing", "ribbon-moon-viewing")
"""R-8.6: the ribbon viewing group, exclusive like the viewing group."""

WILLOW_RIBBON_MASK: Final = _mask("willow-ribbon")
WILLOW_MASK: Final = MONTH_MASK[11]

LUCKY_HAND_SLUGS: Final[tuple[str, ...]] = (
    "all-chaff",
    "hand-three",
    "double-hand-three",
    "triple-hand-three",
    "hand-four",
    "iris-hand-three",
    "iris-hand-four",
)
"""Every lucky hand the rules know (R-4.1, R-4.3)."""

_RANK: Final = {slug: i for i, slug in enumerate(YAKU_SLUGS)}


def _display_rank(item: tuple[str, int]) -> int:
    return _RANK[item[0]]


THREES_FAMILY: Final = ("triple-hand-three", "double-hand-three", "hand-three")
"""R-4.2: mutually exclusive, largest first."""

IRIS: Final = 5


@dataclass(frozen=True, slots=True)
class YakuTable:
    """Rules compiled for fast evaluation: enabled yaku as (slug, mask, value) and flags."""

    set_yaku: tuple[tuple[str, int, int], ...]
    seven_ribbons: int
    seven_ribbons_mask: int
    seven_ribbons_require_willow: bool
    seven_ribbons_extra: int
    viewing_exclusive: bool
    rain_off: RainOff
    instant_masks: tuple[tuple[str, int], ...]
    exclusive: tuple[tuple[int, str, str], ...]
    """(cannon's cards, the two yaku it replaces) for each exclusive group whose cannon scores."""
    set_masks: tuple[int, ...] = ()
    """The masks of ``set_yaku``, in order (what :meth:`evaluate` reads first)."""
    set_pairs: tuple[tuple[str, int], ...] = ()
    """``(slug, points)`` of each of ``set_yaku``, in order: what :meth:`evaluate` gives for a
    set yaku found (the same tuple each time: nothing built or unpacked)."""

    def __reduce__(self) -> tuple[type[YakuTable], tuple[object, ...]]:
        """Copy and pickle by value (the compiled class cannot be restored field by field)."""
        return YakuTable, tuple(getattr(self, f.name) for f in fields(self))

    @staticmethod
    def compile(rules: YakuOptions) -> YakuTable:
        """Compile the yaku options of ``rules``."""
        entries = []
        instant: list[tuple[str, int]] = []
        for slug in YAKU_SLUGS:
            value = rules.yaku.get(slug)
            if value is None or slug == SEVEN_RIBBONS:
                continue
            mask = SET_YAKU[slug]
            if slug == FOUR_BRIGHTS and rules.four_brights_needs_warbler:
                mask |= 1 << PLUM_WARBLER  # R-8.4 (Yukbaek)
            entries.append((slug, mask, value))
            if slug == FOUR_BRIGHTS:
                instant.append((slug, mask))
        ribbons = RIBBON_MASK
        if rules.seven_ribbons_willow == "exclude":
            ribbons &= ~WILLOW_RIBBON_MASK
        seven = rules.yaku.get(SEVEN_RIBBONS, 0)
        if SEVEN_RIBBONS in rules.yaku:
            instant.append((SEVEN_RIBBONS, -1))
        return YakuTable(
            set_yaku=tuple(entries),
            seven_ribbons=seven,
            seven_ribbons_mask=ribbons,
            seven_ribbons_require_willow=rules.seven_ribbons_willow == "require",
            seven_ribbons_extra=rules.seven_ribbons_extra,
            viewing_exclusive=rules.viewing_exclusive,
            rain_off=rules.rain_off,
            instant_masks=tuple(instant),
            exclusive=tuple(
                (SET_YAKU[cannon], flower, moon)
                for cannon, flower, moon in (VIEWING_GROUP, RIBBON_VIEWING_GROUP)
                if rules.viewing_exclusive and cannon in rules.yaku
            ),
            set_masks=tuple(mask for _, mask, _ in entries),
            set_pairs=tuple((slug, value) for slug, _, value in entries),
        )

    def has_seven_ribbons(self, captured: int) -> bool:
        """Whether ``captured`` completes Seven Ribbons under these options (R-8.4)."""
        if self.seven_ribbons_require_willow and not captured & WILLOW_RIBBON_MASK:
            return False
        return card_count(captured & self.seven_ribbons_mask) >= 7

    def instant_yaku(self, captured: int) -> str | None:
        """The instant-win yaku (R-8.5) that ``captured`` completes, Four Brights first."""
        for slug, mask in self.instant_masks:
            if mask == -1:
                if self.has_seven_ribbons(captured):
                    return slug
            elif captured & mask == mask:
                return slug
        return None

    def evaluate(self, captured: int, order: Sequence[int] = ()) -> list[tuple[str, int]]:
        """The yaku ``captured`` scores, with points, in display order (R-8).

        ``order`` is the capture order (R-5.6), needed only for ``rain_off = ordered``.
        """
        # (Typed as objects: compiled, a tuple[str, int] taken from a tuple would be unpacked
        # into a C struct and packed into a new tuple again to be appended.)
        found: list[Any] = []
        pairs: tuple[object, ...] = self.set_pairs
        for i, mask in enumerate(self.set_masks):  # the masks alone (compiled, an entry of set_yaku
            if captured & mask == mask:  # would be unpacked whole, its three values checked)
                found.append(pairs[i])
        if self.seven_ribbons and self.has_seven_ribbons(captured):
            extra = card_count(captured & self.seven_ribbons_mask) - 7
            found.append((SEVEN_RIBBONS, self.seven_ribbons + extra * self.seven_ribbons_extra))
            found.sort(key=_display_rank)
        if not found:
            return found
        for cannon_mask, flower, moon in self.exclusive:
            if captured & cannon_mask == cannon_mask:
                found = [f for f in found if f[0] != flower and f[0] != moon]
        if self.rain_off != "off" and captured & WILLOW_MASK and self._rained_off(captured, order):
            found = [f for f in found if f[0] not in VIEWING_GROUP]
        return found

    def _rained_off(self, captured: int, order: Sequence[int]) -> bool:
        """R-8.3: a Willow capture voids viewing yaku unless pine-crane protects them."""
        if not captured >> PINE_CRANE & 1:
            return True
        if self.rain_off == "end-of-round":
            return False
        for card in order:  # ordered: the crane must come before the first Willow card
            if card == PINE_CRANE:
                return False
            if WILLOW_MASK >> card & 1:
                return True
        return True


@dataclass(frozen=True, slots=True)
class LuckyHand:
    """A lucky hand a player holds: its slug, value and the cards that show it."""

    slug: str
    points: int
    cards: int

    def __reduce__(self) -> tuple[type[LuckyHand], tuple[str, int, int]]:
        """Copy and pickle by value (the compiled class cannot be restored field by field)."""
        return LuckyHand, (self.slug, self.points, self.cards)


_HANDS: dict[tuple[str, int, int], LuckyHand] = {}
"""Every :class:`LuckyHand` made, by its fields (:func:`_lucky_hand`)."""

HANDS_KEPT: Final = 4096
"""At most this many lucky hands are kept in :data:`_HANDS` (it starts afresh when full)."""


def _lucky_hand(slug: str, points: int, cards: int) -> LuckyHand:
    """The :class:`LuckyHand` of these fields, made once and shared (it is immutable): compiled,
    a frozen dataclass's ``__init__`` is still the interpreted one ``dataclass`` generates
    (~4,800 instructions a hand, in every new deal that holds one)."""
    key = (slug, points, cards)
    found = _HANDS.get(key)
    if found is None:
        if len(_HANDS) >= HANDS_KEPT:
            _HANDS.clear()
        found = _HANDS[key] = LuckyHand(slug, points, cards)
    return found


_LUCKY_CACHES: dict[LuckyOptions, dict[int, tuple[LuckyHand, ...]]] = {}
"""Lucky hands held, by rules (hashable values) and by hand: searchers ask often."""


def lucky_hands_held(rules: LuckyOptions, hand: int) -> list[LuckyHand]:
    """The lucky hands (R-4) that ``hand`` may declare under ``rules``, in slug order."""
    cache = _LUCKY_CACHES.get(rules)
    if cache is None:
        if len(_LUCKY_CACHES) > 64:
            _LUCKY_CACHES.clear()
        cache = _LUCKY_CACHES[rules] = {}
    found = cache.get(hand)
    if found is None:
        if len(cache) > 50_000:  # searchers see many hands; keep the memory bounded
            cache.clear()
        found = cache[hand] = tuple(_lucky_hands_held(rules, hand))
    return list(found)


def lucky_holders(rules: LuckyOptions, hands: list[int], dealer: int) -> list[int]:
    """The seats whose hand holds a lucky hand (R-4) to declare, in play order from ``dealer`` (R-4.1)."""
    n = len(hands)
    out: list[int] = []
    for i in range(n):
        seat = dealer + i
        if seat >= n:
            seat -= n
        hand = hands[seat]
        # Every lucky hand needs three or four cards of a month, or no scoring card (all-chaff):
        # a hand with neither holds none (no cache looked up).
        if ((hand and not hand & SCORING_MASK) or triple_months(hand) or full_months(hand)) and (
            lucky_hands_held(rules, hand)
        ):
            out.append(seat)
    return out


def _lucky_hands_held(rules: LuckyOptions, hand: int) -> list[LuckyHand]:
    values = rules.lucky_hands
    if not values:
        return []
    held: list[LuckyHand] = []
    if "all-chaff" in values and hand and not hand & SCORING_MASK:
        held.append(_lucky_hand("all-chaff", values["all-chaff"], hand))
    three_cards = triple_months(hand)
    four_cards = full_months(hand)
    if not (three_cards or four_cards):
        return held
    threes = month_of_nibbles(three_cards)
    fours = month_of_nibbles(four_cards)
    if threes:
        family = _threes_family(values, threes)
        if family is not None:
            slug, months = family
            cards = 0
            for m in months:
                cards |= hand & MONTH_MASK[m]
            held.append(_lucky_hand(slug, values[slug], cards))
    if fours and rules.hand_four == "play":
        # R-4.2 (reading): a hand-four month is not also a hand-three; each slug scores once.
        iris = IRIS in fours
        if iris and "iris-hand-four" in values:
            held.append(_lucky_hand("iris-hand-four", values["iris-hand-four"], MONTH_MASK[IRIS]))
            fours.remove(IRIS)
        if fours and "hand-four" in values:
            held.append(_lucky_hand("hand-four", values["hand-four"], MONTH_MASK[fours[0]]))
    return held


def _threes_family(values: Mapping[str, int], threes: list[int]) -> tuple[str, list[int]] | None:
    """R-4.2 / R-4.3: the one hand-three family member that applies, and its months."""
    count = len(threes)
    if count >= 3 and "triple-hand-three" in values:
        return "triple-hand-three", threes[:3]
    if count >= 2 and "double-hand-three" in values:
        return "double-hand-three", threes[:2]
    # One triple scores (or several, with the larger members disabled). : an Iris
    # triple raises it to iris-hand-three where that is enabled.
    if IRIS in threes and "iris-hand-three" in values:
        return "iris-hand-three", [IRIS]
    if "hand-three" in values:
        return "hand-three", threes[:1]
    return None


# --- end of the compiled part: what follows swaps in the compiled module when it is there.

swap_in(globals())
