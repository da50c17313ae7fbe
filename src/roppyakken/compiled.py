"""The optional compiled path: the rules' hot modules compiled with mypyc, from their own source.

``scripts/build_kernel.py`` copies each module of :data:`GROUP` (up to its line
``# --- end of the compiled part``) to ``_<name>_c.py`` beside it, with the imports
between them pointing at the copies, compiles the copies together and removes them.
Each copy records in ``GROUP_SHA256`` the digest of the sources it was built from
(:func:`group_digest`).

At the end of each of these modules, :func:`swap_in` replaces the functions and
classes it defines by the compiled ones -- when the compiled module is there, was
built from the sources as they are now, and ``ROPPYAKKEN_PURE`` is not set.  The pure
Python modules stay the reference (one source of the rules); the compiled build must
give identical results (``tests/core/test_compiled_kernel.py``).  Standard library only.
"""

from __future__ import annotations

import hashlib
import importlib
import os
from pathlib import Path
from types import ModuleType
from typing import Any, Final

i64 = int
"""A card set or card the compiled modules keep as a native 64-bit int: ``int`` here (the pure
modules, and the type checker), ``mypy_extensions.i64`` in the copies ``scripts/build_kernel.py``
compiles (:data:`NATIVE_INT_IMPORT`), where mypyc keeps a local, an argument or a result of
this type unboxed, a C ``int64_t``: no Python int object per card set stored.  Use it in
annotations only.  Beware: mypyc compiles a shift of a small constant by an ``i64``
(``1 << card``) as a 32-bit C shift; the group writes ``BIT50 >> (50 - card)`` instead (a
constant above 32 bits is a 64-bit C literal, :data:`roppyakken.cards.BIT50`), and
``tests/core/test_compiled_shifts.py`` refuses any constant shifted left by a variable in it."""

NATIVE_INT_IMPORT: Final = "from mypy_extensions import i64"
"""What the compiled copy of a module imports ``i64`` from instead of this module."""

GROUP: Final = (
    "cards",
    "decknet",
    "yaku",
    "scoring",
    "game_end",
    "kernel",
    "indexed",
    "engine",
    "ai.playout",
    "ai.position",
    "ai.expert",
    "env.kernel",
)
"""The modules compiled together (names under ``roppyakken``), each after those it imports:
the rules' hot path, the loop that plays the random bot's cards (``simulate``), the game
around the kernel (:class:`roppyakken.engine.Game`), the searchers' playout policy, the
``expert``'s appraisal that the ``master``'s rollouts play by (:mod:`roppyakken.ai.position`,
:mod:`roppyakken.ai.expert`), and the research environments' observations, action ids and
random opponents (:mod:`roppyakken.env.kernel`)."""

END_OF_COMPILED: Final = "# --- end of the compiled part"
"""The line after which a module's source is not compiled (the code that swaps it in)."""

_PACKAGE: Final = Path(__file__).resolve().parent
_digest: str | None = None


def source_paths() -> list[Path]:
    """The source files of :data:`GROUP`, in order."""
    return [source_path(name) for name in GROUP]


def source_path(name: str) -> Path:
    """The source file of module ``roppyakken.<name>``."""
    return _PACKAGE.joinpath(*name.split(".")).with_suffix(".py")


def copy_path(name: str) -> Path:
    """The compiled copy's source file of ``roppyakken.<name>``: ``_<last part>_c.py`` beside it."""
    source = source_path(name)
    return source.with_name(f"_{source.stem}_c.py")


def copy_module(name: str) -> str:
    """The compiled copy's module name of ``roppyakken.<name>``."""
    *parents, last = name.split(".")
    return ".".join(["roppyakken", *parents, f"_{last}_c"])


def group_digest() -> str:
    """SHA-256 over the sources of :data:`GROUP` as they are now (what a build must match)."""
    global _digest
    if _digest is None:
        h = hashlib.sha256()
        for path in source_paths():
            data = path.read_bytes()
            h.update(len(data).to_bytes(8, "big"))
            h.update(data)
        _digest = h.hexdigest()
    return _digest


def compiled_module(name: str) -> ModuleType | None:
    """The compiled copy of ``roppyakken.<name>`` if it is built from the current sources and
    ``ROPPYAKKEN_PURE`` is not set; else None (the pure module runs)."""
    if os.environ.get("ROPPYAKKEN_PURE"):
        return None
    try:
        module = importlib.import_module(copy_module(name))
    except ImportError:
        return None
    try:
        current = group_digest()
    except OSError:
        return None
    if getattr(module, "GROUP_SHA256", None) != current:
        return None  # built from other sources: the pure modules are the reference
    return module


def swap_in(namespace: dict[str, Any]) -> bool:
    """Replace the functions and classes a module of :data:`GROUP` defines (``namespace``: its
    ``globals()``) by their compiled versions; return whether it did."""
    module_name: str = namespace["__name__"]
    compiled = compiled_module(module_name.removeprefix("roppyakken."))
    if compiled is None:
        return False
    for key, value in list(namespace.items()):
        mine = getattr(value, "__module__", None) == module_name
        if mine and callable(value) and hasattr(compiled, key):  # a function or a class
            namespace[key] = getattr(compiled, key)
    return True


def status() -> str:
    """Whether the compiled modules are in use, in a few words (for ``roppyakken --version``)."""
    if os.environ.get("ROPPYAKKEN_PURE"):
        return "pure Python: ROPPYAKKEN_PURE is set"
    active = sum(compiled_module(name) is not None for name in GROUP)
    if active == len(GROUP):
        return "compiled modules in use"
    if active == 0:
        return "pure Python: no compiled modules built from these sources"
    return f"compiled modules partly in use: {active} of {len(GROUP)}"


__all__ = [
    "END_OF_COMPILED",
    "GROUP",
    "NATIVE_INT_IMPORT",
    "compiled_module",
    "copy_module",
    "copy_path",
    "group_digest",
    "i64",
    "source_path",
    "source_paths",
    "status",
    "swap_in",
]
