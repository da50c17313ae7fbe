"""The new-game form: where the focus is shows clearly on every field and button, and the
optional seed left empty is not marked as an error."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.harness.support import require_module

require_module("textual", "pip install 'roppyakken[tui]'")

from textual.color import Color
from textual.pilot import Pilot
from textual.widget import Widget
from textual.widgets import Button, Input, Select, Static

from roppyakken.tui.app import RoppyakkenApp
from roppyakken.tui.screens.newgame import NewGameScreen
from roppyakken.tui.testing import press, wait_until
from tests.harness.tui_pilot import run


def _face(widget: Widget) -> Widget:
    """The part of ``widget`` that is drawn (a drop-down's current value)."""
    return widget.children[0] if isinstance(widget, Select) else widget


def _distance(a: Color, b: Color) -> int:
    return sum(abs(x - y) for x, y in zip(a.rgb, b.rgb, strict=True))


def test_every_field_and_button_shows_its_focus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> dict[str, int]:
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        screen = app.screen
        seen: dict[str, int] = {}
        for widget in screen.query("Select, Input, Button"):
            if not widget.focusable or not widget.display:
                continue
            screen.set_focus(None)
            await pilot.pause()
            blurred = _face(widget).background_colors[1]
            blurred_style = _face(widget).rich_style
            widget.focus()
            await pilot.pause()
            focused = _face(widget).background_colors[1]
            bold = bool(_face(widget).rich_style.bold) and not blurred_style.bold
            seen[str(widget.id)] = _distance(blurred, focused) + (1000 if bold else 0)
        return seen

    seen = run(RoppyakkenApp(pace="instant"), script)
    assert {"players", "preset", "rules-file", "name", "opp1", "seed", "start"} <= set(seen)
    for name, difference in seen.items():
        assert difference >= 60, (name, difference, seen)  # 234 -> 235 grey was 3


def test_an_empty_seed_is_not_an_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> tuple[bool, bool]:
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        seed = app.screen.query_one("#seed", Input)
        seed.focus()
        await press(pilot, "4", "backspace")
        app.screen.query_one("#start", Button).focus()
        await pilot.pause()
        empty_invalid = seed.has_class("-invalid")
        seed.focus()
        await press(pilot, "x")
        await pilot.pause()
        return empty_invalid, seed.value == ""

    empty_invalid, _ = run(RoppyakkenApp(pace="instant"), script)
    assert not empty_invalid


def _french_form_with_a_save(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, keys: list[str]) -> str:
    """The new-game screen in French at 80×24, with one saved game, after ``keys`` on the saves."""
    import asyncio

    from roppyakken.engine import Game
    from roppyakken.i18n import set_language
    from roppyakken.rules import preset
    from roppyakken.tui.session import HUMAN, Seat, new_save_path, save_game
    from roppyakken.tui.testing import shown_text

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = new_save_path()
    path.parent.mkdir(parents=True)
    save_game(path, Game(preset("classic"), 2, 5), [Seat(HUMAN, "Aki"), Seat("expert")])

    async def main() -> str:
        app = RoppyakkenApp(pace="instant")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
            app.screen.query_one("#saves", Select).focus()
            await press(pilot, *keys)
            await pilot.pause(0.2)
            return await shown_text(pilot, app)

    set_language("fr")
    try:
        return asyncio.run(main())
    finally:
        set_language("en")


def test_the_saved_games_drop_down_speaks_french(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import re

    shown = _french_form_with_a_save(tmp_path, monkeypatch, ["enter"])
    assert "Fermer le menu" in shown and "Dismiss" not in shown, shown
    assert not re.search(r"\b(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\b", shown), shown
    assert re.search(r"\d\d-\d\d \d\d:\d\d", shown)


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "fr", "es", "de", "zh-Hant"])
def test_the_forms_placeholders_fit_their_field_at_80_columns(lang: str) -> None:
    from roppyakken.i18n import cell_width, set_language
    from roppyakken.tui import text as t

    set_language(lang)
    try:
        for placeholder in (t.HINT_RULES_FILE, t.HINT_SEED):
            assert cell_width(placeholder) <= 80 - 2 - 14, (lang, placeholder)  # padding, label
    finally:
        set_language("en")


def test_every_tab_stop_is_a_field_or_a_button(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tab never lands on the form's scrolling frame, where the focus shows nowhere (French, 80×24)."""
    from roppyakken.i18n import set_language

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> list[str]:
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        stops = []
        for _ in range(12):
            await press(pilot, "tab")
            focused = app.screen.focused
            stops.append(f"{type(focused).__name__}#{focused.id if focused else None}")
        return stops

    set_language("fr")
    try:
        stops = run(RoppyakkenApp(pace="instant"), script)
    finally:
        set_language("en")
    assert all(stop.split("#")[0] in ("Select", "Input", "Button") for stop in stops), stops
    assert "Button#start" in stops and "Select#players" in stops


def test_a_long_saved_game_stays_on_its_line(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A three-player save's label is cut with an ellipsis, not wrapped under the label or over the
    footer, closed and open (French, 80×24)."""
    import asyncio
    import re

    from roppyakken.engine import Game
    from roppyakken.i18n import set_language
    from roppyakken.rules import preset
    from roppyakken.tui.session import HUMAN, Seat, new_save_path, save_game
    from roppyakken.tui.testing import shown_text

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = new_save_path()
    path.parent.mkdir(parents=True)
    save_game(path, Game(preset("classic"), 3, 5), [Seat(HUMAN, "Aki"), Seat("expert"), Seat("master")])

    async def main() -> tuple[str, str]:
        app = RoppyakkenApp(pace="instant")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
            app.screen.query_one("#saves", Select).focus()
            await pilot.pause(0.1)
            closed = await shown_text(pilot, app)
            await press(pilot, "enter")
            await pilot.pause(0.2)
            return closed, await shown_text(pilot, app)

    set_language("fr")
    try:
        shown = asyncio.run(main())
    finally:
        set_language("en")
    date = re.compile(r"\d\d-\d\d \d\d:\d\d – Aki")
    for screen in shown:
        lines = screen.rstrip("\n").splitlines()
        save_lines = [line for line in lines if "Aki" in line or "Maître" in line or "manche" in line]
        assert save_lines and all(date.search(line) for line in save_lines), screen
        assert "Aki" not in lines[-1] and "Maître" not in lines[-1], screen  # the footer is whole


def test_a_seed_out_of_range_is_refused_naming_the_bound(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def script(pilot: Pilot[None], app: RoppyakkenApp) -> str:
        await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        screen.query_one("#seed", Input).value = "-3"
        screen.action_start()
        await pilot.pause()
        return str(screen.query_one("#error", Static).render())

    shown = run(RoppyakkenApp(pace="instant"), script)
    assert "9223372036854775807" in shown and "-3" in shown, shown


@pytest.mark.parametrize("lang", ["en", "ja", "ko", "fr", "es", "de", "zh-Hant"])
def test_the_fullest_form_fits_80x24_with_its_saved_game(
    lang: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three players, the preset with the longest description and a saved game: nothing scrolls,
    the saved game's row is on screen and every label fits its column (80×24)."""
    import asyncio

    from roppyakken.engine import Game
    from roppyakken.i18n import cell_width, set_language
    from roppyakken.rules import PRESETS, preset
    from roppyakken.text import preset_description
    from roppyakken.tui import text as t
    from roppyakken.tui.session import HUMAN, Seat, new_save_path, save_game

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    path = new_save_path()
    path.parent.mkdir(parents=True)
    save_game(path, Game(preset("classic"), 2, 5), [Seat(HUMAN, "Aki"), Seat("expert")])

    async def main() -> tuple[int, int, int]:
        app = RoppyakkenApp(pace="instant")
        async with app.run_test(size=(80, 24)) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
            app.screen.query_one("#players", Select).value = 3
            app.screen.query_one("#preset", Select).value = longest
            await pilot.pause(0.2)
            saves = app.screen.query_one("#saves-row").region
            return app.screen.query_one("#form").max_scroll_y, saves.y, saves.bottom

    set_language(lang)
    try:
        longest = max(PRESETS, key=lambda name: cell_width(preset_description(name)))
        labels = [
            t.LABEL_PLAYERS,
            t.LABEL_RULES,
            t.LABEL_RULES_FILE,
            t.LABEL_NAME,
            t.LABEL_SEED,
            t.LABEL_SAVES,
        ]
        labels += [t.LABEL_OPPONENT.format(n=n) for n in (1, 2)]
        scrolls, top, bottom = asyncio.run(main())
    finally:
        set_language("en")
    assert scrolls == 0, f"{lang}: the form scrolls by {scrolls} lines"
    assert top > 0 and bottom <= 24 - 1, (top, bottom)  # above the footer
    assert all(cell_width(label) <= 13 for label in labels), labels  # one line in the 14-cell column
