"""How deeply a document nests brackets, counted without parsing it.

The standard library's TOML and JSON parsers recurse once a level of ``[`` or ``{``:
past the interpreter's recursion limit they fail, and that limit is not a fixed number
(a library may raise it).  Counting first lets a caller refuse a deep document the same
way every time.
"""

from __future__ import annotations


def nesting_depth(text: str) -> int:
    """How deeply ``text`` nests ``[`` and ``{`` outside strings and ``#`` comments, in one pass.

    Strings are TOML's (``"…"`` with backslash escapes, ``'…'`` literal), which covers JSON's
    too: a valid JSON document has no ``'`` or ``#`` outside its strings, and a parser stops at
    the first such character of an invalid one, before any level the count skips.
    """
    depth = deepest = 0
    quote = ""
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if quote:
            if ch == "\\" and quote == '"':
                i += 1
            elif ch == quote:
                quote = ""
        elif ch in "\"'":
            quote = ch
        elif ch == "#":
            while i < n and text[i] != "\n":
                i += 1
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth = max(0, depth - 1)
        i += 1
    return deepest
