"""The 48-card hanafuda deck (RULES.md R-1): ids, slugs, months, kinds, points.

Cards are the ints ``0..47`` with ``id = (month - 1) * 4 + position``.  A set of
cards is a 48-bit int (bit ``id`` set when the card is in the set); every
helper here works on such masks so the engine never builds Python sets in its
hot path.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from typing import Final

from roppyakken.compiled import i64, swap_in
from roppyakken.errors import Phrase, RoppyakkenError, shown
from roppyakken.i18n import N_

BRIGHT: Final = "bright"
ANIMAL: Final = "animal"
RIBBON: Final = "ribbon"
CHAFF: Final = "chaff"
KINDS: Final = (BRIGHT, ANIMAL, RIBBON, CHAFF)

MONTH_NAMES: Final = (
    "Pine",
    "Plum",
    "Cherry",
    "Wisteria",
    "Iris",
    "Peony",
    "Bush clover",
    "Pampas",
    "Chrysanthemum",
    "Maple",
    "Willow",
    "Paulownia",
)

# (slug, kind) month by month, left to right.
_DECK: Final[tuple[tuple[str, str], ...]] = (
    ("pine-crane", BRIGHT), ("pine-ribbon", RIBBON),
    ("pine-chaff-1", CHAFF), ("pine-chaff-2", CHAFF),
    ("plum-warbler", ANIMAL), ("plum-ribbon", RIBBON),
    ("plum-chaff-1", CHAFF), ("plum-chaff-2", CHAFF),
    ("cherry-curtain", BRIGHT), ("cherry-ribbon", RIBBON),
    ("cherry-chaff-1", CHAFF), ("cherry-chaff-2", CHAFF),
    ("wisteria-cuckoo", ANIMAL), ("wisteria-ribbon", RIBBON),
    ("wisteria-chaff-1", CHAFF), ("wisteria-chaff-2", CHAFF),
    ("iris-bridge", ANIMAL), ("iris-ribbon", RIBBON),
    ("iris-chaff-1", CHAFF), ("iris-chaff-2", CHAFF),
    ("peony-butterflies", ANIMAL), ("peony-ribbon", RIBBON),
    ("peony-chaff-1", CHAFF), ("peony-chaff-2", CHAFF),
    ("clover-boar", ANIMAL), ("clover-ribbon", RIBBON),
    ("clover-chaff-1", CHAFF), ("clover-chaff-2", CHAFF),
    ("pampas-moon", BRIGHT), ("pampas-geese", ANIMAL),
    ("pampas-chaff-1", CHAFF), ("pampas-chaff-2", CHAFF),
    ("chrysanthemum-sake", ANIMAL), ("chrysanthemum-ribbon", RIBBON),
    ("chrysanthemum-chaff-1", CHAFF), ("chrysanthemum-chaff-2", CHAFF),
    ("maple-deer", ANIMAL), ("maple-ribbon", RIBBON),
    ("maple-chaff-1", CHAFF), ("maple-chaff-2", CHAFF),
    ("willow-rainman", BRIGHT), ("willow-swallow", ANIMAL),
    ("willow-ribbon", RIBBON), ("willow-lightning", CHAFF),
    ("paulownia-phoenix", BRIGHT), ("paulownia-yellow", CHAFF),
    ("paulownia-chaff-1", CHAFF), ("paulownia-chaff-2", CHAFF),
)  # fmt: skip

Card = int
"""A card id, 0 to 47 (RULES.md R-1): month ``id // 4 + 1``."""

CardSet = int
"""A set of cards as a 48-bit mask: bit ``c`` is set when card ``c`` is in the set."""

NUM_CARDS: Final = 48
ALL_CARDS: Final = (1 << NUM_CARDS) - 1

SLUGS: Final[tuple[str, ...]] = tuple(slug for slug, _ in _DECK)
KIND: Final[tuple[str, ...]] = tuple(kind for _, kind in _DECK)
MONTH: Final[tuple[int, ...]] = tuple(i // 4 + 1 for i in range(NUM_CARDS))
_ID: Final[dict[str, int]] = {slug: i for i, slug in enumerate(SLUGS)}


def card_id(slug: str) -> int:
    """Return the id of the card named ``slug``; raise a clear error if unknown.

    The error suggests the cards whose slugs are near (``maple-chaff`` ->
    ``maple-chaff-1``, ``maple-chaff-2``).
    """
    try:
        return _ID[slug]
    except KeyError:
        near = near_slugs(slug)
        if not near:
            raise RoppyakkenError(N_("unknown card '{slug}'"), slug=slug) from None
        if len(near) == 1:
            raise RoppyakkenError(
                N_("unknown card '{slug}' (did you mean {near}?)"), slug=slug, near=near[0]
            ) from None
        raise RoppyakkenError(
            N_("unknown card '{slug}' (did you mean {near} or {last}?)"),
            slug=slug,
            near=", ".join(near[:-1]),
            last=near[-1],
        ) from None


def near_slugs(slug: str) -> list[str]:
    """Card slugs near ``slug``, in card order: those it begins (``maple-chaff``: both chaff
    cards; ``maple``: the month's four), else the few (four at most) it names a part of
    (``crane``: ``pine-crane``), else the closest spellings (``pine-crain``: ``pine-crane``),
    at most three."""
    text = slug.strip().lower()
    if not text:
        return []
    prefixed = [s for s in SLUGS if s.startswith(text + "-")]
    if prefixed:
        return prefixed
    parts = [s for s in SLUGS if s.endswith("-" + text) or f"-{text}-" in s]
    if 0 < len(parts) <= 4:
        return parts
    close = set(difflib.get_close_matches(text, SLUGS, n=3, cutoff=0.75))
    return [s for s in SLUGS if s in close]


def _points(card: int) -> int:
    slug, kind = _DECK[card]
    if kind == BRIGHT or slug == "plum-warbler":
        return 50
    if kind in (ANIMAL, RIBBON) or slug == "paulownia-yellow":
        return 10
    return 0


POINTS: Final[tuple[int, ...]] = tuple(_points(c) for c in range(NUM_CARDS))

BIT50: Final = 1 << 50
"""``BIT50 >> (50 - n)`` is ``1 << n`` (``0 <= n <= 50``), the form the compiled modules write a
one-bit mask in: with ``n`` an ``i64``, mypyc compiles ``1 << n`` as a 32-bit C shift, while a
constant above 32 bits is a 64-bit C literal (:mod:`roppyakken.compiled`;
``tests/core/test_compiled_shifts.py`` refuses the other form)."""
_MONTH44: Final = 15 << 44
"""``_MONTH44 >> (44 - 4 * m)`` is ``15 << 4 * m``, the four cards of the month at ids ``4 * m``."""

MONTH_MASK: Final[tuple[int, ...]] = (0, *tuple(_MONTH44 >> (44 - 4 * m) for m in range(12)))
"""``MONTH_MASK[m]`` is the set of the four cards of month ``m`` (1..12)."""

PINE_CRANE: Final = card_id("pine-crane")
PLUM_WARBLER: Final = card_id("plum-warbler")
WILLOW_RAINMAN: Final = card_id("willow-rainman")
WILLOW_LIGHTNING: Final = card_id("willow-lightning")
WILLOW: Final = 11
PAULOWNIA: Final = 12

SCORING_MASK: Final = sum(BIT50 >> (50 - c) for c in range(NUM_CARDS) if POINTS[c] > 0)
"""Cards worth more than 0 points."""
RIBBON_MASK: Final = sum(BIT50 >> (50 - c) for c in range(NUM_CARDS) if KIND[c] == RIBBON)
WILLOW_PAULOWNIA_MASK: Final = MONTH_MASK[WILLOW] | MONTH_MASK[PAULOWNIA]


_FIFTY_MASK: Final = sum(BIT50 >> (50 - c) for c in range(NUM_CARDS) if POINTS[c] == 50)
_TEN_MASK: Final = sum(BIT50 >> (50 - c) for c in range(NUM_CARDS) if POINTS[c] == 10)
assert _FIFTY_MASK | _TEN_MASK == SCORING_MASK  # every card is worth 50, 10 or 0


def points_of(mask: i64) -> int:
    """Total card points (R-1.2) of the cards in ``mask``."""
    return 50 * card_count(mask & _FIFTY_MASK) + 10 * card_count(mask & _TEN_MASK)


def card_count(mask: i64) -> int:
    """How many cards ``mask`` holds: ``int.bit_count`` of a mask (which is what the pure
    modules run, see the end of this module).  Compiled, ``bit_count`` is a Python method
    call; this is a dozen native operations: the bits counted in pairs, nibbles, then bytes,
    and the eight bytes added up (any mask below 2**62: constants mypyc keeps unboxed)."""
    mask -= mask >> 1 & 0x1555_5555_5555_5555
    mask = (mask & 0x3333_3333_3333_3333) + (mask >> 2 & 0x3333_3333_3333_3333)
    mask = (mask + (mask >> 4)) & 0x0F0F_0F0F_0F0F_0F0F
    mask += mask >> 8
    mask += mask >> 16
    mask += mask >> 32
    return mask & 0x7F


def bit(card: int) -> int:
    """The one-card mask of ``card``."""
    return BIT50 >> (50 - card)


def iter_cards(mask: int) -> Iterator[int]:
    """Yield the card ids in ``mask`` in increasing order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def cards_of(mask: int) -> list[int]:
    """The card ids in ``mask``, increasing."""
    return list(iter_cards(mask))


def mask_of(cards: Iterable[int]) -> int:
    """The mask of the given card ids."""
    mask = 0
    for c in cards:
        mask |= BIT50 >> (50 - c)
    return mask


def slugs_of(mask: int) -> list[str]:
    """The slugs of the cards in ``mask``, in id order."""
    return [SLUGS[c] for c in iter_cards(mask)]


def parse_cards(slugs: Iterable[object], what: str | Phrase = "cards") -> list[int]:
    """Turn a list of slugs into card ids, refusing unknown or repeated cards."""
    seen: set[int] = set()
    out: list[int] = []
    for slug in slugs:
        if not isinstance(slug, str):
            raise RoppyakkenError(
                N_("{what}: expected a card slug, got {value}"), what=what, value=shown(slug)
            )
        try:
            c = card_id(slug)
        except RoppyakkenError as exc:
            raise RoppyakkenError(N_("{what}: {error}"), what=what, error=exc) from None
        if c in seen:
            raise RoppyakkenError(N_("{what}: card '{slug}' appears twice"), what=what, slug=slug)
        seen.add(c)
        out.append(c)
    return out


_NIBBLE_1: Final = 0x111111111111
_NIBBLE_5: Final = 0x555555555555
_NIBBLE_3: Final = 0x333333333333


def month_counts(mask: int) -> int:
    """Per-month card counts of ``mask``, one per 4-bit nibble (month m in nibble m-1)."""
    c = mask - ((mask >> 1) & _NIBBLE_5)
    return (c & _NIBBLE_3) + ((c >> 2) & _NIBBLE_3)


def full_months(mask: int) -> int:
    """The cards of every month ``mask`` holds all four of."""
    return (mask & mask >> 1 & mask >> 2 & mask >> 3 & _NIBBLE_1) * 15


def triple_months(mask: int) -> int:
    """Every month of which ``mask`` holds exactly three cards, as a mask of its four cards."""
    c = month_counts(mask)
    return (c & c >> 1 & ~(c >> 2) & _NIBBLE_1) * 15


def month_of_nibbles(months_mask: int) -> list[int]:
    """The months (1..12) whose nibble in ``months_mask`` is non-zero."""
    return [m for m in range(1, 13) if months_mask >> (4 * (m - 1)) & 15]


# --- end of the compiled part: what follows swaps in the compiled module when it is there.

_COMPILED: Final = swap_in(globals())
count_by_arithmetic: Final = card_count
"""The bit arithmetic of :func:`card_count` (compiled when built), for the tests whichever runs."""
if not _COMPILED:
    # Interpreted, int's own bit_count is one C call where the arithmetic is a dozen Python
    # operations (pure search playouts ran ~13% slower with it): the same count for every
    # mask, which tests/core/test_kernel_ints.py checks; compiled code keeps the arithmetic.
    globals()["card_count"] = int.bit_count
