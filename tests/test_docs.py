"""The repository's copies of the specification stay equal to the shared originals."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support import require

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"


@pytest.mark.parametrize("name", ["RULES.md", "FORMATS.md"])
def test_docs_copy_matches_shared_spec(name: str) -> None:
    original = SHARED / name
    require(
        original.exists(), f"the shared specification {original} is not there (a folder beside the checkout)"
    )
    assert (ROOT / "docs" / name).read_text(encoding="utf-8") == original.read_text(encoding="utf-8")


def test_readme_opens_with_the_two_commands() -> None:
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    block = lines[lines.index("```sh") + 1 : lines.index("```sh") + 3]
    assert block[0].startswith("./scripts/serve") and block[1].startswith("./scripts/test")
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "./scripts/test" in ci


def test_the_readme_error_example_is_the_real_message() -> None:
    """The README's example of a bad-input error is what ``roppyakken score`` really prints for
    that input (it had drifted from the real message once)."""
    import re

    from tests.support import run_cli

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    found = re.search(r"`(roppyakken: error: player (\d) captures: unknown card '([a-z-]+)'[^`]*)`", readme)
    assert found, "the README's error example is gone (or no longer about an unknown card)"
    message, player, card = found.group(1), int(found.group(2)), found.group(3)
    players: list[dict[str, list[str]]] = [{"captures": []}, {"captures": []}]
    players[player - 1]["captures"] = [card]
    code, out, err = run_cli(["score"], json.dumps({"players": players}))
    assert code == 2 and out == "" and err == message + "\n"
