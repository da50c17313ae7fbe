"""Passkeys in the browser (Debian's Chromium, headless, driven by Playwright) with Chromium's virtual
authenticator through the DevTools protocol (``WebAuthn.*``), no network: a guest plays a game against a
bot, makes an account with a passkey on #/signin; a second browser profile, given a copy of that
authenticator's credential, signs in with the passkey and sees the same history; signing in again
rotates the session cookie, and the old one no longer acts."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.harness.axe import axe_problems
from tests.harness.browser import (
    BOT_GAME_SEED,
    DESKTOP,
    Server,
    chromium,
    need_browser,
    new_context,
    play_all,
    start_bot_game,
    wait_js,
    watch_errors,
)

SESSION = "rp_session"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``roppyakken serve`` on a free loopback port, addressed as ``localhost`` (a passkey's relying
    party must be a host name, not an IP address)."""
    need_browser()
    running = Server(tmp_path_factory.mktemp("web-passkeys"))
    try:
        yield f"http://localhost:{running.port}"
    finally:
        running.stop()


def _authenticator(context: Any, page: Any) -> tuple[Any, str]:
    """A virtual platform authenticator (resident keys, user verified, presence simulated) for ``page``."""
    cdp = context.new_cdp_session(page)
    cdp.send("WebAuthn.enable")
    made = cdp.send(
        "WebAuthn.addVirtualAuthenticator",
        {
            "options": {
                "protocol": "ctap2",
                "transport": "internal",
                "hasResidentKey": True,
                "hasUserVerification": True,
                "isUserVerified": True,
                "automaticPresenceSimulation": True,
            }
        },
    )
    return cdp, str(made["authenticatorId"])


def _session(context: Any) -> str | None:
    found = [c["value"] for c in context.cookies() if c["name"] == SESSION]
    return str(found[0]) if found else None


def _wait_cookie(context: Any, name: str) -> None:
    deadline = time.monotonic() + 15
    while not any(c["name"] == name for c in context.cookies()):
        assert time.monotonic() < deadline, f"no {name} cookie"
        time.sleep(0.05)


def test_a_guest_keeps_their_history_on_another_device_with_a_passkey(server: str) -> None:
    errors: list[str] = []
    with chromium() as browser:
        laptop_ctx = new_context(browser, DESKTOP)
        laptop = laptop_ctx.new_page()
        watch_errors(laptop, errors)
        laptop_cdp, laptop_auth = _authenticator(laptop_ctx, laptop)

        # a guest plays a short game against a bot
        start_bot_game(laptop, server, "Aki", BOT_GAME_SEED)
        room = laptop.url.rsplit("/r/", 1)[1]
        play_all([laptop])
        assert _session(laptop_ctx) is None

        # ... and makes an account with a passkey
        laptop.goto(server + "/#/signin")
        laptop.wait_for_selector("#passkey-register")
        assert axe_problems(laptop, "sign-in page") == []  # axe-core: no serious or critical finding
        laptop.locator("#passkey-register").click()
        laptop.wait_for_selector(".signed-in-as")
        assert "Aki" in laptop.locator(".signed-in-as").inner_text()
        assert laptop.locator(".passkey-list li").count() == 1
        laptop.wait_for_selector(f".history-games li[data-room='{room}']")
        assert axe_problems(laptop, "account panel") == []
        assert _session(laptop_ctx) is not None
        stored = laptop_cdp.send("WebAuthn.getCredentials", {"authenticatorId": laptop_auth})["credentials"]
        assert len(stored) == 1 and stored[0]["isResidentCredential"] and stored[0]["rpId"] == "localhost"

        # another device, with a copy of the passkey (as a synced passkey would be)
        phone_ctx = new_context(browser, DESKTOP)
        phone = phone_ctx.new_page()
        watch_errors(phone, errors)
        phone_cdp, phone_auth = _authenticator(phone_ctx, phone)
        phone_cdp.send("WebAuthn.addCredential", {"authenticatorId": phone_auth, "credential": stored[0]})
        phone.goto(server + "/")  # the start page makes this browser a guest of its own
        phone.wait_for_selector("#play-bots")
        _wait_cookie(phone_ctx, "rp_player")
        phone.goto(server + "/#/signin")
        phone.wait_for_selector("#passkey-signin")
        assert phone.locator(".history-games").count() == 0
        phone.locator("#passkey-signin").click()  # no login: the passkey is discoverable
        phone.wait_for_selector(".signed-in-as")
        assert "Aki" in phone.locator(".signed-in-as").inner_text()
        phone.wait_for_selector(f".history-games li[data-room='{room}']")
        assert phone.locator(".history-games li").count() == 1
        # the same player: the start page keeps the account's name
        phone.goto(server + "/")
        phone.wait_for_selector("#player-name")
        wait_js(phone, "document.querySelector('#player-name').value === 'Aki'")
        me = phone.evaluate("fetch('/api/me').then(r => r.json())")
        assert me["player"]["name"] == "Aki"

        # signing in again rotates the session: a new cookie, and the old one ends on the server
        first = _session(phone_ctx)
        assert first is not None
        phone.goto(server + "/#/signin")
        phone.wait_for_selector(".signed-in-as")
        phone.evaluate("import('/static/js/passkeys.js').then((m) => m.signInWithPasskey(null))")
        second = _session(phone_ctx)
        assert second is not None and second != first
        stale_ctx = new_context(browser, DESKTOP)
        stale_ctx.add_cookies([{"name": SESSION, "value": first, "url": server}])
        stale = stale_ctx.new_page()
        stale.goto(server + "/#/signin")
        stale.wait_for_selector("#passkey-signin")  # not signed in
        assert stale.evaluate("fetch('/api/me').then(r => r.json())")["player"] is None
        # the phone's counter moved on; the laptop's own session is untouched
        laptop.reload()
        laptop.wait_for_selector(".signed-in-as")
        assert errors == []
        for ctx in (laptop_ctx, phone_ctx, stale_ctx):
            ctx.close()


def test_a_passkey_signs_in_with_its_login_typed_while_the_options_name_no_credential(server: str) -> None:
    """A password account adds a passkey; on another profile (a copy of the credential), the login typed
    in: the sign-in options list no credential (they are the same for every login), and the browser's
    discoverable passkey signs in to that account."""
    errors: list[str] = []
    with chromium() as browser:
        laptop_ctx = new_context(browser, DESKTOP)
        laptop = laptop_ctx.new_page()
        watch_errors(laptop, errors)
        laptop_cdp, laptop_auth = _authenticator(laptop_ctx, laptop)
        laptop.goto(server + "/#/account")
        laptop.fill("#make-login", "Sora")
        laptop.fill("#make-password", "a password long enough")
        laptop.click("#make-account button[type=submit]")
        laptop.wait_for_selector("#recovery-codes-done")
        laptop.click("#recovery-codes-done")
        laptop.wait_for_selector("#signed-in-as")
        laptop.click("#account-passkeys")
        laptop.wait_for_selector("#passkey-add")
        laptop.click("#passkey-add")
        laptop.wait_for_selector(".passkey-list li")
        stored = laptop_cdp.send("WebAuthn.getCredentials", {"authenticatorId": laptop_auth})["credentials"]
        assert len(stored) == 1 and stored[0]["isResidentCredential"]

        phone_ctx = new_context(browser, DESKTOP)
        phone = phone_ctx.new_page()
        watch_errors(phone, errors)
        phone_cdp, phone_auth = _authenticator(phone_ctx, phone)
        phone_cdp.send("WebAuthn.addCredential", {"authenticatorId": phone_auth, "credential": stored[0]})
        options: list[dict[str, Any]] = []

        def seen(response: Any) -> None:
            if response.url.endswith("/api/passkeys/signin/options"):
                options.append(response.json())

        phone.on("response", seen)
        phone.goto(server + "/#/signin")
        phone.wait_for_selector("#passkey-signin")
        phone.fill("#passkey-login", "SORA")
        phone.click("#passkey-signin")
        phone.wait_for_selector(".signed-in-as")
        assert "Sora" in phone.locator(".signed-in-as").inner_text()
        assert len(options) == 1 and options[0]["publicKey"]["allowCredentials"] == []
        assert errors == []
        for ctx in (laptop_ctx, phone_ctx):
            ctx.close()
