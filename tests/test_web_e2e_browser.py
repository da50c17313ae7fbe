"""End-to-end tests of the browser client: Debian's Chromium, headless, driven by Playwright.

The real server runs as ``roppyakken serve`` in a subprocess, on a free loopback
port, over a temporary SQLite database, with no bot delay.  The games use house
rules with a small target (``target = 100``) and a random bot so that a game
ends in a round or two.  The tests are skipped only on a developer machine
without Chromium or Playwright; with ``CI=true`` a missing browser is a failure.
"""

from __future__ import annotations

import contextlib
import json
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Literal

import pytest

from roppyakken.cards import SLUGS, iter_cards
from roppyakken.choices import automatic, choices
from roppyakken.engine import Game
from roppyakken.events import RoundEnded
from roppyakken.rules import preset
from roppyakken.server.people import passwords
from roppyakken.server.play.seat_views import StateMessages
from roppyakken.view import SeatView, view_of
from tests.support import require

try:
    from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize, sync_playwright
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    HAVE_PLAYWRIGHT = True
except ImportError:  # pragma: no cover - a developer machine without the web extras
    HAVE_PLAYWRIGHT = False

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
HOUSE_RULES = 'preset = "classic"\ntarget = 100\n'
GAME_SECONDS = 150.0
# Seeded deals (the bots are seeded from the room's seed too), so every run plays the same games.
BOT_GAME_SEED = 1
DESKTOP: ViewportSize = {"width": 1280, "height": 860}
PHONE: ViewportSize = {"width": 390, "height": 844}
# Animations run four times faster than for people, so that the games stay short.
FAST_ANIMATIONS = "try { localStorage.setItem('roppyakken-speed', '4'); } catch (e) {}"


def _need_browser() -> None:
    missing = []
    if not HAVE_PLAYWRIGHT:
        missing.append("the Python package playwright (pip install -e '.[web]')")
    if not Path(CHROMIUM).exists():
        missing.append(f"Debian's chromium at {CHROMIUM} (scripts/setup installs it)")
    require(not missing, "browser tests need " + " and ".join(missing))


def _roppyakken_command() -> list[str]:
    script = Path(sys.executable).with_name("roppyakken")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from roppyakken.cli import main; sys.exit(main())"]


class Server:
    """A ``roppyakken serve`` subprocess over a SQLite file, its output kept in a log file."""

    def __init__(self, directory: Path, port: int = 0) -> None:
        self.db = directory / "games.db"
        self.log = directory / f"serve-{time.monotonic_ns()}.log"
        args = ["serve", "--port", str(port), "--database", f"sqlite:///{self.db}", "--bot-delay", "0"]
        # every browser context is a new guest from 127.0.0.1: a module's tests would run past the
        # per-address bound on guests (tests/test_server_pairing_puppets.py tests the bound itself)
        args += ["--guests-per-hour", "1000000"]
        cmd = [*_roppyakken_command(), *args]
        with self.log.open("w") as out:
            self.proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        self.url = self._wait_for_url()

    def _wait_for_url(self) -> str:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and self.proc.poll() is None:
            found = re.search(r"http://[\w.:\[\]-]+/", self.log.read_text())
            if found:
                return found.group(0).rstrip("/")
            time.sleep(0.05)
        self.stop()
        pytest.fail("roppyakken serve did not start: " + self.log.read_text())

    @property
    def port(self) -> int:
        """The port it listens on."""
        return int(self.url.rsplit(":", 1)[1])

    def stop(self) -> None:
        """Stop it (as Ctrl-C would) and wait."""
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real ``roppyakken serve`` on a free loopback port."""
    _need_browser()
    running = Server(tmp_path_factory.mktemp("web-e2e"))
    try:
        yield running.url
    finally:
        running.stop()


@contextlib.contextmanager
def serving(directory: Path, *, cheap_passwords: bool = False) -> Iterator[Server]:
    """A :class:`Server` over a database in ``directory`` while the block runs, with argon2id's
    cheap test parameters (``passwords.SETTING``) when ``cheap_passwords``."""
    with pytest.MonkeyPatch.context() as mp:
        if cheap_passwords:
            mp.setenv(passwords.SETTING, "cheap")
        running = Server(directory)
    try:
        yield running
    finally:
        running.stop()


@contextlib.contextmanager
def chromium() -> Iterator[Browser]:
    """Headless Debian Chromium (no browser download), closed at the end."""
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Browser]:
    """Headless Debian Chromium for the pages of ``server``."""
    with chromium() as b:
        yield b


def _context(
    browser: Browser,
    viewport: ViewportSize,
    *,
    phone: bool = False,
    csp: bool = False,
    service_workers: Literal["allow", "block"] = "block",
) -> BrowserContext:
    """A fresh browser profile (its own localStorage) with fast animations.

    The server's Content-Security-Policy forbids eval, which Playwright's
    ``wait_for_function`` needs: contexts bypass it unless ``csp`` is set
    (:func:`test_the_client_runs_under_its_content_security_policy` keeps it).
    """
    # The service worker precaches the whole offline client (Pyodide: megabytes) in every fresh
    # profile; the tests of the pages block it (test_web_offline_browser.py allows it).
    ctx = browser.new_context(
        viewport=viewport,
        is_mobile=phone,
        has_touch=phone,
        bypass_csp=not csp,
        service_workers=service_workers,
    )
    ctx.add_init_script(FAST_ANIMATIONS)
    ctx.set_default_timeout(15_000)
    return ctx


def wait_js(page: Page, expression: str, timeout: float = 15.0) -> None:
    """Wait until ``expression`` is true in ``page``.

    Polled from here through ``page.evaluate``: Playwright's ``wait_for_function`` builds
    its predicate with ``eval`` inside the page, which the server's Content-Security-Policy
    (no ``unsafe-eval``) rightly forbids.
    """
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {expression}")
        page.wait_for_timeout(50)


def _watch_errors(page: Page, errors: list[str]) -> None:
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))


def _step(page: Page) -> str | None:
    """Make one decision in a running game if this page has one; say what happened.

    Returns "over" once the game-over box shows, "dialog" after closing a
    round-end breakdown, the phase of a decision taken, or None if it is not
    this player's turn.  Anything that moved under the mouse is simply retried
    by the caller's loop.
    """
    try:
        if page.locator(".game-over:not([hidden])").count():
            return "over"
        dialog = page.locator("dialog.round-end[open]")
        if dialog.count():
            dialog.locator("button").click(timeout=3000)
            return "dialog"
        prompt = page.locator(".prompt")
        state = prompt.get_attribute("data-state", timeout=1000) if prompt.count() else None
        if state in ("redeal", "declare", "take"):
            page.locator(".prompt-actions button.act").first.click(timeout=3000)
            return state
        if state == "play":
            page.locator(".hand button.card").first.click(timeout=3000)
            page.locator(".prompt-actions button.act").first.click(timeout=3000)
            return "play"
    except PlaywrightTimeoutError:  # what was to click went away meanwhile: look again
        return None
    return None


def _play_out(pages: list[Page], max_seconds: float = GAME_SECONDS) -> dict[str, int]:
    """Take every decision on these pages until each shows the game over; count what was done."""
    done: dict[str, int] = {}
    deadline = time.monotonic() + max_seconds
    while time.monotonic() < deadline:
        results = [_step(p) for p in pages]
        for r in results:
            if r is not None:
                done[r] = done.get(r, 0) + 1
        if all(r == "over" for r in results):
            return done
        if all(r in (None, "over") for r in results):
            time.sleep(0.05)
    raise AssertionError(f"the game did not end within {max_seconds} s (done: {done})")


def _until_my_play(page: Page, max_seconds: float = 30) -> None:
    """Take the decisions before a play (lucky hands, a redeal call) until this page is to play."""
    deadline = time.monotonic() + max_seconds
    while not page.locator('.prompt[data-state="play"]').count():
        assert time.monotonic() < deadline, "never this player's turn to play"
        if _step(page) is None:
            time.sleep(0.05)


def _play_to_round_end(page: Page, max_seconds: float = 120) -> None:
    """Play this page's first legal moves until the round-end dialog opens (never ``_step``,
    which would close the dialog this waits for)."""
    deadline = time.monotonic() + max_seconds
    while not page.locator("dialog.round-end[open]").count():
        assert time.monotonic() < deadline, "the round did not end"
        try:
            state = page.locator(".prompt").get_attribute("data-state", timeout=1000)
            if state == "play":
                page.locator(".hand button.card").first.click(timeout=3000)
            if state in ("play", "take", "declare", "redeal"):
                page.locator(".prompt-actions button.act").first.click(timeout=3000)
            else:
                page.wait_for_timeout(30)
        except PlaywrightTimeoutError:
            pass  # what was to click went away (or the dialog opened): look again; other errors fail


def _hand(page: Page) -> list[str]:
    """The card slugs of the hand this page shows."""
    slugs = page.locator(".hand button.card").evaluate_all("els => els.map(e => e.dataset.slug)")
    return sorted(str(s) for s in slugs)


def _start_bot_game(page: Page, server: str, name: str, seed: int) -> None:
    page.goto(server + "/")
    _fill_bot_game(page, name, seed)


def _fill_bot_game(page: Page, name: str, seed: int) -> None:
    """On the start page: a game against the random bot on the house rules, started and shown."""
    page.fill("#player-name", name)
    page.click("#play-bots summary")  # the seed field is folded away
    page.fill("#bots-seed", str(seed))
    page.check("#bots-house")
    page.fill("#bots-toml", HOUSE_RULES)
    page.select_option("#bot-seat-1", "random")
    page.click("#play-bots button[type=submit]")
    page.wait_for_url(re.compile(r"/r/[\w-]+$"))
    page.wait_for_selector(".hand button.card")


def test_full_game_against_a_bot(server: str, browser: Browser, tmp_path: Path) -> None:
    """A whole game against a random bot, by mouse and keyboard, then its replay in the viewer."""
    ctx = _context(browser, DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    _watch_errors(page, errors)
    _start_bot_game(page, server, "Alice", BOT_GAME_SEED)
    assert page.locator(".player.me .pname").inner_text() == "Alice"
    # A bot has a proper name, and its level as a badge.
    assert page.locator(".opponents .pname").inner_text() == "Momo"
    assert page.locator(".opponents .badge.bot").inner_text() == "Random bot"
    assert page.locator(".hand button.card").count() == 8  # 8 cards each with 2 players

    # The first play by keyboard: arrows move along the hand, Enter selects, Enter plays.
    _until_my_play(page)
    page.locator('.hand button.card[tabindex="0"]').focus()
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("document.activeElement.dataset.slug")
    assert focused == page.locator(".hand button.card").nth(1).get_attribute("data-slug")
    page.keyboard.press("Enter")
    assert page.locator(".hand button.card.selected").get_attribute("data-slug") == focused
    assert page.evaluate("document.activeElement.classList.contains('act')")
    page.keyboard.press("Enter")
    wait_js(page, f"!document.querySelector('.hand [data-slug=\"{focused}\"]')")
    assert page.locator(".log li").count() >= 2

    done = _play_out([page])
    assert done.get("play", 0) >= 4
    assert done.get("dialog", 0) >= 1, "a round-end breakdown was shown"
    winner = page.locator(".game-over .winner").inner_text()
    assert "win" in winner.lower()
    assert page.locator(".progress-seat").count() == 2

    # The finished game's record downloads and opens in the replay viewer.
    href = page.locator(".game-over a[download]").get_attribute("href")
    assert href is not None
    record = json.loads(page.request.get(server + href).text())
    assert record["format"] == "roppyakken-record/1"
    assert record["players"] == ["Alice", "bot:random"]  # the record keeps the bot's id
    assert "bot:" not in page.locator(".game-over").inner_text()
    page.click("text=Watch the replay")
    page.wait_for_selector(".replay-board .card")
    first = page.locator(".replay-caption").inner_text()
    page.click(".replay-forward")
    wait_js(page, f"document.querySelector('.replay-caption').textContent !== {json.dumps(first)}")
    page.click(".replay-last")
    assert page.locator(".replay-board .breakdown").count() == 1
    page.click(".replay-back")
    page.click(".replay-first")
    assert page.locator(".replay-caption").inner_text() == first
    # The same record opened as a file.
    saved = tmp_path / "game.json"
    saved.write_text(json.dumps(record))
    page.goto(server + "/#/replay")
    page.set_input_files("#replay-file", str(saved))
    page.wait_for_selector(".replay-board .card")
    assert page.locator(".replay-caption").inner_text() == first
    page.keyboard.press("End")
    assert "step 1 of" not in page.locator(".replay-counter").inner_text()
    # The finished-games list names the bot and its level, never its id.
    page.goto(server + "/")
    page.wait_for_selector(".g-players")
    listed = page.locator(".g-players").first.inner_text()
    assert "Momo (Random bot)" in listed and "bot:" not in listed, listed
    assert errors == []
    ctx.close()


def test_online_game_through_an_invite_link(server: str, browser: Browser) -> None:
    """Three players: the host on a desktop, a friend on a phone by the invite link, and a bot.

    A spectator watches by the same link and sees no hand; the friend reloads the
    page mid-game and gets the seat and the hand back.
    """
    errors: list[str] = []
    host_ctx = _context(browser, DESKTOP)
    guest_ctx = _context(browser, PHONE, phone=True)
    watch_ctx = _context(browser, DESKTOP)
    host, guest, watcher = host_ctx.new_page(), guest_ctx.new_page(), watch_ctx.new_page()
    for p in (host, guest, watcher):
        _watch_errors(p, errors)

    host.goto(server + "/")
    host.fill("#player-name", "Hana")
    host.check("input[name=online-players][value='3']")
    host.check("#online-house")
    host.fill("#online-toml", HOUSE_RULES)
    assert host.locator("#online-seed").count() == 0  # nobody chooses the deal of a game with others
    host.click("#play-online button[type=submit]")
    invite = host.input_value(".invite-link")
    assert re.fullmatch(re.escape(server) + r"/r/[\w-]+", invite)
    assert host.locator("button.start").is_disabled()

    guest.goto(invite)
    guest.fill("#join-name", "Kenji")
    guest.click("form.join button[type=submit]")
    guest.wait_for_selector(".waiting-room")
    host.wait_for_selector(".seat-human[data-seat='1']")
    assert "Kenji" in host.locator(".seat[data-seat='1']").inner_text()
    # The host fills the empty third seat with a bot, frees it, and fills it again.
    assert host.locator("button.start").is_disabled()
    host.select_option(".seat[data-seat='2'] select.bot-level", "random")
    host.click(".seat[data-seat='2'] button.fill-bot")
    host.wait_for_selector(".seat-bot[data-seat='2']")
    guest.wait_for_selector(".seat-bot[data-seat='2']")
    host.click(".seat[data-seat='2'] button.free-seat")
    host.wait_for_selector(".seat-empty[data-seat='2']")
    host.select_option(".seat[data-seat='2'] select.bot-level", "random")
    host.click(".seat[data-seat='2'] button.fill-bot")
    host.wait_for_selector(".seat-bot[data-seat='2']")
    # Someone else opening the invite link of the now full room watches, and is told why.
    late_ctx = _context(browser, PHONE, phone=True)
    late = late_ctx.new_page()
    _watch_errors(late, errors)
    late.goto(invite)
    notice = late.locator(".waiting-room .notice")
    notice.wait_for()
    assert "Every seat is taken" in notice.inner_text()
    assert late.locator(".seat-bot[data-seat='2']").inner_text().count("Random bot") == 1
    late_ctx.close()
    host.click("button.start")
    host.wait_for_selector(".hand button.card")
    guest.wait_for_selector(".hand button.card")

    # A spectator by the same link once the game runs: the table, never a hand.
    watcher.goto(invite)
    watcher.wait_for_selector(".table-cards .card")
    # Told why the invite link made it a spectator.
    assert "already started" in watcher.locator(".prompt .notice").inner_text()
    assert watcher.locator(".hand").is_hidden()
    assert watcher.locator(".phand .backs [data-slug]").count() == 0
    assert "watching" in watcher.locator(".prompt").inner_text()

    # Play a few decisions, then the guest reloads the page: same seat, same hand.
    plays = 0
    deadline = time.monotonic() + 60
    while plays < 3 and time.monotonic() < deadline:
        results = [_step(host), _step(guest)]
        plays += results.count("play")
        if not any(results):
            time.sleep(0.05)
    assert plays >= 3
    # Let the others play on until the guest is to play: its hand is then settled.
    while not guest.locator('.prompt[data-state="play"]').count() and time.monotonic() < deadline:
        guest_dialog = guest.locator("dialog.round-end[open]")
        if guest_dialog.count():
            guest_dialog.locator("button").click()
        if _step(host) is None:
            time.sleep(0.05)
    hand_before = _hand(guest)
    log_before = guest.locator(".log li").all_inner_texts()
    assert len(log_before) > 3
    guest.reload()
    guest.wait_for_selector(".hand button.card")
    assert _hand(guest) == hand_before
    assert guest.locator(".player.me .pname").inner_text() == "Kenji"
    # The log comes back from the server's history, as the others see it.
    wait_js(guest, f"document.querySelectorAll('.log li').length >= {len(log_before)}")
    assert guest.locator(".log li").all_inner_texts() == log_before
    assert host.locator(".log li").all_inner_texts()[-len(log_before) :] == log_before

    _play_out([host, guest, watcher])  # the spectator, too, closes its round-end breakdowns
    # Everyone sees the same winner; the winner's own page says "You win".
    shown = watcher.locator(".game-over .winner").inner_text()
    found = re.match(r"(.+) wins", shown)
    assert found, shown
    winner = found.group(1)
    assert winner in ("Hana", "Kenji", "Momo")
    for page, name in ((host, "Hana"), (guest, "Kenji")):
        text = page.locator(".game-over .winner").inner_text()
        assert text.startswith("You win") if winner == name else text.startswith(f"{winner} wins"), text
    assert errors == []
    for ctx in (host_ctx, guest_ctx, watch_ctx):
        ctx.close()


def test_scoring_calculator(server: str, browser: Browser) -> None:
    """Tap captured cards for two players and get the breakdown of POST /api/score."""
    ctx = _context(browser, PHONE, phone=True)
    page = ctx.new_page()
    errors: list[str] = []
    _watch_errors(page, errors)
    page.goto(server + "/#/calc")
    for slug in ("pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix", "maple-deer"):
        page.click(f".calc-grid [data-slug='{slug}']")
    page.click(".calc-tab.seat-1")
    for slug in ("peony-ribbon", "chrysanthemum-ribbon", "maple-ribbon", "pine-chaff-1"):
        page.click(f".calc-grid [data-slug='{slug}']")
    page.click(".calc-grid [data-slug='maple-deer']")  # moves the deer to player 2
    page.click(".calc-score")
    page.wait_for_selector(".calc-result .breakdown")
    p1 = page.locator(".bd-player[data-seat='0']").inner_text()
    p2 = page.locator(".bd-player[data-seat='1']").inner_text()
    # 200 card points + Four Brights 600 + Crane, Moon, Phoenix 150; Blue Ribbons 100.
    assert "Four Brights" in p1 and "950" in p1
    assert "Blue Ribbons" in p2 and "140" in p2
    assert "Instant win" in page.locator(".calc-result").inner_text()
    assert errors == []
    ctx.close()


def test_client_card_and_yaku_tables_match_the_engine(server: str, browser: Browser) -> None:
    """The deck (R-1) and yaku card lists (R-8) the client embeds agree with the engine's."""
    from roppyakken.cards import NUM_CARDS, POINTS, SLUGS
    from roppyakken.rules import preset
    from roppyakken.yaku import SET_YAKU, YAKU_SLUGS

    ctx = _context(browser, DESKTOP)
    page = ctx.new_page()
    page.goto(server + "/#/rules")
    page.wait_for_selector(".rules-table")
    tables = page.evaluate(
        """async () => {
          const deck = await import('/static/js/deck.js');
          const yaku = await import('/static/js/yaku.js');
          const withWarbler = {four_brights_needs_warbler: true, seven_ribbons_willow: 'exclude'};
          return {
            slugs: deck.SLUGS,
            points: deck.SLUGS.map(deck.pointsOf),
            sets: yaku.SET_YAKU,
            order: yaku.YAKU_ORDER,
            brights5: yaku.yakuCards('four-brights', withWarbler),
            ribbons: yaku.yakuCards('seven-ribbons', withWarbler),
          };
        }"""
    )
    assert tables["slugs"] == list(SLUGS)
    assert tables["points"] == list(POINTS)
    assert tables["order"] == list(YAKU_SLUGS)
    for slug, mask in SET_YAKU.items():
        engine_cards = sorted(SLUGS[c] for c in range(NUM_CARDS) if mask >> c & 1)
        assert sorted(tables["sets"][slug]) == engine_cards, slug
    assert "plum-warbler" in tables["brights5"] and len(tables["brights5"]) == 5
    assert len(tables["ribbons"]) == 9 and "willow-ribbon" not in tables["ribbons"]  # exclude

    # Progress: held, missing, and gone (captured by another player) make a yaku impossible.
    progress = page.evaluate(
        """async (options) => {
          const yaku = await import('/static/js/yaku.js');
          const caps = [['pine-ribbon', 'plum-ribbon', 'peony-ribbon'], ['cherry-ribbon']];
          return yaku.yakuProgress(options, caps, 0);
        }""",
        preset("classic").options(),
    )
    by_slug = {e["slug"]: e for e in progress}
    red = by_slug["red-poems"]
    assert [c["state"] for c in red["cards"]] == ["held", "held", "gone"]
    assert red["impossible"] and not red["done"]
    blue = by_slug["blue-ribbons"]
    assert blue["held"] == 1 and not blue["impossible"]
    seven = by_slug["seven-ribbons"]
    assert seven["held"] == 3 and seven["need"] == 7 and not seven["impossible"]
    ctx.close()


def test_connection_lost_and_back(browser: Browser, tmp_path: Path) -> None:
    """The server goes away mid-game and comes back: the page reconnects by itself, same seat, same hand."""
    first = Server(tmp_path)
    ctx = _context(browser, DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    _watch_errors(page, errors)
    try:
        _start_bot_game(page, first.url, "Ayumi", BOT_GAME_SEED)
        plays = 0
        deadline = time.monotonic() + 30
        while plays < 2 and time.monotonic() < deadline:
            result = _step(page)
            plays += result == "play"
            if result is None:
                time.sleep(0.05)
        _until_my_play(page)
        hand = _hand(page)
        first.stop()
        page.wait_for_selector(".conn-status")  # "Connection lost — reconnecting…"
        # A move made while the server is away is kept, and the player is told at once.
        assert _step(page) == "play"
        held = page.locator(".prompt .move-held")
        held.wait_for(timeout=1000)
        assert "kept" in held.inner_text()
        assert _hand(page) == hand
        second = Server(tmp_path, port=first.port)  # the same database: the game is replayed
        back = time.monotonic()
        try:
            page.wait_for_selector(".conn-status", state="detached")
            reconnect = time.monotonic() - back
            assert reconnect < 3.0, f"reconnected {reconnect:.1f} s after the server was back"
            # The kept move is sent again by itself: the hand loses the card, nobody clicks.
            wait_js(page, f"document.querySelectorAll('.hand button.card').length < {len(hand)}")
            assert page.locator(".prompt .move-held").count() == 0
            assert page.locator(".player.me .pname").inner_text() == "Ayumi"
            assert page.locator(".log li").count() >= 2  # the history came back with the connection
        finally:
            second.stop()
    finally:
        ctx.close()
    assert errors == []


# ---------------------------------------------------------------------------------------------
# The table drawn from real engine states, without a game to play through.

NAMES = ["Alice", "bot:master"]


def _state_where(pred: Callable[[SeatView], bool], players: int = 2, name: str = "classic") -> dict[str, Any]:
    """The server's ``state`` message for the acting seat at the first decision of seeded random games
    where ``pred`` holds."""
    for seed in range(400):
        game = Game(preset(name), players, seed)
        rng = random.Random(seed)
        seq = 0
        while not game.over:
            view = view_of(game, game.to_act)
            if pred(view):
                message: dict[str, Any] = json.loads(
                    StateMessages(game, NAMES[:players], seq).for_seat(view.seat)
                )
                return message
            game.apply(rng.choice(game.legal_actions()))
            seq += 1
    raise AssertionError("no such state in 400 random games")


SHOW_STATE = """async ({msg, options}) => {
  const { GameView } = await import('/static/js/table.js');
  window.sent = [];
  const conn = { open: true, backlog: 0, send: (m) => { window.sent.push(m); return '1'; } };
  const root = document.querySelector('#app');
  window.gv = new GameView(root, { room: 'r', seat: msg.view.seat, conn,
                                   rules: { preset: 'classic', options } });
  await window.gv.onState(msg.view, msg.names, msg.seq, msg.choices);
  return window.sent;
}"""


def _table_page(browser: Browser, server: str, viewport: ViewportSize, *, phone: bool = False) -> Page:
    ctx = _context(browser, viewport, phone=phone)
    page = ctx.new_page()
    page.goto(server + "/#/rules")
    page.wait_for_selector(".rules-table")
    return page


def test_a_choice_that_changes_nothing_is_taken_and_one_that_matters_is_explained(
    server: str, browser: Browser
) -> None:
    options = preset("classic").options()
    page = _table_page(browser, server, DESKTOP)
    # The turned-up card between two targets worth the same and advancing no yaku: taken at once.
    same = _state_where(lambda v: v.phase == "take" and automatic(v) is not None)
    sent = page.evaluate(SHOW_STATE, {"msg": same, "options": options})
    want = next(
        c for c, a in zip(same["choices"], same["view"]["legal"], strict=True) if c["same_as"] is None
    )
    first = same["view"]["legal"][same["choices"].index(want)]
    assert sent == [{"type": "act", "action": first, "seq": same["seq"]}]  # with the state it was for
    assert "changed nothing" in page.locator(".prompt .notice").inner_text()
    # Targets that differ: one button each, with the points and yaku progress it gives.
    differ = _state_where(lambda v: v.phase == "take" and len({(c.points, c.steps) for c in choices(v)}) > 1)
    sent = page.evaluate(SHOW_STATE, {"msg": differ, "options": options})
    assert sent == []
    buttons = page.locator(".prompt-actions button.act")
    distinct = [c for c in differ["choices"] if c["same_as"] is None]
    assert buttons.count() == len(distinct)
    gives = page.locator(".prompt-actions button.act .gives").all_inner_texts()
    for text, choice in zip(gives, distinct, strict=True):
        assert (f"+{choice['points']} card points" if choice["points"] else "no points") in text
        assert text.count("/") == len(choice["yaku"])
    page.context.close()


def test_the_declare_prompt_shows_the_cards_of_each_lucky_hand(server: str, browser: Browser) -> None:
    page = _table_page(browser, server, DESKTOP)
    msg = _state_where(lambda v: v.phase == "declare" and bool(v.lucky_hands))
    page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("classic").options()})
    lucky = msg["view"]["lucky_hands"]
    assert page.locator(".prompt .lucky-list li").count() == len(lucky)
    marked = page.locator(".hand button.card.lucky").evaluate_all("els => els.map(e => e.dataset.slug)")
    assert sorted(marked) == sorted({c for x in lucky for c in x["cards"]})
    assert lucky[0]["cards"] and all(c in msg["view"]["hand"] for c in lucky[0]["cards"])
    page.context.close()


def _round_end_message(name: str = "classic", players: int = 3, seed: int = 11) -> dict[str, Any]:
    """A real round end of a game of preset ``name`` (by default a 3-player game: a long
    breakdown), as the server sends it."""
    game = Game(preset(name), players, seed)
    rng = random.Random(seed)
    while True:
        for event in game.apply(rng.choice(game.legal_actions())):
            if isinstance(event, RoundEnded):
                captures = [
                    [SLUGS[c] for c in iter_cards(m)] for m in game.history[event.round].captures or []
                ]
                return {
                    "round": event.round,
                    "score": event.score.to_json(),
                    "totals": list(event.totals),
                    "captures": captures,
                }


def test_phone_round_end_dialog_and_tap_targets(server: str, browser: Browser) -> None:
    """On a phone, "Continue" never covers the breakdown, and controls are at least 44 px tall."""
    page = _table_page(browser, server, PHONE, phone=True)
    msg = _state_where(lambda v: v.phase == "play", players=3)
    msg["names"] = ["Alice", "bot:master", "bot:expert"]
    page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("classic").options()})
    # Tap targets: navigation, rules help, the yaku-panel toggles.
    small = page.evaluate(
        """() => [...document.querySelectorAll(
              '.top-nav a, .status-bar .link-button, .progress-host summary, button:not(.card)')]
            .filter((e) => e.getClientRects().length)
            .map((e) => [e.textContent.trim(), e.getBoundingClientRect().height])
            .filter(([, h]) => h < 44)"""
    )
    assert small == []
    assert page.locator(".progress-host summary").count() >= 3
    # The round-end breakdown: its body scrolls, the button sits below it.
    page.evaluate(
        "(m) => { window.gv.shownNames = ['Alice', 'Ryū', 'Taka']; window.gv.onRoundEnd(m); }",
        _round_end_message(),
    )
    dialog = page.locator("dialog.round-end[open]")
    dialog.wait_for()
    box = page.evaluate(
        """() => {
          const d = document.querySelector('dialog.round-end');
          const body = d.querySelector('.dialog-body').getBoundingClientRect();
          const button = d.querySelector('.dialog-actions button').getBoundingClientRect();
          const b = d.querySelector('.dialog-body');
          return {body: body.bottom, button: button.top, buttonBottom: button.bottom,
                  dialog: d.getBoundingClientRect().bottom, scrolls: b.scrollHeight > b.clientHeight,
                  viewport: innerHeight};
        }"""
    )
    assert box["scrolls"], "a 3-player breakdown is taller than a phone: its body scrolls"
    assert box["button"] >= box["body"], box
    assert box["buttonBottom"] <= box["dialog"] <= box["viewport"], box
    dialog.locator(".dialog-actions button").click()
    page.wait_for_selector("dialog.round-end", state="detached")
    page.context.close()


def test_calculator_on_a_phone_shows_whole_month_names_and_no_rule_ids(server: str, browser: Browser) -> None:
    page = _table_page(browser, server, PHONE, phone=True)
    page.goto(server + "/#/calc")
    page.wait_for_selector(".calc-month-name")
    clipped = page.evaluate(
        """() => [...document.querySelectorAll('.calc-month-name')]
            .filter((e) => e.scrollWidth > e.clientWidth).map((e) => e.textContent)"""
    )
    assert clipped == []
    for slug in ("pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"):
        page.click(f".calc-grid [data-slug='{slug}']")
    page.click(".calc-tab.seat-1")
    for slug in ("peony-ribbon", "chrysanthemum-ribbon", "maple-ribbon", "chrysanthemum-sake", "maple-deer"):
        page.click(f".calc-grid [data-slug='{slug}']")
    page.click(".calc-score")
    page.wait_for_selector(".calc-result .breakdown")
    assert not re.search(r"R-\d", page.locator(".calc-result").inner_text())
    # Both players' breakdowns have the same columns, whatever they hold.
    columns = page.evaluate(
        """() => [...document.querySelectorAll('.bd-table')].map((t) =>
              [...t.querySelector('tr').children].map((c) => Math.round(c.getBoundingClientRect().width)))"""
    )
    assert len(columns) == 2 and columns[0] == columns[1], columns
    page.context.close()


def test_the_client_runs_under_its_content_security_policy(
    server: str, browser: Browser, tmp_path: Path
) -> None:
    """Lobby, calculator and replay page work with the CSP enforced; the replay page checks fair deals."""
    import json

    from roppyakken.record import deal_commitment, dumps, record_of
    from roppyakken.rules import preset
    from tests.test_record_commitment import SALT, played

    ctx = _context(browser, DESKTOP, csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    _watch_errors(page, errors)
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server + "/#/calc")
    page.click(".calc-grid [data-slug='pine-crane']")
    honest = tmp_path / "honest.json"
    honest.write_text(dumps(record_of(played(preset("classic"), 12), ["a", "b"], salt=SALT)))
    rigged = json.loads(honest.read_text())
    rigged["seed"] += 1
    rigged["commitment"] = deal_commitment(rigged["seed"], SALT)
    rigged_path = tmp_path / "rigged.json"
    rigged_path.write_text(json.dumps(rigged))
    page.goto(server + "/#/replay")
    page.set_input_files("#replay-file", str(honest))
    page.locator(".fair-deal", has_text="Fair deal verified").wait_for()
    page.set_input_files("#replay-file", str(rigged_path))
    page.locator(".fair-deal", has_text="Deal check FAILED").wait_for()
    assert page.locator(".fair-deal").count() == 1
    assert errors == []
    ctx.close()
