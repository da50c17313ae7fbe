"""The browser client driven by Playwright: Debian's Chromium, a real roppyakken serve in a subprocess,
fresh browser profiles, and the steps of a game at the table."""

from __future__ import annotations

import contextlib
import json
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, Literal

import pytest

from roppyakken.cards import SLUGS, iter_cards
from roppyakken.engine import Game
from roppyakken.events import RoundEnded
from roppyakken.rules import preset
from roppyakken.server.people import passwords
from roppyakken.server.play.seat_views import StateMessages
from roppyakken.view import SeatView, view_of
from tests.harness.support import require

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


NAMES = ["Alice", "bot:master"]
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
PASSWORD = "a password long enough"


def need_browser() -> None:
    missing = []
    if not HAVE_PLAYWRIGHT:
        missing.append("the Python package playwright (pip install -e '.[web]')")
    if not Path(CHROMIUM).exists():
        missing.append(f"Debian's chromium at {CHROMIUM} (scripts/setup installs it)")
    require(not missing, "browser tests need " + " and ".join(missing))


def roppyakken_command() -> list[str]:
    script = Path(sys.executable).with_name("roppyakken")
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; from roppyakken.cli import main; sys.exit(main())"]


class Server:
    """A ``roppyakken serve`` subprocess over a SQLite file, its output kept in a log file."""

    def __init__(self, directory: Path, port: int = 0, extra: Sequence[str] = ()) -> None:
        """Start it, with the options ``extra`` besides those every browser test needs."""
        self.db = directory / "games.db"
        self.log = directory / f"serve-{time.monotonic_ns()}.log"
        args = ["serve", "--port", str(port), "--database", f"sqlite:///{self.db}", "--bot-delay", "0"]
        # every browser context is a new guest from 127.0.0.1: a module's tests would run past the
        # per-address bound on guests (tests/server/club/test_pairing_puppets.py tests the bound itself)
        args += ["--guests-per-hour", "1000000"]
        cmd = [*roppyakken_command(), *args, *extra]
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


@contextlib.contextmanager
def serving(directory: Path, *, cheap_passwords: bool = False, extra: Sequence[str] = ()) -> Iterator[Server]:
    """A :class:`Server` over a database in ``directory`` while the block runs, with argon2id's
    cheap test parameters (``passwords.SETTING``) when ``cheap_passwords`` and the options ``extra``."""
    with pytest.MonkeyPatch.context() as mp:
        if cheap_passwords:
            mp.setenv(passwords.SETTING, "cheap")
        running = Server(directory, extra=extra)
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


def new_context(
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
    # profile; the tests of the pages block it (browser/test_web_offline_browser.py allows it).
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


def watch_errors(page: Page, errors: list[str]) -> None:
    page.on("pageerror", lambda exc: errors.append(f"{page.url}: {exc}"))


def standings_names(page: Page) -> list[str]:
    """The players' names in a tournament page's standings, in the order shown."""
    return page.locator(".standings tbody tr td:nth-child(2) a").all_inner_texts()


def play_step(page: Page) -> str | None:
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


def play_all(pages: list[Page], max_seconds: float = GAME_SECONDS) -> dict[str, int]:
    """Take every decision on these pages until each shows the game over; count what was done."""
    done: dict[str, int] = {}
    deadline = time.monotonic() + max_seconds
    while time.monotonic() < deadline:
        results = [play_step(p) for p in pages]
        for r in results:
            if r is not None:
                done[r] = done.get(r, 0) + 1
        if all(r == "over" for r in results):
            return done
        if all(r in (None, "over") for r in results):
            time.sleep(0.05)
    raise AssertionError(f"the game did not end within {max_seconds} s (done: {done})")


def until_my_play(page: Page, max_seconds: float = 30) -> None:
    """Take the decisions before a play (lucky hands, a redeal call) until this page is to play."""
    deadline = time.monotonic() + max_seconds
    while not page.locator('.prompt[data-state="play"]').count():
        assert time.monotonic() < deadline, "never this player's turn to play"
        if play_step(page) is None:
            time.sleep(0.05)


def play_to_round_end(page: Page, max_seconds: float = 120) -> None:
    """Play this page's first legal moves until the round-end dialog opens (never ``play_step``,
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


def hand_of(page: Page) -> list[str]:
    """The card slugs of the hand this page shows."""
    slugs = page.locator(".hand button.card").evaluate_all("els => els.map(e => e.dataset.slug)")
    return sorted(str(s) for s in slugs)


def start_bot_game(page: Page, server: str, name: str, seed: int) -> None:
    page.goto(server + "/")
    fill_bot_game(page, name, seed)


def fill_bot_game(page: Page, name: str, seed: int) -> None:
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


def state_where(pred: Callable[[SeatView], bool], players: int = 2, name: str = "classic") -> dict[str, Any]:
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


def table_page(browser: Browser, server: str, viewport: ViewportSize, *, phone: bool = False) -> Page:
    ctx = new_context(browser, viewport, phone=phone)
    page = ctx.new_page()
    page.goto(server + "/#/rules")
    page.wait_for_selector(".rules-table")
    return page


def round_end_message(name: str = "classic", players: int = 3, seed: int = 11) -> dict[str, Any]:
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


def make_account(page: Page, login: str, password: str = PASSWORD) -> list[str]:
    """Make an account on the account page: the recovery codes it shows, once dismissed."""
    page.fill("#make-login", login)
    page.fill("#make-password", password)
    page.click("#make-account button[type=submit]")
    page.wait_for_selector("#recovery-codes")
    codes = page.locator(".recovery-code-list code").all_inner_texts()
    page.click("#recovery-codes-done")
    page.wait_for_selector("#signed-in-as")
    return codes
