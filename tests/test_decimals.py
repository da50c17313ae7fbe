"""Decimal numbers in the language's notation: a decimal comma in Spanish, a point in English."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from roppyakken.decimals import decimal
from roppyakken.i18n import set_language
from tests.support import run_cli


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    set_language("en")


def test_a_decimal_number_takes_the_languages_mark() -> None:
    set_language("es")
    assert [decimal("12.5%"), decimal(397.0), decimal(" +3.25")] == ["12,5%", "397,0", " +3,25"]
    set_language("en")
    assert [decimal("12.5%"), decimal(397.0)] == ["12.5%", "397.0"]


def test_the_arena_table_writes_spanish_decimals_with_a_comma() -> None:
    outputs = {}
    for lang in ("en", "es"):
        code, out, err = run_cli(
            ["--lang", lang, "arena", "--bots", "random,greedy", "--games", "2", "--seed", "1"]
        )
        assert code == 0, err
        outputs[lang] = out
    assert re.search(r"\d+\.\d%", outputs["en"]) and not re.search(r"\d+,\d%", outputs["en"])
    assert re.search(r"\d+,\d%", outputs["es"]) and not re.search(r"\d+\.\d%", outputs["es"])
