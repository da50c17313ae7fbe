"""The guided first game played through in a browser, step by step, as a player would: shared by
the tutorial's tests and the offline app's."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page

from roppyakken import i18n
from roppyakken.devtools import tutorialjson
from tests.harness.browser import wait_js
from tests.harness.support import require_module

SCRIPT = {
    "ja": r"[\u3040-\u30ff\u4e00-\u9fff]",
    "ko": r"[\uac00-\ud7a3]",
    "fr": r"[éèàç]|\b(les?|la|vous)\b",
    "pt-BR": r"[ãõçáéíóúâêô]|\b(você|sua|seu|uma)\b",
    "es": r"[áéíóúñ¿¡]|\b(las?|el|tu|partida)\b",
    "de": r"[äöüß]|\b(der|die|das|du)\b",
    "zh-Hant": r"[\u4e00-\u9fff]",
}


def typeset(text: str) -> str:
    """Text with the spacing before : ; ! ? % and the apostrophe made alike (the browser sets French
    typography on the messages it shares with the terminal: js/i18n.js)."""
    return re.sub(r"[ \u00a0\u202f]([:;!?%])", r"\1", text).replace("\u2019", "'")


def serious_violations(page: Page, where: str) -> list[str]:
    """The serious and critical accessibility violations axe-core finds in ``where`` (a selector:
    the lesson's own elements; the table's are audited with every page in test_web_a11y)."""
    axe = require_module("axe_playwright_python.sync_playwright", "pip install 'roppyakken[test]'")
    found: list[dict[str, Any]] = axe.Axe().run(page, context={"include": [[where]]}).response["violations"]
    return [
        f"{v['id']}: {v['help']} — " + "; ".join(str(n["target"]) for n in v["nodes"][:4])
        for v in found
        if v.get("impact") in ("serious", "critical")
    ]


def waiting(page: Page, step: str, what: str) -> None:
    wait_js(
        page,
        f"(p => p && p.dataset.step === '{step}' && p.dataset.waiting === '{what}')"
        "(document.getElementById('tutorial-panel'))",
    )


def press_next(page: Page) -> None:
    page.click("#tutorial-panel .tutorial-next")


def close_round_end(page: Page) -> None:
    dialog = page.locator("dialog.round-end[open]")
    if dialog.count():
        dialog.locator("button").click()


def make(page: Page, action: dict[str, Any]) -> None:
    """Make ``action`` on the table the way a player does: buttons, hand cards, table cards."""
    if action["type"] == "declare":
        cls = "primary" if action["hands"] else "act:not(.primary)"
        page.click(f".prompt-actions button.{cls}")
    elif action["type"] == "take":
        page.click(f".table-cards .card.target[data-slug='{action['target'][0]}']")
    else:
        page.click(f".hand button.card[data-slug='{action['card']}']")
        if action["target"]:
            page.click(f".table-cards .card.target[data-slug='{action['target'][0]}']")
        else:
            page.click(".prompt-actions button.act.primary")


def wrong_move(page: Page, accepted: dict[str, Any]) -> None:
    """A legal move the step does not ask for is refused, and the step still waits."""
    hand = page.locator(".hand button.card").evaluate_all("els => els.map(e => e.dataset.slug)")
    other = next(s for s in hand if s != accepted.get("card"))
    page.click(f".hand button.card[data-slug='{other}']")
    act = page.locator(".prompt-actions button.act.primary").first
    act.click()
    page.wait_for_selector(".tutorial-feedback:not([hidden])")
    assert page.locator(".hand button.card").count() == len(hand)  # nothing was played
    page.locator(".prompt .error").wait_for()


def play_through(
    page: Page, lang: str, declare: bool, errors: list[str], keyboard: bool = False, eager: str = ""
) -> None:
    """Every step in order; with ``keyboard``, Next and the lucky-hand answer by the Enter key
    alone (the page puts the focus where the step is answered); after step ``eager``, the next
    step's move is made without pressing Next (the page goes on to that step and takes it)."""
    data = tutorialjson.build()
    i18n.set_language(lang)
    skipped = False
    try:
        for index, step in enumerate(data["steps"]):
            panel = page.locator("#tutorial-panel")
            if step["accepts"]:
                if not skipped:
                    waiting(page, step["id"], "move")
                    assert not page.locator(".tutorial-next").is_visible()  # the step waits for its move
                    assert typeset(i18n._(step["message"])) in typeset(panel.inner_text())
                skipped = False
                action = step["accepts"][0 if declare or step["accepts"][0]["type"] != "declare" else 1]
                if keyboard and action["type"] == "declare":
                    page.keyboard.press("Enter")  # the focus is on the prompt's first answer
                    action = {}
                if step["id"] == "match-month":
                    wrong_move(page, action)
                    assert serious_violations(page, "#tutorial-panel") == [], lang
                if action:
                    make(page, action)
                for _ in range(50):  # the round's end shows its scores before the explanation
                    close_round_end(page)
                    if panel.get_attribute("data-waiting") == "next":
                        break
                    page.wait_for_timeout(100)
                waiting(page, step["id"], "next")
                assert typeset(i18n._(step["explanation"])) in typeset(panel.inner_text())
            else:
                waiting(page, step["id"], "next")
                assert typeset(i18n._(step["message"])) in typeset(panel.inner_text())
            counter = page.locator(".tutorial-counter").inner_text()
            assert str(index + 1) in counter and str(len(data["steps"])) in counter
            if lang != "en":
                assert re.search(SCRIPT[lang], panel.inner_text()), panel.inner_text()
            if step["id"] == eager:
                skipped = True
            elif keyboard:
                assert page.evaluate("document.activeElement.classList.contains('tutorial-next')")
                page.keyboard.press("Enter")
            else:
                press_next(page)
    finally:
        i18n.set_language("en")
    page.wait_for_selector("#tutorial-play")
    assert page.locator(".game-over:not([hidden])").count() == 1
    assert page.locator(".over-actions a[download]").count() == 0  # the lesson has no record
    assert errors == []
