"""The values of the rule options that are a choice among names (RULES.md), as types.

Each option is a :data:`typing.Literal` type, so that ``rules.rain_off == "orderd"``
is a type error (``mypy --strict`` checks equality between literal types) and the
allowed values have one source: :data:`CHOICES` is read from these types.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

NextDealer = Literal["top-scorer", "rotate"]
"""R-2.3: who deals the next round."""
TableFour = Literal["redeal", "dealer_takes"]
"""R-3.3: four cards of a month on the table."""
HandFour = Literal["redeal", "optional", "play"]
"""R-3.4: four cards of a month in a hand."""
Declare = Literal["choose", "auto"]
"""R-4.1: whether lucky hands are declared by choice or automatically."""
Joker = Literal["willow-rainman", "willow-lightning", "none"]
"""R-6.1: the joker card."""
JokerWild = Literal["any", "turned-up", "off"]
"""R-6.4: when the joker on the table is a wild target."""
Fuke = Literal["off", "all", "no-willow-paulownia", "cards-only"]
"""R-7.2: the draw round."""
RoundScoring = Literal["plain", "difference", "round-up"]
"""R-7.4: how round scores become points."""
RainOff = Literal["off", "end-of-round", "ordered"]
"""R-8.3: when a Willow capture voids the viewing yaku."""
SevenRibbonsWillow = Literal["any", "exclude", "require"]
"""R-8.4: the Willow ribbon in Seven Ribbons."""
InstantWin = Literal["end-of-round", "immediate", "off"]
"""R-8.5: instant-win yaku."""
TopTie = Literal["another-round", "play-order"]
"""R-9.2: a tie at the top."""
MatchKind = Literal["single", "first-to", "rounds"]
"""R-9.3: the kinds of match."""

CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "next_dealer": get_args(NextDealer),
    "table_four": get_args(TableFour),
    "hand_four": get_args(HandFour),
    "declare": get_args(Declare),
    "joker": get_args(Joker),
    "joker_wild_on_table": get_args(JokerWild),
    "fuke": get_args(Fuke),
    "round_scoring": get_args(RoundScoring),
    "rain_off": get_args(RainOff),
    "seven_ribbons_willow": get_args(SevenRibbonsWillow),
    "instant_win": get_args(InstantWin),
    "top_tie": get_args(TopTie),
}
"""Each choice option's allowed values, in the order RULES.md lists them."""
