"""The package's build hook: the rules' hot modules compiled with mypyc, when they can be.

Building a wheel or an editable install compiles the modules of
``roppyakken.compiled.GROUP`` with mypyc (``scripts/build_kernel.py`` makes the copies it
compiles).  Without a C compiler or Python's headers, or if mypyc or the compiler fails,
the build warns and goes on with the pure-Python modules, which are the reference and
give the same results: an install never fails for want of the compiled ones.
``ROPPYAKKEN_COMPILE=0`` skips compiling (a quick pure build, e.g. CI's check of a bare
install).  ``roppyakken --version`` tells which modules are in use.

Everything else about the package is in ``pyproject.toml``.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import sysconfig
from pathlib import Path
from types import ModuleType
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
BUILDS = {"bdist_wheel", "build", "build_ext", "editable_wheel", "develop", "install"}
"""The commands that build the modules (not ``sdist`` or the metadata steps)."""


def warn(message: str) -> None:
    """A line on standard error (pip shows a build's output with ``-v``)."""
    print(f"roppyakken build: warning: {message}; the pure-Python modules will be used", file=sys.stderr)


def _kernel_builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "_roppyakken_build_kernel", ROOT / "scripts" / "build_kernel.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def c_compiler_missing() -> str | None:
    """Why the modules cannot be compiled here (no C compiler, no Python headers), or None."""
    compiler = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()[0]
    if shutil.which(compiler) is None:
        return f"no C compiler ({compiler})"
    if not (Path(sysconfig.get_path("include")) / "Python.h").exists():
        return "Python's headers are not installed (Python.h; e.g. apt-get install python3-dev)"
    return None


def compiled_extensions() -> list[Any]:
    """The compiled modules as extensions, or none (with a warning) when they cannot be built."""
    if not BUILDS & set(sys.argv[1:]):
        return []
    if os.environ.get("ROPPYAKKEN_COMPILE", "1") == "0":
        print("roppyakken build: ROPPYAKKEN_COMPILE=0: pure-Python modules only", file=sys.stderr)
        return []
    missing = c_compiler_missing()
    if missing is not None:
        warn(missing)
        return []
    try:
        return list(_kernel_builder().extensions(ROOT / "build" / "mypyc"))
    except SystemExit as exc:  # mypyc refused the copies (its errors are printed above)
        warn(f"mypyc stopped with status {exc.code}")
    except Exception as exc:  # mypyc missing or broken: never a failed install
        warn(f"mypyc did not translate the modules ({type(exc).__name__}: {exc})")
    return []


class OptionalBuildExt(build_ext):
    """``build_ext`` that falls back to the pure-Python modules when compiling fails."""

    def run(self) -> None:
        """Build the extensions; on a compiler's failure, warn and build none."""
        try:
            super().run()
        except Exception as exc:  # CompileError, LinkError, a missing compiler: never a failed install
            warn(f"the C compiler failed ({exc})")
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            self.extensions = []
            self.distribution.ext_modules = []


setup(ext_modules=compiled_extensions(), cmdclass={"build_ext": OptionalBuildExt})
