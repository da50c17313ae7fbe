"""Compile the rules' hot modules (the round's kernel, scoring, yaku...) with mypyc, as an option.

The same source, compiled: each module of ``roppyakken.compiled.GROUP`` is copied, up to
its line ``# --- end of the compiled part``, to ``_<name>_c.py`` beside it with four
changes only -- imports between the modules of the group point at the copies, ``i64``
is mypyc's native int instead of ``int`` (``roppyakken.compiled.i64``), a few classes get
mypyc attributes (:data:`MARKS`), and each copy records the SHA-256 of the
group's sources -- compiled, and the copies removed.  ``mypy_extensions`` is imported
for the type checker only, so the compiled modules need nothing outside the standard
library at run time.  Each module swaps in its compiled version when it is present and
was built from the sources as they are now (``ROPPYAKKEN_PURE=1`` turns it off);
otherwise the pure-Python modules run, which are the reference.

The package's build (``setup.py``) compiles them with :func:`extensions` whenever a wheel
or an editable install is built.  Run by hand, this script rebuilds them in place in
``src/`` (after editing a compiled module in an editable install), removes them
(``--clean``) or lists their sources (``--sources``):

    .venv/bin/python scripts/build_kernel.py [--clean | --sources]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from setuptools import Extension

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "roppyakken"


def _compiled_helpers() -> ModuleType:
    """``roppyakken/compiled.py`` loaded by path (stdlib only; the package need not be installed)."""
    spec = importlib.util.spec_from_file_location("_roppyakken_compiled", PACKAGE / "compiled.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HELPERS = _compiled_helpers()
GROUP: tuple[str, ...] = HELPERS.GROUP
END_OF_COMPILED: str = HELPERS.END_OF_COMPILED
GROUP_LIBRARY = "roppyakken._rules_c"


MARKS: dict[str, list[tuple[str, str]]] = {
    # The kernel's Round is subclassed by the interpreted Game (and by Playout).
    "kernel": [("\nclass Round:\n", "\n@mypyc_attr(allow_interpreted_subclasses=True)\nclass Round:\n")],
    # Game makes copies without __init__ (clone, from_position): the __new__ of a native class
    # calls __init__ unless it allows interpreted subclasses (as Round and Playout do).
    "engine": [
        (
            "\nclass Game(Round):\n",
            "\n@mypyc_attr(allow_interpreted_subclasses=True)\nclass Game(Round):\n",
        )
    ],
    # Playout is a native class; a searcher may still subclass it.
    "ai.playout": [
        (
            "\nclass Playout(Round):\n",
            "\n@mypyc_attr(allow_interpreted_subclasses=True)\nclass Playout(Round):\n",
        )
    ],
}
"""The only changes to a module's source besides the imports: class attributes for mypyc."""


def compiled_source(name: str, text: str, digest: str) -> str:
    """The copy of module ``name`` to compile."""
    if END_OF_COMPILED not in text:
        raise SystemExit(f"build_kernel: {name}.py has no {END_OF_COMPILED!r} line")
    body = text.split(END_OF_COMPILED)[0]
    for other in GROUP:
        body = body.replace(f"from roppyakken.{other} import", f"from {HELPERS.copy_module(other)} import")
    body = native_ints(body)
    marks = MARKS.get(name, [])
    for old, new in marks:
        if old not in body:
            raise SystemExit(f"build_kernel: {old.strip()!r} not found in {name}.py")
        body = body.replace(old, new)
    if marks:
        body = body.replace(
            "from __future__ import annotations\n",
            "from __future__ import annotations\n\n"
            + _for_type_checker("from mypy_extensions import mypyc_attr"),
            1,
        )
    return body + f'\nGROUP_SHA256 = "{digest}"\n'


def _for_type_checker(line: str) -> str:
    """The import ``line`` (from mypy_extensions) for mypyc's type analysis only: mypyc compiles
    the uses of what it imports (a native int, a class attribute) and never imports the
    module at run time."""
    return f"from typing import TYPE_CHECKING\n\nif TYPE_CHECKING:\n    {line}\n"


def native_ints(body: str) -> str:
    """``body`` with ``i64`` imported from mypy_extensions (mypyc's native int) where it imports
    it from ``roppyakken.compiled`` (where it is ``int``)."""
    lines = body.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("from roppyakken.compiled import "):
            names = [name.strip() for name in line.split(" import ", 1)[1].split(",")]
            if "i64" in names:
                rest = [name for name in names if name != "i64"]
                kept = [f"from roppyakken.compiled import {', '.join(rest)}"] if rest else []
                lines[i] = "\n".join([*kept, _for_type_checker(HELPERS.NATIVE_INT_IMPORT)])
    return "\n".join(lines)


def clean() -> None:
    """Remove a compiled build (and copies left by an interrupted build)."""
    for path in [*PACKAGE.glob("_*_c.*"), *PACKAGE.glob("*/_*_c.*")]:
        path.unlink()  # this group's copies, and those of modules no longer in it
    for folder in (PACKAGE, PACKAGE.parent):  # older builds put the shared library in src/
        for path in folder.glob("*__mypyc*"):
            path.unlink()


def extensions(target_dir: Path) -> list[Extension]:
    """The compiled modules as setuptools extensions: the copies translated to C in ``target_dir``
    (the copies are removed again; the C files stay there until the extensions are built)."""
    from mypyc.build import mypycify

    for stale in [*PACKAGE.glob("_*_c.py"), *PACKAGE.glob("*/_*_c.py")]:
        stale.unlink()  # copies left by an interrupted build
    digest = HELPERS.group_digest()
    copies: list[Path] = [HELPERS.copy_path(name) for name in GROUP]
    src = PACKAGE.parent
    cwd = os.getcwd()
    try:
        for name, copy in zip(GROUP, copies, strict=True):
            text = HELPERS.source_path(name).read_text(encoding="utf-8")
            copy.write_text(compiled_source(name, text, digest), encoding="utf-8")
        os.chdir(src)  # module names from paths under src/, and not the project's mypy settings
        return list(
            mypycify(
                # what the copies import is analysed for their types, and not checked: the
                # build may lack an extra that a module outside the group imports (numpy)
                ["--follow-imports=silent", *(str(copy.relative_to(src)) for copy in copies)],
                opt_level="3",
                target_dir=str(target_dir.resolve()),
                group_name=GROUP_LIBRARY,  # the shared library, inside the package
            )
        )
    finally:
        os.chdir(cwd)
        for copy in copies:
            copy.unlink(missing_ok=True)


def build() -> None:
    """Compile the modules in place (``_<name>_c.*.so`` beside each module)."""
    from setuptools import setup

    clean()
    with tempfile.TemporaryDirectory() as tmp:
        modules = extensions(Path(tmp))
        cwd = os.getcwd()
        try:
            os.chdir(PACKAGE.parent)
            setup(
                name="roppyakken-kernel",
                ext_modules=modules,
                script_args=["-q", "build_ext", "--inplace", "--build-temp", tmp],
            )
        finally:
            os.chdir(cwd)
            shutil.rmtree(PACKAGE.parent / "build", ignore_errors=True)
    built = sorted(
        p.name
        for name in GROUP
        for p in HELPERS.copy_path(name).parent.glob(f"{HELPERS.copy_path(name).stem}.*.so")
    )
    if len(built) < len(GROUP):
        raise SystemExit("build_kernel: not every module was built")
    print(f"build_kernel: compiled {', '.join(built)}", file=sys.stderr)


def main() -> None:
    """Build, or with ``--clean`` remove, the compiled modules; ``--sources`` lists their sources."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled modules")
    parser.add_argument("--sources", action="store_true", help="print the compiled modules' sources")
    args = parser.parse_args()
    if args.sources:
        for path in HELPERS.source_paths():
            print(path.relative_to(PACKAGE.parent.parent))
    elif args.clean:
        clean()
    else:
        build()


if __name__ == "__main__":
    main()
