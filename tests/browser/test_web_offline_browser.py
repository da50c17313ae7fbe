"""The installed app without a network, in Chromium: the engine and the bots on Pyodide in a Web Worker.

One browser profile goes through it in order (Pyodide's start is the slow part, so the profile
and its cache are shared by the steps of one test): the service worker installs and precaches
the client; the network goes (``context.set_offline(True)``) and the page, reloaded, says so;
a whole game against the master is played on the table (a hint asked, the round's review
shown), its record saved in the browser and replayed; a seeded game against the expert gives
the record the server's engine and bots give for the same seed and moves; the guided first
game is played through, the calculator scores in the worker and the rules show; back online,
the saved game is uploaded and shown on the player's profile (the offline page and the profile
audited by axe-core); and a new version of the client replaces the old cache once the page is
told to reload.  The server runs in this
process (tests/server_harness.py), so that the test can make it serve a new client version.

Takes 40 to 90 s on the loaded two-core development machine (Pyodide starts three times; the
master thinks its default budget per move).
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from roppyakken.actions import Action
from roppyakken.ai.offline import decision_seed
from roppyakken.engine import Game
from roppyakken.record import record_of, rules_of
from roppyakken.server.play.bots import think
from roppyakken.server.web import offline_routes
from roppyakken.view import view_of
from tests.harness.axe import axe_problems
from tests.harness.browser import (
    DESKTOP,
    FAST_ANIMATIONS,
    HAVE_PLAYWRIGHT,
    chromium,
    need_browser,
    play_all,
    play_to_round_end,
    until_my_play,
    wait_js,
    watch_errors,
)
from tests.harness.server_harness import ServerThread, limits_for_tests, running_server
from tests.harness.support import require
from tests.harness.tutorial_steps import play_through

if HAVE_PLAYWRIGHT:
    from playwright.sync_api import Browser, BrowserContext, Page

SHORT_GAME = 'preset = "classic"\ntarget = 100\n'
"""A whole game that is short: the first to 100 points wins."""
BOOT_SECONDS = 120.0
"""Pyodide's start, on a loaded machine."""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    need_browser()
    require(
        offline_routes.build_client().runtime, "the Pyodide runtime is missing (./scripts/offline-runtime)"
    )
    path = tmp_path_factory.mktemp("offline-web") / "s.sqlite3"
    with running_server(f"sqlite:///{path}", limits=limits_for_tests()) as served:
        yield served
    offline_routes.CLIENT.rebuild("")


@pytest.fixture(scope="module")
def browser(server: ServerThread) -> Iterator[Browser]:
    with chromium() as b:
        yield b


def _new_context(browser: Browser) -> BrowserContext:
    """A fresh profile with the server's Content-Security-Policy enforced and service workers on."""
    ctx = browser.new_context(viewport=DESKTOP, service_workers="allow")
    ctx.add_init_script(FAST_ANIMATIONS)
    ctx.set_default_timeout(30_000)
    return ctx


def _installed(page: Page) -> str:
    """Wait until the service worker controls the page and its cache holds everything; its name."""
    wait_js(page, "!!navigator.serviceWorker.controller", 120)
    expected = page.evaluate(
        "fetch('/sw.js').then(r => r.text())"
        ".then(t => JSON.parse(t.split('const PRECACHE = ')[1].split(';')[0]).length)"
    )
    script = (
        "caches.keys().then(ks => ks.filter(k => k.startsWith('roppyakken-')))"
        ".then(ks => ks.length === 1 ? caches.open(ks[0]).then(c => c.keys()).then(r => r.length) : -1)"
    )
    deadline = time.monotonic() + 120
    while page.evaluate(script) < expected:
        assert time.monotonic() < deadline, "the precache did not complete"
        page.wait_for_timeout(200)
    return str(page.evaluate("caches.keys().then(ks => ks.filter(k => k.startsWith('roppyakken-'))[0])"))


def _start(page: Page, seed: int, level: str) -> None:
    """On the offline page: a short game against ``level``, seeded."""
    page.wait_for_selector("#offline-form")
    page.click("#offline-form summary")
    page.fill("#offline-seed", str(seed))
    page.check("#offline-house")
    page.fill("#offline-toml", SHORT_GAME)
    page.select_option("#offline-bot-1", level)
    page.click("#offline-start")
    page.wait_for_selector("#offline-table .hand button.card", timeout=BOOT_SECONDS * 1000)


def _saved_record(page: Page) -> dict[str, Any]:
    """The record the page saved in IndexedDB at the game's end."""
    wait_js(
        page,
        "(t => !!t && !!t.dataset.saved)(document.getElementById('offline-table'))",
        60,
    )
    saved = int(page.evaluate("document.getElementById('offline-table').dataset.saved"))
    found = page.evaluate(
        """id => new Promise((ok, no) => {
            const req = indexedDB.open('roppyakken-offline', 1);
            req.onerror = () => no(req.error);
            req.onsuccess = () => {
                const get = req.result.transaction('records').objectStore('records').get(id);
                get.onsuccess = () => { ok(get.result.record); req.result.close(); };
                get.onerror = () => no(get.error);
            };
        })""",
        saved,
    )
    assert isinstance(found, dict)
    return found


WATCH_WORKERS = """() => navigator.serviceWorker.getRegistration().then(reg => {
    window.seen = [];
    const note = (what) => window.seen.push(`${Math.round(performance.now())} ms ${what}`);
    for (const [name, worker] of [["active", reg.active], ["waiting", reg.waiting]])
        if (worker) worker.addEventListener("statechange", () => note(`${name} ${worker.state}`));
    navigator.serviceWorker.addEventListener("controllerchange", () => note("controllerchange"));
    note("clicked");
})"""
"""Note in the page what the service workers do once Reload is clicked (read if it never reloads)."""


def _take_update(page: Page) -> None:
    """Click the update banner's Reload: the new worker takes over and the page reloads."""
    page.evaluate(WATCH_WORKERS)
    try:
        with page.expect_navigation(timeout=60_000):
            page.click("#update-reload")
    except Exception:
        seen = page.evaluate("window.seen")
        states = page.evaluate(
            "navigator.serviceWorker.getRegistration().then(r => "
            "[r.active && r.active.state, r.waiting && r.waiting.state, r.installing && r.installing.state])"
        )
        said = f"no reload after Reload: {seen}; active, waiting, installing: {states}"
        raise AssertionError(said) from None


def _server_replay(record: dict[str, Any], levels: list[str | None]) -> dict[str, Any]:
    """The record the server's engine and bots give for this record's seed and the person's moves.

    The person's moves are read back from the record (at each of the person's decisions, the
    one legal action whose outcome the record shows); every bot's move is the server's bot's
    (server/play/bots.py ``think``, seeded by ``decision_seed``) -- never the record's."""
    rules = rules_of(record)
    names = list(record["players"])
    game = Game(rules, len(names), record["seed"])
    moves = 0

    def agrees(candidate: Game) -> bool:
        made = record_of(candidate, names)
        index = len(made["rounds"]) - 1
        if index >= len(record["rounds"]):
            return False
        ours, theirs = made["rounds"][index], record["rounds"][index]
        if ours["events"] != theirs["events"][: len(ours["events"])]:
            return False
        return all(
            a is None or a == b for a, b in zip(ours["lucky_hands"], theirs["lucky_hands"], strict=True)
        )

    while not game.over:
        seat = game.to_act
        view = view_of(game, seat)
        level = levels[seat]
        action: Action
        if level is None:
            fitting = []
            for candidate in view.legal:
                trial = game.clone(log=True)
                trial.apply(candidate, seat)
                if agrees(trial):
                    fitting.append(candidate)
            assert len(fitting) == 1, (moves, fitting)
            action = fitting[0]
        else:
            action = think(level, decision_seed(record["seed"], seat, moves), view)[0]
        game.apply(action, seat)
        moves += 1
    return record_of(game, names)


def test_the_app_plays_offline_and_uploads_back_online(
    server: ServerThread, browser: Browser, tmp_path: Path
) -> None:
    began = time.monotonic()
    base = server.url
    ctx = _new_context(browser)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(base + "/")
    page.fill("#player-name", "Ann")
    page.locator("#player-name").dispatch_event("change")
    first_cache = _installed(page)

    # Offline: the page says so, and what is there.
    ctx.set_offline(True)
    page.goto(base + "/")
    page.wait_for_selector("#offline-status")
    assert "You are offline." in page.locator("#offline-status").inner_text()
    assert "the scoring calculator" in page.locator("#offline-banner").inner_text()
    problems = axe_problems(page, "offline page")

    # A whole game against the master, on the table; its record saved and replayed.
    _start(page, 3, "master")
    assert page.locator(".opponents .pname").count() == 1
    # a hint, worked out in the worker; the round's end shows the master's review
    until_my_play(page)
    page.locator(".prompt .hint-button").click()
    wait_js(page, "document.querySelectorAll('.hint-panel .hint-move').length === 3", timeout=120)
    play_to_round_end(page)
    review = page.locator("dialog.round-end[open] .review")
    assert "What the master would have played" in review.inner_text()
    wait_js(page, "!document.querySelector('.review .muted')", timeout=180)
    play_all([page], 600)
    record = _saved_record(page)
    assert record["players"] == ["Ann", "bot:master"] and record["winner"] in (0, 1)
    page.click(".over-actions a[href^='/#/replay?saved=']")
    page.wait_for_selector(".replay-board .card")

    # A seeded game against the expert: the same record as the server's engine and bots give.
    page.goto(base + "/#/offline")
    _start(page, 20261206, "expert")
    play_all([page], 300)
    seeded = _saved_record(page)
    assert seeded["seed"] == 20261206
    assert _server_replay(seeded, [None, "expert"]) == seeded

    # The guided first game, the calculator (scored by the engine in the worker) and the rules.
    page.goto(base + "/#/learn")
    page.wait_for_selector("#tutorial-panel[data-step='welcome']")
    play_through(page, "en", True, errors)
    page.goto(base + "/#/calc")
    for slug in ("pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"):
        page.click(f".calc-grid [data-slug='{slug}']")
    page.click(".calc-score")
    page.wait_for_selector(".calc-result .breakdown", timeout=BOOT_SECONDS * 1000)
    assert "Four Brights" in page.locator(".bd-player[data-seat='0']").inner_text()
    page.goto(base + "/#/rules")
    page.wait_for_selector("h1")
    assert page.locator("#app").inner_text().strip() != ""

    # Back online: upload the master game, see it on the profile.
    ctx.set_offline(False)
    page.goto(base + "/#/offline")
    page.wait_for_selector("#saved-games")
    assert page.locator("#saved-games li").count() == 2
    wait_js(page, "!document.querySelector('#saved-games li:last-child button.upload').disabled", 30)
    page.click("#saved-games li:last-child button.upload")
    page.wait_for_selector("#saved-games li:last-child a.uploaded")
    page.click("#saved-games li:last-child a.uploaded")
    page.wait_for_selector("#offline-games li")
    assert page.locator("#offline-games li").count() == 1
    listed = json.loads(
        page.evaluate(
            "fetch(location.hash.replace('#/player/', '/api/players/') + '/offline-games')"
            ".then(r => r.text())"
        )
    )
    assert listed["games"][0]["opponents"] == ["master"] and listed["games"][0]["rated"] is False
    problems += axe_problems(page, "profile with offline games")
    assert problems == [], "\n".join(problems)
    assert errors == []

    # A new version of the client: the page offers it, and once taken the old cache is gone.
    offline_routes.CLIENT.rebuild("next-version")
    page.goto(base + "/#/offline")
    page.reload()  # a new page load: the worker's script is checked for a new version
    page.wait_for_selector("#update-banner", timeout=120_000)
    _take_update(page)
    wait_js(page, f"caches.keys().then(ks => !ks.includes('{first_cache}'))", 60)
    second_cache = _installed(page)
    assert second_cache != first_cache
    assert page.evaluate("caches.keys()") == [second_cache]
    ctx.close()
    print(f"test_web_offline_browser: {time.monotonic() - began:.0f} s")
