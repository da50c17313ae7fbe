"""Snapshots of the terminal game's main screens at 80×24, as plain text.

Plain text keeps every snapshot readable in a diff and checks what matters
(layout and words; colour is only an extra).  After an intended change,
regenerate them with ``ROPPYAKKEN_UPDATE_SNAPSHOTS=1 pytest tests/test_tui_snapshots.py``
and read the diff.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.support import require_module

require_module("textual", "pip install 'roppyakken[tui]'")

from textual.pilot import Pilot

from roppyakken.actions import PLAY, Play
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.tui.app import RoppyakkenApp
from roppyakken.tui.screens.dialogs import DeclareScreen, RedealScreen
from roppyakken.tui.screens.newgame import NewGameScreen
from roppyakken.tui.screens.scores import GameOverScreen, RoundEndScreen
from roppyakken.tui.screens.table import WAIT, TableScreen
from roppyakken.tui.session import HUMAN, GameSetup, Seat
from roppyakken.tui.testing import press, shown_text, wait_until

SNAPSHOTS = Path(__file__).parent / "snapshots" / "tui"
UPDATE = os.environ.get("ROPPYAKKEN_UPDATE_SNAPSHOTS") == "1"
WAITS_FOR_ENTER = (NewGameScreen, DeclareScreen, RedealScreen, RoundEndScreen, GameOverScreen)
"""The screens besides the table that wait for a person, whom the drive answers with Enter."""


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


def shoot(
    app: RoppyakkenApp,
    until: Callable[[RoppyakkenApp], bool],
    keys: tuple[str, ...] = (),
    then: tuple[str, ...] = (),
) -> str:
    """Run ``app`` at 80×24, press Enter until ``until(app)``, then ``keys``, then (once ``until``
    holds again: the bots' moves are in, however loaded the machine) ``then``; the screen's text."""

    async def main() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            await drive(pilot, app, until)
            if keys:
                await press(pilot, *keys)
            if then:
                await drive(pilot, app, until)
                await press(pilot, *then)
            return await shown_text(pilot, app)

    return asyncio.run(main())


async def drive(pilot: Pilot[None], app: RoppyakkenApp, until: Callable[[RoppyakkenApp], bool]) -> None:
    """Press Enter whenever the app waits for a person, until ``until(app)`` holds."""

    def settled() -> bool:
        screen = app.screen
        if until(app):
            return True
        if isinstance(screen, TableScreen):
            return screen.mode != WAIT
        return isinstance(screen, WAITS_FOR_ENTER)  # not a screen between two others

    for _ in range(300):
        await wait_until(pilot, settled)
        if until(app):
            return
        await press(pilot, "enter")
    raise AssertionError("never reached the screen")


def game_app(seed: int, rules: str = "classic") -> RoppyakkenApp:
    """You against the random bot, seeded."""
    return RoppyakkenApp(
        setup=GameSetup(preset(rules), (Seat(HUMAN, "You"), Seat("random")), seed), pace="instant"
    )


def at_table(app: RoppyakkenApp) -> bool:
    """The table waits for a card."""
    return isinstance(app.screen, TableScreen) and app.screen.mode != WAIT


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
