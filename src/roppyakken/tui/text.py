"""Every string of the terminal game, in English (the source language), shown translated.

Names of cards, yaku, lucky hands and presets come from :mod:`roppyakken.text`;
this module holds what only the terminal front end says.  The constants below
are the English message ids.  At the end of the module they are moved out of
the module's namespace, so that ``text.NAME`` (through the module's
``__getattr__``) returns them in the current language (:mod:`roppyakken.i18n`):
screens read ``t.NAME`` as before and need no change to be translated.
Constants with no words (marks such as ``▲``) and the kind letters drawn on
the cards stay as they are.
"""

from __future__ import annotations

import re
from typing import Any, Final

from roppyakken.i18n import _, language, ngettext
from roppyakken.korean import Template, particles
from roppyakken.outcome import Termination
from roppyakken.text import LUCKY_HAND_CONDITIONS, card_name, list_phrase

__all__ = ["Counted", "card_name", "cards_phrase", "say"]


class Counted:
    """A message with a count: the English singular and plural (message ids), and the field that
    holds the count; :meth:`format` says it in the current language, in the form for the count."""

    def __init__(self, singular: str, plural: str, count: str = "n") -> None:
        self.singular = singular
        self.plural = plural
        self.count = count

    def format(self, **fields: Any) -> str:
        """The message filled with ``fields``, in the form for ``fields[count]`` (a number, or a
        number as text; anything else takes the plural)."""
        value = fields[self.count]
        try:
            n = int(float(value))
        except (TypeError, ValueError):
            n = 2
        text = ngettext(self.singular, self.plural, n).format(**fields)
        return particles(text) if language() == "ko" else text


APP_TITLE: Final = "Roppyakken"
APP_SUBTITLE: Final = "六百間 · Six Hundred"

MONTH_SHORT: Final = (
    "Pine",
    "Plum",
    "Cher",
    "Wist",
    "Iris",
    "Peon",
    "Clov",
    "Pamp",
    "Chry",
    "Mapl",
    "Will",
    "Paul",
)
"""Four-letter month names drawn on the cards (month 1 first)."""

STACK_LABEL: Final = "stack×3"
KIND_LETTERS: Final[dict[str, str]] = {"bright": "B", "animal": "A", "ribbon": "R", "chaff": "C"}
KIND_PLURALS: Final[dict[str, str]] = {
    "bright": "Brights",
    "animal": "Animals",
    "ribbon": "Ribbons",
    "chaff": "Chaff",
}

# What each card depicts, at most 7 cells, in card-id order.
CARD_SUBJECTS: Final[tuple[str, ...]] = (
    "Crane", "Poem", "chaff", "chaff",
    "Warbler", "Poem", "chaff", "chaff",
    "Curtain", "Poem", "chaff", "chaff",
    "Cuckoo", "Red", "chaff", "chaff",
    "Bridge", "Red", "chaff", "chaff",
    "Btrfly", "Blue", "chaff", "chaff",
    "Boar", "Red", "chaff", "chaff",
    "Moon", "Geese", "chaff", "chaff",
    "Sake", "Blue", "chaff", "chaff",
    "Deer", "Blue", "chaff", "chaff",
    "RainMan", "Swallow", "Red", "Lightng",
    "Phoenix", "Yellow", "chaff", "chaff",
)  # fmt: skip


CARD_SUBJECT_WORDS: Final[tuple[str, ...]] = tuple(
    {
        "Warbler": "Bush warbler",
        "Btrfly": "Butterflies",
        "Boar": "Wild boar",
        "RainMan": "Rain Man",
        "Swallow": "Barn swallow",
        "Lightng": "Lightning",
    }.get(subject, subject)
    for subject in CARD_SUBJECTS
)
"""What each card depicts in whole words, for lines with room for them (:data:`CARD_SUBJECTS` is
cut to a card's width)."""


def or_phrase(names: list[str]) -> str:
    """``'a'``, ``'a or b'``, ``'a, b or c'``."""
    if len(names) <= 1:
        return "".join(names)
    template: str = __getattr__("OR_LIST")  # the module's constants are read in the current language
    return template.format(first=_(", ").join(names[:-1]), last=names[-1])


OR_LIST: Final = "{first} or {last}"


def cards_phrase(names: list[str]) -> str:
    """``'a'``, ``'a and b'``, ``'a, b and c'`` (in the current language)."""
    return list_phrase(names)


# ---------------------------------------------------------------- new game screen

NEW_GAME_TITLE: Final = "New game of Roppyakken"
NEW_GAME_INTRO: Final = (
    "Capture cards of the same month as the cards you play; score card points and yaku "
    "(special sets). Press ? at the table for the full rules of the chosen preset."
)
LABEL_PLAYERS: Final = "Players"
LABEL_TWO: Final = "2 players"
LABEL_THREE: Final = "3 players"
LABEL_RULES: Final = "Rules"
LABEL_RULES_FILE: Final = "House rules"
HINT_RULES_FILE: Final = "optional: a house-rules TOML file (replaces the preset)"
LABEL_NAME: Final = "Your name"
LABEL_OPPONENT: Final = "Opponent {n}"
LABEL_SEED: Final = "Seed"
HINT_SEED: Final = "optional whole number: the same seed deals the same game"
OPTION_HUMAN: Final = "Human at this keyboard (hot seat)"
BUTTON_START: Final = "Start"
BUTTON_RESUME: Final = "Resume"
BUTTON_QUIT: Final = "Quit"
BUTTON_LEARN: Final = "New to Roppyakken? A guided first game"
LABEL_SAVES: Final = "Saved game"
SAVE_LABEL: Final = "{when} – {players}, round {round}"
SAVE_VS: Final = " vs "
SAVE_TIME: Final = "%m-%d %H:%M"
"""A saved game's date and time, in digits only (a month's name would stay English)."""
SAVE_TIME_DAY_FIRST: Final = "%d/%m %H:%M"
""":data:`SAVE_TIME` in the languages of :data:`DAY_FIRST`."""
DAY_FIRST: Final = frozenset({"pt-BR"})
"""The languages that write a date's day before its month."""
ERROR_SEED: Final = "The seed must be a whole number, or empty."
ERROR_NAME: Final = "A name must be 1 to 20 characters and not start with 'bot:'."
BOT_LABEL: Final = "Bot: {level}"

# ---------------------------------------------------------------- table screen

DEFAULT_HUMAN_NAME: Final = "You"
HUMAN_NAME_N: Final = "Player {n}"
BOT_NAME: Final = "{level} bot"
TITLE_TABLE: Final = "{preset} · round {round} · first to {target}"
TITLE_LEG: Final = " · game {leg} of a match ({match})"
TITLE_REPLAY: Final = "replay · "
PILE_LABEL: Final = "pile {n}"
PILE_EMPTY: Final = "empty"
IN_PLAY_HAND: Final = "played"
IN_PLAY_PILE: Final = "turned"
STRIP_HAND: Final = "hand {n}"
STRIP_DEALER: Final = "dealer"
STRIP_TOTAL: Final = "total {n}"
STRIP_LEGS: Final = "games won {n}"
STRIP_POINTS: Final = Counted("{n} pt", "{n} pts")
STRIP_TO_ACT: Final = "▶"
STRIP_DECLARED: Final = "declared {hands}"
STRIP_SHOWS: Final = "shows {cards}"
STRIP_HOLDS: Final = "holds {cards}"
STRIP_SHOWS_LABEL: Final = "shows:"
STRIP_HOLDS_LABEL: Final = "holds:"
STRIP_CHAFF_NEW: Final = "({n} new)"
STRIP_ROUND: Final = "round {total}"
STRIP_ROUND_YAKU: Final = "round {total} = cards {cards} + yaku {yaku}"
STRIP_ROUND_LUCKY: Final = "round {total} = cards {cards} + lucky {lucky}"
STRIP_ROUND_YAKU_LUCKY: Final = "round {total} = cards {cards} + yaku {yaku} + lucky {lucky}"
STRIP_NONE: Final = "–"
STRIP_CHAFF_EXTRA: Final = "+{names}"
CAPTURES_LABEL: Final = "captured"
HAND_TITLE: Final = "Hand of {name}"

MARK_TARGET: Final = "▲"
MARK_CURRENT: Final = "▶{label}◀"
MARK_TAKEN: Final = "taken"
MARK_NEW: Final = "new"
MARK_SELECTED: Final = "▼{key}▼"
MARK_CAN_TAKE: Final = "{key}•"
MARK_SHOWN: Final = "{key}°"
MARK_SHOWN_CAN_TAKE: Final = "{key}•°"

STATUS_WAIT_BOT: Final = "{name} is thinking…"
STATUS_WAIT_HUMAN: Final = "{name} to play."
PROMPT_CARD: Final = "Choose a card: ←/→ or 1-{n}, Enter to play · • can take · ? help · y yaku"
PROMPT_TARGET: Final = "Choose what to take: ←/→ or Tab, a-{last}, Enter to take, Esc back"
PROMPT_TARGET_NAMED: Final = (
    "Choose what {card} takes: {targets}. ←/→ or Tab, a-{last}, Enter to take, Esc back"
)
TARGET_ITEM: Final = "{key}) {target}"
TARGET_GIVES: Final = "{target} ({gives})"
GIVES_POINTS: Final = Counted("+{n} pt", "+{n} pts")
GIVES_YAKU: Final = "{yaku} {held}/{need}"
AUTO_TAKEN: Final = "The turned-up {card} takes {target}: its targets give the same, so it did not ask."
PROMPT_TAKE: Final = "Your turned-up card can take one of several: ←/→ or Tab, a-{last}, Enter to take"
PROMPT_WAIT: Final = "Space: skip the pause · f: speed ({pace})"
PROMPT_REPLAY: Final = "→/Space: next step · p: {auto} · f: speed ({pace}) · v: whose hand · q quit"
REPLAY_AUTO_ON: Final = "pause"
REPLAY_AUTO_OFF: Final = "auto-play"
REPLAY_END: Final = "End of the record."
REPLAY_END_KEYS: Final = "End of the record · l: the log · q: quit"
REPLAY_UNFINISHED: Final = "End of the record: the game was saved unfinished."
REPLAY_HAND_OF: Final = "Showing the hand of {name}."
DETAIL_CARD: Final = Counted("{card}: {kind}, {points} point", "{card}: {kind}, {points} points", "points")
DETAIL_TAKES_ONE: Final = " – takes {target}"
DETAIL_TAKES_MANY: Final = " – can take one of {n}: {targets}"
DETAIL_TO_TABLE: Final = " – no match: goes to the table"
DETAIL_TURNED: Final = "Turned up {card}: choose what it takes: {targets}. a-{last}, Enter to take"
DETAIL_MUST_CAPTURE: Final = "A card that matches must capture (R-5.2)."
STACK_NAME: Final = "the stack of {month} ({cards})"

EVENT_FIRST_DEALER: Final = "{name} drew the earliest month and deals first."
EVENT_ROUND: Final = "Round {round}: {name} deals."
EVENT_REDEAL_TABLE: Final = "Redeal: four {month} cards on the table."
EVENT_REDEAL_HAND: Final = "Redeal: {name} held four {month} cards."
EVENT_DEALER_TOOK: Final = "{name} (dealer) takes the four {month} cards on the table."
EVENT_DECLARED: Final = "{name} declares {hands}, showing {cards}."
EVENT_DECLARED_NONE: Final = "{name} declares nothing."
EVENT_PLAYED_TAKES: Final = "{name} plays {card} and takes {taken}."
EVENT_PLAYED_TABLE: Final = "{name} plays {card} to the table."
EVENT_TURNED_TAKES: Final = "{name} turns up {card} and takes {taken}."
EVENT_TURNED_TABLE: Final = "{name} turns up {card}: it goes to the table."
EVENT_TURNED_CHOICE: Final = "{name} turns up {card}: it can take one of several."
TIP_START: Final = "Tip: ? rules · y yaku · l log · • can take · ° shown (declared)"
RESUMED: Final = "Game resumed: round {round}, {name} deals."
EVENT_ROUND_ENDED: Final = "Round {round} is over."
EVENT_LEG_WON: Final = "{name} wins game {leg} of the match."
EVENT_GAME_ENDED: Final = "{name} wins!"

SAVED: Final = "Saved to {path}"
SAVE_FAILED: Final = "Could not save: {error}"
NOTHING_TO_SAVE: Final = "A replay is not saved."
PACE_NAMES: Final[dict[str, str]] = {"slow": "slow", "normal": "normal", "fast": "fast", "instant": "instant"}
PACE_CHANGED: Final = "Bot speed: {pace}"
NOT_YOUR_TURN: Final = "Wait for your turn: {name} is to play."

# ---------------------------------------------------------------- bindings

KEY_PLAY: Final = "Play"
KEY_HELP: Final = "Help"
KEY_YAKU: Final = "Yaku"
KEY_SAVE: Final = "Save"
KEY_SPEED: Final = "Speed"
KEY_SKIP: Final = "Skip"
KEY_QUIT: Final = "Quit"
KEY_LOG: Final = "Log"
KEY_BACK: Final = "Back"
KEY_CLOSE: Final = "Close"
KEY_NEXT: Final = "Next"
KEY_AUTO: Final = "Auto"
KEY_WHOSE: Final = "Hand"
KEY_CONTINUE: Final = "Continue"
KEY_DECLARE: Final = "Declare"
KEY_NEW: Final = "New game"
KEY_HINT: Final = "Hint"
KEY_REVIEW: Final = "Review"
KEY_DISMISS_MENU: Final = "Dismiss menu"

# ---------------------------------------------------------------- hints and the round review

HINT_TITLE: Final = "Hint: the best plays, by chance to win"
HINT_WORKING: Final = "Working out a hint… (each play is played out in {n} imagined deals)"
HINT_NOT_NOW: Final = "A hint is for your turn to play or take a card."
HINT_FAILED: Final = "No hint: {error}"
HINT_PLAY_TO: Final = "{card} to the table"
HINT_PLAY_TAKES: Final = "{card} takes {cards}"
HINT_EXPERT: Final = "the expert's choice"
HINT_NOW: Final = "points now {n}"
HINT_YAKU_NOW: Final = "completes {yaku}"
HINT_EXPECTED: Final = "expected round points {score} (± {ci}) · win chance {pct}%"
HINT_YAKU_CHANCE: Final = "chance of {yaku} {pct}%"
HINT_RISK: Final = "risk: the opponents expect {n}"
HINT_NOTE: Final = "Played out in {n} deals imagined from what you can see. Esc or h: close."
REVIEW_TITLE: Final = "What the master would have played"
REVIEW_WORKING: Final = "The master is looking at your round…"
REVIEW_NONE: Final = "The master would have played as you did."
REVIEW_ITEM: Final = "Your turn {n}: you played {played}; the master: {best}"
REVIEW_LOST: Final = Counted(
    "   {points} point given up (chance to win −{pct}%)",
    "   {points} points given up (chance to win −{pct}%)",
    "points",
)
REVIEW_CLOSE: Final = "Esc: back to the scores"
ROUND_REVIEW_KEY: Final = "r: what the master would have played"

# ---------------------------------------------------------------- modal screens

HANDOFF_TITLE: Final = "Pass the keyboard to {name}"
HANDOFF_BODY: Final = "The hands are hidden. {name}, press Enter when only you can see the screen."

QUIT_TITLE: Final = "Quit the game?"
QUIT_BODY: Final = "An unsaved game is lost. Saved games are in {dir}."
QUIT_SAVED: Final = (
    "The game is saved in {path}: nothing has happened since. Resume it from the new-game screen."
)
QUIT_SAVE: Final = "Save and quit"
QUIT_NOSAVE: Final = "Quit without saving"
QUIT_CANCEL: Final = "Cancel"
QUIT_REPLAY: Final = "Quit"
CTRL_C_TITLE: Final = "Do you want to quit?"
CTRL_C_BODY: Final = "Press {key} to quit."

DECLARE_TITLE: Final = "{name}: you hold a lucky hand"
DECLARE_BODY: Final = (
    "Declared lucky hands score their points this round (R-4.1). Declaring shows the cards "
    "that form it to everyone. Space or a number toggles a hand; Enter confirms."
)
DECLARE_ITEM: Final = Counted(
    "{name}: {points} point – shows {cards}", "{name}: {points} points – shows {cards}", "points"
)
DECLARE_OK: Final = "Declare the ticked hands"
DECLARE_NONE: Final = "Declare nothing"

REDEAL_TITLE: Final = "{name}: four {month} cards in your hand"
REDEAL_BODY: Final = "Under these rules you may call a redeal (R-3.4). Call a redeal?"
REDEAL_YES: Final = "Yes, redeal (y)"
REDEAL_NO: Final = "No, play on (n)"

YAKU_TITLE: Final = "Yaku progress – round {round}"
YAKU_HEADER_YAKU: Final = "Yaku"
YAKU_HEADER_POINTS: Final = "Pts"
YAKU_DONE: Final = "DONE"
YAKU_GONE: Final = "gone"
YAKU_COUNT: Final = "{held}/{need}"
YAKU_MISSING: Final = "Still missing for {name}:"
MISSING_LINE: Final = "{yaku}: {cards}"
MISSING_SEVEN: Final = "{yaku}: {n} more of {cards}"
MISSING_IN_HAND: Final = "{card} (in hand)"
YAKU_LEGEND: Final = (
    "n/m: cards held of those needed · DONE: complete · gone: a needed card is in someone "
    "else's captures, so it can no longer be made."
)
YAKU_NONE: Final = "These rules have no yaku."
YAKU_SEVEN_NOTE: Final = "any 7 ribbons"

ROUND_END_TITLE: Final = "Round {round} – scores"
ROUND_ROW_CARDS: Final = "Card points"
ROUND_ROW_LUCKY: Final = "Lucky hand: {name}"
ROUND_ROW_SCORE: Final = "Round score"
ROUND_ROW_COUNTED: Final = "Counted for fuke"
ROUND_ROW_ADDS: Final = "Adds to total"
ROUND_ROW_TOTAL: Final = "Total"
ROUND_ROW_LEGS: Final = "Games won"
ROUND_FUKE: Final = (
    "Fuke (draw round): a counted score is {threshold} or less, so every round score is void (R-7.3)."
)
ROUND_FUKE_SPARED: Final = "No fuke: a completed {yaku} spares the round (R-7.5)."
ROUND_SCORING: Final[dict[str, str]] = {
    "plain": "Each player adds their round score (R-7.4).",
    "difference": "Only the top scorer adds: the top score less the second (R-7.4).",
    "round-up": "Each round score is rounded up to the next hundred (R-7.4).",
}
ROUND_INSTANT: Final = "Instant win: {name} completed {yaku} (R-8.5)."
ROUND_LEG: Final = "{name} wins game {leg} of the match; the totals start again from 0."
ROUND_CONTINUE: Final = "Enter: next round"
ROUND_FINAL: Final = "Enter: see the result"

GAME_OVER_TITLE: Final = "{name} wins the game!"
GAME_OVER_MATCH_TITLE: Final = "{name} wins the match!"
GAME_OVER_ROUNDS: Final = "Rounds played: {n}."
GAME_OVER_KEYS: Final = (
    "Enter or n: new game · s: save the record (watch it with roppyakken replay FILE --watch) · "
    "q: quit · Esc: look at the table"
)
GAME_OVER_TABLE: Final = "The game is over: n new game · s save the record · q quit"
GAME_OVER_KEYS_REPLAY: Final = "q: quit · Esc: look at the table"
END_REASONS: Final[dict[tuple[Termination, str | None], str]] = {
    (Termination.TARGET, None): "{name} reached the target of {target} with the highest total (R-9.1).",
    (Termination.TARGET_YAKU, "four-brights"): "Several players reached {target}; {name} completed Four "
    "Brights this round (R-9.1).",
    (Termination.TARGET_YAKU, "seven-ribbons"): "Several players reached {target}; {name} completed Seven "
    "Ribbons this round (R-9.1).",
    (Termination.INSTANT, "four-brights"): "Instant win: {name} completed Four Brights (R-8.5).",
    (Termination.INSTANT, "seven-ribbons"): "Instant win: {name} completed Seven Ribbons (R-8.5).",
    (Termination.TIE_PLAY_ORDER, None): "A tie for the top total: {name} is first in play order from the "
    "dealer (R-9.1).",
    (Termination.LEGS, None): "{name} won {legs} games of the match first (R-9.3).",
    (Termination.MOST_LEGS, None): "{name} won the most games in the fixed number of rounds (R-9.3).",
    (
        Termination.MOST_LEGS_TOTAL,
        None,
    ): "A tie for most games won, broken by the higher total: {name} (R-9.3).",
    (Termination.MOST_LEGS_PLAY_ORDER, None): "A tie for most games and total, broken by play order: {name} "
    "(R-9.3).",
}
"""Why the game ended, by the outcome's termination and yaku (:class:`~roppyakken.outcome.Outcome`)."""
END_REASON_UNKNOWN: Final = "{name} wins ({reason})."

LOG_TITLE: Final = "Game log"

# ---------------------------------------------------------------- help screen

HELP_TITLE: Final = "Rules of this game – preset {preset}"
HELP_TAB_PLAY: Final = "How to play"
HELP_TAB_YAKU: Final = "Yaku & lucky hands"
HELP_TAB_CARDS: Final = "Card values"
HELP_TAB_OPTIONS: Final = "All options"
HELP_TAB_KEYS: Final = "Keys"

HELP_OPTION_ITEM: Final = "- **{name}**: {value} — {meaning}"
HELP_KEYS: Final = """\
## At the table

- **← → or 1–9, 0**: choose a card in your hand (0 is the tenth)
- **Enter**: play the chosen card (or take the chosen target)
- **Tab, ← →, a b c**: choose among several cards to take
- **Esc**: back to choosing a card
- **mouse**: click a card to choose it, click again to play; click a highlighted table card to take it
- **Space**: skip the current pause
- **f**: bot speed: normal, fast, instant, slow
- **h**: a hint on your turn: the expert's three best plays, what each brings and the risk it leaves
- **y**: yaku progress of every player
- **l**: the log of this game
- **s**: save the game (resume with `roppyakken play --resume FILE`)
- **?**: this help (↑ ↓, Page Up, Page Down scroll it; ← → change the tab)
- **q**: quit (asks first)

## On the cards

Each card shows its month (number and name), what it depicts, its kind letter
and its points: **B** bright, **A** animal, **R** ribbon, **C** chaff. A `*`
beside the kind letter marks the joker. A *stack* (three cards of one month on the table) shows as one
card with `stack×3`, its kinds and their points.

Under the table, `▲` marks the cards the chosen card can take; with several,
they are lettered `a`, `b`… and `▶a◀` is the current choice. Above your hand,
`•` marks the cards that can take something now and `°` a card you have shown
by declaring a lucky hand (`•°`: both). In the captures, cards just taken are
highlighted, and "(2 new)" counts the chaff just taken. "round 510 = cards 190 +
yaku 320" is what the round is worth so far.

## In a replay

→ or Space steps; p plays on by itself; f changes the speed; v changes whose hand is shown.
"""

# ---------------------------------------------------------------- rules explained (help screen)
# Plain-language explanations of each option value; helptext.py picks those of the chosen rules,
# so the help is always true for them.  ``{…}`` fields are filled from the rules.

RULES_GOAL: Final = (
    "Each round, capture cards to score points. After a round, if any total has reached "
    "**{target}**, the highest total wins (R-9.1)."
)
RULES_WIN_MARGIN: Final = Counted(
    "The leader must lead the second by at least **{margin}** point, or another round is played (R-9.2).",
    "The leader must lead the second by at least **{margin}** points, or another round is played (R-9.2).",
    "margin",
)
RULES_TOP_TIE: Final[dict[str, str]] = {
    "another-round": "A tie for the top total: another round is played (R-9.1).",
    "play-order": "A tie for the top total goes to the tied player first in play order from the dealer "
    "(R-9.1).",
}
RULES_MATCH: Final[dict[str, Counted]] = {
    "single": Counted("", "", "count"),
    "first-to": Counted(
        "This is a **match**: each game won resets every total to 0, and the first to win "
        "**{count}** game wins the match (R-9.3).",
        "This is a **match**: each game won resets every total to 0, and the first to win "
        "**{count}** games wins the match (R-9.3).",
        "count",
    ),
    "rounds": Counted(
        "Exactly **{count}** round is played: each time a total reaches the target, that player "
        "wins a game and every total resets; most games won wins, ties broken by total (R-9.3).",
        "Exactly **{count}** rounds are played: each time a total reaches the target, that player "
        "wins a game and every total resets; most games won wins, ties broken by total (R-9.3).",
        "count",
    ),
}
RULES_DEAL: Final = (
    "With {players} players each gets **{hand}** cards, **{table}** go face up to the table and "
    "**{pile}** form the face-down draw pile (R-3.1)."
)
RULES_FIRST_DEALER: Final = "Each player draws a card: the earliest month deals first (R-2.2)."
RULES_NEXT_DEALER: Final[dict[str, str]] = {
    "top-scorer": "Whoever scored the most in a round deals the next (R-2.3).",
    "rotate": "The deal passes to the next player after every round (R-2.3).",
}
RULES_TABLE_FOUR: Final[dict[str, str]] = {
    "redeal": "Four cards of one month dealt to the table: everything is dealt again (R-3.3).",
    "dealer_takes": "Four cards of one month dealt to the table: the dealer captures them at once (R-3.3).",
}
RULES_HAND_FOUR: Final[dict[str, str]] = {
    "redeal": "Four cards of one month in a hand: everything is dealt again (R-3.4).",
    "optional": "Four cards of one month in a hand: their holder may call a redeal (R-3.4).",
    "play": "Four cards of one month in a hand: no redeal, play goes on (R-3.4).",
}
RULES_TURN: Final = (
    "The dealer plays first, then play passes to the next seat (R-5.1). A turn has two steps: "
    "**play a card** from your hand, then **turn up** the top card of the pile and play it the same way."
)
RULES_CAPTURE: Final = (
    "A card **takes** a card of its own month from the table: both go to your captures. A card that "
    "matches nothing stays on the table. A card that can take something must take (R-5.2)."
)
RULES_TWO_TARGETS: Final[dict[bool, str]] = {
    False: "Two cards of its month on the table: you choose which one to take (R-5.3).",
    True: "Two cards of its month on the table (the joker counts as a Willow card): the one worth more "
    "points is taken for you; with equal points you choose; a wild joker stays a choice beside it (R-5.3).",
}
RULES_STACK: Final = (
    "Three cards of one month on the table are a **stack**: only the fourth card of that month takes "
    "it, all three at once (R-3.5, R-5.4)."
)
RULES_NO_JOKER: Final = "There is no joker in these rules (R-6.1)."
RULES_JOKER: Final = (
    "The **{joker}** is the joker (R-6): played or turned up it may take any Willow card, or any single "
    "card worth points on the table (never one card out of a stack). When the other three Willow cards "
    "lie on the table, it must take them."
)
RULES_JOKER_ON_TABLE: Final[dict[str, str]] = {
    "any": "A joker lying on the table may be taken by any card worth points, as well as by Willow "
    "cards (R-6.4).",
    "turned-up": "A joker lying on the table may be taken by a turned-up card worth points; from the hand "
    "only Willow cards take it (R-6.4).",
    "off": "A joker lying on the table is taken only by Willow cards (R-6.4).",
}
RULES_CARD_POINTS: Final = (
    "Card points (R-1.2): brights 50 · Plum Warbler 50 · other animals 10 · ribbons 10 · Paulownia "
    "yellow chaff 10 · other chaff 0 (490 in the whole deck)."
)
RULES_ROUND_SCORE: Final = (
    "Your **round score** is the points of the cards you captured, plus your yaku, plus your declared "
    "lucky hands (R-7.2). Cards left on the table score for no one (R-7.1)."
)
RULES_FUKE: Final[dict[str, str]] = {
    "off": "",
    "all": "**Fuke** (draw round): if any player's round score is {threshold} or less, nobody scores "
    "that round (R-7.3).",
    "no-willow-paulownia": "**Fuke** (draw round): if any player's round score, not counting captured "
    "Willow and Paulownia cards, is {threshold} or less, nobody scores that round (R-7.3).",
    "cards-only": "**Fuke** (draw round): if any player's card points, not counting captured Willow and "
    "Paulownia cards, are {threshold} or less, nobody scores that round (R-7.3).",
}
RULES_FUKE_EXEMPT: Final = "A round in which someone completes {yaku} is never void (R-7.5)."
RULES_ROUND_SCORING: Final[dict[str, str]] = {
    "plain": "Each player adds their round score to their total (R-7.4).",
    "difference": "Only the round's top scorer adds anything: their score less the second best; a tie "
    "for top adds nothing (R-7.4).",
    "round-up": "Each round score is rounded up to the next hundred before it is added: 320 adds 400 "
    "(R-7.4).",
}
RULES_INSTANT: Final[dict[str, str]] = {
    "end-of-round": "**Instant win**: completing Four Brights (failing that Seven Ribbons) wins the whole "
    "game at the end of the round, whatever the totals (R-8.5).",
    "immediate": "**Instant win**: completing Four Brights or Seven Ribbons wins the whole game the moment "
    "it is completed (R-8.5).",
    "off": "Four Brights and Seven Ribbons are ordinary yaku: no instant win (R-8.5).",
}
RULES_YAKU_INTRO: Final = (
    "Yaku are sets of captured cards that score extra at the end of the round (R-8). All add up."
)
RULES_YAKU_INTRO_EXCLUSIVE: Final = (
    "Yaku are sets of captured cards that score extra at the end of the round (R-8). All add up, "
    "except that Cannon replaces Flower and Moon Viewing."
)
RULES_RAIN_OFF: Final[dict[str, str]] = {
    "off": "",
    "end-of-round": "**Rain-off**: a player who captured any Willow card scores no viewing yaku, unless "
    "they also captured the Pine Crane (R-8.3).",
    "ordered": "**Rain-off**: a player who captured any Willow card scores no viewing yaku, unless they "
    "captured the Pine Crane before their first Willow card (R-8.3).",
}
RULES_SEVEN_RIBBONS: Final[dict[str, str]] = {
    "any": "any 7 ribbons",
    "exclude": "any 7 ribbons, not counting the Willow ribbon",
    "require": "7 ribbons, one of them the Willow ribbon",
}
RULES_SEVEN_EXTRA: Final = "{ribbons}, plus {extra} for each ribbon beyond seven"
RULES_WARBLER: Final = "{cards} (here the Plum Warbler is a fifth card of it)"
RULES_LUCKY_INTRO: Final[dict[str, str]] = {
    "choose": "After the deal, before the first card is played, a player holding a lucky hand may "
    "**declare** it, showing its cards to everyone; declared hands score their points this round (R-4.1).",
    "auto": "After the deal, lucky hands are declared automatically: their cards are shown and they score "
    "their points this round (R-4.1).",
}
RULES_NO_LUCKY: Final = "There are no lucky hands in these rules."
RULES_LUCKY_CONDITIONS: Final[dict[str, str]] = LUCKY_HAND_CONDITIONS
RULES_LUCKY_EXCLUSIVE: Final = (
    "Only the largest of the hand-three family scores; any of it adds to All Chaff (R-4.2)."
)
HELP_H_GOAL: Final = "Goal"
HELP_H_DEAL: Final = "The deal"
HELP_H_TURN: Final = "Your turn"
HELP_H_SCORING: Final = "Scoring a round"
HELP_H_YAKU: Final = "Yaku"
HELP_H_LUCKY: Final = "Lucky hands"
HELP_H_CARDS: Final = "The 48 cards"
HELP_COL_NAME: Final = "name"
HELP_COL_POINTS: Final = "points"
HELP_COL_CARDS: Final = "cards"
HELP_COL_CONDITION: Final = "condition"
HELP_COL_MONTH: Final = "month"
JOKER_MARK: Final = "joker"
HELP_OPTIONS_INTRO: Final = (
    "Every rule option of this game, with its value (`roppyakken rules` prints the same):"
)
HELP_PRESET: Final = "Preset **{preset}**: {description}"
HELP_OPTION_PRESET: Final = "the rule set these options start from"
HELP_HOUSE: Final = "House rules based on the preset **{preset}**."

# ---------------------------------------------------------------- "You"
# When a player keeps the default name "You", sentences about them are said in the second person.

SECOND_PERSON: Final[dict[str, str]] = {
    EVENT_FIRST_DEALER: "You drew the earliest month and deal first.",
    EVENT_ROUND: "Round {round}: you deal.",
    EVENT_REDEAL_HAND: "Redeal: you held four {month} cards.",
    EVENT_DEALER_TOOK: "You (dealer) take the four {month} cards on the table.",
    EVENT_DECLARED: "You declare {hands}, showing {cards}.",
    EVENT_PLAYED_TAKES: "You play {card} and take {taken}.",
    EVENT_PLAYED_TABLE: "You play {card} to the table.",
    EVENT_TURNED_TAKES: "You turn up {card} and take {taken}.",
    EVENT_TURNED_TABLE: "You turn up {card}: it goes to the table.",
    EVENT_TURNED_CHOICE: "You turn up {card}: it can take one of several.",
    EVENT_LEG_WON: "You win game {leg} of the match.",
    EVENT_GAME_ENDED: "You win!",
    GAME_OVER_TITLE: "You win the game!",
    GAME_OVER_MATCH_TITLE: "You win the match!",
    ROUND_LEG: "You win game {leg} of the match; the totals start again from 0.",
    DECLARE_TITLE: "You hold a lucky hand",
    REDEAL_TITLE: "Four {month} cards in your hand",
    RESUMED: "Game resumed: round {round}, you deal.",
    END_REASONS[
        Termination.TIE_PLAY_ORDER, None
    ]: "A tie for the top total: you are first in play order from the dealer (R-9.1).",
}


LEARN_TITLE: Final = "Guided first game · step {n} of {total}"
LEARN_OPPONENT: Final = "Opponent"
LEARN_GUIDE: Final = "Guide"
LEARN_DONE_LABEL: Final = "Done:"
LEARN_KEYS_PLAY: Final = "{keys}: choose a card · Enter: play it · a, b: choose what it takes · q: quit"
LEARN_KEYS_TAKE: Final = "a, b or ←/→ and Enter: choose what the turned-up card takes · q: quit"
LEARN_KEYS_DECLARE: Final = "d: declare it · n: keep it secret · q: quit"
LEARN_KEYS_READ: Final = "Enter: go on · q: quit"
LEARN_KEYS_SCORES: Final = "Enter: see the scores · q: quit"
LEARN_KEYS_END: Final = "Enter or q: leave the guided game"
LEARN_NOT_THIS: Final = "Not that one: follow the guide (the card marked ▶ is the one to play)."
LEARN_SELECTED: Final = "{card}: {kind}, {points} points."


UNTRANSLATED: Final = frozenset({"APP_TITLE", "KIND_LETTERS", "UNTRANSLATED", "RULES_LUCKY_CONDITIONS"})
"""Constants shown as they are in every language."""

_WORDS = re.compile(r"[A-Za-z]{2,}")


def _has_words(value: str) -> bool:
    return bool(_WORDS.search(re.sub(r"\{\w*\}", "", value)))


def _translated(value: Any) -> Any:
    if isinstance(value, str):
        if not _has_words(value):
            return value
        # Korean templates choose their particles' forms when filled (roppyakken.korean).
        return Template(_(value)) if language() == "ko" else _(value)
    if isinstance(value, tuple):
        return tuple(_translated(v) for v in value)
    if isinstance(value, dict):
        return {k: _translated(v) for k, v in value.items()}
    return value


ENGLISH: Final[dict[str, Any]] = {
    name: value
    for name, value in globals().items()
    if name.isupper() and name not in UNTRANSLATED and isinstance(value, str | tuple | dict | Counted)
}
"""Every translatable constant by name, in English."""

for _name in ENGLISH:
    del globals()[_name]
del _name


def __getattr__(name: str) -> Any:
    """A translatable constant in the current language."""
    try:
        return _translated(ENGLISH[name])
    except KeyError:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}") from None


def messages() -> list[str | tuple[str, str]]:
    """Every message of this module (the English ids, in order; a message with a count as its
    singular and plural), for the catalogs."""
    out: list[str | tuple[str, str]] = []

    def add(value: Any) -> None:
        if isinstance(value, Counted):
            if _has_words(value.singular) and all(
                value.singular != m[0] for m in out if isinstance(m, tuple)
            ):
                out.append((value.singular, value.plural))
        elif isinstance(value, str):
            if _has_words(value) and value not in out:
                out.append(value)
        elif isinstance(value, tuple):
            for v in value:
                add(v)
        elif isinstance(value, dict):
            for v in value.values():
                add(v)

    for value in ENGLISH.values():
        add(value)
    return out


def say(template: str, name: str, **fields: object) -> str:
    """Fill ``template`` (as read from this module) about the player ``name``.

    For the default human name ("You", translated) the sentence is said in the
    second person when this module has a second-person form of it.
    """
    if name == _(ENGLISH["DEFAULT_HUMAN_NAME"]):
        for english, second in ENGLISH["SECOND_PERSON"].items():
            if _(english) == template:
                template = _(second)
                break
    filled = template.format(name=name, **fields)
    return particles(filled) if language() == "ko" else filled
