"""The terminal's text breaks lines where each language allows: never before 。 or a unit."""

from __future__ import annotations

import pytest

from tests.harness.support import require_module

require_module("textual", "pip install 'roppyakken[tui]'")

import itertools

from rich.console import Console
from rich.text import Text

from roppyakken.linebreak import break_offsets, width
from roppyakken.tui import linebreaking


@pytest.mark.parametrize(
    ("text", "columns"),
    [
        ("あいうえおか。きくけこさしすせそ", 12),  # cut by cells, 。 would start the second line
        ("合計はいま600点です。残りはあと三枚", 12),  # and 600 would be cut from 点
        ("Il reste 600 points à prendre", 12),
        ("욘코를 완성하면 대국 전체를 이깁니다", 10),
        ("      indented words that wrap", 12),  # the indent is never a line of its own
    ],
)
def test_rich_text_in_the_terminal_breaks_where_the_language_allows(text: str, columns: int) -> None:
    linebreaking.install()
    lines = [line.plain.rstrip() for line in Text(text).wrap(Console(width=80), columns)]
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(width(line) <= columns for line in lines) and all(line.strip() for line in lines), lines
    for above, line in itertools.pairwise(lines):
        assert not line.startswith(("。", "、", "点")), lines
        assert not (above[-1:].isdigit() and not line[:1].isdigit()), lines
    assert break_offsets(text, columns) == linebreaking.divide_line(text, columns)
