"""The terminal game driven by Textual's pilot at 80x24: a game against a random bot, the table, key
presses until a state. Import it after asking for Textual (tests.harness.support.require_module)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TypeVar

from textual.pilot import Pilot

from roppyakken.rules import preset
from roppyakken.tui.app import RoppyakkenApp
from roppyakken.tui.screens.dialogs import DeclareScreen, HandoffScreen, RedealScreen
from roppyakken.tui.screens.newgame import NewGameScreen
from roppyakken.tui.screens.scores import GameOverScreen, RoundEndScreen
from roppyakken.tui.screens.table import WAIT, TableScreen
from roppyakken.tui.session import HUMAN, UNNAMED, GameSetup, Seat
from roppyakken.tui.testing import press, shown_text, wait_until

T = TypeVar("T")
SIZE = (80, 24)


WAITS_FOR_ENTER = (NewGameScreen, DeclareScreen, RedealScreen, RoundEndScreen, GameOverScreen)
"""The screens besides the table that wait for a person, whom the drive answers with Enter."""


def run(app: RoppyakkenApp, script: Callable[[Pilot[None], RoppyakkenApp], Awaitable[T]]) -> T:
    """Run ``app`` headless at 80×24 and drive it with ``script``."""

    async def main() -> T:
        async with app.run_test(size=SIZE) as pilot:
            return await script(pilot, app)

    return asyncio.run(main())


def table(app: RoppyakkenApp) -> TableScreen:
    """The table screen (under any dialog)."""
    for screen in app.screen_stack:
        if isinstance(screen, TableScreen):
            return screen
    raise AssertionError("no table screen")


def waiting_for_me(app: RoppyakkenApp) -> bool:
    """Whether the app waits for a person: a dialog, or a decision at the table."""
    screen = app.screen
    if isinstance(screen, TableScreen):
        return screen.mode != WAIT
    return isinstance(screen, DeclareScreen | RoundEndScreen | GameOverScreen | HandoffScreen)


async def enter_until(
    pilot: Pilot[None], app: RoppyakkenApp, screen: type[object], limit: int, timeout: float = 20.0
) -> int:
    """Play every decision with Enter (the first choice) until ``screen`` is shown; the presses
    it took (fewer than ``limit``)."""
    presses = 0
    while not isinstance(app.screen, screen):
        await wait_until(pilot, lambda: waiting_for_me(app), timeout=timeout)
        if isinstance(app.screen, screen):
            break
        await press(pilot, "enter")
        presses += 1
        assert presses < limit
    return presses


def vs_random(rules_name: str = "classic", seed: int = 1, players: int = 2) -> GameSetup:
    """You against random bots."""
    seats = (Seat(HUMAN, UNNAMED), *(Seat("random") for _ in range(players - 1)))
    return GameSetup(preset(rules_name), seats, seed)


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
