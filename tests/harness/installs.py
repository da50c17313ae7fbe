"""Install the package the Python way into a new virtual environment, for the tests that check an
install as a user gets it (tests/tools/test_install.py, tests/server/web/test_deploy.py).

The project's files are copied first, so that a build in one test does not write into the
checkout (``build/``, ``*.egg-info``) while another test builds from it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Mapping
from pathlib import Path

from tests.harness.support import ROOT

PROJECT_FILES = ("pyproject.toml", "setup.py", "MANIFEST.in", "README.md", "scripts/build_kernel.py", "src")
"""What a build of the package reads: the rest of the checkout (tests, docs, bench) is not shipped."""
LEFT_OUT = shutil.ignore_patterns("__pycache__", "*.py[cod]", "*.so", "*.egg-info", "build")


def project_copy(into: Path) -> Path:
    """A copy of the project's buildable files (no compiled modules, caches or builds) in ``into``."""
    for name in PROJECT_FILES:
        source, target = ROOT / name, into / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if source.is_dir():
            shutil.copytree(source, target, ignore=LEFT_OUT)
        else:
            shutil.copy2(source, target)
    return into


def locked_constraints() -> Path:
    """The exact versions of requirements/dev.lock as a pip constraints file (no hashes), so that a
    build's isolated environment and every install of these tests take the locked versions of
    setuptools, mypy and the extras, not whatever is newest that day."""
    target = Path(tempfile.gettempdir()) / f"roppyakken-constraints-{os.getuid()}.txt"
    lock = (ROOT / "requirements" / "dev.lock").read_text(encoding="utf-8")
    pins = [line.split()[0] for line in lock.splitlines() if re.match(r"[A-Za-z0-9._-]+==", line)]
    text = "\n".join(pins) + "\n"
    if not target.exists() or target.read_text(encoding="utf-8") != text:
        partial = target.with_suffix(f".{os.getpid()}")
        partial.write_text(text, encoding="utf-8")
        partial.replace(target)
    return target


def clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment without what points Python at the checkout or the current venv, plus the
    locked constraints and ``extra``."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "ROPPYAKKEN_PURE")}
    env["PIP_CONSTRAINT"] = str(locked_constraints())
    env.update(extra or {})
    return env


def run(
    argv: list[str],
    *,
    cwd: Path,
    timeout: float,
    extra: Mapping[str, str] | None = None,
    inherit: bool = False,
) -> subprocess.CompletedProcess[str]:
    """Run ``argv`` in the clean environment plus ``extra`` (or, ``inherit``, in this one); fail the
    test with its output if it fails."""
    pins = {"PIP_CONSTRAINT": str(locked_constraints())}
    env = {**os.environ, **pins, **(extra or {})} if inherit else clean_env(extra)
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    assert done.returncode == 0, f"{' '.join(argv)}: exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def new_venv(path: Path) -> Path:
    """A new virtual environment at ``path`` (from the interpreter running the tests); its python."""
    base = getattr(sys, "_base_executable", sys.executable)
    run([base, "-m", "venv", str(path)], cwd=path.parent, timeout=300)
    return path / "bin" / "python"


def pip_install(
    python: Path, *requirements: str, timeout: float = 1200, extra: Mapping[str, str] | None = None
) -> None:
    """``pip install`` into the environment of ``python``."""
    run(
        [str(python), "-m", "pip", "install", "--quiet", *requirements],
        cwd=python.parent,
        timeout=timeout,
        extra=extra,
    )
