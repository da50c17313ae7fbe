"""The browser client in Japanese: the header's switcher, a whole game, no English left.

Runs Debian's Chromium through Playwright against a real ``roppyakken serve``, as
``test_web_e2e_browser`` does (and fails in CI when the browser is missing).
"""

from __future__ import annotations

import re
import time

from playwright.sync_api import Browser, Page

from tests.harness.browser import (
    BOT_GAME_SEED,
    DESKTOP,
    GAME_SECONDS,
    fill_bot_game,
    new_context,
    play_step,
    watch_errors,
)

ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
# Words that are the same in every language: the player's own name and the game's name.
ALLOWED = {"Hanako", "Roppyakken"}


def _english_words(page: Page, selector: str) -> list[str]:
    """English words in the visible text under ``selector`` (attributes such as slugs do not count)."""
    texts = page.locator(selector).evaluate_all("els => els.map(e => e.innerText)")
    words = ENGLISH_WORD.findall(" ".join(str(t) for t in texts))
    return [w for w in words if w not in ALLOWED]


def test_a_game_in_japanese_shows_no_english(server: str, browser: Browser) -> None:
    ctx = new_context(browser, DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server + "/")
    assert page.evaluate("document.documentElement.lang") == "en"
    assert page.locator(".top-nav").inner_text().count("Play") == 1

    # The header's switcher: the page reloads in Japanese, and stays Japanese after a reload.
    with page.expect_navigation():
        page.select_option("#lang-select", "ja")
    page.wait_for_selector(".top-nav")
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert "プレイ" in page.locator(".top-nav").inner_text()
    page.reload()
    page.wait_for_selector("#player-name")
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert page.locator("#lang-select").input_value() == "ja"
    assert "得点計算" in page.locator(".top-nav").inner_text()
    assert not _english_words(page, "#play-bots"), "the start page's game form is in Japanese"

    fill_bot_game(page, "Hanako", BOT_GAME_SEED)
    assert page.locator(".opponents .pname").inner_text() == "モモ"  # the random bot's name
    assert page.locator(".opponents .badge.bot").inner_text() == "ランダムボット"
    title = page.locator(".hand button.card").first.get_attribute("title") or ""
    assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", title), f"card names in Japanese: {title!r}"

    # Play the whole game, checking the table (and any open dialog) after every decision.
    seen: dict[str, int] = {}
    checks = 0
    deadline = time.monotonic() + GAME_SECONDS
    while time.monotonic() < deadline:
        found = _english_words(page, "#app") + _english_words(page, "dialog[open]")
        assert not found, f"English on the table: {sorted(set(found))}"
        checks += 1
        result = play_step(page)
        if result is not None:
            seen[result] = seen.get(result, 0) + 1
        if result == "over":
            break
        if result is None:
            time.sleep(0.05)
    else:
        raise AssertionError(f"the game did not end within {GAME_SECONDS} s ({seen})")
    assert seen.get("play", 0) >= 4 and seen.get("dialog", 0) >= 1, seen
    assert not _english_words(page, "#app"), "the game-over box is in Japanese"
    assert "勝ち" in page.locator(".game-over .winner").inner_text()
    assert page.locator(".log li").count() >= 4
    assert not _english_words(page, ".log"), "the log is in Japanese"

    # The other pages too: the rules help (option names and values are slugs), the calculator,
    # the replay viewer (".json" names a file type).
    page.goto(server + "/#/rules?preset=yukbaek")
    page.wait_for_selector(".rules-desc")
    assert "ユクペク（韓国の六百）" in page.locator(".rules-desc").inner_text()
    code = page.locator("#app code, #app td:nth-child(2)").evaluate_all("els => els.map(e => e.innerText)")
    identifiers = set(ENGLISH_WORD.findall(" ".join(str(c) for c in code)))
    left = set(_english_words(page, "#app")) - identifiers
    assert not left, f"English on the rules page: {sorted(left)}"
    for path, ready in (("/#/calc", ".calc-month"), ("/#/replay", "#replay-file")):
        page.goto(server + path)
        page.wait_for_selector(ready, state="attached")
        left = set(_english_words(page, "#app")) - {"json"}
        assert not left, f"English on {path}: {sorted(left)}"
    assert not errors, errors
    ctx.close()
