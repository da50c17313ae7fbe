"""The terminal's card faces write each kind's mark in the player's language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from roppyakken import i18n
from roppyakken.cards import KIND, NUM_CARDS, POINTS, card_id, mask_of
from tests.harness.support import require_module

require_module("rich", "pip install 'roppyakken[tui]'")

from rich.cells import cell_len

from roppyakken.tui.cardface import CARD_WIDTH, card_lines, stack_lines

MARKS = {
    "en": {"bright": "B", "animal": "A", "ribbon": "R", "chaff": "C"},
    "ja": {"bright": "光", "animal": "種", "ribbon": "短", "chaff": "カス"},
    "ko": {"bright": "광", "animal": "열끗", "ribbon": "띠", "chaff": "피"},
    "fr": {"bright": "L", "animal": "A", "ribbon": "R", "chaff": "I"},
    "pt-BR": {"bright": "B", "animal": "A", "ribbon": "F", "chaff": "C"},
    "es": {"bright": "L", "animal": "A", "ribbon": "C", "chaff": "B"},
    "de": {"bright": "L", "animal": "T", "ribbon": "B", "chaff": "K"},
    "zh-Hant": {"bright": "光", "animal": "種", "ribbon": "短", "chaff": "素"},
}


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


@pytest.mark.parametrize("lang", sorted(MARKS))
def test_every_face_shows_its_kind_in_the_language(lang: str) -> None:
    i18n.set_language(lang)
    joker = card_id("willow-rainman")
    for card in range(NUM_CARDS):
        lines = card_lines(card, joker)
        assert [cell_len(line) for line in lines] == [CARD_WIDTH] * 3
        mark = MARKS[lang][KIND[card]]
        assert lines[2].startswith(mark), (lang, card, lines[2])
        assert lines[2].strip().endswith(str(POINTS[card]))
        assert ("*" in lines[2]) == (card == joker)


@pytest.mark.parametrize("lang", sorted(MARKS))
def test_a_stack_fits_and_names_its_best_card(lang: str) -> None:
    i18n.set_language(lang)
    stack = stack_lines(mask_of([card_id("iris-bridge"), card_id("iris-chaff-1"), card_id("iris-chaff-2")]))
    assert [cell_len(line) for line in stack] == [CARD_WIDTH] * 3
    assert stack[2].startswith(MARKS[lang]["animal"][0]) and stack[2].endswith("10")


@pytest.mark.parametrize("lang", sorted(MARKS))
def test_the_capture_strip_and_the_help_use_the_same_marks(lang: str) -> None:
    from roppyakken.rules import preset
    from roppyakken.text import card_name
    from roppyakken.tui.helptext import card_values
    from roppyakken.tui.widgets import capture_fields

    i18n.set_language(lang)
    fields = capture_fields(mask_of([card_id("pine-crane"), card_id("maple-deer")]))
    kinds = ("bright", "animal", "ribbon", "chaff")
    assert [f.plain.split(" ")[0] for f in fields] == [MARKS[lang][k] for k in kinds]
    table = card_values(preset("classic"))
    assert f"{card_name('maple-deer')} {MARKS[lang]['animal']} 10" in table
