"""Languages of the human-readable text: English (the source), Japanese, Korean, French.

Messages are written in English in the code, marked with :func:`N_` where they
are defined and translated with :func:`_` where they are shown.  Translations
live in gettext catalogs, ``locale/<lang>/LC_MESSAGES/roppyakken.po``, compiled
to the ``.mo`` files committed beside them (``scripts/i18n.py`` rebuilds them
with Babel; reading them needs only the standard library).

Templates use ``str.format`` fields with names, never positions, so that a
translation may put them in any order: ``_("{name} wins!").format(name=...)``.
"""

from __future__ import annotations

import gettext
import os
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from roppyakken.errors import Phrase, RoppyakkenError, set_translator
from roppyakken.korean import particles

DOMAIN: Final = "roppyakken"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
SOURCE_LANGUAGE: Final = "en"
LANGUAGES: Final[tuple[str, ...]] = ("en", "ja", "ko", "fr")
LANGUAGE_NAMES: Final[dict[str, str]] = {
    "en": "English",
    "ja": "日本語",
    "ko": "한국어",
    "fr": "Français",
}
"""Each language's name in itself, for language switchers."""

_state: dict[str, gettext.NullTranslations | str] = {
    "lang": SOURCE_LANGUAGE,
    "translation": gettext.NullTranslations(),
}


def N_(message: str) -> str:
    """Mark ``message`` for translation where it is defined; return it unchanged."""
    return message


ERROR_LINE = N_("roppyakken: error: {message}")
"""How every command says what went wrong: one line on standard error."""


def _translation() -> gettext.NullTranslations:
    found = _state["translation"]
    assert isinstance(found, gettext.NullTranslations)
    return found


def _(message: str) -> str:
    """``message`` in the current language (itself when it has no translation)."""
    return _translation().gettext(message)


def finish(text: str) -> str:
    """Translated text as shown: in Korean, each particle's form chosen by the word before it."""
    return particles(text) if _state["lang"] == "ko" else text


set_translator(_, finish)


JSON_REASONS = frozenset(
    {
        N_("Expecting value"),
        N_("Expecting property name enclosed in double quotes"),
        N_("Expecting ':' delimiter"),
        N_("Expecting ',' delimiter"),
        N_("Unterminated string starting at"),
        N_("Invalid control character at"),
        N_("Extra data"),
    }
)
"""What the standard library's JSON parser says of malformed text, translated where it says it."""


def json_reason(message: str) -> str | Phrase:
    """The JSON parser's ``message``, as words to translate when it is one of :data:`JSON_REASONS`."""
    return Phrase(message) if message in JSON_REASONS else message


def fill(template: str, **fields: object) -> str:
    """Translate ``template`` and fill its named fields (in Korean, choosing each particle's form)."""
    return finish(_(template).format(**fields))


def cell_width(text: str) -> int:
    """How many terminal cells ``text`` takes (wide CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal cells (at least one space after it)."""
    return text + " " * max(1, width - cell_width(text))


def right(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` terminal cells (wide characters count twice)."""
    return " " * max(0, width - cell_width(text)) + text


def normalize(code: str) -> str | None:
    """The supported language a code or locale names (``'ja_JP.UTF-8'`` is ``'ja'``), or None."""
    base = code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if base in ("c", "posix"):
        return SOURCE_LANGUAGE
    return base if base in LANGUAGES else None


def language_from_env(environ: Mapping[str, str] | None = None) -> str:
    """The language the locale asks for: LANGUAGE, LC_ALL, LC_MESSAGES then LANG (English if none)."""
    env = os.environ if environ is None else environ
    language = env.get("LANGUAGE", "")
    if language and env.get("LC_ALL", env.get("LC_MESSAGES", env.get("LANG", ""))) not in ("C", "POSIX"):
        for part in language.split(":"):
            found = normalize(part) if part else None
            if found:
                return found
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "")
        if value:
            return normalize(value) or SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def set_language(code: str) -> str:
    """Show text in the language ``code`` names from now on; return the language chosen."""
    lang = normalize(code)
    if lang is None:
        raise RoppyakkenError(
            N_("unknown language '{code}' (expected one of {languages})"),
            code=code,
            languages=", ".join(LANGUAGES),
        )
    if lang == SOURCE_LANGUAGE:
        translation = gettext.NullTranslations()
    else:
        translation = gettext.translation(DOMAIN, LOCALE_DIR, languages=[lang], fallback=True)
    _state["lang"] = lang
    _state["translation"] = translation
    return lang


def language() -> str:
    """The current language code."""
    lang = _state["lang"]
    assert isinstance(lang, str)
    return lang
