"""Helpers for headless tests of the terminal game (Textual's pilot)."""

from __future__ import annotations

import asyncio
import io
import time
from collections.abc import Callable
from typing import Any

from rich.console import Console
from textual import events
from textual.app import App
from textual.pilot import Pilot

_CHARACTERS = {"enter": "\r", "space": " ", "tab": "\t", "escape": "\x1b", "question_mark": "?"}


def screen_text(app: App[Any]) -> str:
    """The screen as plain text, one line per row, trailing spaces removed (for snapshots)."""
    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        record=True,
        force_terminal=True,
        color_system=None,
        legacy_windows=False,
    )
    console.print(app.screen._compositor.render_update(full=True, screen_stack=app._background_screens))
    lines = console.export_text().splitlines()
    return "\n".join(line.rstrip() for line in lines).rstrip("\n") + "\n"


async def wait_until(pilot: Pilot[Any], predicate: Callable[[], bool], timeout: float = 20.0) -> None:
    """Let the app run until ``predicate()`` holds; fail after ``timeout`` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for the app ({timeout} s)")
        await pilot.pause(0.01)
    await asyncio.sleep(0)


async def shown_text(pilot: Pilot[Any], app: App[Any]) -> str:
    """:func:`screen_text` once the app has drawn what it was doing."""
    await pilot.pause()
    return screen_text(app)


async def press(pilot: Pilot[Any], *keys: str) -> None:
    """Press ``keys`` one by one, each once the app has handled the one before.

    Unlike :meth:`Pilot.press` this does not wait for the whole process to be idle
    (which a game whose bots keep playing seldom is), so tests stay fast.
    """
    driver = pilot.app._driver
    assert driver is not None
    for key in keys:
        char = _CHARACTERS.get(key, key if len(key) == 1 else None)
        driver.send_message(events.Key(key, char))
        for _ in range(3):  # the key hops from the app to the screen to its bindings
            await pilot._wait_for_screen()
            await asyncio.sleep(0.001)
