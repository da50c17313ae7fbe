"""The account page in the browser (Debian's Chromium driven by Playwright, a real ``roppyakken serve``):
a guest who played makes a password account and is shown its recovery codes once; a second browser
profile signs in and sees the same games; wrong passwords are refused until the sign-in name is
rate-limited, with one line; the owner downloads their data and deletes the account.  A player who
forgot the password gets back in with a recovery code, makes new codes, and follows a reset link the
operator issued.  The page's forms pass axe-core in every language."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from roppyakken.server.people import accounts
from tests.harness.axe import LANGUAGES, axe_problems, in_language
from tests.harness.browser import (
    DESKTOP,
    PASSWORD,
    Server,
    chromium,
    make_account,
    need_browser,
    new_context,
    serving,
    start_bot_game,
    wait_js,
    watch_errors,
)
from tests.harness.support import run_cli

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``roppyakken serve`` with the cheap argon2id parameters (passwords.SETTING)."""
    need_browser()
    with serving(tmp_path_factory.mktemp("web-account"), cheap_passwords=True) as running:
        yield running


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of the test's own: the module's others sign in from 127.0.0.1 too (an account made
    in each language), and a test of signing in must not start past the address's limit."""
    need_browser()
    with serving(tmp_path, cheap_passwords=True) as running:
        yield running


@pytest.fixture(scope="module")
def server(served: Server) -> str:
    """Its address."""
    return served.url


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Browser]:
    """Headless Debian Chromium."""
    with chromium() as b:
        yield b


def _sign_in(page: Page, login: str, password: str) -> None:
    page.fill("#sign-in-login", login)
    page.fill("#sign-in-password", password)
    page.click("#sign-in button[type=submit]")


def _error(page: Page) -> str:
    done = "!document.querySelector('#sign-in .error').hidden"
    wait_js(page, done + " && !document.querySelector('#sign-in button').disabled")
    return page.locator("#sign-in .error").inner_text()


def test_a_password_account_from_making_to_deleting(server: str, browser: Browser) -> None:
    errors: list[str] = []
    first = new_context(browser, DESKTOP).new_page()
    watch_errors(first, errors)
    start_bot_game(first, server, "Hana", 1)
    room = re.sub(r".*/r/", "", first.url)

    # the guest makes an account: the game it played is the account's
    first.goto(server + "/#/account")
    codes = make_account(first, "Hana")
    assert len(codes) == 10 and all(re.fullmatch(r"[0-9a-z]{4}(-[0-9a-z]{4}){3}", c) for c in codes)
    assert "hana" in first.inner_text("#signed-in-as")
    assert first.locator("#recovery-codes").count() == 0  # shown once
    assert first.locator(f".account-games a:text-is('{room}')").count() == 1

    # another browser profile signs in and sees the same games
    second = new_context(browser, DESKTOP).new_page()
    watch_errors(second, errors)
    second.goto(server + "/#/account")
    _sign_in(second, "HANA", PASSWORD)
    second.wait_for_selector("#signed-in-as")
    assert second.locator(f".account-games a:text-is('{room}')").count() == 1
    assert second.locator(".account-sessions tbody tr").count() == 2

    # signed out, wrong passwords are refused until the name is limited: one line each time
    first.click("#sign-out")
    first.wait_for_selector("#sign-in")
    seen = []
    for _ in range(accounts.LOGIN_ATTEMPTS + 1):
        _sign_in(first, "hana", "not the password")
        seen.append(_error(first))
        if seen[-1].startswith("Too many"):
            break
        first.evaluate("document.querySelector('#sign-in .error').hidden = true")
    assert seen[:-1] == ["Wrong sign-in name or password."] * (len(seen) - 1) and len(seen) >= 2
    assert re.fullmatch(r"Too many sign-in attempts: try again in \d+ min\.", seen[-1])
    assert first.locator("#sign-in .error").evaluate("e => e.getClientRects().length") == 1  # one line
    _sign_in(first, "hana", PASSWORD)  # the right password too, while limited
    assert _error(first).startswith("Too many")

    # the owner, still signed in on the second profile, downloads their data
    with second.expect_download() as download:
        second.click("#account-export")
    exported = json.loads(Path(download.value.path()).read_text())
    assert exported["account"]["login"] == "hana"
    assert [g["room"] for g in exported["games"]] == [room]
    assert PASSWORD not in json.dumps(exported)

    # and deletes the account (its password, and the box ticked)
    second.fill("#delete-password", PASSWORD)
    second.check("#delete-confirm")
    second.click("#delete-account button[type=submit]")
    second.wait_for_selector("#account-deleted")
    second.reload()
    second.wait_for_selector("#sign-in")
    assert second.request.get(f"{server}/api/me").json() == {"player": None, "csrf": None, "account": None}
    assert errors == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_account_pages_pass_axe_in_every_language(server: str, browser: Browser, lang: str) -> None:
    page = new_context(browser, DESKTOP).new_page()
    in_language(page, lang)
    page.goto(server + "/#/account")
    page.wait_for_selector("#make-account")
    problems = axe_problems(page, f"account page, signed out ({lang})")
    page.fill("#make-login", f"axe-{lang}")
    page.fill("#make-password", PASSWORD)
    page.click("#make-account button[type=submit]")
    page.wait_for_selector("#recovery-codes")
    problems += axe_problems(page, f"recovery codes ({lang})")
    page.click("#recovery-codes-done")
    page.wait_for_selector("#signed-in-as")
    problems += axe_problems(page, f"account page, signed in ({lang})")
    assert problems == []


def _recovery_error(page: Page) -> str:
    wait_js(page, "!document.querySelector('#recover .error').hidden")
    return page.locator("#recover .error").inner_text()


def test_a_forgotten_password_a_recovery_code_new_codes_and_a_reset_link(
    own_server: Server, browser: Browser
) -> None:
    served = own_server
    server = served.url
    errors: list[str] = []
    owner = new_context(browser, DESKTOP).new_page()
    watch_errors(owner, errors)
    owner.goto(server + "/#/account")
    codes = make_account(owner, "Riku")
    assert "10" in owner.inner_text("#recovery-codes-left")

    # on a new device, the password forgotten: a wrong code is one line, a right one lets them in
    lost_ctx = new_context(browser, DESKTOP)
    lost = lost_ctx.new_page()
    watch_errors(lost, errors)
    lost.goto(server + "/#/account")
    lost.fill("#recover-login", "riku")
    lost.fill("#recover-code", "0000-0000-0000-0000")
    lost.fill("#recover-password", "my new password")
    lost.click("#recover button[type=submit]")
    assert _recovery_error(lost) == "Wrong sign-in name or recovery code."
    lost.fill("#recover-code", codes[2].upper())
    lost.click("#recover button[type=submit]")
    lost.wait_for_selector("#signed-in-as", timeout=60_000)  # a code is checked against argon2id hashes
    assert "riku" in lost.inner_text("#signed-in-as")
    assert "9" in lost.inner_text("#recovery-codes-left")
    owner.reload()  # every other session ended
    owner.wait_for_selector("#sign-in")

    # new codes, confirmed with the new password: shown once, and the old ones end
    lost.fill("#codes-password", "my new password")
    lost.click("#new-codes button[type=submit]")
    lost.wait_for_selector("#recovery-codes")
    fresh = lost.locator(".recovery-code-list code").all_inner_texts()
    assert len(fresh) == 10 and not set(fresh) & set(codes)
    lost.click("#recovery-codes-done")
    lost.wait_for_selector("#signed-in-as", timeout=60_000)  # a code is checked against argon2id hashes

    # the operator's reset link, opened on a third device: the token leaves the address bar
    code, out, err = run_cli(
        ["admin", "reset-link", "riku", "--database", f"sqlite:///{served.db}", "--site", server]
    )
    assert code == 0, err
    link = out.split(": ", 1)[1].strip()
    third = new_context(browser, DESKTOP).new_page()
    watch_errors(third, errors)
    third.goto(link)
    third.wait_for_selector("#reset-password")
    assert "/reset/" not in third.url
    assert axe_problems(third, "reset page") == []
    third.fill("#reset-new-password", "reset password here")
    third.click("#reset-password button[type=submit]")
    third.wait_for_selector("#signed-in-as")
    assert "riku" in third.inner_text("#signed-in-as")
    # used once: the same link again says so in one line
    again = new_context(browser, DESKTOP).new_page()
    again.goto(link)
    again.fill("#reset-new-password", "another password here")
    again.click("#reset-password button[type=submit]")
    wait_js(again, "!document.querySelector('#reset-password .error').hidden")
    assert "reset link" in again.locator("#reset-password .error").inner_text()
    assert errors == []
