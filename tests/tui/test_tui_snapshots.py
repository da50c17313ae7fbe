"""Snapshots of the terminal game's main screens at 80×24, as plain text.

Plain text keeps every snapshot readable in a diff and checks what matters
(layout and words; colour is only an extra).  After an intended change,
regenerate them with ``ROPPYAKKEN_UPDATE_SNAPSHOTS=1 pytest tests/tui/test_tui_snapshots.py``
and read the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.harness.support import require_module

require_module("textual", "pip install 'roppyakken[tui]'")


from roppyakken.actions import PLAY, Play
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.tui.app import RoppyakkenApp
from roppyakken.tui.screens.dialogs import DeclareScreen
from roppyakken.tui.screens.newgame import NewGameScreen
from roppyakken.tui.screens.scores import GameOverScreen, RoundEndScreen
from tests.harness.tui_pilot import at_table, game_app, shoot

SNAPSHOTS = Path(__file__).parent / "snapshots"
UPDATE = os.environ.get("ROPPYAKKEN_UPDATE_SNAPSHOTS") == "1"


def check(name: str, text: str) -> None:
    """Compare ``text`` with the stored snapshot ``name`` (or store it when updating)."""
    path = SNAPSHOTS / f"{name}.txt"
    if UPDATE or not path.exists():
        if not UPDATE:
            pytest.fail(f"no snapshot {path.name}: run with ROPPYAKKEN_UPDATE_SNAPSHOTS=1 to create it")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        return
    assert text == path.read_text(encoding="utf-8"), f"screen differs from {path}"


def test_snapshot_new_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The new-game screen (no saved games)."""
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    check("new_game", shoot(RoppyakkenApp(pace="instant"), lambda app: isinstance(app.screen, NewGameScreen)))


def test_snapshot_table_and_declaration() -> None:
    """The table at the start of a game, and the lucky-hand offer (seed 3: you hold one)."""
    declare = shoot(game_app(3), lambda app: isinstance(app.screen, DeclareScreen))
    lines = declare.splitlines()
    dialog_top = next(i for i, line in enumerate(lines) if "╭" in line)
    hand_row = next(i for i, line in enumerate(lines) if "Wist  4 Wist  4 Wist" in line)
    assert hand_row < dialog_top, "the hand stays in sight while deciding"
    check("declare", declare)
    check("table", shoot(game_app(3), at_table, keys=("enter",)))


def test_snapshot_choosing_a_target() -> None:
    """Two targets lettered on the table (seed 9: a card of yours has two)."""
    game = Game(preset("classic"), 2, 9)
    assert game.phase == PLAY and game.to_act == 0
    by_card: dict[int, int] = {}
    for action in game.legal_actions():
        assert isinstance(action, Play)
        by_card[action.card] = by_card.get(action.card, 0) + 1
    index = sorted(by_card).index(next(c for c in sorted(by_card) if by_card[c] == 2))
    text = shoot(game_app(9), at_table, keys=(str(index + 1), "enter"))
    assert "▶a◀" in text
    check("target", text)


def test_snapshot_round_end_yaku_help_and_game_over() -> None:
    """The round's breakdown, the yaku panel, the help and the end of the game."""
    check("round_end", shoot(game_app(11, "sanbyakuken"), lambda app: isinstance(app.screen, RoundEndScreen)))
    check("yaku", shoot(game_app(11, "sanbyakuken"), at_table, keys=("enter",), then=("y",)))
    check("help", shoot(game_app(11, "sanbyakuken"), at_table, keys=("question_mark",)))
    check("game_over", shoot(game_app(11, "sanbyakuken"), lambda app: isinstance(app.screen, GameOverScreen)))
