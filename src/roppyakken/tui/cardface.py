"""How a card looks in the terminal: a block of 3 lines × 7 cells.

Every card shows its month (number and name), what it depicts, its kind's mark
in the current language (B A R C in English, 光 種 短 カス in Japanese, 광 열끗 띠 피
in Korean, L A R I in French: :func:`roppyakken.text.kind_mark`) and its points,
so it reads without colour; colour by kind is an extra.  A stack (three of a
month, R-3.5) is one block whose right edge is thickened.
"""

from __future__ import annotations

from typing import Final

from rich.cells import cell_len, set_cell_size
from rich.style import Style
from rich.text import Text

from roppyakken.cards import KIND, MONTH, POINTS, SLUGS, iter_cards
from roppyakken.text import kind_mark
from roppyakken.tui import text as t

CARD_WIDTH: Final = 7
CARD_HEIGHT: Final = 3
SLOT_WIDTH: Final = CARD_WIDTH + 1
"""A card and the one-cell gap (or stack edge) after it."""

_BLUE_RIBBONS: Final = {"peony-ribbon", "chrysanthemum-ribbon", "maple-ribbon"}

# Background and text colours by kind (an extra: the letters carry the meaning).
_KIND_STYLE: Final[dict[str, Style]] = {
    "bright": Style(color="#1a1a1a", bgcolor="#e8c547", bold=True),
    "animal": Style(color="#ffffff", bgcolor="#3d7a3d"),
    "ribbon": Style(color="#ffffff", bgcolor="#b83a3a"),
    "chaff": Style(color="#1a1a1a", bgcolor="#d9d2c3"),
}
_BLUE_RIBBON_STYLE: Final = Style(color="#ffffff", bgcolor="#3556a8")
_BACK_STYLE: Final = Style(color="#f0e0e0", bgcolor="#7a2030")
_EMPTY_STYLE: Final = Style(color="#808080")


def card_style(card: int) -> Style:
    """The colours of ``card`` (by kind; blue ribbons blue)."""
    if SLUGS[card] in _BLUE_RIBBONS:
        return _BLUE_RIBBON_STYLE
    return _KIND_STYLE[KIND[card]]


def _fit(text: str) -> str:
    """``text`` cut or padded to the card's width in terminal cells (CJK characters take two)."""
    return set_cell_size(text, CARD_WIDTH)


def _center(text: str) -> str:
    """``text`` centred like ``str.center`` does, counting terminal cells."""
    pad = max(0, CARD_WIDTH - cell_len(text))
    return " " * (pad // 2 + (pad & CARD_WIDTH & 1)) + text


def fit_center(text: str) -> str:
    """``text`` centred on a card's width in terminal cells (cut if longer)."""
    return _fit(_center(_fit(text).rstrip()))


def card_lines(card: int, joker: int = -1) -> list[str]:
    """The three plain-text lines of ``card`` (7 cells each); ``joker`` is the joker's id."""
    month = MONTH[card]
    line1 = f"{month:>2} {t.MONTH_SHORT[month - 1]}"
    line2 = _center(t.CARD_SUBJECTS[card])
    joker_mark = "*" if card == joker else " "
    kind = _fit(kind_mark(KIND[card])).rstrip()
    points = str(POINTS[card])
    # The mark (up to four cells: 열끗, カス) on the left, the points on the right, and a
    # last blank cell when there is room for it.
    body = f"{kind}{joker_mark}"
    room = CARD_WIDTH - cell_len(body) - len(points)
    line3 = body + " " * (room - 1) + points + " " if room >= 2 else body + " " * room + points
    return [_fit(line1), _fit(line2), _fit(line3)]


def stack_lines(stack: int) -> list[str]:
    """The three lines of a stack (three cards of a month): month, 'stack', kinds and points."""
    cards = list(iter_cards(stack))
    month = MONTH[cards[0]]
    marks = [kind_mark(KIND[c]) for c in cards]
    total = str(sum(POINTS[c] for c in cards))
    letters = "".join(marks)
    if cell_len(letters) + 1 + len(total) > CARD_WIDTH:
        # Wide marks (光種カス) leave no room for three: the first card's and "+2".
        letters = set_cell_size(marks[0], 2).rstrip() + f"+{len(marks) - 1}"
    line3 = letters + " " * max(1, CARD_WIDTH - cell_len(letters) - len(total)) + total
    return [_fit(f"{month:>2} {t.MONTH_SHORT[month - 1]}"), _fit(t.STACK_LABEL), _fit(line3)]


def render_card(card: int, *, joker: int = -1, emphasis: bool = False, dim: bool = False) -> list[Text]:
    """``card`` as three styled lines; ``emphasis`` reverses it (selection), ``dim`` greys it."""
    style = card_style(card)
    if emphasis:
        style = style + Style(reverse=True, bold=True)
    if dim:
        style = style + Style(dim=True)
    return [Text(line, style=style) for line in card_lines(card, joker)]


def render_stack(stack: int, *, emphasis: bool = False) -> list[Text]:
    """A stack as three styled lines, coloured like its best card."""
    best = max(iter_cards(stack), key=lambda c: (POINTS[c], -c))
    style = card_style(best)
    if emphasis:
        style = style + Style(reverse=True, bold=True)
    return [Text(line, style=style) for line in stack_lines(stack)]


def render_back(label: str) -> list[Text]:
    """The back of a card (the draw pile), with ``label`` (e.g. the count) in the middle."""
    return [
        Text("░" * CARD_WIDTH, style=_BACK_STYLE),
        Text(_fit(label.center(CARD_WIDTH)), style=_BACK_STYLE),
        Text("░" * CARD_WIDTH, style=_BACK_STYLE),
    ]


def render_blank() -> list[Text]:
    """An empty place (an empty pile)."""
    return [Text(" " * CARD_WIDTH, style=_EMPTY_STYLE) for _ in range(CARD_HEIGHT)]
