"""The game-over box: saving the record says where at once."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import require_module

require_module("textual", "pip install 'roppyakken[tui]'")

from textual.pilot import Pilot

from roppyakken.tui.app import RoppyakkenApp
from roppyakken.tui.screens.scores import GameOverScreen
from roppyakken.tui.testing import press, shown_text, wait_until
from tests.test_tui_app import run, vs_random, waiting_for_me


def test_s_on_the_game_over_box_says_where_it_saved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> tuple[str, str]:
        presses = 0
        while not isinstance(app.screen, GameOverScreen):
            await wait_until(pilot, lambda: waiting_for_me(app))
            if isinstance(app.screen, GameOverScreen):
                break
            await press(pilot, "enter")
            presses += 1
            assert presses < 500
        before = await shown_text(pilot, app)
        await press(pilot, "s")
        return before, await shown_text(pilot, app)

    before, after = run(RoppyakkenApp(setup=vs_random("sanbyakuken", seed=11), pace="instant"), script)
    assert "Saved to" not in before
    assert "Saved to" in after, after
    saved = list(tmp_path.rglob("*.json"))
    assert len(saved) == 1
