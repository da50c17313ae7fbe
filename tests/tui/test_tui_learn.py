"""``roppyakken learn``: the guided first game played through by key presses in the Textual pilot."""

from __future__ import annotations

import asyncio
import re

import pytest

from tests.harness.support import require_module

require_module("textual", "pip install 'roppyakken[tui]'")

import itertools

from textual.containers import VerticalScroll
from textual.pilot import Pilot

from roppyakken.actions import Declare, Play, Take
from roppyakken.cards import iter_cards
from roppyakken.i18n import _, set_language
from roppyakken.phase import Phase
from roppyakken.tui.app import RoppyakkenApp
from roppyakken.tui.screens.learn import LearnScreen
from roppyakken.tui.screens.scores import RoundEndScreen
from roppyakken.tui.table.choosing import TARGET_KEYS
from roppyakken.tui.testing import press, screen_text, shown_text, wait_until
from roppyakken.tui.widgets import RecentLog
from roppyakken.tutorial import LEARNER, STEPS

SIZE = (80, 24)


def _keys_for(screen: LearnScreen, declare: bool) -> list[str]:
    """The keys a learner presses to do what the current step asks."""
    step = screen.lesson.step
    assert step is not None
    if not step.accepts:
        return ["enter"]
    action = step.accepts[0]
    game = screen.lesson.game
    if isinstance(action, Declare):
        return ["d" if declare else "n"]
    if isinstance(action, Take):
        targets = list(game.targets(game.turned, True))
        return [TARGET_KEYS[targets.index(action.target)]]
    assert isinstance(action, Play)
    hand = sorted(iter_cards(game.hands[LEARNER]))
    keys = [str(hand.index(action.card) + 1)]
    targets = [m for m in game.targets(action.card) if m]
    if len(targets) > 1:
        return [*keys, TARGET_KEYS[targets.index(action.target)]]
    return [*keys, "enter"]


def _fits(screen: LearnScreen) -> str | None:
    """What does not fit the screen, if anything: the table scrolled, the recent moves hidden, keys
    that are not the step's."""
    play = screen.query_one("#play", VerticalScroll)
    recent = screen.query_one("#recent", RecentLog)
    if play.max_scroll_y:
        return f"step {screen.lesson.index + 1}: the table scrolls by {play.max_scroll_y} lines"
    if recent.size.height < 2 and screen.log_lines:
        return f"step {screen.lesson.index + 1}: {recent.size.height} lines of recent moves"
    text = screen_text(screen.app)
    if "⏎" in text:  # a footer offering Enter, where the step may take only d or n
        return f"step {screen.lesson.index + 1}: the keys of a footer"
    hand = len(screen._hand())
    keys = f"1-{hand}" if hand > 1 else "1"
    if screen.step is not None and screen.step.accepts and screen._phase() == Phase.PLAY and keys not in text:
        return f"step {screen.lesson.index + 1}: {hand} cards in hand, not {keys} to choose them"
    return None


async def _play_through(
    pilot: Pilot[None], app: RoppyakkenApp, declare: bool, misfits: list[str] | None = None
) -> list[str]:
    """Every step by keys; the screens' text at each step (the guide's message, then its explanation);
    what did not fit the screen at each, added to ``misfits``."""
    await wait_until(pilot, lambda: isinstance(app.screen, LearnScreen))
    screen = app.screen
    assert isinstance(screen, LearnScreen)
    await wait_until(pilot, lambda: str(len(STEPS)) in screen_text(app).splitlines()[0])
    shown: list[str] = []
    for step in STEPS:
        assert screen.lesson.step == step and screen.explaining is None
        shown.append(await shown_text(pilot, app))
        if misfits is not None and (misfit := _fits(screen)):
            misfits.append(misfit)
        await press(pilot, *_keys_for(screen, declare))
        if step.id == "round-end":
            await wait_until(pilot, lambda: isinstance(app.screen, RoundEndScreen))
            shown.append(await shown_text(pilot, app))
            await press(pilot, "enter")
            await wait_until(pilot, lambda: app.screen is screen)
        await wait_until(pilot, lambda step=step: screen.explaining == step)  # type: ignore[misc]
        shown.append(await shown_text(pilot, app))
        if misfits is not None and (misfit := _fits(screen)):
            misfits.append(misfit)
        if step is not STEPS[-1]:
            await press(pilot, "enter")
    assert screen.lesson.done and screen.lesson.game.winner == LEARNER
    await press(pilot, "enter")
    await wait_until(pilot, lambda: not app.is_running)
    return shown


def _run(lang: str, declare: bool, misfits: list[str] | None = None) -> list[str]:
    async def main() -> list[str]:
        set_language(lang)
        try:
            app = RoppyakkenApp(learn=True)
            async with app.run_test(size=SIZE) as pilot:
                return await _play_through(pilot, app, declare, misfits)
        finally:
            set_language("en")

    return asyncio.run(main())


def _flat(text: str) -> str:
    return "".join(line.strip("│ ") for line in text.splitlines())


@pytest.mark.parametrize(
    ("lang", "declare"),
    [
        ("en", True),
        ("ja", False),
        ("ko", True),
        ("fr", False),
        ("pt-BR", True),
        ("es", True),
        ("de", True),
        ("zh-Hant", True),
    ],
)
def test_the_guided_game_plays_through_by_keys(lang: str, declare: bool) -> None:
    misfits: list[str] = []
    shown = _run(lang, declare, misfits)
    assert not misfits, misfits  # at 80×24 every step fits: no scrolling, the recent moves in sight
    set_language(lang)
    try:
        guide = [_(s.message) for s in STEPS]
        told = [_(s.explanation) for s in STEPS]
    finally:
        set_language("en")
    flat = [_flat(s) for s in shown]
    for message in guide:  # each message on screen whole (the guide panel wraps, never cuts)
        head = message[:30].replace(" ", "")
        assert any(head in s.replace(" ", "") for s in flat), (lang, message)
    for explanation in told:
        head = explanation[:30].replace(" ", "")
        assert any(head in s.replace(" ", "") for s in flat), (lang, explanation)
    if lang == "fr":  # the strips have room for whole words: Papillons, Glycine, not the faces' Papill, Glyc
        strips = [line for text in shown for line in text.splitlines() if " │ " in line]
        assert any("Papillons" in line for line in strips) and any("Glycine" in line for line in strips)
        cut = [line for line in strips if re.search(r"(?<!\w)(Papill|Sangl|Glyc|Pivo|Parapl)(?!\w)", line)]
        assert not cut, cut
    for text in shown:
        lines = text.splitlines()
        assert len(lines) <= SIZE[1] and all(len(line) <= SIZE[0] for line in lines)
        for above, line in itertools.pairwise(lines):  # lines break where the language allows
            start = line.strip(" │")
            assert not start.startswith(("。", "、", "）", "」", ".", ",")), (lang, line)
            assert not (re.search(r"\d$", above.rstrip(" │")) and re.match(r"[点枚回人점장分張]", start)), (
                above,
                line,
            )


def test_a_move_the_step_does_not_ask_for_is_refused() -> None:
    async def main() -> tuple[str, int, int]:
        app = RoppyakkenApp(learn=True)
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, LearnScreen))
            screen = app.screen
            assert isinstance(screen, LearnScreen)
            await wait_until(pilot, lambda: str(len(STEPS)) in screen_text(app).splitlines()[0])
            await press(pilot, "enter")  # the welcome
            await press(pilot, "enter")  # its explanation
            await press(pilot, "d", "enter")  # declare, then go on
            before = screen.lesson.game.hands[LEARNER]
            await press(pilot, "2", "enter")  # the Iris chaff to the table: not what the guide asks
            text = await shown_text(pilot, app)
            return text, before, screen.lesson.game.hands[LEARNER]

    text, before, after = asyncio.run(main())
    assert before == after  # nothing was played
    assert "Not that one" in text


def test_learn_is_a_command(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """``roppyakken learn`` opens the guided game (its app is built with ``learn=True``)."""
    from roppyakken.cli import main

    started: list[bool] = []

    def fake_run(self: RoppyakkenApp) -> None:
        started.append(self.learn)

    monkeypatch.setattr(RoppyakkenApp, "run", fake_run)
    assert main(["learn", "--lang", "en"]) == 0
    assert started == [True]
    with pytest.raises(SystemExit) as info:
        main(["learn", "--help"])
    assert info.value.code == 0 and "guided first game" in capsys.readouterr().out


def test_the_new_game_screen_offers_the_guided_game_and_q_comes_back(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import Button

    from roppyakken.tui.screens.newgame import NewGameScreen

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))

    async def main() -> tuple[str, bool, bool]:
        app = RoppyakkenApp(pace="instant")
        async with app.run_test(size=SIZE) as pilot:
            await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
            shown = await shown_text(pilot, app)
            app.screen.query_one("#learn", Button).press()
            await wait_until(pilot, lambda: isinstance(app.screen, LearnScreen))
            opened = isinstance(app.screen, LearnScreen)
            await press(pilot, "q")
            await wait_until(pilot, lambda: isinstance(app.screen, NewGameScreen))
            return shown, opened, app.is_running

    shown, opened, running = asyncio.run(main())
    assert "New to Roppyakken? A guided first game" in shown
    assert opened and running
