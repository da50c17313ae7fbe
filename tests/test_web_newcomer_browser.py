"""What a newcomer met in the browser: each finding, measured in Debian's Chromium.

Playwright drives the real client against a real ``roppyakken serve``, as in
test_web_e2e_browser.py (under CI=true a missing browser fails).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

from playwright.sync_api import Error as PlaywrightError

from roppyakken.record import dumps, record_of
from roppyakken.rules import preset
from tests.test_korean import CASES
from tests.test_record_commitment import SALT, played
from tests.test_web_e2e_browser import (  # noqa: F401 - fixtures
    DESKTOP,
    HOUSE_RULES,
    PHONE,
    SHOW_STATE,
    _context,
    _start_bot_game,
    _state_where,
    _step,
    _table_page,
    _until_my_play,
    _watch_errors,
    browser,
    server,
    wait_js,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

KANA = re.compile(r"[\u3040-\u30ff]")


def _lang_context(browser: Browser, lang: str, viewport: dict[str, int] = DESKTOP, *, phone: bool = False) -> BrowserContext:  # noqa: F811
    ctx = _context(browser, viewport, phone=phone)  # type: ignore[arg-type]
    ctx.add_init_script(f"try {{ localStorage.setItem('roppyakken-lang', '{lang}'); }} catch (e) {{}}")
    return ctx


def test_the_skip_link_speaks_the_pages_language(server: str, browser: Browser) -> None:  # noqa: F811
    for lang, words in (("ko", "게임"), ("fr", "partie"), ("ja", "対局")):
        ctx = _lang_context(browser, lang)
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_selector(".top-nav")
        text = page.locator(".skip-link").text_content() or ""
        assert words in text, (lang, text)
        if lang != "ja":
            assert not KANA.search(text), (lang, text)
        ctx.close()


def test_korean_particles_in_the_browser(server: str, browser: Browser) -> None:  # noqa: F811
    ctx = _lang_context(browser, "ko")
    page = ctx.new_page()
    page.goto(server + "/#/rules")
    page.wait_for_selector(".rules-table")
    texts = [text for text, _ in CASES]
    got = page.evaluate(
        "async (texts) => { const k = await import('/static/js/korean.js'); return texts.map(k.particles); }",
        texts,
    )
    assert got == [expected for _, expected in CASES]
    # The page's own translator resolves them in the lines it fills.
    line = page.evaluate(
        """async () => { const { t } = await import('/static/js/i18n.js');
             return [t('{who} declares nothing.', {who: '민수'}), t('{who} declares nothing.', {who: 'Tom'}),
                     t('{who} plays {card}, taking {taken}.', {who: 'Kenji', card: '송학', taken: '피'})]; }"""
    )
    assert line == ["민수는 선언하지 않음.", "Tom은 선언하지 않음.", "Kenji가 송학을 내어 피를 먹음."], line
    ctx.close()


def test_a_korean_game_log_has_no_particle_fallbacks(server: str, browser: Browser) -> None:  # noqa: F811
    ctx = _lang_context(browser, "ko")
    page = ctx.new_page()
    _start_bot_game(page, server, "민수", 4)
    deadline = time.monotonic() + 60
    while page.locator(".log li").count() < 8:
        assert time.monotonic() < deadline
        if _step(page) is None:
            page.wait_for_timeout(50)
    log = " ".join(page.locator(".log li").all_inner_texts())
    assert not re.search(r"이\(가\)|을\(를\)|은\(는\)|\(으\)로", log), log
    assert "민수가" in log or "민수는" in log, log
    ctx.close()


def test_fair_deal_text_in_japanese(server: str, browser: Browser, tmp_path: Path) -> None:  # noqa: F811
    ctx = _lang_context(browser, "ja")
    page = ctx.new_page()
    honest = tmp_path / "honest.json"
    honest.write_text(dumps(record_of(played(preset("classic"), 12), ["a", "b"], salt=SALT)))
    rigged = json.loads(honest.read_text())
    rigged["salt"] = "ab" * 16
    rigged_path = tmp_path / "rigged.json"
    rigged_path.write_text(json.dumps(rigged))
    page.goto(server + "/#/replay")
    page.set_input_files("#replay-file", str(honest))
    verdict = page.locator(".fair-deal")
    verdict.wait_for()
    assert "公正な配りを確認" in verdict.inner_text(), verdict.inner_text()
    page.set_input_files("#replay-file", str(rigged_path))
    page.locator(".fair-deal.error").wait_for()
    text = page.locator(".fair-deal").inner_text()
    assert "FAILED" not in text and "commitment" not in text and "約束" in text, text
    ctx.close()


def _guest_join_page(browser: Browser, server: str, lang: str, *, hints: bool) -> tuple[Page, Page]:  # noqa: F811
    host = _context(browser, DESKTOP).new_page()
    host.goto(server + "/")
    host.fill("#player-name", "Hana")
    if hints:
        host.check("#online-hints")
    host.click("#play-online button[type=submit]")
    invite = host.input_value(".invite-link")
    guest = _lang_context(browser, lang).new_page()
    guest.goto(invite)
    guest.wait_for_selector("form.join")
    return host, guest


def test_an_invited_player_sees_the_rules_hints_and_fair_deal_before_joining(server: str, browser: Browser) -> None:  # noqa: F811
    host, guest = _guest_join_page(browser, server, "en", hints=True)
    form = guest.locator("form.join").inner_text()
    assert "Classic" in form, form
    assert "Every player at this table may ask for hints." in form
    assert "Fair deal: the server has committed" in form
    guest.click("form.join .join-rules-help summary")
    assert guest.locator("form.join .rules-table").count() >= 1
    host.context.close()
    guest.context.close()
    host, guest = _guest_join_page(browser, server, "fr", hints=False)
    form = guest.locator("form.join").inner_text()
    assert "Les indices sont désactivés" in form, form
    assert "Donne équitable" in form, form
    host.context.close()
    guest.context.close()


def test_the_table_behind_the_round_end_dialog_is_the_rounds_end(server: str, browser: Browser) -> None:  # noqa: F811
    ctx = _context(browser, DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    _watch_errors(page, errors)
    _start_bot_game(page, server, "Hana", 1)
    deadline = time.monotonic() + 120
    while not page.locator("dialog.round-end[open]").count():
        assert time.monotonic() < deadline, "the round did not end"
        try:  # never _step here: it would close the round-end dialog this waits for
            state = page.locator(".prompt").get_attribute("data-state", timeout=1000)
            if state == "play":
                page.locator(".hand button.card").first.click(timeout=3000)
            if state in ("play", "take", "declare", "redeal"):
                page.locator(".prompt-actions button.act").first.click(timeout=3000)
            else:
                page.wait_for_timeout(30)
        except PlaywrightError:
            pass  # the page moved under the mouse (or the dialog opened): look again
    behind = page.evaluate(
        """() => ({
          hand: document.querySelectorAll('.hand button.card').length,
          toAct: document.querySelectorAll('.badge.to-act').length,
          sending: document.querySelectorAll('.prompt .sending, .prompt .waiting').length,
          state: document.querySelector('.prompt').dataset.state,
          counts: [...document.querySelectorAll('.hand-count')].map((e) => e.textContent),
          totals: [...document.querySelectorAll('.ptotal')].map((e) => e.textContent),
        })"""
    )
    assert behind["hand"] == 0 and behind["toAct"] == 0 and behind["sending"] == 0, behind
    assert behind["state"] == "round-over", behind
    assert all(c.startswith("0 ") for c in behind["counts"]), behind
    dialog_totals = page.locator("dialog.round-end").inner_text()
    for total in behind["totals"]:
        assert total.split()[0] in dialog_totals, (total, dialog_totals)
    assert errors == []
    ctx.close()
