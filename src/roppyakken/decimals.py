"""Decimal numbers written as the current language writes them.

Python formats a decimal number with a point (``f"{x:.1f}"``); a language whose decimal mark is a
comma (CLDR's ``decimal`` symbol: Spanish ``12,5``) gets its own mark.  Only numbers pass through
here, never text that holds a point for another reason (a version, an address, a rule ``R-7.3``).
"""

from __future__ import annotations

from typing import Final

from roppyakken.i18n import language

DECIMAL_COMMA: Final[frozenset[str]] = frozenset({"es"})
"""The languages whose decimal mark is a comma."""


def decimal(number: object) -> str:
    """``number`` (a number, or a number already formatted by Python) with the language's decimal mark."""
    text = str(number)
    return text.replace(".", ",") if language() in DECIMAL_COMMA else text
