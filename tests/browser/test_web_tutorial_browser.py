"""The guided first game in the browser (#/learn), played through in Playwright.

From the start page's "New to Roppyakken?" link, a learner plays the tutorial's
scripted round on the real table in each language: each step waits for its move
(a wrong move is refused and changes nothing), then explains it, until the instant
win; both answers to the lucky-hand question lead to the end.  Runs Debian's
Chromium against a real ``roppyakken serve``, as ``test_web_e2e_browser`` does (and
fails in CI when the browser is missing).
"""

from __future__ import annotations

import re

from playwright.sync_api import Browser, Page, ViewportSize

from tests.harness.browser import DESKTOP, PHONE, new_context, watch_errors
from tests.harness.tutorial_steps import (
    SCRIPT,
    play_through,
)


def _open(chrome: Browser, base: str, lang: str, viewport: ViewportSize = DESKTOP) -> Page:
    """The start page in ``lang``, then the tutorial through its "New to Roppyakken?" link."""
    ctx = new_context(chrome, viewport, phone=viewport is PHONE)
    ctx.add_init_script(f"try {{ localStorage.setItem('roppyakken-lang', '{lang}'); }} catch (e) {{}}")
    page = ctx.new_page()
    page.goto(base + "/")
    page.click("#tutorial-link")
    page.wait_for_selector("#tutorial-panel[data-step='welcome']")
    return page


def test_play_the_tutorial_through_declaring(server: str, browser: Browser) -> None:
    page = _open(browser, server, "en")
    errors: list[str] = []
    watch_errors(page, errors)
    assert "/static/cards/" in (page.get_attribute(".tutorial-table .hand img", "src") or "")
    play_through(page, "en", True, errors, keyboard=True)
    # The declared Hand Three is in the log and the round's score.
    assert page.locator(".tutorial-table .log").inner_text().count("Hand Three") >= 1
    page.click("#tutorial-play")
    page.wait_for_selector("#player-name")
    page.context.close()


def test_play_the_tutorial_through_in_each_language(server: str, browser: Browser) -> None:
    for lang, viewport in (
        ("ja", DESKTOP),
        ("ko", PHONE),
        ("fr", DESKTOP),
        ("pt-BR", PHONE),
        ("es", PHONE),
        ("de", PHONE),
        ("zh-Hant", PHONE),
    ):
        page = _open(browser, server, lang, viewport)
        errors: list[str] = []
        watch_errors(page, errors)
        invite = page.locator("#tutorial-panel h1").inner_text()
        assert re.search(SCRIPT[lang], invite) or lang in ("fr", "pt-BR"), invite
        play_through(page, lang, False, errors, eager="match-month" if lang == "fr" else "")
        page.context.close()
