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
from typing import TYPE_CHECKING, Any

import pytest

from roppyakken.record import dumps, record_of
from roppyakken.rules import preset
from tests.support import require_module
from tests.test_record_commitment import SALT, played
from tests.test_web_e2e_browser import (  # noqa: F401 - fixtures
    DESKTOP,
    SHOW_STATE,
    _context,
    _round_end_message,
    _start_bot_game,
    _state_where,
    _until_my_play,
    _watch_errors,
    browser,
    server,
    wait_js,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


LANGUAGES = ("en", "ja", "ko", "fr", "de")
SERIOUS = ("serious", "critical")


def _axe() -> Any:
    """axe-core's runner for Playwright (the ``test`` extra installs it)."""
    module = require_module("axe_playwright_python.sync_playwright", "pip install 'roppyakken[test]'")
    return module.Axe()


def _problems(page: Page, where: str) -> list[str]:
    """The serious and critical violations axe finds on ``page``, one line each."""
    results = _axe().run(page)
    found: list[dict[str, Any]] = results.response["violations"]
    return [
        f"{where}: {v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(str(n["target"]) for n in v["nodes"][:4])
        for v in found
        if v.get("impact") in SERIOUS
    ]


def _in_language(page: Page, lang: str) -> None:
    page.add_init_script(f"try {{ localStorage.setItem('roppyakken-lang', '{lang}'); }} catch (e) {{}}")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_serious_accessibility_violation_on_any_page(
    server: str,  # noqa: F811
    browser: Browser,  # noqa: F811
    lang: str,
    tmp_path: Path,
) -> None:
    ctx = _context(browser, DESKTOP)
    page = ctx.new_page()
    _in_language(page, lang)
    errors: list[str] = []
    _watch_errors(page, errors)
    problems: list[str] = []

    page.goto(server + "/")
    page.wait_for_selector("#player-name")
    page.wait_for_selector(".games h2 + *")
    assert page.evaluate("document.documentElement.lang") == lang
    problems += _problems(page, "start page")

    # A room for friends: its waiting room, and its join form as the invited player sees it.
    page.fill("#player-name", "Hana")
    page.check("#online-hints")
    page.click("#play-online button[type=submit]")
    invite = page.input_value(".invite-link")
    problems += _problems(page, "waiting room")
    guest = _context(browser, DESKTOP).new_page()
    _in_language(guest, lang)
    guest.goto(invite)
    guest.wait_for_selector("form.join .join-rules-help")
    guest.click("form.join .join-rules-help summary")
    problems += _problems(guest, "join form")
    guest.context.close()

    _start_bot_game(page, server, "Hana", 3)
    _until_my_play(page)
    page.locator(".hand button.card.can-capture, .hand button.card").first.click()
    problems += _problems(page, "table mid-game")
    page.locator(".prompt .hint-button").click()
    wait_js(page, "document.querySelectorAll('.hint-panel .hint-move').length > 0", timeout=60)
    problems += _problems(page, "hint")

    # The round-end breakdown over a table (the table of a 3-player game drawn from the engine).
    page.goto(server + "/#/rules")
    page.wait_for_selector(".rules-table")
    problems += _problems(page, "rules page")
    msg = _state_where(lambda v: v.phase == "play", players=3)
    msg["names"] = ["Alice", "bot:master", "bot:expert"]
    page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("classic").options()})
    page.evaluate("(m) => { window.gv.onRoundEnd(m); }", _round_end_message())
    page.wait_for_selector("dialog.round-end[open]")
    problems += _problems(page, "round end")
    page.locator("dialog.round-end .dialog-actions button").click()

    page.goto(server + "/#/calc")
    page.wait_for_selector(".calc-grid [data-slug='pine-crane']")
    for slug in ("pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"):
        page.click(f".calc-grid [data-slug='{slug}']")
    page.click(".calc-score")
    page.wait_for_selector(".calc-result .breakdown")
    problems += _problems(page, "calculator")

    record = tmp_path / "game.json"
    record.write_text(dumps(record_of(played(preset("classic"), 12), ["Hana", "bot:master"], salt=SALT)))
    page.goto(server + "/#/replay")
    page.set_input_files("#replay-file", str(record))
    page.wait_for_selector(".replay-board .card")
    page.click(".replay-forward")
    problems += _problems(page, "replay")

    assert problems == [], "\n".join(problems)
    assert errors == []
    ctx.close()
