"""The project's exceptions: every user-facing failure is one of these, with a one-line message.

A message may be a template with named fields (``RulesError(N_("unknown preset {name}"),
name=...)``): ``str(error)`` is the English sentence, :meth:`RoppyakkenError.translated` the
sentence in the current language (:mod:`roppyakken.i18n`), fields that are errors themselves
and :class:`Phrase` words, translated too.
"""

from __future__ import annotations

from collections.abc import Callable


def shown(value: object) -> str:
    """A value from a document (JSON, TOML) as a message quotes it: a string in single quotes, anything
    else as JSON writes it (``null``, ``true``, ``[1, 2]``: never Python's ``None`` or ``True``)."""
    if isinstance(value, str):
        return f"'{value}'"
    import json  # (only when an error is said: --help does not load it)

    return json.dumps(value, ensure_ascii=False, default=str)


class Phrase:
    """Words inside a message (``player 1``, ``input``): English as text, translatable like it."""

    def __init__(self, template: str, /, **fields: object) -> None:
        self.template = template
        self.fields = fields

    def __str__(self) -> str:
        return self.template.format(**self.fields) if self.fields else self.template

    def translated(self) -> str:
        """The words in the current language."""
        return _translated(self.template, self.fields)


_TRANSLATORS: list[Callable[[str], str]] = []
"""The current language's ``gettext`` and the finishing of a filled message (in Korean, choosing
each particle's form), which :mod:`roppyakken.i18n` registers when it is imported (it imports
this module, so this one cannot import it)."""


def set_translator(translate: Callable[[str], str], finish: Callable[[str], str] = str) -> None:
    """Translate messages with ``translate`` (:func:`roppyakken.i18n._`), then pass each filled
    message through ``finish``."""
    _TRANSLATORS[:] = [translate, finish]


def _(message: str) -> str:
    return _TRANSLATORS[0](message) if _TRANSLATORS else message


def _finished(text: str) -> str:
    return _TRANSLATORS[1](text) if _TRANSLATORS else text


def _translated(template: str, fields: dict[str, object]) -> str:
    if not fields:
        return _finished(_(template))
    shown = {
        name: value.translated() if isinstance(value, Phrase | RoppyakkenError) else value
        for name, value in fields.items()
    }
    return _finished(_(template).format(**shown))


class RoppyakkenError(Exception):
    """A problem with user input (a card, an option, a file, a message), said in one line."""

    def __init__(self, message: object = "", /, **fields: object) -> None:
        self.template = str(message)
        self.fields = fields
        super().__init__(self.template.format(**fields) if fields else self.template)

    def translated(self) -> str:
        """The message in the current language (English where the catalogs have no translation)."""
        return _translated(self.template, self.fields)


class RulesError(RoppyakkenError):
    """An unknown rule option, a bad value or an impossible combination (RULES.md R-10)."""


class IllegalActionError(RoppyakkenError):
    """An action that is not legal now; the game is left unchanged."""


class RecordError(RoppyakkenError):
    """A malformed game record, or one whose replay disagrees with what it states."""
