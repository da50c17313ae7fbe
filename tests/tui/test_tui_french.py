"""French at 80×24: the longest words of the four languages, never cut off."""

from __future__ import annotations

import re

from tests.harness.support import require_module, run_python

require_module("textual", "pip install 'roppyakken[tui]'")

from textual.pilot import Pilot

from roppyakken.i18n import set_language
from roppyakken.text import yaku_name
from roppyakken.tui import text as t
from roppyakken.tui.app import RoppyakkenApp
from roppyakken.tui.screens.info import HelpScreen, YakuScreen
from roppyakken.tui.screens.table import TableScreen
from roppyakken.tui.table.choosing import CARD
from roppyakken.tui.testing import press, shown_text, wait_until
from tests.harness.tui_pilot import run, table, vs_random, waiting_for_me


async def _to_my_card(pilot: Pilot[None], app: RoppyakkenApp) -> None:
    """Go on (Enter on any dialog) until the table asks for a card."""
    while not (isinstance(app.screen, TableScreen) and app.screen.mode == CARD):
        await wait_until(pilot, lambda: waiting_for_me(app), timeout=60)
        if not isinstance(app.screen, TableScreen) or app.screen.mode != CARD:
            await press(pilot, "enter")


def _in_french(script: object) -> str:
    set_language("fr")
    try:
        return run(RoppyakkenApp(setup=vs_random("classic", seed=3), pace="instant"), script)  # type: ignore[arg-type]
    finally:
        set_language("en")


def test_the_yaku_progress_screen_names_every_yaku_whole() -> None:
    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        await _to_my_card(pilot, app)
        await press(pilot, "y")
        await wait_until(pilot, lambda: isinstance(app.screen, YakuScreen))
        return await shown_text(pilot, app)

    shown = _in_french(script)
    set_language("fr")
    try:
        names = [yaku_name(slug).split(" (")[0] for slug in ("flower-viewing", "four-plum", "four-cherry")]
    finally:
        set_language("en")
    for name in names:
        assert name in shown, (name, shown)
    assert "…" not in shown


def test_every_help_tab_is_on_screen() -> None:
    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        await _to_my_card(pilot, app)
        await press(pilot, "question_mark")
        await wait_until(pilot, lambda: isinstance(app.screen, HelpScreen))
        return await shown_text(pilot, app)

    shown = _in_french(script)
    set_language("fr")
    try:
        tabs = [t.HELP_TAB_PLAY, t.HELP_TAB_YAKU, t.HELP_TAB_CARDS, t.HELP_TAB_OPTIONS, t.HELP_TAB_KEYS]
    finally:
        set_language("en")
    first = shown.splitlines()[0]
    for tab in tabs:
        assert tab in first, (tab, first)


def test_a_long_message_line_is_shown_whole() -> None:
    long = (
        "Bot Hasard retourne le Ruban de poème du Cerisier et prend le Rideau du Cerisier, "
        "puis la Grue du Pin."
    )

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        await _to_my_card(pilot, app)
        screen = table(app)
        screen.state.log(long)
        screen.refresh_table()
        return await shown_text(pilot, app)

    shown = _in_french(script)
    flat = " ".join(line.strip() for line in shown.splitlines())
    assert long in flat, shown


GAME_OVER_FOOTER = """
from roppyakken.i18n import set_language
set_language("fr")  # before the screens are imported: their keys are named when the classes are made
from roppyakken.tui.app import RoppyakkenApp
from roppyakken.tui.screens.scores import GameOverScreen
from roppyakken.tui.testing import press, shown_text, wait_until
from tests.harness.tui_pilot import run, vs_random, waiting_for_me

async def script(pilot, app):
    for _ in range(500):
        await wait_until(pilot, lambda: waiting_for_me(app), timeout=60)
        if isinstance(app.screen, GameOverScreen):
            break
        await press(pilot, "enter")
    await press(pilot, "escape")
    await pilot.pause(0.1)
    return await shown_text(pilot, app)

print(run(RoppyakkenApp(setup=vs_random("sanbyakuken", seed=11), pace="instant"), script))
"""


def test_the_game_over_keys_fit_the_footer() -> None:
    """Once the game is over, the footer names its keys whole at 80 columns, Quit the last."""
    shown = run_python(GAME_OVER_FOOTER, pure=False, timeout=300)
    footer = shown.rstrip("\n").splitlines()[-1]
    assert "n Nouvelle partie" in footer and footer.rstrip().endswith("q Quitter"), footer


def test_ctrl_c_says_how_to_quit_in_the_language() -> None:
    """Textual's own Ctrl-C toast ("Do you want to quit? Press q to quit the app") in the game's words."""

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> list[str]:
        await _to_my_card(pilot, app)
        await press(pilot, "ctrl+c")
        await wait_until(pilot, lambda: bool(app._notifications))
        return [f"{n.title} {n.message}" for n in app._notifications]

    said = _in_french(script)
    assert said and not re.search(r"\b(quit|Press|want|app)\b", " ".join(said)), said
    assert all("q" in s for s in said), said
