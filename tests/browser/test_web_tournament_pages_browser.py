"""A tournament's standings and games in Chromium, a page at a time (25 lines, 20 tables): the socket
sends the page the viewer turns to (``{"type": "standings"}``, ``{"type": "tables"}``, the games in
progress only or all), by mouse or keyboard, and keeps it while it changes."""

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
from tests.harness.tournaments import Entrant, add_entrants, add_tables_written


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
        pager = page.get_by_role("navigation", name="Pages", exact=True)
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


def test_the_games_are_turned_page_by_page_all_or_in_progress_only(tmp_path: Path) -> None:
    need_browser()
    with serving(tmp_path, cheap_passwords=True) as server, chromium() as browser:
        host = Entrant(server, "Ann", account=True)
        tournament = host.make(
            {
                "name": "Tables",
                "format": "swiss",
                "rounds": 3,
                "clock": "1d",
                "starts_in": 3600,
                "rated": False,
            }
        )
        add_entrants(f"sqlite:///{server.db}", tournament, 50)
        many = [f"many{i:02d}" for i in range(50)]
        # 25 games over, then 22 in play: 47 tables, 3 pages of 20 (2 of those in play)
        over = [((many[2 * k], many[2 * k + 1]), f"over{k:02d}", (1, 2)) for k in range(25)]
        playing = [((many[2 * k], many[2 * k + 1]), f"play{k:02d}", None) for k in range(3, 25)]
        add_tables_written(f"sqlite:///{server.db}", tournament, [*over, *playing])
        latest = [room for _, room, _ in reversed([*over, *playing])]
        in_play = [room for room in latest if room.startswith("play")]
        errors: list[str] = []
        page = new_context(browser, PHONE).new_page()
        watch_errors(page, errors)
        page.goto(f"{server.url}/#/tournament/{tournament}")
        pager = page.get_by_role("navigation", name="Pages of games")
        rooms = page.locator(".tournament-games li")

        def shown() -> list[str]:
            return [str(r) for r in rooms.evaluate_all("lis => lis.map((li) => li.dataset.room)")]

        expect(pager).to_contain_text("Page 1 of 3")
        assert shown() == latest[:20]
        pager.get_by_role("button", name="Next page").click()
        expect(pager).to_contain_text("Page 2 of 3", timeout=2_000)
        assert shown() == latest[20:40]
        expect(rooms.first.get_by_role("link", name="Watch")).to_have_attribute("href", f"/r/{latest[20]}")

        only = page.get_by_role("checkbox", name="Games in progress only")  # by keyboard
        only.focus()
        page.keyboard.press("Space")
        expect(pager).to_contain_text("Page 1 of 2", timeout=2_000)
        assert shown() == in_play[:20]
        assert not axe_problems(page, "the games in progress")
        next_page = pager.get_by_role("button", name="Next page")
        next_page.focus()
        page.keyboard.press("Enter")
        expect(pager).to_contain_text("Page 2 of 2", timeout=2_000)
        assert shown() == in_play[20:]
        expect(next_page).to_be_disabled()

        page.reload()  # the whole answer, then the socket: the first page of every game again
        expect(pager).to_contain_text("Page 1 of 3")
        expect(only).not_to_be_checked()
        assert shown() == latest[:20]
        assert not errors, errors
        host.close()
