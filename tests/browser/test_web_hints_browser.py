"""Hints in the browser (Debian's Chromium driven by Playwright, as in test_web_e2e_browser.py).

A player alone against a bot asks for a hint, sees the expert's three plays with what each
brings, the cards of the expert's choice highlighted, plays one from the panel, and after
the round sees what the master would have played.  A spectator of the same game gets no
Hint button.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Browser
try:
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
except ImportError:  # pragma: no cover - the server fixture says what is missing (and fails in CI)
    PlaywrightTimeoutError = TimeoutError  # type: ignore[misc, assignment]

from tests.harness.browser import (
    DESKTOP,
    new_context,
    play_to_round_end,
    start_bot_game,
    until_my_play,
    wait_js,
    watch_errors,
)


def test_a_hint_shows_three_plays_and_the_round_end_shows_the_review(server: str, browser: Browser) -> None:
    ctx = new_context(browser, DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    start_bot_game(page, server, "Hana", 5)
    until_my_play(page)
    button = page.locator(".prompt .hint-button")
    assert button.inner_text() == "Hint"
    button.click()
    wait_js(page, "document.querySelectorAll('.hint-panel .hint-move').length === 3", timeout=60)
    panel = page.locator(".hint-panel")
    text = panel.inner_text()
    assert "Hint: what the expert would play" in text
    assert page.locator(".hint-panel .badge.expert-choice").count() == 1
    assert text.count("Points now:") == 3 and text.count("Expected round points:") == 3
    assert text.count("Risk: the opponents expect") == 3
    expert = page.locator(".hint-move.expert")
    card = expert.get_attribute("data-card")
    assert page.locator(f'.hand .card.hinted[data-slug="{card}"]').count() == 1
    # Playing the expert's choice from the panel: the card leaves the hand, the panel goes.
    expert.locator("button.hint-play").click()
    wait_js(page, f"!document.querySelector('.hand [data-slug=\"{card}\"]')")
    wait_js(page, "!document.querySelector('.hint-panel')")

    # A spectator of the same game has no Hint button.
    watcher_ctx = new_context(browser, DESKTOP)
    watcher = watcher_ctx.new_page()
    room = page.url.rsplit("/", 1)[1]
    watcher.goto(f"{server}/r/{room}")
    watcher.wait_for_selector(".hand-area, .table-cards .card")
    wait_js(watcher, "document.querySelectorAll('.table-cards .card').length > 0")
    assert watcher.locator(".hint-button").count() == 0
    watcher_ctx.close()

    # Play on to the end of the round: its dialog shows what the master would have played.
    play_to_round_end(page)
    dialog = page.locator("dialog.round-end[open]")
    assert "What the master would have played" in dialog.locator(".review").inner_text()
    wait_js(page, "!document.querySelector('.review .muted')", timeout=120)
    review = dialog.locator(".review").inner_text()
    assert re.search(r"Your turn \d+", review) or "as you did" in review, review
    if "Your turn" in review:
        assert "Master:" in review and "points given up" in review
    assert errors == []
    ctx.close()


def test_a_room_made_with_hints_on_shows_it_to_every_player(server: str, browser: Browser) -> None:
    """Two people: the host ticks "Allow hints for every player"; both see it, the one to play gets a hint."""
    errors: list[str] = []
    host_ctx, guest_ctx = new_context(browser, DESKTOP), new_context(browser, DESKTOP)
    host, guest = host_ctx.new_page(), guest_ctx.new_page()
    for p in (host, guest):
        watch_errors(p, errors)
    host.goto(server + "/")
    host.fill("#player-name", "Hana")
    host.check("#online-hints")
    host.click("#play-online button[type=submit]")
    invite = host.input_value(".invite-link")
    assert "Hints on" in host.locator(".waiting-room .hints-note").inner_text()
    guest.goto(invite)
    guest.fill("#join-name", "Kenji")
    guest.click("form.join button[type=submit]")
    guest.wait_for_selector(".waiting-room")
    assert "Every player at this table may ask for hints." in guest.locator(".hints-note").inner_text()
    host.wait_for_selector(".seat-human[data-seat='1']")
    host.click("button.start")
    for p in (host, guest):
        p.wait_for_selector(".hand button.card")
        assert p.locator(".status-bar .badge.hints-on").inner_text() == "Hints on"
    deadline = time.monotonic() + 60
    while True:  # whoever is to play a card asks; the other has no Hint button meanwhile
        assert time.monotonic() < deadline, "nobody was to play a card"
        mine = [p for p in (host, guest) if p.locator('.prompt[data-state="play"]').count()]
        if mine:
            break
        for p in (host, guest):
            if p.locator('.prompt[data-state="declare"], .prompt[data-state="redeal"]').count():
                p.locator(".prompt-actions button.act").first.click()
        host.wait_for_timeout(50)
    me, other = mine[0], guest if mine[0] is host else host
    assert other.locator(".hint-button").count() == 0
    me.locator(".prompt .hint-button").click()
    wait_js(me, "document.querySelectorAll('.hint-panel .hint-move').length === 3", timeout=60)
    assert errors == []
    for ctx in (host_ctx, guest_ctx):
        ctx.close()
