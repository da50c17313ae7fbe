"""A tournament's standings in Chromium, a page of 25 lines at a time: the socket sends the page the
viewer turns to (``{"type": "standings"}``), by mouse or keyboard, and keeps it while it changes."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import expect

from tests.harness.axe import axe_problems
from tests.harness.browser import (
    PHONE,
    chromium,
    need_browser,
    new_context,
    serving,
    standings_names,
    watch_errors,
)
from tests.harness.tournaments import Entrant, add_entrants


def test_the_standings_are_turned_page_by_page(tmp_path: Path) -> None:
    need_browser()
    with serving(tmp_path, cheap_passwords=True) as server, chromium() as browser:
        host = Entrant(server, "Ann", account=True)
        tournament = host.make(
            {"name": "Many", "format": "swiss", "rounds": 3, "clock": "1d", "starts_in": 3600, "rated": False}
        )
        host.join(tournament)
        many = add_entrants(f"sqlite:///{server.db}", tournament, 30)  # rated above Ann: she is last
        errors: list[str] = []
        page = new_context(browser, PHONE).new_page()
        watch_errors(page, errors)
        page.goto(f"{server.url}/#/tournament/{tournament}")
        pager = page.get_by_role("navigation", name="Pages")
        expect(pager).to_contain_text("Page 1 of 2")
        assert standings_names(page) == many[:25]
        expect(pager.get_by_role("button", name="Previous page")).to_be_disabled()

        pager.get_by_role("button", name="Next page").click()
        expect(pager).to_contain_text("Page 2 of 2", timeout=2_000)
        assert standings_names(page) == [*many[25:], "Ann"]
        expect(pager.get_by_role("button", name="Next page")).to_be_disabled()
        assert not axe_problems(page, "the standings' second page")

        bo = Entrant(server, "Bo")  # the page shown changes: it stays the page shown
        bo.join(tournament)
        page.locator(".standings tbody tr", has_text="Bo").wait_for(timeout=5_000)
        expect(pager).to_contain_text("Page 2 of 2")

        previous = pager.get_by_role("button", name="Previous page")  # by keyboard
        previous.focus()
        page.keyboard.press("Enter")
        expect(pager).to_contain_text("Page 1 of 2", timeout=2_000)
        assert standings_names(page) == many[:25]
        assert not errors, errors
        for entrant in (host, bo):
            entrant.close()
