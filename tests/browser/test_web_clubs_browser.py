"""Clubs in the browser (Debian's Chromium driven by Playwright, a real ``roppyakken serve``): one
profile makes a club by request, a second one (on a phone) asks to join, the first accepts, both chat
(the second by keyboard alone) and each reads the other's lines as they come, the owner hides a
line and it is gone from both pages.  The clubs' pages pass axe-core in every language."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from tests.harness.axe import LANGUAGES, axe_problems, in_language
from tests.harness.browser import (
    DESKTOP,
    PHONE,
    Server,
    chromium,
    make_account,
    need_browser,
    new_context,
    serving,
    wait_js,
    watch_errors,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``roppyakken serve`` with the cheap argon2id parameters (passwords.SETTING)."""
    need_browser()
    with serving(tmp_path_factory.mktemp("web-clubs"), cheap_passwords=True) as running:
        yield running


@pytest.fixture(scope="module")
def browser(served: Server) -> Iterator[Browser]:
    """Headless Debian Chromium."""
    with chromium() as b:
        yield b


def _lines(page: Page) -> list[str]:
    texts: list[str] = page.locator("#club-chat-lines .chat-text").all_inner_texts()
    return texts


def _until_lines(page: Page, expected: list[str]) -> None:
    """Wait (polled, with a deadline) until the page's chat shows exactly ``expected``."""
    lines = "[...document.querySelectorAll('#club-chat-lines .chat-text')].map(e => e.textContent)"
    wait_js(
        page,
        f"JSON.stringify({lines}) === {json.dumps(json.dumps(expected, separators=(',', ':')))}",
        timeout=20,
    )


def test_a_club_by_request_its_members_and_its_moderated_chat(browser: Browser, served: Server) -> None:
    server = served.url
    errors: list[str] = []
    owner_ctx, joiner_ctx = new_context(browser, DESKTOP), new_context(browser, PHONE, phone=True)
    try:
        owner, joiner = owner_ctx.new_page(), joiner_ctx.new_page()
        for page, login in ((owner, "clubowner"), (joiner, "clubjoiner")):
            watch_errors(page, errors)
            page.goto(f"{server}/#/account")
            make_account(page, login)

        # the owner makes a club that takes members by request
        owner.goto(f"{server}/#/clubs")
        owner.fill("#club-name", "Moonlit Pampas")
        owner.fill("#club-description", "We play Koikoi-style evenings.\nAll welcome.")
        owner.select_option("#club-admission", "request")
        owner.click("#club-create button[type=submit]")
        owner.wait_for_selector("h1:has-text('Moonlit Pampas')")
        club = owner.evaluate("location.hash").split("/")[-1]
        assert owner.locator("#club-role").inner_text().endswith("Owner")

        # the second player finds it by searching and asks to join, by keyboard
        joiner.goto(f"{server}/#/clubs")
        joiner.fill("#club-search", "moonlit")
        joiner.press("#club-search", "Enter")
        joiner.wait_for_selector(f"#club-results [data-club='{club}'] a")
        joiner.click(f"#club-results [data-club='{club}'] a")
        joiner.wait_for_selector("#club-join")
        joiner.focus("#club-join")
        joiner.keyboard.press("Enter")
        joiner.wait_for_selector("#club-requested")

        # the owner sees the request and accepts it
        owner.reload()
        owner.wait_for_selector("#club-pending-list li")
        assert "clubjoiner" in owner.locator("#club-pending-list").inner_text()
        owner.click("#club-pending-list li button.primary")
        owner.wait_for_selector(".club-members tbody tr:nth-child(2)")
        assert owner.locator(".club-members tbody tr").count() == 2

        # both chat; each reads the other's lines without reloading
        joiner.reload()
        joiner.wait_for_selector("#club-chat-text")
        owner.fill("#club-chat-text", "welcome to the club")
        owner.press("#club-chat-text", "Enter")
        _until_lines(joiner, ["welcome to the club"])
        joiner.focus("#club-chat-text")
        joiner.keyboard.type("thanks! <b>not bold</b>")
        joiner.keyboard.press("Enter")
        _until_lines(owner, ["welcome to the club", "thanks! <b>not bold</b>"])
        assert owner.locator("#club-chat-lines b").count() == 0  # text, never markup
        joiner.fill("#club-chat-text", "buy cheap coins here")
        joiner.press("#club-chat-text", "Enter")
        _until_lines(owner, ["welcome to the club", "thanks! <b>not bold</b>", "buy cheap coins here"])
        assert joiner.locator("#club-chat-lines .club-hide").count() == 0  # members do not hide

        # the owner hides the spam: it is gone for both
        owner.locator("#club-chat-lines li", has_text="buy cheap coins").locator(".club-hide").click()
        _until_lines(owner, ["welcome to the club", "thanks! <b>not bold</b>"])
        _until_lines(joiner, ["welcome to the club", "thanks! <b>not bold</b>"])

        # the owner's settings: folded, opened by keyboard, saved
        owner.focus(".club-settings > summary")
        owner.keyboard.press("Enter")
        owner.fill("#club-settings-description", "Evenings only.")
        owner.click("#club-settings button[type=submit]")
        owner.wait_for_selector(".club-description:has-text('Evenings only.')")
        owner.click(".club-settings > summary")
        problems = axe_problems(owner, "club page (owner)") + axe_problems(
            joiner, "club page (member, phone)"
        )
        assert problems == []
        # on the phone nothing is wider than the screen
        assert joiner.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")

        # the owner's leaving is asked first: dismissed, nothing changes; accepted, the club is handed over
        owner.once("dialog", lambda dialog: dialog.dismiss())
        owner.click("#club-leave")
        wait_js(owner, "!document.querySelector('#club-leave').disabled")
        assert owner.locator("#club-role").inner_text().endswith("Owner")
        owner.once("dialog", lambda dialog: dialog.accept())
        owner.click("#club-leave")
        owner.wait_for_selector(".club-actions button.primary")  # not a member now: "Ask to join"
        joiner.reload()
        joiner.wait_for_selector("#club-role")
        assert joiner.locator("#club-role").inner_text().endswith("Owner")
        assert errors == []
    finally:
        owner_ctx.close()
        joiner_ctx.close()


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_clubs_pages_pass_axe_in_every_language(browser: Browser, served: Server, lang: str) -> None:
    server = served.url
    ctx = new_context(browser, DESKTOP)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        in_language(page, lang)
        page.goto(f"{server}/#/account")
        make_account(page, f"axe{lang.replace('-', '').lower()}")
        page.goto(f"{server}/#/clubs")
        page.wait_for_selector("#club-create")
        problems = axe_problems(page, f"clubs ({lang})")
        page.fill("#club-name", f"Axe club {lang}")
        page.click("#club-create button[type=submit]")
        page.wait_for_selector("#club-chat-text")
        page.fill("#club-chat-text", "hello")
        page.press("#club-chat-text", "Enter")
        page.wait_for_selector("#club-chat-lines li")
        problems += axe_problems(page, f"club page ({lang})")
        assert problems == []
        assert page.evaluate("document.documentElement.lang") == lang
        assert errors == []
    finally:
        ctx.close()


def test_a_club_tournament_made_from_the_club_page_is_listed_there(browser: Browser, served: Server) -> None:
    """On a phone, by keyboard: the owner's "Make a club tournament" opens the form set to club-only;
    the tournament's page names the club with a link back, and the club page lists it."""
    server = served.url
    ctx = new_context(browser, PHONE, phone=True)
    try:
        page = ctx.new_page()
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(f"{server}/#/account")
        make_account(page, "clubcupowner")
        page.goto(f"{server}/#/clubs")
        page.fill("#club-name", "Autumn Cups")
        page.click("#club-create button[type=submit]")
        page.wait_for_selector(".club-tournaments")
        club = page.evaluate("location.hash").split("/")[-1]
        assert "No club tournament yet." in page.locator(".club-tournaments").inner_text()
        page.focus("#club-make-tournament")
        page.keyboard.press("Enter")
        page.wait_for_selector("#make-tournament")
        assert page.evaluate("document.activeElement.id") == "t-name"
        assert page.locator("#t-visibility").input_value() == "club"
        page.keyboard.type("Maple cup")
        page.fill("#t-starts", "30")
        page.focus("#make-tournament button[type=submit]")
        page.keyboard.press("Enter")
        page.wait_for_selector(".tournament-club a")
        assert "Club tournament" in page.locator(".tournament-club").inner_text()
        assert page.locator(".tournament-club a").inner_text() == "Autumn Cups"
        page.click(".tie-breaks > summary")  # the order of tie-breaks, unfolded
        assert page.locator(".tie-breaks li").count() == 4
        assert axe_problems(page, "club tournament page (phone)") == []
        page.click(".tournament-club a")
        page.wait_for_selector(".club-tournaments li a")
        assert page.evaluate("location.hash") == f"#/club/{club}"
        assert page.locator(".club-tournaments li a").inner_text() == "Maple cup"
        assert axe_problems(page, "club page with a tournament (phone)") == []
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
        assert errors == []
    finally:
        ctx.close()
