"""Languages of the human-readable text: English (the source) and the languages of :data:`LANGUAGES`.

Messages are written in English in the code, marked with :func:`N_` where they
are defined and translated with :func:`_` where they are shown.  Translations
live in gettext catalogs, ``locale/<lang>/LC_MESSAGES/roppyakken.po``, compiled
to the ``.mo`` files committed beside them (``scripts/i18n.py`` rebuilds them
with Babel; reading them needs only the standard library).

Templates use ``str.format`` fields with names, never positions, so that a
translation may put them in any order: ``_("{name} wins!").format(name=...)``.
"""

from __future__ import annotations

import errno
import gettext
import os
import re
import unicodedata
from collections.abc import Mapping
from pathlib import Path
from typing import Final

from roppyakken.errors import Phrase, RoppyakkenError, set_translator
from roppyakken.korean import particles

DOMAIN: Final = "roppyakken"
LOCALE_DIR: Final = Path(__file__).resolve().parent / "locale"
SOURCE_LANGUAGE: Final = "en"
LANGUAGES: Final[tuple[str, ...]] = ("en", "ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant")
LANGUAGE_NAMES: Final[dict[str, str]] = {
    "en": "English",
    "ja": "日本語",
    "ko": "한국어",
    "fr": "Français",
    "pt-BR": "Português (Brasil)",
    "es": "Español",
    "de": "Deutsch",
    "zh-Hant": "繁體中文",
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


JSON_REASONS: Final[dict[str, str]] = {
    "Expecting value": N_("Expecting value"),
    "Expecting property name enclosed in double quotes": N_(
        "Expecting property name enclosed in double quotes"
    ),
    "Expecting ':' delimiter": N_("Expecting ':' delimiter"),
    "Expecting ',' delimiter": N_("Expecting ',' delimiter"),
    "Unterminated string starting at": N_("Unterminated string starting"),
    "Invalid control character at": N_("Invalid control character"),
    "Extra data": N_("Extra data"),
}
"""What the standard library's JSON parser says of malformed text, and the words translated in
its place (without the parser's trailing "at": the message adds where)."""


def json_reason(message: str) -> str | Phrase:
    """The JSON parser's ``message``, as words to translate when it is one of :data:`JSON_REASONS`."""
    known = JSON_REASONS.get(message)
    return Phrase(known) if known else message.removesuffix(" at")


OS_REASONS: Final[dict[int, str]] = {
    errno.ENOENT: N_("no such file or directory"),
    errno.EISDIR: N_("it is a directory"),
    errno.ENOTDIR: N_("a part of the path is not a directory"),
    errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("operation not permitted"),
    errno.EEXIST: N_("it already exists"),
    errno.ENOSPC: N_("no space left on the device"),
    errno.EROFS: N_("the file system is read-only"),
    errno.ENAMETOOLONG: N_("the name is too long"),
    errno.ELOOP: N_("too many symbolic links"),
    errno.EADDRINUSE: N_("the address is already in use"),
    errno.EADDRNOTAVAIL: N_("the address is not available on this machine"),
    errno.ECONNREFUSED: N_("the connection was refused"),
}
"""The operating system's common errors, by errno, in words to translate."""


def os_reason(exc: OSError) -> str | Phrase:
    """Why an operating-system call failed, in words to translate (the system's own if uncommon)."""
    known = OS_REASONS.get(exc.errno) if exc.errno is not None else None
    if known:
        return Phrase(known)
    return exc.strerror or str(exc) or type(exc).__name__


_TOML_REASONS: Final[tuple[tuple[re.Pattern[str], str], ...]] = tuple(
    (re.compile(pattern), template)
    for pattern, template in (
        (r"Invalid value", N_("invalid value")),
        (r"Invalid statement", N_("invalid statement")),
        (r"Invalid initial character for a key part", N_("a key cannot start with this character")),
        (r"Expected '=' after a key in a key/value pair", N_("expected '=' after a key")),
        (r"Expected newline or end of document after a statement", N_("expected a new line after a value")),
        (r"Expected '\]' at the end of a table declaration", N_("expected ']' to close the table name")),
        (r"Expected '\]\]' at the end of an array declaration", N_("expected ']]' to close the array name")),
        (r"Unterminated string", N_("unterminated string")),
        (r"Unclosed array", N_("unclosed array")),
        (r"Unclosed inline table", N_("unclosed inline table")),
        (r"Cannot overwrite a value", N_("a value is given twice")),
        (r"Cannot declare (?P<key>.+) twice", N_("{key} is declared twice")),
        (r"Cannot (?:redefine|mutate immutable) namespace (?P<key>.+)", N_("{key} is declared twice")),
        (r"Duplicate inline table key (?P<key>.+)", N_("{key} is declared twice")),
        (r"(?:Illegal|Found invalid) character (?P<char>.+)", N_("invalid character {char}")),
        (r"Expected (?P<char>'.*')", N_("expected {char}")),
        (r"Invalid date or datetime", N_("invalid date or time")),
        (r"Invalid hex value", N_("invalid hexadecimal value")),
        (r"Unescaped '\\' in a string", N_("unescaped '\\' in a string")),
    )
)
_TOML_WHERE: Final = re.compile(
    r"(?P<reason>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|end of document)\)"
)


def toml_reason(exc: ValueError) -> str | Phrase:
    """What :mod:`tomllib` says of malformed text, in words to translate, with where it is."""
    text = str(exc)
    where = _TOML_WHERE.fullmatch(text)
    reason_text = where.group("reason") if where else text
    reason: str | Phrase = reason_text
    for pattern, template in _TOML_REASONS:
        found = pattern.fullmatch(reason_text)
        if found:
            reason = Phrase(template, **found.groupdict())
            break
    if where is None:
        return reason
    if where.group("line") is None:
        return Phrase(N_("{reason} (at the end of the document)"), reason=reason)
    return Phrase(
        N_("{reason} (at line {line}, column {column})"),
        reason=reason,
        line=int(where.group("line")),
        column=int(where.group("column")),
    )


def install_extra(extra: str) -> Phrase:
    """How to install the optional ``extra`` (the README's command, run where the source is)."""
    return Phrase(N_("in the roppyakken checkout, pip install '.[{extra}]'"), extra=extra)


def fill(template: str, **fields: object) -> str:
    """Translate ``template`` and fill its named fields (in Korean, choosing each particle's form)."""
    return finish(_(template).format(**fields))


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a message for the count ``n`` in the current language (``singular`` or
    ``plural`` in English; a language may have one form, or more than two)."""
    return _translation().ngettext(singular, plural, n)


def nfill(singular: str, plural: str, n: int, **fields: object) -> str:
    """:func:`fill` with the form for the count ``n``, which fills the field ``{n}``."""
    return finish(ngettext(singular, plural, n).format(n=n, **fields))


class Plural(Phrase):
    """Words with a count (``3 games``) inside a message: English as text, the form for the count
    in the current language when translated; the count fills ``{n}``."""

    def __init__(self, singular: str, plural: str, n: int, /, **fields: object) -> None:
        super().__init__(singular, n=n, **fields)
        self.plural = plural
        self.n = n

    def __str__(self) -> str:
        return (self.template if self.n == 1 else self.plural).format(**self.fields)

    def translated(self) -> str:
        """The words in the current language, in the form for the count."""
        shown = {
            name: value.translated() if isinstance(value, Phrase | RoppyakkenError) else value
            for name, value in self.fields.items()
        }
        return finish(ngettext(self.template, self.plural, self.n).format(**shown))


def cell_width(text: str) -> int:
    """How many terminal cells ``text`` takes (wide CJK characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def pad(text: str, width: int) -> str:
    """``text`` padded with spaces to ``width`` terminal cells (at least one space after it)."""
    return text + " " * max(1, width - cell_width(text))


def right(text: str, width: int) -> str:
    """``text`` right-aligned in ``width`` terminal cells (wide characters count twice)."""
    return " " * max(0, width - cell_width(text)) + text


VARIANTS: Final[dict[str, str]] = {"pt": "pt-BR", "zh": "zh-Hant"}
"""The one variant of a language this project speaks, by its base code: Brazilian Portuguese
for every Portuguese locale, Traditional Chinese for every Chinese one."""


def normalize(code: str) -> str | None:
    """The supported language a code or locale names (``'ja_JP.UTF-8'`` is ``'ja'``,
    ``'pt_PT'`` and ``'pt-br'`` are ``'pt-BR'``, ``'zh_TW'`` is ``'zh-Hant'``), or None."""
    base = code.strip().split(".")[0].split("@")[0].replace("-", "_").split("_")[0].lower()
    if base in ("c", "posix"):
        return SOURCE_LANGUAGE
    if base in LANGUAGES:
        return base
    variant = VARIANTS.get(base)
    return variant if variant in LANGUAGES else None


def catalog_name(lang: str) -> str:
    """The folder of ``lang``'s catalog under ``locale/`` (gettext's form: ``pt_BR``, ``zh_Hant``)."""
    return lang.replace("-", "_")


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
        translation = gettext.translation(DOMAIN, LOCALE_DIR, languages=[catalog_name(lang)], fallback=True)
    _state["lang"] = lang
    _state["translation"] = translation
    return lang


def language() -> str:
    """The current language code."""
    lang = _state["lang"]
    assert isinstance(lang, str)
    return lang


DECIMAL_COMMA: Final = frozenset({"pt-BR", "es", "de"})
"""The languages that write a decimal comma (CLDR): ``12,5`` where English writes ``12.5``."""


def decimal(number: str) -> str:
    """A number formatted with a decimal point (``f"{x:.1f}"``, ``f"{x:.1%}"``), written with the
    current language's decimal separator."""
    return number.replace(".", ",") if language() in DECIMAL_COMMA else number
