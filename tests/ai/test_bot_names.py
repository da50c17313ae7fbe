"""Every bot level has a name and a one-line description for players, in both front ends and each language."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest

from roppyakken import i18n
from roppyakken.ai.base import BOT_LEVELS, bot_description
from roppyakken.text import bot_level_name
from tests.harness.support import ROOT

CATALOG_JS = ROOT / "src/roppyakken/server/static/js/catalog.js"
LEVELS = ("random", "greedy", "expert", "learned", "master")


@pytest.fixture
def english() -> Iterator[None]:
    before = i18n.language()
    yield
    i18n.set_language(before)


def _browser_section(name: str) -> dict[str, str]:
    text = CATALOG_JS.read_text(encoding="utf-8")
    found = re.search(rf'"{name}": (\{{[^{{}}]*\}})', text)
    assert found, f"catalog.js has no {name}"
    section: dict[str, str] = json.loads(found.group(1))
    return section


def test_every_level_is_named_and_described_in_the_browser() -> None:
    assert set(LEVELS) <= set(BOT_LEVELS)
    names, descriptions = _browser_section("bots"), _browser_section("botDescriptions")
    for level in BOT_LEVELS:
        assert names.get(level) and names[level] != level, level
        description = descriptions.get(level, "")
        assert description == bot_description(level), level
        assert 20 <= len(description) <= 100 and description.endswith("."), description


@pytest.mark.parametrize("lang", ["ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant"])
def test_every_level_is_named_and_described_in_each_language(lang: str, english: None) -> None:
    i18n.set_language("en")
    english_names = {level: bot_level_name(level) for level in BOT_LEVELS}
    english_descriptions = {level: bot_description(level) for level in BOT_LEVELS}
    i18n.set_language(lang)
    for level in BOT_LEVELS:
        assert bot_level_name(level), level
        assert i18n._(english_descriptions[level]) != english_descriptions[level], (lang, level)
        if lang != "fr":  # "Expert" is French too
            assert bot_level_name(level) != english_names[level], (lang, level)
