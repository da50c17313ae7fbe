"""User-facing English text kept in one place so that other languages can follow.

Names of yaku, lucky hands and presets, and the one-line descriptions of
presets and rule options.  Slugs never change; only these texts would be
translated.
"""

from __future__ import annotations

from typing import Final

YAKU_NAMES: Final[dict[str, str]] = {
    "four-brights": "Four Brights (Shikō)",
    "matsu-kiri-bozu": "Crane, Moon, Phoenix (Matsu-Kiri-Bōzu)",
    "great-three": "Great Three (Ōzan)",
    "seven-ribbons": "Seven Ribbons (Nanatan)",
    "red-poems": "Red Poems (Akatan)",
    "blue-ribbons": "Blue Ribbons (Aotan)",
    "grass-ribbons": "Grass Ribbons (Kusatan)",
    "boar-deer-butterflies": "Boar, Deer, Butterflies (Inoshikachō)",
    "cannon": "Cannon (Teppō)",
    "flower-viewing": "Flower Viewing (Hanami)",
    "moon-viewing": "Moon Viewing (Tsukimi)",
    "four-willow": "Four Rain (Ameshima)",
    "four-pine": "Four Pine",
    "four-plum": "Four Plum",
    "four-cherry": "Four Cherry",
    "four-wisteria": "Four Wisteria",
    "four-pampas": "Four Pampas",
    "four-maple": "Four Maple",
    "four-paulownia": "Four Paulownia",
    "ribbon-boar-deer-butterflies": "Ribbon Boar, Deer, Butterflies",
    "ribbon-cannon": "Ribbon Cannon",
    "ribbon-flower-viewing": "Ribbon Flower Viewing",
    "ribbon-moon-viewing": "Ribbon Moon Viewing",
}

LUCKY_HAND_NAMES: Final[dict[str, str]] = {
    "all-chaff": "All Chaff (Sōgasu)",
    "hand-three": "Hand Three (Tesan)",
    "double-hand-three": "Double Hand Three (Futatesan)",
    "triple-hand-three": "Triple Hand Three",
    "hand-four": "Hand Four",
    "iris-hand-three": "Iris Hand Three",
    "iris-hand-four": "Iris Hand Four",
}

PRESET_DESCRIPTIONS: Final[dict[str, str]] = {
    "classic": "The standard game: Rain Man joker, lucky hands, instant wins, first to 600.",
    "online": "As on the popular game site: draw rounds at 30 or less, rain washes away "
    "viewings, the higher card is taken for you.",
    "wikipedia": "Wikipedia's rules: two lucky hands, and the winner must lead by more than 30.",
    "fuke": "Classic with the draw round: if anyone scores 30 or less, nobody scores.",
    "ten-card": "Two players with ten cards each; the pile runs out; triple hand three.",
    "lightning": "The 2017 book's variant: the Willow Lightning is the joker.",
    "marguerite": "The Marguerite web game: its values, automatic lucky hands, rain-off, "
    "draw rounds, a match of first to three games.",
    "no-instant-win": "Classic, but Four Brights and Seven Ribbons are ordinary yaku.",
    "sanbyakuken": "Three Hundred: classic rules played to 300.",
    "yamayaku": "Two players, a short yaku list (no Four Brights, no Seven Ribbons), to 300.",
    "changara": "Two players, best of five games to 300; the dealer takes four on the table.",
    "yukbaek": "Korean Yukbaek: five brights, Seven Ribbons need the Willow ribbon, instant "
    "wins at once, only the difference of the top two scores counts.",
    "sambong": "Korean Sambong: round scores rounded up to hundreds, Seven Ribbons 700 "
    "plus 100 a ribbon, hand four, no instant wins.",
    "korean-high": "Classic with the Korean higher values and the Korean ribbon yaku; a hand four is played "
    "and scores.",
    "mocogame": "The MocoGame mobile version: twelve rounds, most games to 600 wins.",
}

OPTION_DESCRIPTIONS: Final[dict[str, str]] = {
    "players": "numbers of players this rule set allows",
    "next_dealer": "who deals the next round: top-scorer or rotate (R-2.3)",
    "ten_card_deal": "two players get ten cards each and the pile ends empty (R-3.1)",
    "table_four": "four of a month on the table: redeal or dealer_takes (R-3.3)",
    "hand_four": "four of a month in a hand: redeal, optional or play (R-3.4)",
    "lucky_hands": "lucky hands that score, with their values (R-4.1)",
    "declare": "lucky hands are declared by choice or automatically (R-4.1)",
    "joker": "the joker card: willow-rainman, willow-lightning or none (R-6.1)",
    "joker_wild_on_table": "which cards may take a joker lying on the table: any, turned-up or off (R-6.4)",
    "auto_capture_higher": "with two targets of a month (the joker is a Willow card), the higher is taken "
    "without asking; a wild joker stays a choice (R-5.3)",
    "fuke": "draw round: off, all, no-willow-paulownia or cards-only (R-7.3)",
    "fuke_threshold": "a counted round score at or below this voids the round (R-7.3)",
    "fuke_exempt": "yaku whose completion spares the round from fuke (R-7.5)",
    "round_scoring": "what a round adds to totals: plain, difference or round-up (R-7.4)",
    "yaku": "yaku that score, with their values (R-8.2)",
    "viewing_exclusive": "Cannon replaces Flower and Moon viewing (R-8.1)",
    "rain_off": "a Willow capture voids viewing yaku: off, end-of-round or ordered (R-8.3)",
    "seven_ribbons_willow": "the Willow ribbon in Seven Ribbons: any, exclude or require (R-8.4)",
    "four_brights_needs_warbler": "the Plum Warbler is a fifth card of Four Brights (R-8.4)",
    "seven_ribbons_extra": "points for each ribbon beyond seven (R-8.4)",
    "instant_win": "Four Brights / Seven Ribbons win the game: end-of-round, immediate or off (R-8.5)",
    "target": "total that ends the game (R-9.1)",
    "top_tie": "a tie for the top total: another-round or play-order (R-9.1)",
    "win_margin": "the winner must lead the second by at least this (R-9.2)",
    "match": "single, 'first-to K' legs, or 'rounds N' (R-9.3)",
}

KIND_NAMES: Final[dict[str, str]] = {
    "bright": "bright",
    "animal": "animal",
    "ribbon": "ribbon",
    "chaff": "chaff",
}


def yaku_name(slug: str) -> str:
    """The display name of a yaku or lucky hand slug."""
    return YAKU_NAMES.get(slug) or LUCKY_HAND_NAMES.get(slug) or slug
