"""Lines of text that fit a terminal width, counted in cells, broken where each language allows.

A wide (East Asian) character takes two cells.  Lines break at spaces, and in Japanese and
Chinese also between two wide characters, except before closing punctuation and small kana
(a line never starts with ``。``) or after opening punctuation (kinsoku).  Korean words are
written with spaces between them and break only there.  A number stays with the unit
written after it, with or without a space (``600点``, ``600 points``), a Latin word with the
wide text right after it (``Kenjiが``), and a no-break space or word joiner joins what it
stands between.  A word longer than the line is cut by cells.
"""

from __future__ import annotations

import itertools
import re
import unicodedata
from typing import Final

NO_BREAK: Final = "\u00a0\u202f\u2060"
"""Characters that join what they stand between (no-break spaces, the word joiner)."""

_NO_START: Final = frozenset(
    "、。，．,.：；:;！？!?）」』】〕〉》］｝)]}ー・…‥ゝゞヽヾ々"
    "ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ％%"
)
"""What may not start a line (closing punctuation, small kana, marks of repetition)."""
_NO_END: Final = frozenset("（「『【〔〈《［｛([{")
"""What may not end a line (opening punctuation)."""
_SPACE: Final = re.compile(r"[ \t\n\r\f\v]+")


def width(text: str) -> int:
    """How many terminal cells ``text`` takes (wide and fullwidth characters take two)."""
    return sum(_cells(ch) for ch in text)


def _cells(ch: str) -> int:
    if ch == "\u2060" or unicodedata.combining(ch):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


def _hangul(ch: str) -> bool:
    return "\uac00" <= ch <= "\ud7a3" or "\u1100" <= ch <= "\u11ff" or "\u3130" <= ch <= "\u318f"


def _breaks_between(before: str, after: str) -> bool:
    """Whether a line may break between two characters written with no space between them."""
    if before in NO_BREAK or after in NO_BREAK or after in _NO_START or before in _NO_END:
        return False
    if _hangul(before) or _hangul(after) or _cells(before) != 2:
        return False  # Korean breaks at spaces; a number stays with the unit after it
    return _cells(after) == 2 or after.isalnum()


def wrap(text: str, columns: int) -> list[str]:
    """``text`` in lines of at most ``columns`` cells; each run of spaces becomes one space (or a
    line break) and no-break spaces are shown as spaces."""
    text = _SPACE.sub(" ", text).strip()
    starts = [0, *break_offsets(text, columns), len(text)]
    lines = [text[i:j].rstrip(" ") for i, j in itertools.pairwise(starts)]
    return [
        line.replace("\u00a0", " ").replace("\u202f", " ").replace("\u2060", "") for line in lines if line
    ]


def _opportunities(text: str) -> list[int]:
    """Where a line of ``text`` may start (after spaces, or between characters that allow it)."""
    found = []
    token_end = ""  # the last character of the word before the spaces
    for i in range(1, len(text)):
        before, after = text[i - 1], text[i]
        if _SPACE.match(after):
            if not _SPACE.match(before):
                token_end = before
            continue
        if _SPACE.match(before):
            # not after the line's indent; a number keeps its unit
            if token_end and not (token_end.isdigit() and not after.isdigit()):
                found.append(i)
        elif _breaks_between(before, after):
            found.append(i)
    return found


def break_offsets(text: str, columns: int) -> list[int]:
    """Where to break one line of ``text`` (indices of the lines' first characters, after the first
    line) so that each line, trailing spaces left out, takes at most ``columns`` cells.

    The same rules as :func:`wrap`, keeping the text as it is (its spaces stay at the end of
    the line before a break), as Rich's and Textual's ``divide_line`` do.
    """
    columns = max(1, columns)
    breaks: list[int] = []
    start = 0
    fits: int | None = None  # the furthest place to break that keeps the line within columns
    ends = [*_opportunities(text), len(text)]
    k = 0
    while k < len(ends):
        end = ends[k]
        if width(text[start:end].rstrip()) <= columns:
            fits, k = end, k + 1
            continue
        if fits is not None and fits > start:
            breaks.append(fits)
            start, fits = fits, None
            continue  # the same piece again, on a line of its own
        used = 0
        for i in range(start, end):  # a piece wider than a line: cut it by cells
            cells = _cells(text[i])
            if used + cells > columns and i > start and not _SPACE.match(text[i]):
                breaks.append(i)
                start, used = i, 0
            used += cells
        fits, k = end, k + 1
    return breaks
