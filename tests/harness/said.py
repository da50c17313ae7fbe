"""Helpers for the tests of what the server says: an error's ``text`` (template and fields) read
back and said in English or in a language, as a client would (server/wire/wording.py)."""

from __future__ import annotations

from roppyakken import i18n
from roppyakken.errors import Phrase
from roppyakken.server.wire import wording


def phrase(data: object) -> Phrase:
    """The words of an error's ``text`` object (the test fails if it is not one)."""
    said = wording.from_json(data, "")
    assert isinstance(said, Phrase), f"not a template with fields: {data!r}"
    return said


def said_in_english(data: object) -> str:
    """An error's ``text`` filled in English: it must be the error's English line."""
    return str(phrase(data))


def said_in(lang: str, data: object) -> str:
    """An error's ``text`` translated into ``lang`` and filled (the process is left in English)."""
    i18n.set_language(lang)
    try:
        return phrase(data).translated()
    finally:
        i18n.set_language("en")
