"""An arena in Chromium, between its games: two browsers (a desktop one played from the keyboard where
there is a choice, a phone) join it on its page, are taken to their table, whose status line links to
the tournament, play their game to its end, go back to the tournament (one with Enter on the focused
"Back to the tournament", the other by itself after the countdown) and are taken from there to their
next table, another room; at the second game's end "Stay here" keeps a player on the table's page,
which offers a pause and, when he is paired again meanwhile, says so and leads him to the new table.
The countdown's bar is not drawn under prefers-reduced-motion.  axe finds no serious violation at
either game's end."""

from __future__ import annotations

import re
import time
from pathlib import Path

from playwright.sync_api import Page

from tests.harness.axe import axe_problems
from tests.harness.browser import (
    DESKTOP,
    PHONE,
    chromium,
    need_browser,
    new_context,
    play_all,
    serving,
    wait_js,
    watch_errors,
)
from tests.harness.tournaments import Entrant

# The arena's clock (15+60) and the wait before last opponents are paired again (30 s), scaled
SCALE = "0.3"
BACK_SECONDS = 5  # static/js/tabletournament.js BACK_SECONDS
ROOM = re.compile(r".*/r/([A-Za-z0-9_-]+)$")
FOCUSED_BACK = "document.activeElement && document.activeElement.matches('.game-over .back-to-tournament')"


class Journey:
    """The addresses a page's frame went to, in order (a page may pass through one quickly)."""

    def __init__(self, page: Page) -> None:
        self.page = page
        self.seen: list[str] = []
        page.on(
            "framenavigated", lambda frame: self.seen.append(frame.url) if frame == page.main_frame else None
        )

    def reached(self, wanted: re.Pattern[str] | str, seconds: float, after: int = 0) -> int:
        """Wait until the page went to ``wanted`` (at or after visit ``after``): that visit's index."""
        deadline = time.monotonic() + seconds
        while True:
            for i, url in enumerate(self.seen[after:], after):
                if (url == wanted) if isinstance(wanted, str) else wanted.fullmatch(url):
                    return i
            assert time.monotonic() < deadline, f"never went to {wanted} (went to {self.seen})"
            self.page.wait_for_timeout(50)

    def room(self, after: int = 0) -> tuple[str, int]:
        """The room it went to at or after visit ``after``, and that visit's index."""
        at = self.reached(ROOM, 90, after)
        found = ROOM.fullmatch(self.seen[at])
        assert found is not None
        return found.group(1), at


def _at_table(page: Page, tournament: str) -> None:
    """The table's status line names the tournament and links to its page."""
    link = page.locator(".status-bar .tournament-link")
    link.wait_for()
    assert link.get_attribute("href") == f"/#/tournament/{tournament}"
    assert link.inner_text().startswith("Blitz · Arena")


def _ended(page: Page) -> None:
    """The game's end offers the way back, the keyboard focus on it."""
    page.locator(".game-over .tournament-back .back-to-tournament").wait_for()
    wait_js(page, FOCUSED_BACK)


def test_an_arena_takes_its_players_back_to_it_and_on_to_their_next_table(tmp_path: Path) -> None:
    need_browser()
    extra = ["--clock-scale", SCALE]
    with serving(tmp_path, cheap_passwords=True, extra=extra) as server, chromium() as browser:
        host = Entrant(server, "host", account=True)
        tournament = host.make(
            {
                "name": "Blitz",
                "format": "arena",
                "minutes": 60,
                "clock": "15+60",
                "starts_in": 10,
                "rated": False,
            }
        )
        host.close()
        address = f"{server.url}/#/tournament/{tournament}"
        errors: list[str] = []
        pages: list[Page] = []
        journeys: list[Journey] = []
        for name, viewport, phone in (("Ann", DESKTOP, False), ("Bo", PHONE, True)):
            ctx = new_context(browser, viewport, phone=phone)
            ctx.add_init_script(
                f"try {{ localStorage.setItem('roppyakken-name', '{name}'); }} catch (e) {{}}"
            )
            page = ctx.new_page()
            watch_errors(page, errors)
            journeys.append(Journey(page))
            page.goto(address)
            pages.append(page)
        ann, bo = pages
        ann_went, bo_went = journeys
        bo.emulate_media(reduced_motion="reduce")
        ann.get_by_role("button", name="Join").focus()
        ann.keyboard.press("Enter")
        bo.get_by_role("button", name="Join").tap()

        # the first game: both taken to one table, which links to the tournament
        at_first = [went.room() for went in journeys]
        first = {room for room, _ in at_first}
        assert len(first) == 1, first
        for page in pages:
            _at_table(page, tournament)
        play_all(pages)
        for page in pages:
            _ended(page)
        # the countdown is said on both; its shrinking bar is not drawn under prefers-reduced-motion
        assert bo.locator(".back-countdown").is_visible() and not bo.locator(".back-bar").is_visible()
        assert ann.locator(".back-bar").is_visible()
        assert "Back to the tournament in" in ann.locator(".back-countdown").inner_text()
        assert "paired again at once" in ann.locator(".tournament-back").inner_text()
        ann.keyboard.press("Escape")  # stays: the countdown stops, the focus stays on the way back
        assert ann.locator(".back-countdown").inner_text().startswith("You stay here.")
        assert ann.locator(".back-stay").is_hidden()
        wait_js(ann, FOCUSED_BACK)
        assert not axe_problems(ann, "game end at an arena's table")
        ann.keyboard.press("Enter")
        back = [
            ann_went.reached(address, 10, at_first[0][1] + 1),
            bo_went.reached(address, BACK_SECONDS + 10, at_first[1][1] + 1),  # Bo by himself
        ]

        # back on the tournament's page, each is taken to the next table: another room
        at_second = [went.room(at + 1) for went, at in zip(journeys, back, strict=True)]
        second = {room for room, _ in at_second}
        assert len(second) == 1 and second != first, (first, second)
        table = f"/r/{next(iter(second))}"
        for page in pages:
            _at_table(page, tournament)
        play_all(pages)
        for page in pages:
            _ended(page)
        bo.locator(".back-stay").tap()
        assert bo.locator(".back-countdown").inner_text().startswith("You stay here.")
        assert bo.locator(".back-pause").is_visible()  # he may pause from here
        assert not axe_problems(bo, "game end at an arena's table, on a phone")
        returned = ann_went.reached(address, BACK_SECONDS + 10, at_second[0][1] + 1)
        # Bo stayed: nothing took him away once the countdown would have ended
        bo.wait_for_timeout((BACK_SECONDS + 1) * 1000)
        assert all(url.endswith(table) for url in bo_went.seen[at_second[1][1] :]), bo_went.seen
        # and the tournament's page never took Ann back to the table she had just left
        assert not any(url.endswith(table) for url in ann_went.seen[returned:]), ann_went.seen
        # Bo, staying, paired again meanwhile: the page says so at once and leads him (the focus on
        # the way) to the table where Ann was taken
        third, _ = ann_went.room(returned + 1)
        go = bo.locator(".since-stay a.next-table")
        go.wait_for(timeout=30_000)
        assert "paired again" in bo.locator(".since-stay").inner_text()
        assert go.get_attribute("href") == f"/r/{third}" and third not in first | second
        wait_js(bo, "document.activeElement && document.activeElement.matches('.since-stay a.next-table')")
        assert bo.locator(".back-pause").is_hidden()
        assert not axe_problems(bo, "paired again while staying at a table, on a phone")
        go.tap()
        bo_went.reached(f"{server.url}/r/{third}", 10)
        _at_table(bo, tournament)
        play_all(pages)  # both seated (he holds his seat there), the game played to its end
        assert not errors, errors
