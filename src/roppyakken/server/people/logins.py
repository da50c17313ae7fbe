"""Sign-in names: their stored form, and the skeleton that tells two alike-looking names apart.

A login is stored as typed after Unicode compatibility normalization and case folding
(:func:`fold`: NFKC, case fold, NFKC again), so ``ＡＤＭＩＮ`` and ``Admin`` are the
one login ``admin``.  Two logins that only *look* alike (``аdmin`` with a Cyrillic
``а`` and ``admin``, ``paypa1`` and ``paypal``, ``b0b`` and ``bob``) have the same
:func:`skeleton`, UTS #39's (Unicode Security Mechanisms, section 4): the decomposed
name with each character replaced by its prototype from Unicode's confusables table
(``confusables.txt`` beside this module, written by ``python -m
roppyakken.devtools.confusables``), case-folded once more.  The skeleton is taken of the
folded login, the form every page shows.  A new account whose login has the skeleton of
an existing one is refused.

Logins stored before this normalization (case-folded only) keep working: a sign-in
looks the typed name up in its old form (:func:`legacy_fold`) and then in the new one
(:func:`candidates`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import cache
from pathlib import Path
from typing import Final

TABLE: Final = Path(__file__).with_name("confusables.txt")
MAX_TYPED: Final = 64
"""Characters of a typed login looked at (the longest a stored one has is 32)."""
_LOGIN: Final = re.compile(r"[^\W_][\w.\-]{2,31}")


@cache
def _prototypes() -> dict[int, str]:
    table: dict[int, str] = {}
    for line in TABLE.read_text(encoding="utf-8").splitlines():
        if not line or line.startswith("#"):
            continue
        source, target = line.split("\t")
        table[int(source, 16)] = "".join(chr(int(point, 16)) for point in target.split())
    return table


def normalize(value: str) -> str:
    """``value`` trimmed, NFKC-normalized and case-folded (whatever it holds)."""
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", value.strip()).casefold())


def fold(value: str) -> str | None:
    """The stored form of a new sign-in name, or None if it cannot be one: 3 to 32 letters, digits,
    dots, hyphens or underscores (any script's letters), starting with a letter or digit."""
    folded = normalize(value)
    return folded if _LOGIN.fullmatch(folded) and folded.isprintable() else None


def legacy_fold(value: str) -> str:
    """The form logins were stored in before :func:`fold` (trimmed and case-folded only)."""
    return value.strip().casefold()[:MAX_TYPED]


def candidates(value: str) -> list[str]:
    """The stored forms a typed login may have, the old one first (an account made before the
    normalization keeps its exact name), without repeats."""
    found = [legacy_fold(value)]
    new = fold(value)
    if new is not None and new not in found:
        found.append(new)
    return found


def skeleton(value: str) -> str:
    """UTS #39's skeleton of ``value`` (NFD, each character mapped to its confusables prototype,
    NFD again), case-folded: alike-looking names have the same one."""
    table = _prototypes()
    mapped = "".join(table.get(ord(ch), ch) for ch in unicodedata.normalize("NFD", value))
    return unicodedata.normalize("NFD", unicodedata.normalize("NFD", mapped).casefold())
