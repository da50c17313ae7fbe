"""Compile the kernel of the round (src/roppyakken/kernel.py) with mypyc, as an option.

The same source, compiled: the module is copied to ``roppyakken/_kernel_c.py`` with
two changes only -- its class :class:`Round` is marked as subclassable by the
interpreted :class:`Game` and :class:`Playout`, and the copy records the SHA-256 of
the source it was made from -- compiled in place next to ``kernel.py``, and the copy
removed.  ``roppyakken.kernel`` uses the compiled module when it is present and was
built from the kernel as it is now (``ROPPYAKKEN_PURE=1`` turns it off); otherwise the
pure-Python kernel runs, which is the reference.  ``scripts/setup`` runs this and
goes on without it if there is no C compiler.

    .venv/bin/python scripts/build_kernel.py [--clean]
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "src" / "roppyakken"
SOURCE = PACKAGE / "kernel.py"
COPY = PACKAGE / "_kernel_c.py"
END_OF_COMPILED = "# --- end of the compiled part"


def compiled_source(text: str) -> str:
    """The copy to compile: the kernel up to the marker, Round subclassable, the source hash."""
    if END_OF_COMPILED not in text:
        raise SystemExit(f"build_kernel: {SOURCE} has no {END_OF_COMPILED!r} line")
    body = text.split(END_OF_COMPILED)[0]
    if "\nclass Round:\n" not in body:
        raise SystemExit("build_kernel: class Round not found in the kernel")
    body = body.replace(
        "\nclass Round:\n", "\n@mypyc_attr(allow_interpreted_subclasses=True)\nclass Round:\n", 1
    )
    body = body.replace(
        "from __future__ import annotations\n",
        "from __future__ import annotations\n\nfrom mypy_extensions import mypyc_attr\n",
        1,
    )
    digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
    return body + f'\nSOURCE_SHA256 = "{digest}"\n'


def clean() -> None:
    """Remove a compiled kernel (and a copy left by an interrupted build)."""
    for path in PACKAGE.glob("_kernel_c*"):
        path.unlink()
    for path in PACKAGE.glob("*__mypyc*"):
        path.unlink()


def build() -> None:
    """Compile the copy in place (``roppyakken/_kernel_c.*.so``) and remove the copy."""
    from mypyc.build import mypycify
    from setuptools import setup

    clean()
    COPY.write_text(compiled_source(SOURCE.read_text(encoding="utf-8")), encoding="utf-8")
    src = PACKAGE.parent
    cwd = os.getcwd()
    with tempfile.TemporaryDirectory() as tmp:
        try:
            os.chdir(src)
            modules = mypycify(["roppyakken/_kernel_c.py"], opt_level="3", target_dir=tmp)
            setup(
                name="roppyakken-kernel",
                ext_modules=modules,
                script_args=["-q", "build_ext", "--inplace", "--build-temp", tmp],
            )
        finally:
            os.chdir(cwd)
            COPY.unlink(missing_ok=True)
            shutil.rmtree(src / "build", ignore_errors=True)
    built = sorted(p.name for p in PACKAGE.glob("_kernel_c*"))
    if not built:
        raise SystemExit("build_kernel: nothing was built")
    print(f"build_kernel: compiled {', '.join(built)}", file=sys.stderr)


def main() -> None:
    """Build, or with ``--clean`` remove, the compiled kernel."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clean", action="store_true", help="remove the compiled kernel")
    args = parser.parse_args()
    if args.clean:
        clean()
    else:
        build()


if __name__ == "__main__":
    main()
