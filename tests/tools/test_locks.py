"""The locks of exact versions (requirements/*.lock) that every install takes: each package pinned
with its hashes, every range of pyproject.toml (and requirements/*.in) met by the pinned version, and
the app lock at the dev lock's versions.  A range changed without ``./scripts/lock`` fails here, not
on a fresh clone next month."""

from __future__ import annotations

import re
import tomllib

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tests.harness.support import ROOT

LOCKS = ROOT / "requirements"
_PIN = re.compile(r"^([A-Za-z0-9._-]+)==(\S+)((?:\s*\\\n\s+--hash=sha256:[0-9a-f]{64})*)", re.MULTILINE)


def _pins(name: str) -> dict[str, str]:
    """A lock's pinned versions by canonical name; every requirement line must be a hashed pin."""
    text = (LOCKS / name).read_text(encoding="utf-8")
    lines = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith(("#", "--"))]
    pinned = list(_PIN.finditer(text))
    assert len(pinned) == len(lines), f"{name}: a requirement line that is not name==version"
    for found in pinned:
        assert found.group(3), f"{name}: {found.group(1)}=={found.group(2)} has no hash"
    return {canonicalize_name(found.group(1)): found.group(2) for found in pinned}


def _wanted(extras: list[str], inputs: list[str]) -> list[Requirement]:
    """The requirements of ``extras`` of pyproject.toml (following roppyakken[...]) and of ``inputs``."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    optional: dict[str, list[str]] = project["optional-dependencies"]
    found: list[Requirement] = [Requirement(r) for r in project["dependencies"]]
    todo, seen = list(extras), set()
    while todo:
        extra = todo.pop()
        if extra in seen:
            continue
        seen.add(extra)
        for line in optional[extra]:
            requirement = Requirement(line)
            if canonicalize_name(requirement.name) == "roppyakken":
                todo.extend(requirement.extras)
            else:
                found.append(requirement)
    for name in inputs:
        for line in (LOCKS / name).read_text(encoding="utf-8").splitlines():
            if line.strip() and not line.startswith("#"):
                found.append(Requirement(line))
    return found


@pytest.mark.parametrize(
    ("lock", "extras", "inputs"),
    [
        (
            "dev.lock",
            list(
                tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"][
                    "optional-dependencies"
                ]
            ),
            ["tools.in"],
        ),
        ("app.lock", ["web", "tui"], ["app.in"]),
    ],
)
def test_every_range_is_met_by_its_locked_version(lock: str, extras: list[str], inputs: list[str]) -> None:
    pins = _pins(lock)
    for requirement in _wanted(extras, inputs):
        if requirement.marker is not None and not requirement.marker.evaluate({"python_version": "3.11"}):
            continue
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{lock} does not pin {requirement.name} ({requirement}): run ./scripts/lock"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"{lock} pins {requirement.name}=={pins[name]}, outside {requirement}: run ./scripts/lock"
        )


def test_the_app_lock_takes_the_dev_locks_versions() -> None:
    dev, app = _pins("dev.lock"), _pins("app.lock")
    differ = {name: (version, dev.get(name)) for name, version in app.items() if dev.get(name) != version}
    assert differ == {}, f"app.lock differs from dev.lock (app, dev): {differ}"


def test_every_install_takes_a_lock_with_its_hashes() -> None:
    setup = (ROOT / "scripts" / "setup").read_text(encoding="utf-8")
    assert re.search(r"pip install [^\n]*--require-hashes[^\n]*-r \"\$LOCK\"", setup)
    assert "LOCK=requirements/$MODE.lock" in setup
    for script in ("serve", "play"):
        assert "./scripts/setup --app" in (ROOT / "scripts" / script).read_text(encoding="utf-8"), script
    assert "./scripts/setup --fresh" in (ROOT / "scripts" / "test").read_text(encoding="utf-8")
