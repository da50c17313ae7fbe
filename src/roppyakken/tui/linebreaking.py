"""The terminal's text breaks its lines where each language allows (:mod:`roppyakken.linebreak`).

Rich and Textual wrap text at spaces and cut a longer run anywhere, so Japanese (written
without spaces) came out with lines starting with ``。`` and numbers split from their
units.  :func:`install` puts :func:`roppyakken.linebreak.break_offsets` in the place of
the ``divide_line`` both of them call (it takes the same arguments and gives the same kind
of offsets); a text that was not to be folded is still only cut.
"""

from __future__ import annotations

import rich.text
import textual.content
from rich._wrap import divide_line as _rich_divide_line

from roppyakken.linebreak import break_offsets


def divide_line(text: str, width: int, fold: bool = True) -> list[int]:
    """Rich's ``divide_line``, with the lines broken where the language allows."""
    if not fold:
        return _rich_divide_line(text, width, fold=False)
    return break_offsets(text, width)


def install() -> None:
    """Break every Rich and Textual text of this process with :func:`divide_line`."""
    rich.text.divide_line = divide_line  # type: ignore[attr-defined]
    textual.content.divide_line = divide_line  # type: ignore[attr-defined]
