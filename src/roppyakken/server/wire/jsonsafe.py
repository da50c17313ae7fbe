"""JSON from clients, parsed with a bound on nesting that does not depend on the stack.

The standard library's decoder recurses once a level and fails with ``RecursionError``
past the interpreter's recursion limit, which is not a fixed number (a library may raise
it): a deeply nested document would be refused by one process and parsed by another.
Nothing the protocol declares nests more than a few levels, so deeper documents are
refused before parsing, always the same way.
"""

from __future__ import annotations

import json
from typing import Any, Final

from roppyakken.nesting import nesting_depth

MAX_NESTING: Final = 32
"""The deepest nesting of arrays and objects accepted from a client."""


def loads(raw: str | bytes) -> Any:
    """``json.loads(raw)``, refusing (``ValueError``) documents nested deeper than :data:`MAX_NESTING`.

    Counting brackets costs nothing for ordinary messages: the scan runs only when the
    text holds more brackets than the bound allows.
    """
    text = raw.decode("utf-8") if isinstance(raw, bytes) else raw
    if text.count("[") + text.count("{") > MAX_NESTING and nesting_depth(text) > MAX_NESTING:
        raise ValueError(f"JSON nested deeper than {MAX_NESTING} levels")
    return json.loads(text)
