"""The browser client against a cluster: Chromium through nginx (round-robin, no affinity) over three members.

A game against a bot is started and played in the browser; the page is
reloaded until its websocket lands on another member than before, and the game
goes on there with the same seat and hand, to its end.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator

import pytest

from tests.harness import services
from tests.harness.browser import (
    BOT_GAME_SEED,
    DESKTOP,
    chromium,
    hand_of,
    need_browser,
    new_context,
    play_all,
    start_bot_game,
    until_my_play,
    watch_errors,
)

with contextlib.suppress(ImportError):  # need_browser says what is missing
    from playwright.sync_api import Browser

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def stack() -> Iterator[services.Stack]:
    need_browser()
    with services.cluster(3) as running:
        yield running


@pytest.fixture(scope="module")
def browser(stack: services.Stack) -> Iterator[Browser]:
    with chromium() as b:
        yield b


def _serving(stack: services.Stack) -> services.Member:
    """The one member holding the page's websocket (waits for it to be counted)."""
    deadline = time.monotonic() + 10
    while len(found := services.websocket_members(stack)) != 1:
        assert time.monotonic() < deadline, f"websockets on {len(found)} members"
        time.sleep(0.05)
    return found[0]


def test_a_reload_lands_on_another_member_and_the_game_goes_on(
    stack: services.Stack, browser: Browser
) -> None:
    ctx = new_context(browser, DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    start_bot_game(page, stack.url, "Aiko", BOT_GAME_SEED)
    until_my_play(page)
    first = _serving(stack)
    hand = hand_of(page)
    moved = False
    for _ in range(6):  # round-robin: the page's own requests shift which member the next socket gets
        page.reload()
        page.wait_for_selector(".hand button.card")
        if _serving(stack) is not first:
            moved = True
            break
    assert moved, "every reload landed on the same member"
    assert hand_of(page) == hand
    assert page.locator(".player.me .pname").inner_text() == "Aiko"
    play_all([page])
    assert "win" in page.locator(".game-over .winner").inner_text()
    assert errors == []
    assert stack.errors() == []
    ctx.close()
