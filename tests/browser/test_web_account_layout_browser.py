"""The account page's layout in the browser (Debian's Chromium driven by Playwright, a real
``roppyakken serve`` of this module's own: sign-ins are limited per address, and every browser here
is 127.0.0.1): a signed-out visit asks for no account, labels stand clear of their inputs, and the
sessions table reads cleanly in Korean."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.harness.axe import in_language
from tests.harness.browser import DESKTOP, make_account, need_browser, new_context, serving

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``roppyakken serve`` with the cheap argon2id parameters: its address."""
    need_browser()
    with serving(tmp_path_factory.mktemp("web-account-layout"), cheap_passwords=True) as running:
        yield running.url


def test_a_signed_out_visit_is_refused_nothing(server: str, browser: Browser) -> None:
    """Signed out, the page asks for the account only with a session: no 401, no console error."""
    page = new_context(browser, DESKTOP).new_page()
    said: list[str] = []
    page.on("console", lambda m: said.append(m.text) if m.type == "error" else None)
    page.on("response", lambda r: said.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(server + "/#/account")  # a new visitor
    page.wait_for_selector("#make-account")
    page.goto(server + "/")
    with page.expect_response(lambda r: r.url.endswith("/api/me") and r.request.method == "POST"):
        page.fill("#player-name", "Eve")
        page.locator("#player-name").dispatch_event("change")
    page.goto(server + "/#/account")  # a guest with a player cookie
    page.wait_for_selector("#make-account")
    assert said == []
    page.context.close()


def test_two_namings_at_once_make_one_player(server: str, browser: Browser) -> None:
    """The start page names its visitor at once; a name typed while that is under way waits for it:
    both calls end with one player (the last name), and no change is refused for its CSRF token."""
    page = new_context(browser, DESKTOP).new_page()
    refused: list[str] = []
    page.on("response", lambda r: refused.append(f"{r.status} {r.url}") if r.status >= 400 else None)
    page.goto(server + "/#/account")
    page.wait_for_selector("#make-account")
    made = page.evaluate(
        """async () => {
             const live = await import("/static/js/lobbylive.js");
             const both = await Promise.all([live.ensurePlayer("Ann"), live.ensurePlayer("Bea")]);
             const me = await (await fetch("/api/me")).json();
             return [both[0].id, both[1].id, me.player.id, me.player.name];
           }"""
    )
    assert made[0] == made[1] == made[2], made
    assert made[3] == "Bea"
    assert refused == []
    page.context.close()


def test_the_account_pages_labels_and_sessions_table_read_cleanly(
    server: str,
    browser: Browser,
) -> None:
    """Every label stands clear of its input; every column of the sessions table has a visible
    header, and its last cell ("이 기기") stays on one line."""
    page = new_context(browser, DESKTOP).new_page()
    in_language(page, "ko")
    page.goto(server + "/#/account")
    page.wait_for_selector("#make-account")
    make_account(page, "layout-ko")
    gaps = page.evaluate(
        """() => [...document.querySelectorAll('.account-form label[for]')].map((label) => {
             const input = document.getElementById(label.htmlFor).getBoundingClientRect();
             const box = label.getBoundingClientRect();
             return box.top >= input.bottom ? 99 : input.left - box.right;
           })"""
    )
    assert gaps and min(gaps) >= 4, gaps
    headers = page.locator(".account-sessions thead th").evaluate_all(
        "ths => ths.map((th) => [th.innerText.trim(), th.getClientRects().length])"
    )
    assert all(text and shown == 1 for text, shown in headers), headers
    lines = page.evaluate(
        """() => { const cell = document.querySelector('.account-sessions tbody td:last-child');
                   const range = document.createRange(); range.selectNodeContents(cell);
                   return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size; }"""
    )
    assert page.locator(".account-sessions tbody td:last-child").inner_text() == "이 기기"
    assert lines == 1
    page.context.close()
