"""The terminal game in Japanese, Korean and French.

Each language runs in a fresh process that sets the language first, as
``roppyakken play --lang`` does, then renders the main screens at 80×24: the
text must be in that language, with no English left but key names and commands.
"""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from tests.harness.support import ROOT, require_module

require_module("textual", "pip install 'roppyakken[tui]'")

from roppyakken import i18n
from roppyakken.cards import NUM_CARDS
from roppyakken.tui.cardface import CARD_WIDTH, card_lines
from roppyakken.tui.text import ENGLISH

SCRIPT = """
import sys
from roppyakken import i18n
i18n.set_language(sys.argv[1])
from tests.harness.tui_pilot import at_table, game_app, shoot
from roppyakken.tui.screens.dialogs import DeclareScreen
from roppyakken.tui.screens.scores import GameOverScreen, RoundEndScreen
print(shoot(game_app(3), lambda app: isinstance(app.screen, DeclareScreen)))
print(shoot(game_app(3), at_table, keys=("enter",)))
print(shoot(game_app(11, "sanbyakuken"), lambda app: isinstance(app.screen, RoundEndScreen)))
print(shoot(game_app(11, "sanbyakuken"), at_table, keys=("enter", "y")))
print(shoot(game_app(11, "sanbyakuken"), at_table, keys=("question_mark",)))
print(shoot(game_app(11, "sanbyakuken"), lambda app: isinstance(app.screen, GameOverScreen)))
"""
# Key names, the command's name and arguments, and the test's player "You" stay as they are.
ALLOWED = {"You", "Yo", "Enter", "Esc", "esc", "Space", "Tab", "FILE", "roppyakken", "replay", "watch"}
WORDS = re.compile(r"[A-Za-z]{2,}")
SCRIPT_OF = {
    "ja": re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]"),
    "ko": re.compile(r"[\uac00-\ud7a3]"),
    "zh-Hant": re.compile(r"[\u4e00-\u9fff]"),
}


def _screens(lang: str) -> str:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, lang], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("lang", ["ja", "ko", "zh-Hant"])
def test_the_terminal_screens_speak_the_language(lang: str) -> None:
    shown = _screens(lang)
    assert len(SCRIPT_OF[lang].findall(shown)) > 500
    # A dialog drawn over a line may cut an allowed key name short ("Spa" of "Space").
    english = sorted(
        w for w in set(WORDS.findall(shown)) - ALLOWED if not any(a.startswith(w) for a in ALLOWED)
    )
    assert not english, f"English left on the {lang} screens: {english}"


def test_the_terminal_screens_in_french() -> None:
    shown = _screens("fr")
    for words in ("Manche 1", "Progression des yaku", "Yaku et mains", "gagne la partie"):
        assert words in shown
    for english in ("Round 1", "Yaku progress", "How to play", "wins the game"):
        assert english not in shown


def test_the_terminal_screens_in_spanish() -> None:
    shown = _screens("es")
    for words in ("Ronda 1", "Progreso de los yaku", "Yaku y manos", "gana la partida"):
        assert words in shown
    for english in ("Round 1", "Yaku progress", "How to play", "wins the game"):
        assert english not in shown


@pytest.mark.parametrize("lang", ["en", *i18n.LANGUAGES])
def test_cards_keep_their_width_in_every_language(lang: str) -> None:
    """A card is 7 terminal cells wide whatever the language (CJK characters take two)."""
    from rich.cells import cell_len

    i18n.set_language(lang)
    try:
        for card in range(NUM_CARDS):
            assert all(cell_len(line) == CARD_WIDTH for line in card_lines(card))
    finally:
        i18n.set_language("en")


def test_english_constants_are_the_message_ids() -> None:
    from roppyakken.tui import text as t

    i18n.set_language("ja")
    try:
        title: str = t.NEW_GAME_TITLE  # typed as the English literal; read in the current language
        assert title == "六百間の新しい対局"
        assert t.say(t.EVENT_GAME_ENDED, t.DEFAULT_HUMAN_NAME) == "あなたの勝ち！"
        assert t.say(t.EVENT_GAME_ENDED, "花子") == "花子の勝ち！"
        assert t.KIND_LETTERS == {"bright": "B", "animal": "A", "ribbon": "R", "chaff": "C"}
    finally:
        i18n.set_language("en")
    assert t.NEW_GAME_TITLE == ENGLISH["NEW_GAME_TITLE"] == "New game of Roppyakken"


@pytest.mark.parametrize("lang", ["ja", "ko", "zh-Hant"])
def test_the_rules_help_of_every_preset_is_translated(lang: str) -> None:
    """The help screen's tabs (but the option table, whose names and values are identifiers)."""
    from roppyakken.rules import PRESETS, preset
    from roppyakken.tui import helptext

    i18n.set_language(lang)
    try:
        for name in PRESETS:
            rules = preset(name)
            shown = "\n".join(
                (
                    helptext.rules_intro(rules),
                    helptext.how_to_play(rules, 2),
                    helptext.yaku_and_lucky_hands(rules),
                    helptext.card_values(rules),
                )
            )
            english = set(WORDS.findall(shown)) - {"Marguerite", "MocoGame"}
            assert not english, f"{lang} help of {name}: {sorted(english)}"
    finally:
        i18n.set_language("en")


def test_terminal_and_browser_share_the_lucky_hand_conditions() -> None:
    from roppyakken import text
    from roppyakken.tui import text as t

    assert t.RULES_LUCKY_CONDITIONS is text.LUCKY_HAND_CONDITIONS


@pytest.mark.parametrize("lang", i18n.LANGUAGES)
def test_labels_under_cards_fit_a_card(lang: str) -> None:
    """The words written under a card (pile, played, turned, taken, new, stack) fit its 7 cells."""
    from rich.cells import cell_len

    from roppyakken.tui import text as t

    i18n.set_language(lang)
    try:
        labels = [t.PILE_LABEL.format(n=48), t.PILE_EMPTY, t.IN_PLAY_HAND, t.IN_PLAY_PILE]
        labels += [t.MARK_TAKEN, t.MARK_NEW, t.STACK_LABEL, *t.CARD_SUBJECTS]
        too_wide = [label for label in labels if cell_len(label) > CARD_WIDTH]
        assert not too_wide, f"{lang}: {too_wide}"
    finally:
        i18n.set_language("en")
