"""Numbers with a fractional part, written as the current language writes them.

English writes ``3.25``; German writes ``3,25``.  :class:`LocalFloat` is a float that
formats itself that way, so a message's own format spec (``{seconds:.2f}``) and
the code's (``f"{LocalFloat(share):6.1%}"``) keep working unchanged.
"""

from __future__ import annotations

from typing import Final

from roppyakken.i18n import language

DECIMAL_COMMA: Final = frozenset({"de"})
"""The languages that write a decimal comma (and no separator between thousands here)."""


def decimal_point() -> str:
    """The decimal separator of the current language."""
    return "," if language() in DECIMAL_COMMA else "."


class LocalFloat(float):
    """A float shown with the current language's decimal separator."""

    def __format__(self, spec: str) -> str:
        text = format(float(self), spec)
        return text.replace(".", decimal_point()) if "," not in spec else text

    def __str__(self) -> str:
        return format(self, "")
