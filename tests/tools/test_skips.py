"""What a test needs of its environment is decided in one place (tests/harness/support.py), and under
CI (``CI=true``) nothing skips: a missing browser, service or package fails the test."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.harness.support import ROOT, require

TESTS = ROOT / "tests"

DECIDERS = {"harness/support.py", "conftest.py"}
"""The files that decide a skip (their paths under tests/): :func:`tests.harness.support.require`
and the net under CI."""

NOT_YET: set[str] = set()
"""A file whose own ``need()`` still reads ``CI`` itself (the same reading, ``CI == "true"``)."""

SKIPPING = re.compile(r"pytest\.skip\(|mark\.skip|skipif|environ(\.get)?\(?\[?\s*[\"']CI[\"']")
"""A skip, or a reading of ``CI``, written outside the deciders."""


def test_require_skips_on_a_developer_machine(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    require(True, "nothing")  # found: goes on
    with pytest.raises(pytest.skip.Exception, match="the widget is not installed"):
        require(None, "the widget is not installed")


def test_require_fails_under_ci_naming_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="the widget is not installed; CI=true runs every test"):
        require("", "the widget is not installed")


def test_no_test_decides_a_skip_by_itself() -> None:
    wrong = [
        f"{path.relative_to(TESTS)}:{number}: {line.strip()}"
        for path in sorted(TESTS.rglob("*.py"))
        if path.relative_to(TESTS).as_posix() not in DECIDERS | NOT_YET | {"tools/test_skips.py"}
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if SKIPPING.search(line)
    ]
    assert wrong == []


def test_the_pattern_finds_each_way_of_skipping() -> None:
    """(So that the test above can fail.)"""
    for line in (
        'pytest.skip("no node")',
        '@pytest.mark.skipif(not X, reason="x")',
        "@pytest.mark.skip",
        'if os.environ.get("CI"):',
        "CI = os.environ['CI']",
    ):
        assert SKIPPING.search(line), line


def test_any_skip_fails_under_ci(tmp_path: Path) -> None:
    """The net (tests/conftest.py): a skip written any other way fails too under CI, at
    collection (a module that cannot import what it needs) or in a test."""
    (tmp_path / "test_needs.py").write_text(
        "import pytest\n\n\ndef test_one() -> None:\n    pytest.skip('the gadget is missing')\n",
        encoding="utf-8",
    )
    (tmp_path / "test_module.py").write_text(
        "import pytest\n\npytest.importorskip('no_such_package_here')\n\n\ndef test_two() -> None:\n"
        "    pass\n",
        encoding="utf-8",
    )
    conftest = (TESTS / "conftest.py").read_text(encoding="utf-8")
    (tmp_path / "conftest.py").write_text(conftest, encoding="utf-8")
    root = ROOT

    def run(ci: str, name: str) -> subprocess.CompletedProcess[str]:
        env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{root}:{root / 'src'}", "CI": ci}
        return subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rfEs", str(tmp_path / name)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )

    for name in ("test_needs.py", "test_module.py"):
        relaxed = run("", name)
        assert relaxed.returncode in (0, 5) and "1 skipped" in relaxed.stdout, relaxed.stdout  # 5: none ran
    strict = run("true", "test_needs.py")
    assert strict.returncode == 1 and "1 failed" in strict.stdout, strict.stdout
    assert "skipped under CI=true, where every test must run: Skipped: the gadget is missing" in strict.stdout
    strict = run("true", "test_module.py")
    assert strict.returncode != 0 and "1 error" in strict.stdout, strict.stdout
    assert "skipped under CI=true" in strict.stdout and "no_such_package_here" in strict.stdout
