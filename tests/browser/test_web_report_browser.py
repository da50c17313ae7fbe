"""Reporting in the browser (Debian's Chromium, headless, driven by Playwright): a player reports
another's chat line from the room's chat panel, says why, and the server keeps the report with the
line's text as it was; the moderator lists it with ``roppyakken admin reports``.  The lobby says how
long a playban lasts, in the reader's language."""

from __future__ import annotations

import io
import math
import time
from collections.abc import Iterator
from contextlib import redirect_stdout
from pathlib import Path

import pytest
from sqlalchemy import insert, select

from roppyakken.cli import main as cli_main
from roppyakken.server.people.players import COOKIE
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import abandonments, reports
from tests.harness.browser import DESKTOP, Server, chromium, need_browser, new_context, wait_js, watch_errors


@pytest.fixture
def served(tmp_path: Path) -> Iterator[Server]:
    """``roppyakken serve`` over a SQLite file of its own (read back by the test)."""
    need_browser()
    running = Server(tmp_path)
    try:
        yield running
    finally:
        running.stop()


def test_a_player_reports_a_chat_line_from_the_room(served: Server) -> None:
    errors: list[str] = []
    with chromium() as browser:
        host_ctx, guest_ctx = new_context(browser, DESKTOP), new_context(browser, DESKTOP)
        host, guest = host_ctx.new_page(), guest_ctx.new_page()
        for page in (host, guest):
            watch_errors(page, errors)
        host.goto(served.url + "/")
        host.fill("#player-name", "Hana")
        host.check("input[name=online-players][value='2']")
        host.click("#play-online button[type=submit]")
        invite = host.input_value(".invite-link")
        guest.goto(invite)
        guest.fill("#join-name", "Kenji")
        guest.click("form.join button[type=submit]")
        guest.wait_for_selector(".waiting-room")

        for page in (host, guest):
            page.click(".chat-panel summary")
        guest.fill("#chat-text", "you are a terrible <i>player</i>")
        guest.press("#chat-text", "Enter")
        line = ".chat-lines li[data-author='seat:1']"
        host.wait_for_selector(line)
        assert (
            guest.locator(".chat-lines li[data-author='seat:1'] .chat-report").count() == 0
        )  # not one's own
        host.click(f"{line} .chat-report")
        dialog = host.locator("dialog.report-dialog")
        dialog.wait_for()
        assert "terrible <i>player</i>" in dialog.locator(".report-what").inner_text()  # text, not markup
        host.select_option("#report-reason", "abuse")
        host.click("#report-send")
        wait_js(host, "document.querySelector('.report-status').textContent.startsWith('Thank you')")
        assert host.locator("#report-send").is_disabled()  # sent once
        host.keyboard.press("Escape")
        # a second report of the same line is refused, in the reader's words
        host.click(f"{line} .chat-report")
        host.select_option("#report-reason", "spam")
        host.click("#report-send")
        wait_js(host, "document.querySelector('dialog.report-dialog .error').textContent.includes('already')")
        host.keyboard.press("Escape")

        # the guest reports the host as a player, from the chat panel's menu
        guest.click(".chat-report-player")
        guest.click(".report-players button:has-text('Hana')")
        guest.select_option("#report-reason", "cheating")
        guest.click("#report-send")
        wait_js(guest, "document.querySelector('.report-status').textContent.startsWith('Thank you')")
        assert not errors, errors

    db = Database(f"sqlite:///{served.db}")
    try:
        rows = db.run_now(lambda c: c.execute(select(reports).order_by(reports.c.id)).all())
    finally:
        db.engine.dispose()
    assert [(r.kind, r.reason, r.name, r.text) for r in rows] == [
        ("message", "abuse", "Kenji", "you are a terrible <i>player</i>"),
        ("player", "cheating", "Hana", None),
    ]
    out = io.StringIO()
    with redirect_stdout(out):
        assert cli_main(["admin", "--database", f"sqlite:///{served.db}", "reports"]) == 0
    assert "terrible <i>player</i>" in out.getvalue() and "cheating" in out.getvalue()


def test_the_lobby_says_how_long_a_playban_lasts_in_the_readers_language(served: Server) -> None:
    errors: list[str] = []
    with chromium() as browser:
        ctx = new_context(browser, DESKTOP)
        ctx.add_init_script("localStorage.setItem('roppyakken-lang', 'fr')")
        page = ctx.new_page()
        watch_errors(page, errors)
        page.goto(served.url + "/")
        page.fill("#player-name", "Rin")
        page.locator("#player-name").dispatch_event("change")
        deadline = time.monotonic() + 15
        while not any(c["name"] == COOKIE for c in ctx.cookies()):  # the page made its player
            assert time.monotonic() < deadline, "no player cookie"
            page.wait_for_timeout(50)
        cookie = next(c["value"] for c in ctx.cookies() if c["name"] == COOKIE)
        player_id = cookie.split(".")[0]
        now = time.time()
        db = Database(f"sqlite:///{served.db}")
        try:
            db.run_now(
                lambda c: c.execute(
                    insert(abandonments),
                    [
                        {
                            "player_id": player_id,
                            "room_id": f"g{i}",
                            "seat": 0,
                            "at": now - 120 + i,
                            "cause": "timeout",
                        }
                        for i in range(2)
                    ],
                )
            )
        finally:
            db.engine.dispose()
        page.reload()
        notice = page.locator(".playban-notice")
        notice.wait_for()
        text = notice.inner_text()
        # 8 min 1 s left when the abandonments were stored: 9 minutes (rounded up) if the page read
        # it within a second, 8 on a loaded machine; never more, never less
        left = {math.ceil((now - 119 + 600 - moment) / 60) for moment in (now, time.time())}
        assert "2 parties classées" in text and any(f"dans {m} min" in text for m in left), (text, left)
        # pressing Play is refused with the same notice, and the English line is not shown
        page.evaluate("document.querySelector('.playban-notice').textContent = ''")
        page.click("#pair-play")
        wait_js(page, "document.querySelector('.playban-notice').textContent.includes('parties classées')")
        assert page.locator("#lobby-live .error").is_hidden()
        assert not errors, errors
