"""A tournament's page in Chromium whose tab is hidden: it tells the server (``{"type": "visible"}``),
which then sends it nothing that is not the viewer's own; shown again, the page is brought up to date
at once."""

from __future__ import annotations

from pathlib import Path

from tests.harness.browser import (
    DESKTOP,
    chromium,
    need_browser,
    new_context,
    serving,
    standings_names,
    watch_errors,
)
from tests.harness.tournaments import Entrant

SHOWN = """(state) => {
  Object.defineProperty(document, "visibilityState", { configurable: true, get: () => state });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_tournament_page_is_brought_up_to_date_when_shown(tmp_path: Path) -> None:
    need_browser()
    with serving(tmp_path, cheap_passwords=True) as server, chromium() as browser:
        host = Entrant(server, "Ann", account=True)
        tournament = host.make(
            {
                "name": "Later",
                "format": "swiss",
                "rounds": 3,
                "clock": "1d",
                "starts_in": 3600,
                "rated": False,
            }
        )
        host.join(tournament)
        errors: list[str] = []
        page = new_context(browser, DESKTOP).new_page()
        watch_errors(page, errors)
        page.goto(f"{server.url}/#/tournament/{tournament}")
        page.locator(".standings tbody tr", has_text="Ann").wait_for()
        bo = Entrant(server, "Bo")
        bo.join(tournament)
        page.locator(".standings tbody tr", has_text="Bo").wait_for(timeout=10_000)  # shown: live

        page.evaluate(SHOWN, "hidden")
        page.wait_for_timeout(300)  # the page's word reaches the server
        cy = Entrant(server, "Cy")
        cy.join(tournament)
        page.wait_for_timeout(3_500)  # a read (1 s) and the page's next moment (2 s) would have come
        assert sorted(standings_names(page)) == ["Ann", "Bo"]
        page.evaluate(SHOWN, "visible")
        page.locator(".standings tbody tr", has_text="Cy").wait_for(timeout=1_500)  # at once
        assert sorted(standings_names(page)) == ["Ann", "Bo", "Cy"]
        assert not errors, errors
        for entrant in (host, bo, cy):
            entrant.close()
