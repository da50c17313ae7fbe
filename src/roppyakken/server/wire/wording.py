"""A server message as data: its English template and fields, so that each client says it in its language.

Every error the server sends (the websocket ``error`` message, an HTTP ``{"error"}``
answer) carries, beside its English line, ``"text": {"template": ..., "fields": {...}}``
(docs/PROTOCOL.md, "Errors").  The template is a message id of the catalogs (server/wire/text.py,
the engine's reasons); a field that is itself a template (a :class:`Phrase`, a nested
:class:`RoppyakkenError`) is nested the same way, any other field is a JSON string, number,
boolean or null.  A client looks the template up in its catalog and fills it; a template it
does not know, it shows the English line instead.
"""

from __future__ import annotations

from typing import Any, Final

from roppyakken.errors import Phrase, RoppyakkenError

Said = RoppyakkenError | Phrase | str
"""What the server may say: an error, words with fields, or a line with no fields."""

MAX_DEPTH: Final = 8
"""The deepest nesting of templates read back from another cluster member."""


def as_json(message: Said) -> dict[str, Any]:
    """``message`` as ``{"template", "fields"}``, fields that are templates nested the same way."""
    if isinstance(message, RoppyakkenError | Phrase):
        template, fields = message.template, message.fields
    else:
        template, fields = str(message), {}
    return {"template": template, "fields": {name: _field(value) for name, value in fields.items()}}


def _field(value: object) -> object:
    if isinstance(value, RoppyakkenError | Phrase):
        return as_json(value)
    if value is None or isinstance(value, bool | int | float | str):
        return value
    return str(value)


def answer(message: Said) -> dict[str, Any]:
    """An HTTP error body: ``{"error": the English line, "text": its template and fields}``."""
    return {"error": str(message), "text": as_json(message)}


def from_json(data: object, english: str) -> Said:
    """The words a ``text`` object (from another cluster member) says; ``english`` if it is not one."""
    found = _phrase(data, 0)
    if found is None:
        return english
    try:
        str(found)  # its fields fill its template
    except (KeyError, IndexError, ValueError):
        return english
    return found


def _phrase(data: object, depth: int) -> Phrase | None:
    if depth > MAX_DEPTH or not isinstance(data, dict) or not isinstance(data.get("template"), str):
        return None
    raw = data.get("fields", {})
    if not isinstance(raw, dict):
        return None
    fields: dict[str, object] = {}
    for name, value in raw.items():
        if isinstance(value, dict):
            nested = _phrase(value, depth + 1)
            if nested is None:
                return None
            fields[str(name)] = nested
        else:
            fields[str(name)] = value
    return Phrase(data["template"], **fields)
