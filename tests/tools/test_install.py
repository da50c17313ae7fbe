"""The package as a user installs it: the core commands on the standard library alone, and a
wheel that carries the compiled modules.

``tests/harness/core_commands.py`` runs each core command in a new interpreter and lists the
modules it loaded from outside the standard library and the package; ``.ci/run`` runs it
with a bare install too (``pip install .``, no extra).  The wheel test builds the sdist
and the wheel with ``python -m build``, installs the wheel into a new virtual environment
and plays seeded games there on the compiled and on the pure modules.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys
import zipfile
from pathlib import Path

import pytest

from roppyakken import __version__, kernel
from roppyakken.cli import COMMANDS, command_argument
from roppyakken.compiled import GROUP, copy_module
from tests.harness import core_commands, installs, services
from tests.harness.kernel_program import PROGRAM
from tests.harness.support import run_cli, run_python

GAMES_PER_CONFIG = 8
"""Seeded games per preset and player count in the installed wheel (each mode)."""

BUILD_TIMEOUT = 2400
"""Seconds a test that builds the package may take: mypyc and the C compiler take minutes on a
loaded machine (the first test of the wheel builds it)."""


def test_the_core_commands_load_only_the_standard_library_and_the_package() -> None:
    assert core_commands.check(sys.executable, bare=False) == []


def test_the_check_sees_a_module_from_outside(tmp_path: Path) -> None:
    """The check itself: a command that loads a third-party module is reported."""
    runner = core_commands.RUNNER.replace(
        "from roppyakken.cli import main", "import pytest\nfrom roppyakken.cli import main"
    )
    assert runner != core_commands.RUNNER
    code, outside, _ = core_commands.run(sys.executable, ["cards"], "", tmp_path, runner)
    assert code == 0 and "pytest" in outside


def test_version_says_whether_the_compiled_modules_are_in_use(monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run_cli(["--version"])
    assert code == 0 and err == ""
    if kernel.COMPILED:
        assert out == f"roppyakken {__version__} (compiled modules in use)\n"
    else:  # none built, or built from other sources: either way the pure modules run, and it says why
        assert out.startswith(f"roppyakken {__version__} (pure Python: ") and out.endswith(")\n")
    monkeypatch.setenv("ROPPYAKKEN_PURE", "1")
    code, out, _ = run_cli(["--version"])
    assert out == f"roppyakken {__version__} (pure Python: ROPPYAKKEN_PURE is set)\n"


@pytest.mark.parametrize(
    ("argv", "command"),
    [
        (["score", "--rules", "classic"], "score"),
        (["--lang", "ja", "cards", "--json"], "cards"),
        (["--lang=ko", "rules"], "rules"),
        (["--help"], None),
        (["--version"], None),
        (["bogus"], "bogus"),
    ],
)
def test_the_command_is_found_before_the_parser_is_built(argv: list[str], command: str | None) -> None:
    assert command_argument(argv) == command


def test_help_loads_no_command_module_and_not_the_engine() -> None:
    """``roppyakken --help`` lists every command from :data:`COMMANDS` without importing one."""
    program = (
        "import contextlib, io, json, sys\n"
        "from roppyakken.cli import main\n"
        "with contextlib.redirect_stdout(io.StringIO()) as out, contextlib.suppress(SystemExit):\n"
        "    main(['--help'])\n"
        "print(json.dumps({'help': out.getvalue(), 'modules': sorted(sys.modules)}))\n"
    )
    done = json.loads(run_python(program, pure=False, timeout=120))
    loaded = [m for m in done["modules"] if m.startswith("roppyakken.")]
    assert not [m for m in loaded if m.endswith("_cmd")]
    assert "roppyakken.engine" not in loaded and "roppyakken.kernel" not in loaded
    for name in COMMANDS:
        assert f"\n    {name} " in done["help"]


@pytest.fixture(scope="module")
def wheel_venv(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    """The wheel built from a copy of the project, installed in a new venv: its python, and the
    files ``python -m build`` made."""
    services.need("the build package", importlib.util.find_spec("build"), "pip install build")
    services.need("a C compiler", shutil.which("cc"), "apt-get install gcc python3-dev")
    tmp = tmp_path_factory.mktemp("wheel")
    project = installs.project_copy(tmp / "project")
    dist = tmp / "dist"
    build = [sys.executable, "-m", "build", "--outdir", str(dist), str(project)]
    installs.run(build, cwd=tmp, timeout=BUILD_TIMEOUT, inherit=True)  # the build frontend of these tests
    made = sorted(dist.iterdir())
    python = installs.new_venv(tmp / "venv")
    wheels = [p for p in made if p.suffix == ".whl"]
    assert len(wheels) == 1, made
    installs.pip_install(python, "--no-index", str(wheels[0]))
    return python, made


@pytest.mark.slow
@pytest.mark.timeout(BUILD_TIMEOUT)
def test_python_m_build_makes_an_sdist_and_a_wheel_with_the_compiled_modules(
    wheel_venv: tuple[Path, list[Path]],
) -> None:
    _, made = wheel_venv
    assert sorted(p.suffix for p in made) == [".gz", ".whl"]
    wheel = next(p for p in made if p.suffix == ".whl")
    assert not wheel.name.endswith("-none-any.whl")  # a platform wheel: it holds extensions
    names = zipfile.ZipFile(wheel).namelist()
    for module in GROUP:
        path = copy_module(module).replace(".", "/")
        assert any(n.startswith(path + ".") and n.endswith(".so") for n in names), path
        assert path + ".py" not in names  # the copies are not shipped, only their compiled form
    assert any(n.startswith("roppyakken/_rules_c__mypyc.") for n in names)


@pytest.mark.slow
@pytest.mark.timeout(BUILD_TIMEOUT)
def test_the_installed_wheel_uses_the_compiled_modules_and_plays_as_the_pure_ones(
    wheel_venv: tuple[Path, list[Path]], tmp_path: Path
) -> None:
    python, _ = wheel_venv
    roppyakken = str(python.parent / "roppyakken")
    version = installs.run([roppyakken, "--version"], cwd=tmp_path, timeout=120).stdout
    assert version.strip() == "roppyakken 0.1.0 (compiled modules in use)"
    pure = {"ROPPYAKKEN_PURE": "1"}
    pure_version = installs.run([roppyakken, "--version"], cwd=tmp_path, timeout=120, extra=pure)
    assert "pure Python" in pure_version.stdout
    located = "import roppyakken; print(roppyakken.__file__)"
    where = installs.run([str(python), "-c", located], cwd=tmp_path, timeout=120).stdout
    assert Path(where.strip()).is_relative_to(python.parent.parent)  # the wheel's, not the checkout's
    games = [str(python), "-c", PROGRAM, str(GAMES_PER_CONFIG)]
    compiled = json.loads(installs.run(games, cwd=tmp_path, timeout=1200).stdout)
    pure_games = json.loads(installs.run(games, cwd=tmp_path, timeout=1200, extra=pure).stdout)
    assert compiled["compiled"] is True and pure_games["compiled"] is False
    assert compiled["games"] == pure_games["games"] > 100
    assert compiled["digests"] == pure_games["digests"]


@pytest.mark.slow
@pytest.mark.timeout(BUILD_TIMEOUT)
def test_the_installed_wheel_runs_the_core_commands_and_names_the_missing_extras(
    wheel_venv: tuple[Path, list[Path]],
) -> None:
    python, _ = wheel_venv
    assert core_commands.check(str(python), bare=True) == []


@pytest.mark.slow
@pytest.mark.timeout(BUILD_TIMEOUT)
def test_without_a_c_compiler_the_build_warns_and_installs_the_pure_modules(tmp_path: Path) -> None:
    project = installs.project_copy(tmp_path / "project")
    python = installs.new_venv(tmp_path / "venv")
    pip = [str(python), "-m", "pip", "install", "-v", str(project)]
    built = installs.run(pip, cwd=tmp_path, timeout=1200, extra={"CC": "/no/such/cc"})
    assert "roppyakken build: warning: no C compiler (/no/such/cc)" in built.stdout + built.stderr
    version = installs.run([str(python.parent / "roppyakken"), "--version"], cwd=tmp_path, timeout=120)
    assert "pure Python" in version.stdout
