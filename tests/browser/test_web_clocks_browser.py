"""Clocks in the browser (Debian's Chromium, headless, driven by Playwright): three players in three
browser profiles start a real-time game from the start page; one closes the tab on their turn; the
two others see the clocks run, the server play for the one who left, hand the seat to a bot, and the
game end.  The clocks are shortened with ``serve --clock-scale`` so that the game takes a minute.
"""

from __future__ import annotations

import time

import httpx

from tests.harness.browser import (
    DESKTOP,
    HOUSE_RULES,
    chromium,
    new_context,
    play_step,
    wait_js,
    watch_errors,
)


def _decision(page_state: str | None) -> bool:
    return page_state in ("play", "take", "declare", "redeal")


def test_a_player_who_closes_the_tab_is_played_for_and_the_game_ends(clocked_server: str) -> None:
    errors: list[str] = []
    with chromium() as browser:
        contexts = [new_context(browser, DESKTOP) for _ in range(3)]
        host, bob, carol = (c.new_page() for c in contexts)
        for page in (host, bob, carol):
            watch_errors(page, errors)

        host.goto(clocked_server + "/")
        host.fill("#player-name", "Hana")
        host.check("input[name=online-players][value='3']")
        host.check("#online-house")
        host.fill("#online-toml", HOUSE_RULES)
        host.select_option("#online-clock", "15+60")
        assert "15 s a move + 60 s bank" in host.locator("#online-clock").inner_text()
        host.click("#play-online button[type=submit]")
        invite = host.input_value(".invite-link")
        for page, name in ((bob, "Bob"), (carol, "Carol")):
            page.goto(invite)
            page.fill("#join-name", name)
            page.click("form.join button[type=submit]")
            page.wait_for_selector(".waiting-room")
        host.wait_for_selector(".seat-human[data-seat='2']")
        host.click("button.start")
        for page in (host, bob, carol):
            page.wait_for_selector(".hand button.card")

        # every seat's clock shows beside the player's name; the running one counts down
        host.wait_for_selector(".player[data-seat='2'] .pheader .clock-seat:not([hidden]) .clock-time")
        assert host.locator(".player .pheader .clock-seat .clock-time").count() == 3
        first = host.locator(".clock-seat.running .clock-time").inner_text()
        host.wait_for_timeout(1200)
        assert host.locator(".clock-seat.running .clock-time").inner_text() != first or play_step(host)

        # Hana and Bob play until it is Carol's turn; then Carol closes her tab
        deadline = time.monotonic() + 60
        while True:
            assert time.monotonic() < deadline, "never Carol's turn"
            prompt = carol.locator(".prompt")
            state = prompt.get_attribute("data-state") if prompt.count() else None
            if _decision(state):
                break
            if carol.locator("dialog.round-end[open]").count():
                carol.locator("dialog.round-end[open] button").click()
            if play_step(host) is None and play_step(bob) is None:
                time.sleep(0.05)
        room = invite.rsplit("/", 1)[1]
        contexts[2].close()

        # the others play on: they see Carol played for, then handed to a bot, and the game end
        notices: set[str] = set()
        bot_badge = False
        deadline = time.monotonic() + 150
        over = False
        while not over:
            assert time.monotonic() < deadline, f"the game did not end (notices: {notices})"
            results = [play_step(host), play_step(bob)]
            notices.add(str(host.evaluate("document.querySelector('.clock-notice')?.textContent || ''")))
            bot_badge = (
                bot_badge or host.locator(".player[data-seat='2'] .clock-seat .badge.bot").count() == 1
            )
            over = all(r == "over" for r in results)
            if all(r in (None, "over") for r in results):
                time.sleep(0.05)
        assert "Carol ran out of time: the expert bot played for them" in notices, notices
        assert "Carol ran out of time again: a bot plays their seat to the end" in notices, notices
        assert bot_badge, "Carol's seat is shown as played by a bot"
        wait_js(bob, "document.querySelector('.game-over:not([hidden])') !== null")
        # the game is over: no clock, badge or notice is left
        gone = (
            "[...document.querySelectorAll('.clock-seat, .clock-status')]"
            + ".every(e => !e.getClientRects().length)"
        )
        for page in (host, bob):
            wait_js(page, gone)
        assert errors == []

    record = httpx.get(f"{clocked_server}/api/games/{room}/record", timeout=10).json()
    assert record["online"]["abandoned"] == [2]
    assert [e["seat"] for e in record["online"]["by_clock"]] == [2, 2]
