"""Ratings in the lobby, in the browser (Debian's Chromium, headless, driven by Playwright): a newcomer
sees that they are not rated yet (and is not told whom they play like before any rated game), and "Play
a bot at your level" starts a game against bots of the starting rating's level."""

from __future__ import annotations

import httpx

from roppyakken.server.club.ratings import nearest_bot
from roppyakken.server.club.ratings.scale import MU0
from tests.harness.browser import DESKTOP, chromium, new_context, wait_js, watch_errors


def test_the_lobby_shows_the_rating_and_offers_a_bot_at_your_level(clocked_server: str) -> None:
    level = nearest_bot("match-3", MU0)
    assert level is not None
    errors: list[str] = []
    with chromium() as browser:
        page = new_context(browser, DESKTOP).new_page()
        watch_errors(page, errors)
        page.goto(clocked_server + "/")
        page.wait_for_selector("#quick-pairing")
        page.fill("#player-name", "Dee")
        page.locator("#player-name").dispatch_event("change")
        page.check("input[name=pair-players][value='3']")
        page.select_option("#pair-preset", "marguerite")
        wait_js(page, "document.querySelector('#pair-rating').textContent.includes('Not rated yet')")
        assert "play like" not in page.locator("#pair-rating").inner_text()
        assert page.locator("#pair-bot-level").is_visible()
        page.click("#pair-bot-level")
        page.wait_for_url("**/r/*", timeout=15_000)
        room = page.url.rsplit("/r/", 1)[1]
        info = httpx.get(f"{clocked_server}/api/rooms/{room}", timeout=10).json()
        assert info["rules"]["preset"] == "marguerite" and info["players"] == 3
        assert [s.get("level") for s in info["seats"][1:]] == [level, level]
    assert errors == []
