"""The lobby in the browser (Debian's Chromium, headless, driven by Playwright): three players in three
browser profiles become players without sign-up, press Play in quick pairing and land in one started
game; a public table made by one shows in another's lobby, joined in one click; on a phone's width the
lobby's controls are 44 px targets."""

from __future__ import annotations

import time

from tests.harness.browser import DESKTOP, PHONE, chromium, new_context, wait_js, watch_errors


def _pair(page: object, name: str, players: int) -> None:
    from playwright.sync_api import Page

    assert isinstance(page, Page)
    page.fill("#player-name", name)
    page.locator("#player-name").dispatch_event("change")
    page.check(f"input[name=pair-players][value='{players}']")
    page.select_option("#pair-preset", "classic")
    page.select_option("#pair-clock", "30+120")
    page.click("#pair-play")


def test_three_players_pair_from_the_lobby_into_one_game(clocked_server: str) -> None:
    errors: list[str] = []
    with chromium() as browser:
        contexts = [new_context(browser, DESKTOP) for _ in range(3)]
        # Bin reads the site in Japanese: quick phrases show in each reader's language
        contexts[1].add_init_script("localStorage.setItem('roppyakken-lang', 'ja')")
        pages = [c.new_page() for c in contexts]
        for page in pages:
            watch_errors(page, errors)
            page.goto(clocked_server + "/")
            page.wait_for_selector("#quick-pairing")
        for page, name in zip(pages[:2], ("Aoi", "Bin"), strict=True):
            _pair(page, name, 3)
            page.wait_for_selector("#pair-cancel:not([hidden])")
        # two of three wait; the counts say so, and a bot game is offered meanwhile
        wait_js(pages[0], "document.querySelector('.pair-counts').textContent.startsWith('2 waiting')")
        assert pages[0].locator("#pair-bot").is_visible()
        _pair(pages[2], "Cleo", 3)
        for page in pages:
            page.wait_for_url("**/r/*", timeout=15_000)
            page.wait_for_selector(".hand button.card", timeout=15_000)
        rooms = {page.url for page in pages}
        assert len(rooms) == 1  # one game, all three in it
        for name in ("Aoi", "Bin", "Cleo"):  # the players' names, as they chose them in the lobby
            wait_js(pages[0], f"document.querySelector('main').innerText.includes('{name}')")
        # the identity is a cookie the page's scripts cannot read
        assert "rp_player" not in pages[0].evaluate("document.cookie")
        cookies = [c for c in contexts[0].cookies() if c["name"] == "rp_player"]
        assert cookies and cookies[0]["httpOnly"] and cookies[0]["sameSite"] == "Lax"

        # chat: a quick phrase in each reader's language, markup shown as text, and muting
        aoi, bin_, cleo = pages
        for page in pages:
            page.click(".chat-panel summary")
        aoi.click(".chat-phrase[data-phrase='good_game']")
        wait_js(bin_, "document.querySelector('.chat-lines').innerText.includes('良い対局でした!')")
        wait_js(cleo, "document.querySelector('.chat-lines').innerText.includes('Good game!')")
        cleo.fill("#chat-text", "<b>hi</b> all")
        cleo.press("#chat-text", "Enter")
        wait_js(aoi, "document.querySelector('.chat-lines').innerText.includes('<b>hi</b> all')")
        assert aoi.locator(".chat-lines b.chat-name + * b, .chat-text b").count() == 0  # never markup
        cleo.click(".chat-lines li[data-author='seat:0'] .chat-mute")
        wait_js(cleo, "!document.querySelector(\".chat-lines li[data-author='seat:0']\")")
        aoi.fill("#chat-text", "can you read me")
        aoi.press("#chat-text", "Enter")
        wait_js(bin_, "document.querySelector('.chat-lines').innerText.includes('can you read me')")
        cleo.wait_for_timeout(500)
        assert "can you read me" not in cleo.locator(".chat-lines").inner_text()
        # a fourth visitor finds the public game in the lobby and watches it, as a spectator
        room_path = "/r/" + aoi.url.rsplit("/r/", 1)[1]
        watcher = new_context(browser, DESKTOP).new_page()
        watch_errors(watcher, errors)
        watcher.goto(clocked_server + "/")
        watcher.locator(f".lobby-games a[href='{room_path}']").click()
        watcher.wait_for_url("**" + room_path)
        watcher.wait_for_selector(".chat-panel")
        wait_js(watcher, "document.querySelector('main').innerText.includes('Cleo')")
        assert watcher.locator(".hand button.card").count() == 0  # no hand: a spectator
        watcher.click(".chat-panel summary")
        assert watcher.locator(".chat-panel summary").inner_text() == "Spectators' chat"
        assert "can you read me" not in watcher.locator(".chat-lines").inner_text()
        for page in pages:  # the chat's controls are 44 px targets
            for control in page.locator(".chat-panel button:visible, .chat-panel summary").all():
                box = control.bounding_box()
                assert box is not None and box["height"] >= 44 and box["width"] >= 44
        assert errors == []


def test_a_public_table_is_joined_in_one_click_and_fits_a_phone(clocked_server: str) -> None:
    errors: list[str] = []
    with chromium() as browser:
        host_ctx, guest_ctx = new_context(browser, DESKTOP), new_context(browser, PHONE, phone=True)
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        for page in (host, guest):
            watch_errors(page, errors)
        host.goto(clocked_server + "/")
        host.fill("#player-name", "Hiro")
        host.select_option("#online-clock", "60+300")
        host.check("#online-public")
        host.click("#play-online button[type=submit]")
        host.wait_for_url("**/r/*")
        room = host.url.rsplit("/", 1)[1]
        guest.goto(clocked_server + "/")
        guest.fill("#player-name", "Gen")
        row = guest.locator(f".table-list li[data-room='{room}']")
        row.wait_for(timeout=10_000)
        text = row.inner_text()
        assert "Hiro" in text and "1/2" in text and "rated: no" in text
        for control in guest.locator("#lobby-live button:visible, #lobby-live select:visible").all():
            box = control.bounding_box()
            assert box is not None and box["height"] >= 44 and box["width"] >= 44, control.inner_text()
        row.locator("button.join-table").click()
        guest.wait_for_url(f"**/r/{room}")
        host.wait_for_selector(".seat-human[data-seat='1']")
        deadline = time.monotonic() + 5
        while "Gen" not in host.locator(".seat-human[data-seat='1']").inner_text():
            assert time.monotonic() < deadline
            time.sleep(0.1)
        assert errors == []
