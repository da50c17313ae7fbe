"""The terminal's hint panel (key h) and the round review on the round-end screen, driven headless."""

from __future__ import annotations

import re

from tests.harness.support import require_module

require_module("textual", "pip install 'roppyakken[tui]'")

from textual.pilot import Pilot

from roppyakken.tui.app import RoppyakkenApp
from roppyakken.tui.screens.hint import HintScreen, ReviewScreen
from roppyakken.tui.screens.scores import RoundEndScreen
from roppyakken.tui.screens.table import TableScreen
from roppyakken.tui.table.choosing import CARD
from roppyakken.tui.testing import press, shown_text, wait_until
from roppyakken.view import view_of
from tests.harness.tui_pilot import SIZE, enter_until, run, table, vs_random, waiting_for_me


async def _to_a_card_decision(pilot: Pilot[None], app: RoppyakkenApp) -> None:
    """Go on (Enter on any dialog) until the table asks for a card to play."""
    while not (isinstance(app.screen, TableScreen) and app.screen.mode == CARD):
        await wait_until(pilot, lambda: waiting_for_me(app), timeout=60)
        if not isinstance(app.screen, TableScreen) or app.screen.mode != CARD:
            await press(pilot, "enter")


def test_h_opens_the_hint_panel_with_three_plays_that_fit_80x24() -> None:
    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> tuple[str, str, list[float]]:
        await _to_a_card_decision(pilot, app)
        before = table(app).mode
        await press(pilot, "h")
        await wait_until(pilot, lambda: isinstance(app.screen, HintScreen))
        screen = app.screen
        assert isinstance(screen, HintScreen)
        game = table(app).game  # the hint reads the seat's own view, never the game
        assert screen.view.seat == 0 and screen.view.to_json() == view_of(game, 0).to_json()
        working = await shown_text(pilot, app)
        await wait_until(pilot, lambda: screen.result is not None, timeout=60)
        text = await shown_text(pilot, app)
        chances = [m.win_chance for m in screen.result.moves] if screen.result else []
        await press(pilot, "escape")
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        assert table(app).mode == before  # still choosing a card: the hint changed nothing
        return working, text, chances

    working, text, chances = run(RoppyakkenApp(setup=vs_random("classic", seed=3), pace="instant"), script)
    # the title says how the plays are ordered (the expert's quick choice is only starred)
    assert "Hint: the best plays, by chance to win" in working and "expert" not in working.splitlines()[0]
    assert len(chances) == 3 and chances == sorted(chances, reverse=True)
    pcts = [int(p) for p in re.findall(r"win chance (\d+)%", text)]
    assert pcts == sorted(pcts, reverse=True) and len(pcts) == 3, text
    assert "★ the expert's choice" in text
    for n in ("1. ", "2. ", "3. "):
        assert n in text, text
    assert text.count("expected round points") == 3 and text.count("risk: the opponents expect") == 3
    assert "Esc or h: close" in text, "the panel's last line is on screen"
    lines = text.splitlines()
    assert len(lines) <= SIZE[1] and max(len(line) for line in lines) <= SIZE[0]


def test_h_gives_no_hint_in_a_replay() -> None:
    """A replay has no decision of yours: the key is not offered and h opens nothing."""
    from roppyakken.ai.base import make_bot
    from roppyakken.ai.driver import play_out
    from roppyakken.engine import Game
    from roppyakken.record import record_of
    from roppyakken.rules import preset
    from roppyakken.tui.session import RecordScript

    game = play_out(Game(preset("classic"), 2, 8), [make_bot("random", 1), make_bot("random", 2)])
    script_ = RecordScript(record_of(game, ["bot:random", "Ann"]))

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> tuple[bool, str]:
        await wait_until(pilot, lambda: isinstance(app.screen, TableScreen))
        await press(pilot, "h")
        await pilot.pause(0.2)
        return isinstance(app.screen, HintScreen), await shown_text(pilot, app)

    opened, shown = run(RoppyakkenApp(script=script_, pace="instant"), script)
    assert not opened
    assert " Hint" not in shown.splitlines()[-1]


def test_the_footer_offers_h_at_the_table() -> None:
    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        await _to_a_card_decision(pilot, app)
        return await shown_text(pilot, app)

    shown = run(RoppyakkenApp(setup=vs_random("classic", seed=3), pace="instant"), script)
    assert "h Hint" in shown.splitlines()[-1], shown.splitlines()[-1]


def test_the_round_end_screen_shows_what_the_master_would_have_played() -> None:
    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> tuple[str, str]:
        await enter_until(pilot, app, RoundEndScreen, 200, timeout=60)
        scores = await shown_text(pilot, app)
        await press(pilot, "r")
        await wait_until(pilot, lambda: isinstance(app.screen, ReviewScreen))
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        await wait_until(pilot, lambda: screen.result is not None, timeout=120)
        shown = await shown_text(pilot, app)
        await press(pilot, "escape")
        await wait_until(pilot, lambda: isinstance(app.screen, RoundEndScreen))
        return scores, shown

    scores, shown = run(RoppyakkenApp(setup=vs_random("classic", seed=3), pace="instant"), script)
    assert "r: what the master would have played" in scores
    assert "What the master would have played" in shown
    assert "Your turn" in shown or "as you did" in shown, shown
    if "Your turn" in shown:
        assert "the master:" in shown and "points given up" in shown
    lines = shown.splitlines()
    assert len(lines) <= SIZE[1] and "Esc: back to the scores" in shown
