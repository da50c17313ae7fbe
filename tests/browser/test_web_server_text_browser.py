"""A French page shows the server's errors in French (static/js/i18n.js ``serverText``).

A stale seat token refused by the websocket's hello, and a join refused over HTTP, are shown
as the server's template said in the page's language, not as the server's English line.
Runs Debian's Chromium through Playwright against a real ``roppyakken serve``, as
``test_web_e2e_browser`` does (and fails in CI when the browser is missing).
"""

from __future__ import annotations

import httpx
from playwright.sync_api import Browser

from roppyakken.errors import Phrase
from roppyakken.server.wire import text, wording
from tests.harness.browser import DESKTOP, new_context, watch_errors
from tests.harness.said import said_in

FRENCH = "try { localStorage.setItem('roppyakken-lang', 'fr'); } catch (e) {}"


def test_a_french_page_shows_refusals_in_french(server: str, browser: Browser) -> None:
    created = httpx.post(server + "/api/rooms", json={"name": "Alice", "players": 2}, timeout=10)
    assert created.status_code == 201, created.text
    room = created.json()["room"]
    ctx = new_context(browser, DESKTOP)
    ctx.add_init_script(FRENCH)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)

    # A seat token the room does not know: the websocket's hello is refused, the page forgets
    # the token and offers to join, saying why in French.
    page.goto(server + "/")
    assert page.evaluate("document.documentElement.lang") == "fr"
    page.evaluate("([room]) => localStorage.setItem('roppyakken:' + room, 'a-stale-token')", [room])
    page.goto(f"{server}/r/{room}")
    notice = page.locator("form.join .notice")
    notice.wait_for()
    stale = Phrase(text.BAD_TOKEN, room=room)
    assert notice.inner_text() == said_in("fr", wording.as_json(stale))
    assert notice.inner_text() == f"ce jeton de place n’appartient pas à la salle '{room}'"
    assert "does not belong" not in page.locator("#app").inner_text()

    # A name the server refuses: its 400 answer is shown in French.
    page.fill("#join-name", "bot:Bernard")
    page.click("form.join button[type=submit]")
    error = page.locator("form.join .error")
    error.wait_for()
    assert error.inner_text() == said_in("fr", {"template": text.NAME_NOT_BOT, "fields": {}})
    assert "ne doit pas ressembler" in error.inner_text() and "must not look like" not in error.inner_text()
    assert not errors, errors
    ctx.close()
