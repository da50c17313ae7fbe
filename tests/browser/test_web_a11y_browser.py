"""Accessibility as a measured property: axe-core over every page, in every language.

The start page, a waiting room and its join form, the table mid-game (a card chosen, its
targets lit) and its hint, the round-end dialog, the calculator with a result, the replay of
a finished game and the rules page are audited with axe-core (``axe-playwright-python``
bundles it) in English, Japanese, Korean and French: none may have a serious or critical
violation.  Debian's Chromium driven by
Playwright, as in test_web_e2e_browser.py; under CI=true a missing browser or axe fails.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from roppyakken.record import dumps, record_of
from roppyakken.rules import preset
from tests.harness.axe import LANGUAGES, axe_problems, in_language
from tests.harness.browser import (
    DESKTOP,
    SHOW_STATE,
    new_context,
    round_end_message,
    start_bot_game,
    state_where,
    until_my_play,
    wait_js,
    watch_errors,
)
from tests.harness.committed_games import SALT, played

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_serious_accessibility_violation_on_any_page(
    server: str,
    browser: Browser,
    lang: str,
    tmp_path: Path,
) -> None:
    ctx = new_context(browser, DESKTOP)
    page = ctx.new_page()
    in_language(page, lang)
    errors: list[str] = []
    watch_errors(page, errors)
    problems: list[str] = []

    page.goto(server + "/")
    page.wait_for_selector("#player-name")
    page.wait_for_selector(".games h2 + *")
    assert page.evaluate("document.documentElement.lang") == lang
    problems += axe_problems(page, "start page")

    # A room for friends: its waiting room, and its join form as the invited player sees it.
    page.fill("#player-name", "Hana")
    page.check("#online-hints")
    page.click("#play-online button[type=submit]")
    invite = page.input_value(".invite-link")
    problems += axe_problems(page, "waiting room")
    guest = new_context(browser, DESKTOP).new_page()
    in_language(guest, lang)
    guest.goto(invite)
    guest.wait_for_selector("form.join .join-rules-help")
    guest.click("form.join .join-rules-help summary")
    problems += axe_problems(guest, "join form")
    guest.context.close()

    start_bot_game(page, server, "Hana", 3)
    until_my_play(page)
    page.locator(".hand button.card.can-capture, .hand button.card").first.click()
    problems += axe_problems(page, "table mid-game")
    page.locator(".prompt .hint-button").click()
    wait_js(page, "document.querySelectorAll('.hint-panel .hint-move').length > 0", timeout=60)
    problems += axe_problems(page, "hint")

    # The round-end breakdown over a table (the table of a 3-player game drawn from the engine).
    page.goto(server + "/#/rules")
    page.wait_for_selector(".rules-table")
    problems += axe_problems(page, "rules page")
    msg = state_where(lambda v: v.phase == "play", players=3)
    msg["names"] = ["Alice", "bot:master", "bot:expert"]
    page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("classic").options()})
    page.evaluate("(m) => { window.gv.onRoundEnd(m); }", round_end_message())
    page.wait_for_selector("dialog.round-end[open]")
    problems += axe_problems(page, "round end")
    page.locator("dialog.round-end .dialog-actions button").click()

    page.goto(server + "/#/calc")
    page.wait_for_selector(".calc-grid [data-slug='pine-crane']")
    for slug in ("pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"):
        page.click(f".calc-grid [data-slug='{slug}']")
    page.click(".calc-score")
    page.wait_for_selector(".calc-result .breakdown")
    problems += axe_problems(page, "calculator")

    record = tmp_path / "game.json"
    record.write_text(dumps(record_of(played(preset("classic"), 12), ["Hana", "bot:master"], salt=SALT)))
    page.goto(server + "/#/replay")
    page.set_input_files("#replay-file", str(record))
    page.wait_for_selector(".replay-board .card")
    page.click(".replay-forward")
    problems += axe_problems(page, "replay")

    assert problems == [], "\n".join(problems)
    assert errors == []
    ctx.close()
