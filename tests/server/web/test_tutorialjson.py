"""The browser's tutorial script (static/tutorial.json): current, complete, one seat's view."""

from __future__ import annotations

from pathlib import Path

import pytest

from roppyakken import tutorial
from roppyakken.devtools import tutorialjson


def test_the_committed_script_is_current() -> None:
    """static/tutorial.json is what roppyakken.devtools.tutorialjson builds from the tutorial."""
    assert tutorialjson.OUTPUT.read_text(encoding="utf-8") == tutorialjson.text(), (
        "stale: run python -m roppyakken.devtools.tutorialjson"
    )


def test_the_script_holds_both_answers_to_the_end() -> None:
    data = tutorialjson.build()
    assert [s["id"] for s in data["steps"]] == [s.id for s in tutorial.STEPS]
    moves = sum(1 for s in tutorial.STEPS if s.accepts)
    for name, path in data["paths"].items():
        assert len(path) == moves + 1, name
        last = [m["type"] for batch in path[-1] for m in batch]
        assert "round_end" in last and "game_end" in last, name
        final = path[-1][-1][-1]
        assert final["type"] == "state" and final["view"]["winner"] == tutorial.LEARNER
        # Only the learner's own hand is in the messages, never the opponent's.
        for batch in (b for change in path for b in change):
            for m in batch:
                if m["type"] == "state":
                    assert m["view"]["seat"] == tutorial.LEARNER
    declared = [m for b in data["paths"]["declare"][1] for m in b if m["type"] == "events"]
    assert any(e["type"] == "declared" and e["hands"] for m in declared for e in m["events"])


def test_check_reports_a_stale_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--check`` fails on a stale file and passes once it is rewritten."""
    target = tmp_path / "tutorial.json"
    monkeypatch.setattr(tutorialjson, "OUTPUT", target)
    target.write_text("{}\n")
    assert tutorialjson.main(["--check"]) == 1
    assert tutorialjson.main([]) == 0
    assert tutorialjson.main(["--check"]) == 0
