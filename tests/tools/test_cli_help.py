"""Every command's ``--help`` fits an 80-column terminal in every language (wide characters
count two columns) and breaks its lines where the language allows."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from roppyakken.cli import COMMANDS
from roppyakken.i18n import LANGUAGES, set_language
from roppyakken.linebreak import width, wrap
from tests.harness.support import run_cli


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    """Every test leaves the process in English, as it found it (``--lang`` sets the language)."""
    yield
    set_language("en")


ADMIN_ACTIONS = ("reports", "mute", "suspend", "sanctions", "clear", "close-report", "playban", "log")
HELPS = [[], *([name] for name in COMMANDS), *(["admin", action] for action in ADMIN_ACTIONS)]


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_help_fits_80_columns(lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    too_wide = []
    for command in HELPS:
        code, out, err = run_cli(["--lang", lang, *command, "--help"], monkeypatch=monkeypatch)
        assert code == 0, (command, err)
        assert out.strip(), command
        too_wide += [
            f"{' '.join(command)}: {width(line)}: {line}" for line in out.splitlines() if width(line) > 80
        ]
    assert not too_wide, "\n".join(too_wide)


def test_japanese_help_does_not_start_a_line_with_closing_punctuation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    for command in HELPS:
        _code, out, _err = run_cli(["--lang", "ja", *command, "--help"], monkeypatch=monkeypatch)
        for line in out.splitlines():
            assert not line.lstrip().startswith(("。", "、", "）", "」")), (command, line)


@pytest.mark.parametrize(
    ("text", "columns", "lines"),
    [
        ("手札から札を出します。次の番です。", 12, ["手札から札を", "出します。次", "の番です。"]),
        ("出しますね。", 10, ["出します", "ね。"]),  # 。 never starts a line
        ("合計600点です", 8, ["合計", "600点で", "す"]),  # a number stays with its unit
        ("合計600点です", 9, ["合計600点", "です"]),
        ("wins 600 points today", 12, ["wins", "600 points", "today"]),
        ("욘코를 완성하면 대국을 이깁니다", 10, ["욘코를", "완성하면", "대국을", "이깁니다"]),
        ("abcdefghij", 4, ["abcd", "efgh", "ij"]),
    ],
)
def test_wrap_breaks_where_the_language_allows(text: str, columns: int, lines: list[str]) -> None:
    assert wrap(text, columns) == lines
    assert all(width(line) <= columns for line in lines)
