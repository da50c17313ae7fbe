"""The repository's copies of the specification stay equal to the shared originals."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.mark.parametrize("name", ["RULES.md", "FORMATS.md"])
def test_docs_copy_matches_shared_spec(name: str) -> None:
    original = SHARED / name
    if not original.exists():
        pytest.skip("no shared/ folder beside this checkout")
    assert (ROOT / "docs" / name).read_text(encoding="utf-8") == original.read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```sh") + 1 : lines.index("```sh") + 3]
    assert block[0].startswith("./scripts/serve") and block[1].startswith("./scripts/test")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "./scripts/test" in ci
