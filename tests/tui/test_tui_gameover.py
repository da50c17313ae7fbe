"""The game-over box: saving the record says where at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.harness.support import require_module

require_module("textual", "pip install 'roppyakken[tui]'")

from textual.pilot import Pilot

from roppyakken.tui.app import RoppyakkenApp
from roppyakken.tui.screens.scores import GameOverScreen
from roppyakken.tui.testing import press, shown_text
from tests.harness.tui_pilot import enter_until, run, vs_random


def test_s_on_the_game_over_box_says_where_it_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> tuple[str, str]:
        await enter_until(pilot, app, GameOverScreen, 500)
        before = await shown_text(pilot, app)
        await press(pilot, "s")
        return before, await shown_text(pilot, app)

    before, after = run(RoppyakkenApp(setup=vs_random("sanbyakuken", seed=11), pace="instant"), script)
    assert "Saved to" not in before
    assert "Saved to" in after, after
    saved = list(tmp_path.rglob("*.json"))
    assert len(saved) == 1
