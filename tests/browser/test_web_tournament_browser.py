"""A Swiss tournament in Chromium: an account makes it on the tournaments page, four browsers join it
on its page, each is taken to its table when paired, plays its games there, and the page shows the
final standings after two rounds; axe finds no serious violation on either tournament page."""

from __future__ import annotations

import re
import time
from pathlib import Path

from roppyakken.server.club.tournaments import schedules
from roppyakken.server.store.database import Database
from tests.harness.axe import axe_problems
from tests.harness.browser import (
    DESKTOP,
    PHONE,
    chromium,
    make_account,
    need_browser,
    new_context,
    play_all,
    serving,
    standings_names,
    wait_js,
    watch_errors,
)

NAMES = ("Ann", "Bo", "Cy", "Di")


def test_four_browsers_play_a_two_round_swiss_to_its_final_standings(tmp_path: Path) -> None:
    need_browser()
    # four browsers on one machine: one address, which a rated tournament otherwise takes once
    with (
        serving(tmp_path, cheap_passwords=True, extra=["--rated-same-address"]) as server,
        chromium() as browser,
    ):
        errors: list[str] = []
        pages = []
        for i, name in enumerate(NAMES):
            ctx = new_context(browser, PHONE if i == 3 else DESKTOP, phone=i == 3)
            ctx.add_init_script(
                f"try {{ localStorage.setItem('roppyakken-name', '{name}'); }} catch (e) {{}}"
            )
            page = ctx.new_page()
            watch_errors(page, errors)
            pages.append(page)
        ann = pages[0]
        ann.goto(f"{server.url}/#/account")
        make_account(ann, "ann")
        ann.goto(f"{server.url}/#/tournaments")
        ann.wait_for_selector("#make-tournament")
        assert not axe_problems(ann, "tournaments")
        ann.fill("#t-name", "Cup")
        ann.select_option("#t-format", "swiss")
        ann.fill("#t-rounds", "2")
        ann.select_option("#t-clock", "15+60")
        ann.fill("#t-starts", "0.5")
        ann.click("#make-tournament button[type=submit]")
        ann.wait_for_url(re.compile(r".*#/tournament/[A-Za-z0-9_-]+$"))
        address = ann.url
        for page in pages:
            if page is not ann:
                page.goto(address)
            page.get_by_role("button", name="Join").click()
            page.get_by_role("button", name="Withdraw").wait_for()
        assert not axe_problems(ann, "tournament")
        for round_ in (1, 2):
            # paired when the round starts: each page takes its player to the table
            for page in pages:
                page.wait_for_url(re.compile(r".*/r/[A-Za-z0-9_-]+$"), timeout=90_000)
            rooms = {page.url for page in pages}
            assert len(rooms) == 2, rooms
            play_all(pages)
            for page in pages:  # the game's end leads back to the tournament and says what comes next
                back = page.locator(".game-over .back-to-tournament")
                back.wait_for()
                assert address.endswith(str(back.get_attribute("href")))
                assert page.locator(".back-countdown").is_hidden()  # no countdown in a Swiss
                next_said = page.locator(".tournament-back .next-round").inner_text()
                assert ("last round" in next_said) if round_ == 2 else ("round 1 has ended" in next_said), (
                    next_said
                )
            if round_ == 1:
                for page in pages:
                    page.goto(address)
        ann.goto(address)
        deadline = time.monotonic() + 30
        while "Finished" not in ann.locator(".countdown").inner_text():
            assert time.monotonic() < deadline, "the tournament did not finish"
            ann.wait_for_timeout(200)
        wait_js(ann, "document.querySelectorAll('table.standings tbody tr').length === 4")
        shown = standings_names(ann)
        assert sorted(n.lower() for n in shown) == sorted(n.lower() for n in NAMES)  # the account's: "ann"
        points = [float(p) for p in ann.locator("table.standings tbody tr td:nth-child(3)").all_inner_texts()]
        assert sum(points) == 8.0 and points == sorted(points, reverse=True)
        # each line says which tie-break set it apart (or that its rank is shared), as the JSON does
        asked = "fetch('/api/tournaments/' + location.hash.split('/').pop())"
        lines = ann.evaluate(f"async () => (await (await {asked}).json()).standings")
        words = {
            "buchholz": "Buchholz",
            "sonneborn_berger": "Sonneborn–Berger",
            "wins": "Wins",
            "rating": "Rating",
        }
        said = [
            "tied" if i and line["rank"] == lines[i - 1]["rank"] else words.get(line["tie_break"] or "", "")
            for i, line in enumerate(lines)
        ]
        assert ann.locator("table.standings tbody tr td.tie-break").all_inner_texts() == said
        berger = ann.locator("table.standings tbody tr td:nth-child(5)").all_inner_texts()
        assert [float(b) for b in berger] == [line["sonneborn_berger"] for line in lines]
        assert ann.locator(".tournament-games li a", has_text="Replay").count() == 4
        assert not errors, errors


def test_the_lobby_lists_the_tournaments_about_to_start(tmp_path: Path) -> None:
    need_browser()
    with serving(tmp_path) as server, chromium() as browser:
        db = Database(f"sqlite:///{server.db}")
        try:
            wanted = schedules.parse(
                '[[tournament]]\nname = "Hourly arena"\nformat = "arena"\nclock = "15+60"\n'
                'minutes = 50\nevery = "1h"\n'
            )
            made = db.run_now(lambda c: schedules.make_due(c, wanted, time.time(), 3600))
        finally:
            db.engine.dispose()
        page = new_context(browser, PHONE, phone=True).new_page()
        page.goto(server.url + "/")
        page.wait_for_selector(".tournaments-soon:not([hidden])")
        link = page.locator(".tournaments-soon a", has_text="Hourly arena")
        assert link.get_attribute("href") == f"/#/tournament/{made[0]}"
        assert "Starts in" in page.locator(".tournaments-soon").inner_text()
        assert not axe_problems(page, "lobby with tournaments")
        link.click()
        page.locator(".tournament h1", has_text="Hourly arena").wait_for()
        assert page.get_by_role("button", name="Join").count() == 1
