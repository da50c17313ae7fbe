"""Keys pressed faster than the table's panels work: nothing may crash whatever the timing
(the keys are sent with no delay between them)."""

from __future__ import annotations

import pytest

from tests.harness.support import require_module

require_module("textual", "pip install 'roppyakken[tui]'")

from textual import events
from textual.pilot import Pilot

from roppyakken.rules import preset
from roppyakken.tui.app import RoppyakkenApp
from roppyakken.tui.screens.hint import HintScreen
from roppyakken.tui.screens.scores import RoundEndScreen
from roppyakken.tui.screens.table import TableScreen
from roppyakken.tui.session import HUMAN, GameSetup, Seat
from roppyakken.tui.table.choosing import CARD
from roppyakken.tui.testing import press, wait_until
from tests.harness.tui_pilot import enter_until, run, table, vs_random, waiting_for_me


def _send_at_once(app: RoppyakkenApp, *keys: str) -> None:
    """Queue ``keys`` for the app all at once: no pause, no wait for one to be handled."""
    driver = app._driver
    assert driver is not None
    for key in keys:
        driver.send_message(events.Key(key, "\x1b" if key == "escape" else key))


async def _settle(pilot: Pilot[None], app: RoppyakkenApp) -> None:
    """Let the keys be handled, and every worker they cancelled end."""
    for _ in range(30):
        await pilot.pause(0.02)
    # a cancelled worker stays listed until its work has ended
    await wait_until(pilot, lambda: not any(w.is_cancelled for w in app.workers), timeout=30)
    assert app.is_running and app._exception is None, app._exception


@pytest.mark.parametrize("pairs", [1, 3])
def test_h_twice_at_once_opens_and_closes_the_hint_without_a_crash(pairs: int) -> None:
    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> bool:
        while not (isinstance(app.screen, TableScreen) and app.screen.mode == CARD):
            await wait_until(pilot, lambda: waiting_for_me(app), timeout=60)
            if not isinstance(app.screen, TableScreen) or app.screen.mode != CARD:
                await press(pilot, "enter")
        _send_at_once(app, *["h", "h"] * pairs)
        await _settle(pilot, app)
        return isinstance(app.screen, TableScreen) and app.screen.mode == CARD

    assert run(RoppyakkenApp(setup=vs_random("classic", seed=5), pace="instant"), script)


def test_h_right_after_playing_a_card_opens_no_hint_for_the_move_already_made() -> None:
    """``1 Enter h`` at once: the card is played, so h comes after the decision it could have
    answered; a hint may only answer the decision awaited now, from its own view."""

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        while not (isinstance(app.screen, TableScreen) and app.screen.mode == CARD):
            await wait_until(pilot, lambda: waiting_for_me(app), timeout=60)
            if not isinstance(app.screen, TableScreen) or app.screen.mode != CARD:
                await press(pilot, "enter")
        _send_at_once(app, "1", "enter", "h")
        await _settle(pilot, app)
        shown = app.screen
        if not isinstance(shown, HintScreen):
            return "no hint"
        at = table(app)
        if at.mode == CARD and shown.view is at.state.choosing.view:
            return "hint for the decision awaited"
        return f"hint for seat {shown.view.seat} while seat {at.game.to_act} is to act"

    seats = (Seat(HUMAN, "You"), Seat("expert"), Seat("greedy"))
    app = RoppyakkenApp(setup=GameSetup(preset("classic"), seats, 11), pace="normal")
    assert run(app, script) in ("no hint", "hint for the decision awaited")


def test_r_then_escape_at_once_on_the_round_scores_without_a_crash() -> None:
    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> bool:
        await enter_until(pilot, app, RoundEndScreen, 200, timeout=60)
        _send_at_once(app, "r", "escape")
        await _settle(pilot, app)
        return isinstance(app.screen, RoundEndScreen)

    assert run(RoppyakkenApp(setup=vs_random("classic", seed=3), pace="instant"), script)
