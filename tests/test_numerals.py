"""Numbers with decimals follow the language: a point in English, a comma in German."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from roppyakken import i18n
from roppyakken.cli.ratings_cmd import CHECKED_SAME
from roppyakken.numerals import LocalFloat
from tests.support import run_cli


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Every test leaves the process in English, as it found it."""
    yield
    i18n.set_language("en")


def test_english_keeps_the_decimal_point() -> None:
    assert f"{LocalFloat(0.25):6.1%}" == " 25.0%"
    assert i18n.fill(CHECKED_SAME, games="2 games", seconds=LocalFloat(3.14159)).startswith(
        "2 games replayed in 3.14 s"
    )
    assert str(LocalFloat(312.5)) == "312.5"


def test_german_writes_a_decimal_comma() -> None:
    i18n.set_language("de")
    assert f"{LocalFloat(0.25):6.1%}" == " 25,0%"
    assert f"{LocalFloat(-414.25):+.1f}" == "-414,2"
    assert str(LocalFloat(312.5)) == "312,5"
    assert "in 3,14 s" in i18n.fill(CHECKED_SAME, games="2", seconds=LocalFloat(3.14159))
    assert f"{LocalFloat(1234.5):,.1f}" == "1,234.5"  # a spec with its own separators is left alone


def test_simulate_in_german_writes_decimal_commas() -> None:
    code, out, _ = run_cli(["simulate", "--games", "2", "--lang", "de"])
    assert code == 0 and "Runden/s" in out
    share = next(line for line in out.splitlines() if "gewinnt" in line)
    assert "," in share and "." not in share
