"""The leaderboard and profile pages in Chromium: a leaderboard's tabs and pages, a profile's rating
chart (an SVG drawn by the page) and its recent games linking to their replays, and axe-core
finding no serious or critical violation on either page in English, Japanese, Korean and French."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from roppyakken.server.store.database import Database
from tests.harness.axe import LANGUAGES, axe_problems, in_language
from tests.harness.browser import DESKTOP, chromium, need_browser, new_context, serving, watch_errors
from tests.harness.profile_seed import add_player, add_rating, seed_people

if TYPE_CHECKING:
    from playwright.sync_api import Browser

BOARD_PLAYERS = 60
"""Players on the classic-2 board besides Ann: two pages of 50."""
HISTORY = [(25.0 + i, 8.0 - i * 0.5, 1 + i % 2) for i in range(12)]
"""Ann's rating after each of her rated games (mu, sigma, place)."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """``roppyakken serve`` over a database of stored games and ratings."""
    need_browser()
    directory = tmp_path_factory.mktemp("profiles-web")
    db = Database(f"sqlite:///{directory / 'games.db'}")
    db.open()
    seed_people(db)
    now = datetime.now(UTC)

    def ratings(c: Any) -> None:
        mu, sigma, _ = HISTORY[-1]
        add_rating(c, "ann", "classic-2", mu, sigma, len(HISTORY), now - timedelta(days=1), HISTORY)
        for i in range(BOARD_PLAYERS):
            add_player(c, f"q{i:03d}", f"Q{i}")
            add_rating(c, f"q{i:03d}", "classic-2", 20.0 + i / 10, 3.0, 20, now - timedelta(days=2))

    db.run_now(ratings)
    db.engine.dispose()
    with serving(directory) as running:
        yield running.url


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Browser]:
    """Headless Debian Chromium."""
    with chromium() as b:
        yield b


def test_a_leaderboard_and_a_profile_with_its_rating_chart(server: str, browser: Browser) -> None:
    page = new_context(browser, DESKTOP).new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server + "/#/leaders")
    page.wait_for_selector("table.board tbody tr")
    assert page.locator(".pool-tabs a[aria-current=page]").get_attribute("data-pool") == "classic-2"
    rows = page.locator("table.board tbody tr")
    assert rows.count() == 50
    assert rows.first.get_attribute("data-player") == "ann"  # mu 36, sigma 2.5: the best
    page.locator(".pager a[rel=next]").click()
    page.wait_for_selector(".pager a[rel=prev]")
    assert page.locator("table.board tbody tr").count() == BOARD_PLAYERS + 1 - 50
    assert page.locator("table.board tbody tr td.num").first.inner_text() == "51"
    page.locator(".pool-tabs a[data-pool=korean-3]").click()
    page.wait_for_selector("text=Nobody is on this leaderboard yet.")

    page.goto(server + "/#/leaders")
    page.locator("table.board tbody tr").first.locator("a").click()
    page.wait_for_selector("svg.rating-chart polyline")
    assert page.evaluate("location.hash") == "#/player/ann"
    chart = page.locator("svg.rating-chart")
    assert chart.locator("circle").count() == len(HISTORY)
    assert (
        chart.get_attribute("role") == "img"
        and "classic" in (chart.get_attribute("aria-label") or "").lower()
    )
    assert page.locator("h1").inner_text() == "Ann"
    assert page.locator("dd[data-stat=games]").inner_text() == "3"
    assert page.locator("dd[data-stat=first]").inner_text() == "1"
    assert page.locator("dd[data-stat=abandoned]").inner_text() == "1"
    # a visitor sees Ann's public games only, newest first, each with its replay
    assert page.locator(".recent-games li").evaluate_all("els => els.map(e => e.dataset.room)") == [
        "g3",
        "g1",
    ]
    assert page.locator('.recent-games a[href="/#/replay?room=g3"]').count() == 1
    page.locator('.recent-games li[data-room=g3] a.player-link:text("Cy")').click()
    page.wait_for_selector("h1:text('Cy')")
    page.goto(server + "/#/player/nobody")
    page.wait_for_selector(".profile .error")
    assert "there is no player 'nobody'" in page.locator(".profile .error").inner_text()
    assert errors == []


@pytest.mark.parametrize("lang", LANGUAGES)
def test_no_serious_accessibility_violation_on_leaderboards_and_profiles(
    server: str, browser: Browser, lang: str, tmp_path: Path
) -> None:
    page = new_context(browser, DESKTOP).new_page()
    in_language(page, lang)
    problems: list[str] = []
    page.goto(server + "/#/leaders")
    page.wait_for_selector("table.board tbody tr")
    assert page.evaluate("document.documentElement.lang") == lang
    problems += axe_problems(page, "leaderboard")
    page.goto(server + "/#/player/ann")
    page.wait_for_selector("svg.rating-chart polyline")
    problems += axe_problems(page, "profile")
    assert problems == []
