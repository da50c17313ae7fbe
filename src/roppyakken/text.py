"""The one catalog of names and descriptions, in English, the source language.

Names of cards, months, kinds, yaku, lucky hands (and their conditions), presets
and bot levels, and the one-line descriptions of presets and rule options.  Slugs
never change; these texts are the gettext message ids, marked with ``N_`` so that
``scripts/i18n.py`` extracts them, and the functions below return them in the
current language (:mod:`roppyakken.i18n`).  The terminal reads them from here and
the browser from ``server/static/js/catalog.js``, generated from this module and
the translations.
"""

from __future__ import annotations

from typing import Final

from roppyakken.cards import SLUGS, card_id
from roppyakken.i18n import N_, SOURCE_LANGUAGE, _, fill, language

YAKU_NAMES: Final[dict[str, str]] = {
    "four-brights": N_("Four Brights (Shikō)"),
    "matsu-kiri-bozu": N_("Crane, Moon, Phoenix (Matsu-Kiri-Bōzu)"),
    "great-three": N_("Great Three (Ōzan)"),
    "seven-ribbons": N_("Seven Ribbons (Nanatan)"),
    "red-poems": N_("Red Poems (Akatan)"),
    "blue-ribbons": N_("Blue Ribbons (Aotan)"),
    "grass-ribbons": N_("Grass Ribbons (Kusatan)"),
    "boar-deer-butterflies": N_("Boar, Deer, Butterflies (Inoshikachō)"),
    "cannon": N_("Cannon (Teppō)"),
    "flower-viewing": N_("Flower Viewing (Hanami)"),
    "moon-viewing": N_("Moon Viewing (Tsukimi)"),
    "four-willow": N_("Four Rain (Ameshima)"),
    "four-pine": N_("Four Pine"),
    "four-plum": N_("Four Plum"),
    "four-cherry": N_("Four Cherry"),
    "four-wisteria": N_("Four Wisteria"),
    "four-pampas": N_("Four Pampas"),
    "four-maple": N_("Four Maple"),
    "four-paulownia": N_("Four Paulownia"),
    "ribbon-boar-deer-butterflies": N_("Ribbon Boar, Deer, Butterflies"),
    "ribbon-cannon": N_("Ribbon Cannon"),
    "ribbon-flower-viewing": N_("Ribbon Flower Viewing"),
    "ribbon-moon-viewing": N_("Ribbon Moon Viewing"),
}

LUCKY_HAND_NAMES: Final[dict[str, str]] = {
    "all-chaff": N_("All Chaff (Sōgasu)"),
    "hand-three": N_("Hand Three (Tesan)"),
    "double-hand-three": N_("Double Hand Three (Futatesan)"),
    "triple-hand-three": N_("Triple Hand Three"),
    "hand-four": N_("Hand Four"),
    "iris-hand-three": N_("Iris Hand Three"),
    "iris-hand-four": N_("Iris Hand Four"),
}

PRESET_DESCRIPTIONS: Final[dict[str, str]] = {
    "classic": N_("The standard game: Rain Man joker, lucky hands, instant wins, first to 600."),
    "online": N_(
        "As on the popular game site: draw rounds at 30 or less, rain washes away "
        "viewings, the higher card is taken for you."
    ),
    "wikipedia": N_("Wikipedia's rules: two lucky hands, and the winner must lead by more than 30."),
    "fuke": N_("Classic with the draw round: if anyone scores 30 or less, nobody scores."),
    "ten-card": N_("Two players with ten cards each; the pile runs out; triple hand three."),
    "lightning": N_("The 2017 book's variant: the Willow Lightning is the joker."),
    "marguerite": N_(
        "The Marguerite web game: its values, automatic lucky hands, rain-off, "
        "draw rounds, a match of first to three games."
    ),
    "no-instant-win": N_("Classic, but Four Brights and Seven Ribbons are ordinary yaku."),
    "sanbyakuken": N_("Three Hundred: classic rules played to 300."),
    "yamayaku": N_("Two players, a short yaku list (no Four Brights, no Seven Ribbons), to 300."),
    "changara": N_("Two players, best of five games to 300; the dealer takes four on the table."),
    "yukbaek": N_(
        "Korean Yukbaek: five brights, Seven Ribbons need the Willow ribbon, instant "
        "wins at once, only the difference of the top two scores counts."
    ),
    "sambong": N_(
        "Korean Sambong: round scores rounded up to hundreds, Seven Ribbons 700 "
        "plus 100 a ribbon, hand four, no instant wins."
    ),
    "korean-high": N_(
        "Classic with the Korean higher values and the Korean ribbon yaku; a hand four is played and scores."
    ),
    "mocogame": N_("The MocoGame mobile version: twelve rounds, most games to 600 wins."),
}

OPTION_DESCRIPTIONS: Final[dict[str, str]] = {
    "players": N_("numbers of players this rule set allows"),
    "next_dealer": N_("who deals the next round: top-scorer or rotate (R-2.3)"),
    "ten_card_deal": N_("two players get ten cards each and the pile ends empty (R-3.1)"),
    "table_four": N_("four of a month on the table: redeal or dealer_takes (R-3.3)"),
    "hand_four": N_("four of a month in a hand: redeal, optional or play (R-3.4)"),
    "lucky_hands": N_("lucky hands that score, with their values (R-4.1)"),
    "declare": N_("lucky hands are declared by choice or automatically (R-4.1)"),
    "joker": N_("the joker card: willow-rainman, willow-lightning or none (R-6.1)"),
    "joker_wild_on_table": N_(
        "which cards may take a joker lying on the table: any, turned-up or off (R-6.4)"
    ),
    "auto_capture_higher": N_(
        "with two targets of a month (the joker is a Willow card), the higher is taken "
        "without asking; a wild joker stays a choice (R-5.3)"
    ),
    "fuke": N_("draw round: off, all, no-willow-paulownia or cards-only (R-7.3)"),
    "fuke_threshold": N_("a counted round score at or below this voids the round (R-7.3)"),
    "fuke_exempt": N_("yaku whose completion spares the round from fuke (R-7.5)"),
    "round_scoring": N_("what a round adds to totals: plain, difference or round-up (R-7.4)"),
    "yaku": N_("yaku that score, with their values (R-8.2)"),
    "viewing_exclusive": N_("Cannon replaces Flower and Moon viewing (R-8.1)"),
    "rain_off": N_("a Willow capture voids viewing yaku: off, end-of-round or ordered (R-8.3)"),
    "seven_ribbons_willow": N_("the Willow ribbon in Seven Ribbons: any, exclude or require (R-8.4)"),
    "four_brights_needs_warbler": N_("the Plum Warbler is a fifth card of Four Brights (R-8.4)"),
    "seven_ribbons_extra": N_("points for each ribbon beyond seven (R-8.4)"),
    "instant_win": N_("Four Brights / Seven Ribbons win the game: end-of-round, immediate or off (R-8.5)"),
    "target": N_("total that ends the game (R-9.1)"),
    "top_tie": N_("a tie for the top total: another-round or play-order (R-9.1)"),
    "win_margin": N_("the winner must lead the second by at least this (R-9.2)"),
    "match": N_("single, 'first-to K' legs, or 'rounds N' (R-9.3)"),
}

KIND_NAMES: Final[dict[str, str]] = {
    "bright": N_("bright"),
    "animal": N_("animal"),
    "ribbon": N_("ribbon"),
    "chaff": N_("chaff"),
}


KIND_MARKS: Final[dict[str, str]] = {
    "bright": N_("B"),
    "animal": N_("A"),
    "ribbon": N_("R"),
    "chaff": N_("C"),
}
"""The mark of each kind on a card's corner: an initial in English, the players' own sign
in each language (光 種 短 カス, 광 열끗 띠 피, L A R I)."""

KIND_PLURALS: Final[dict[str, str]] = {
    "bright": N_("Brights"),
    "animal": N_("Animals"),
    "ribbon": N_("Ribbons"),
    "chaff": N_("Chaff"),
}

MONTH_NAMES: Final[tuple[str, ...]] = (
    N_("Pine"),
    N_("Plum"),
    N_("Cherry"),
    N_("Wisteria"),
    N_("Iris"),
    N_("Peony"),
    N_("Bush clover"),
    N_("Pampas"),
    N_("Chrysanthemum"),
    N_("Maple"),
    N_("Willow"),
    N_("Paulownia"),
)
"""The months' names, month 1 first."""

CARD_NAMES: Final[dict[str, str]] = {
    "pine-crane": N_("Pine Crane"),
    "pine-ribbon": N_("Pine poem ribbon"),
    "pine-chaff-1": N_("Pine chaff"),
    "pine-chaff-2": N_("Pine chaff"),
    "plum-warbler": N_("Plum Warbler"),
    "plum-ribbon": N_("Plum poem ribbon"),
    "plum-chaff-1": N_("Plum chaff"),
    "plum-chaff-2": N_("Plum chaff"),
    "cherry-curtain": N_("Cherry Curtain"),
    "cherry-ribbon": N_("Cherry poem ribbon"),
    "cherry-chaff-1": N_("Cherry chaff"),
    "cherry-chaff-2": N_("Cherry chaff"),
    "wisteria-cuckoo": N_("Wisteria Cuckoo"),
    "wisteria-ribbon": N_("Wisteria red ribbon"),
    "wisteria-chaff-1": N_("Wisteria chaff"),
    "wisteria-chaff-2": N_("Wisteria chaff"),
    "iris-bridge": N_("Iris Bridge"),
    "iris-ribbon": N_("Iris red ribbon"),
    "iris-chaff-1": N_("Iris chaff"),
    "iris-chaff-2": N_("Iris chaff"),
    "peony-butterflies": N_("Peony Butterflies"),
    "peony-ribbon": N_("Peony blue ribbon"),
    "peony-chaff-1": N_("Peony chaff"),
    "peony-chaff-2": N_("Peony chaff"),
    "clover-boar": N_("Bush clover Boar"),
    "clover-ribbon": N_("Bush clover red ribbon"),
    "clover-chaff-1": N_("Bush clover chaff"),
    "clover-chaff-2": N_("Bush clover chaff"),
    "pampas-moon": N_("Pampas Moon"),
    "pampas-geese": N_("Pampas Geese"),
    "pampas-chaff-1": N_("Pampas chaff"),
    "pampas-chaff-2": N_("Pampas chaff"),
    "chrysanthemum-sake": N_("Chrysanthemum Sake cup"),
    "chrysanthemum-ribbon": N_("Chrysanthemum blue ribbon"),
    "chrysanthemum-chaff-1": N_("Chrysanthemum chaff"),
    "chrysanthemum-chaff-2": N_("Chrysanthemum chaff"),
    "maple-deer": N_("Maple Deer"),
    "maple-ribbon": N_("Maple blue ribbon"),
    "maple-chaff-1": N_("Maple chaff"),
    "maple-chaff-2": N_("Maple chaff"),
    "willow-rainman": N_("Willow Rain Man"),
    "willow-swallow": N_("Willow Swallow"),
    "willow-ribbon": N_("Willow red ribbon"),
    "willow-lightning": N_("Willow Lightning"),
    "paulownia-phoenix": N_("Paulownia Phoenix"),
    "paulownia-yellow": N_("Paulownia yellow chaff"),
    "paulownia-chaff-1": N_("Paulownia chaff"),
    "paulownia-chaff-2": N_("Paulownia chaff"),
}
"""Every card's name, by slug in deck order (R-1.1)."""

LUCKY_HAND_CONDITIONS: Final[dict[str, str]] = {
    "all-chaff": N_("every card in your hand is worth 0 points"),
    "hand-three": N_("three cards of one month in your hand"),
    "double-hand-three": N_("three cards of each of two months"),
    "triple-hand-three": N_("three cards of each of three months"),
    "hand-four": N_("all four cards of one month"),
    "iris-hand-three": N_("three Iris cards (instead of Hand Three)"),
    "iris-hand-four": N_("all four Iris cards (instead of Hand Four)"),
}
"""What each lucky hand needs in the hand dealt (R-4.1)."""

PRESET_NAMES: Final[dict[str, str]] = {
    "classic": N_("Classic"),
    "online": N_("Online site"),
    "wikipedia": N_("Wikipedia"),
    "fuke": N_("Fuke"),
    "ten-card": N_("Ten cards"),
    "lightning": N_("Lightning joker"),
    "marguerite": N_("Marguerite"),
    "no-instant-win": N_("No instant win"),
    "sanbyakuken": N_("Sanbyakuken"),
    "yamayaku": N_("Yamayaku"),
    "changara": N_("Changara"),
    "yukbaek": N_("Yukbaek"),
    "sambong": N_("Sambong"),
    "korean-high": N_("Korean high values"),
    "mocogame": N_("MocoGame"),
}
"""Each preset's display name (the slug stays the preset's identity)."""

BOT_LEVEL_NAMES: Final[dict[str, str]] = {
    "random": N_("Random"),
    "greedy": N_("Greedy"),
    "expert": N_("Expert"),
    "learned": N_("Learned"),
    "master": N_("Master"),
}
"""Each bot level's display name (the slug stays its identity)."""

BOT_LEVEL_DESCRIPTIONS: Final[dict[str, str]] = {
    "random": N_("Plays any legal card at random: for learning the rules."),
    "greedy": N_("Grabs the most points it can each turn, with no plan."),
    "expert": N_("Plays like a strong player: counts cards, builds yaku, blocks yours, minds the score."),
    "learned": N_("Learned by self-play: a small network values the position each move leaves."),
    "master": N_("Thinks ahead: imagines the hidden cards many ways and plays out each move to choose."),
}
"""Each bot level's one-line description for players (the bots register under these)."""

LIST_SEPARATOR: Final = N_("{items}, {item}")
LIST_LAST: Final = N_("{items} and {last}")
LIST_NOTHING: Final = N_("nothing")


def yaku_name(slug: str) -> str:
    """The display name of a yaku or lucky hand slug, in the current language."""
    name = YAKU_NAMES.get(slug) or LUCKY_HAND_NAMES.get(slug)
    return _(name) if name else slug


def card_name(card: int | str) -> str:
    """A card's name (by id or slug) in the current language: 'Pine Crane', '松に鶴'."""
    slug = card if isinstance(card, str) else SLUGS[card]
    if isinstance(card, str):
        card_id(slug)  # refuse unknown slugs clearly
    return _(CARD_NAMES[slug])


def month_name(month: int) -> str:
    """The name of month ``month`` (1..12) in the current language."""
    return _(MONTH_NAMES[month - 1])


def kind_name(kind: str) -> str:
    """A card kind's name (bright, animal, ribbon, chaff) in the current language."""
    return _(KIND_NAMES[kind])


def kind_mark(kind: str) -> str:
    """The mark of a kind (bright, animal, ribbon, chaff) on a card, in the current language."""
    return _(KIND_MARKS[kind])


def kind_plural(kind: str) -> str:
    """A card kind's plural heading in the current language."""
    return _(KIND_PLURALS[kind])


def lucky_condition(slug: str) -> str:
    """What a lucky hand needs, in the current language."""
    return _(LUCKY_HAND_CONDITIONS[slug])


def preset_name(slug: str) -> str:
    """A preset's display name in the current language (the slug if unknown)."""
    name = PRESET_NAMES.get(slug)
    return _(name) if name else slug


def preset_label(slug: str) -> str:
    """A preset as running text names it: its name in the current language (the slug if unknown)."""
    return preset_name(slug)


def bot_label(level: str) -> str:
    """A bot level as running text names it: in English the level capitalised, else its name."""
    return level.split(":")[0].capitalize() if language() == SOURCE_LANGUAGE else bot_level_name(level)


def preset_description(slug: str) -> str:
    """A preset's one-line description in the current language ('' if unknown)."""
    text = PRESET_DESCRIPTIONS.get(slug)
    return _(text) if text else ""


def option_description(name: str) -> str:
    """A rule option's one-line description in the current language."""
    return _(OPTION_DESCRIPTIONS[name])


def bot_level_name(level: str) -> str:
    """A bot level's display name in the current language (options after ':' dropped)."""
    base = level.split(":")[0]
    name = BOT_LEVEL_NAMES.get(base)
    return _(name) if name else base


def bot_level_description(level: str) -> str:
    """A bot level's one-line description in the current language (the slug if unknown)."""
    description = BOT_LEVEL_DESCRIPTIONS.get(level.split(":")[0])
    return _(description) if description else level


def enumeration(items: list[str]) -> str:
    """Items listed one after the other with the language's separator ('a, b, c'; 'a、b、c' in
    Japanese and Chinese), no 'and' before the last: for lists of names in a table or a log."""
    if not items:
        return ""
    joined = items[0]
    for item in items[1:]:
        joined = fill(LIST_SEPARATOR, items=joined, item=item)
    return joined


def list_phrase(items: list[str]) -> str:
    """Items joined as a sentence says them: 'a', 'a and b', 'a, b and c' (in the current language)."""
    if not items:
        return _(LIST_NOTHING)
    joined = items[0]
    for item in items[1:-1]:
        joined = fill(LIST_SEPARATOR, items=joined, item=item)
    if len(items) > 1:
        joined = fill(LIST_LAST, items=joined, last=items[-1])
    return joined
