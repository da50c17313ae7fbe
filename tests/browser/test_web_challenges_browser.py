"""A direct challenge reaches its player on any page, over the tab's one lobby connection: Bo reads the
rules on a phone when Ann challenges him; the panel of challenges shows it first in the keyboard's
order, he accepts it by keyboard and both land at the table (Ann waiting on the tournaments page,
taken there).  While Bo plays, a challenge from Cy waits: the game page shows nothing and opens no
lobby connection; another of Bo's pages shows it, and he declines it by keyboard; the game page
shows the next one once its game is over.  axe-core finds no
serious or critical violation with the panel shown (on a phone and a desktop)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from tests.harness.axe import axe_problems
from tests.harness.browser import DESKTOP, PHONE, new_context, wait_js, watch_errors

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

BECOME = """async (name) => {
  const r = await fetch('/api/me', {method: 'POST', headers: {'Content-Type': 'application/json',
    'X-CSRF-Token': 'new'}, body: JSON.stringify({name})});
  return (await r.json()).player.id;
}"""

CHALLENGE = """async (other) => {
  const me = await (await fetch('/api/me')).json();
  const r = await fetch('/api/challenges', {method: 'POST', headers: {'Content-Type': 'application/json',
    'X-CSRF-Token': me.csrf}, body: JSON.stringify({player: other, clock: '1d'})});
  const sent = await r.json();
  localStorage.setItem('roppyakken-challenge:' + sent.challenge.id, sent.token);
  return sent.challenge.id;
}"""

SOCKETS = """() => {
  window.__lobbySockets = [];
  const Real = window.WebSocket;
  window.WebSocket = class extends Real {
    constructor(url, ...rest) {
      super(url, ...rest);
      if (String(url).endsWith('/ws/lobby')) window.__lobbySockets.push(this);
    }
  };
}"""


def _player(
    browser: Browser, server: str, name: str, where: str, phone: bool = False
) -> tuple[Page, str, list[str]]:
    context = new_context(browser, PHONE if phone else DESKTOP, phone=phone)
    context.add_init_script(f"({SOCKETS})()")
    page = context.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server + "/#/rules")
    player_id: str = page.evaluate(BECOME, name)
    page.goto(server + where)
    page.reload()
    return page, player_id, errors


def _tab_to(page: Page, selector: str, most: int = 8) -> None:
    """Press Tab from the top of the page until ``selector`` has the focus."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(most):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement === document.querySelector({selector!r})"):
            return
    raise AssertionError(f"{selector} not reached by {most} presses of Tab")


def _open_lobby_sockets(page: Page) -> Any:
    return page.evaluate("window.__lobbySockets.filter((s) => s.readyState <= 1).length")


def test_a_challenge_reaches_any_page_and_is_accepted_by_keyboard(server: str, browser: Browser) -> None:
    bo, bo_id, bo_errors = _player(browser, server, "Bo", "/#/rules", phone=True)
    ann, _, ann_errors = _player(browser, server, "Ann", "/#/tournaments")
    cy, _, cy_errors = _player(browser, server, "Cy", "/#/clubs")
    bo.wait_for_selector("#rules, .rules-page, h1", timeout=15_000)
    wait_js(bo, "window.__lobbySockets.length === 1")  # the panel listens: one connection

    ann.evaluate(CHALLENGE, bo_id)
    bo.wait_for_selector("#challenge-panel li button.accept", timeout=15_000)
    assert "Ann challenges you." in bo.locator("#challenge-panel").inner_text()
    problems = axe_problems(bo, "the rules with a challenge, on a phone")
    assert bo.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scroll
    assert (
        bo.evaluate("document.querySelector('#challenge-panel button.accept').getBoundingClientRect().height")
        >= 44
    )
    # moving between the app's pages keeps the one connection and the panel
    bo.goto(server + "/#/leaders")
    bo.wait_for_selector("#challenge-panel li button.accept")
    assert _open_lobby_sockets(bo) == 1
    _tab_to(bo, "#challenge-panel button.accept")  # first after the skip link
    bo.keyboard.press("Enter")
    bo.wait_for_url("**/r/*", timeout=15_000)
    ann.wait_for_url("**/r/*", timeout=15_000)  # the challenger, on the tournaments page, is taken there
    assert ann.url.rsplit("/r/", 1)[1] == bo.url.rsplit("/r/", 1)[1]
    for page in (ann, bo):
        page.wait_for_selector(".hand .card", timeout=15_000)

    # Bo plays: Cy's challenge waits (no panel, no lobby connection on the game's page)
    wait_js(bo, "document.body.dataset.game === 'playing'")
    cy.evaluate(CHALLENGE, bo_id)
    other = bo.context.new_page()
    other.goto(server + "/#/clubs")
    other.wait_for_selector("#challenge-panel li button.decline", timeout=15_000)
    assert "Cy challenges you." in other.locator("#challenge-panel").inner_text()
    problems += axe_problems(other, "the clubs with a challenge")
    assert bo.locator("#challenge-panel").is_hidden() and _open_lobby_sockets(bo) == 0
    _tab_to(other, "#challenge-panel button.decline")
    other.keyboard.press("Enter")
    other.wait_for_selector("#challenge-panel", state="hidden")
    deadline = time.monotonic() + 10
    while (
        cy.evaluate("fetch('/api/friends').then((r) => r.json()).then((f) => f.outgoing[0].status)")
        != "declined"
    ):
        assert time.monotonic() < deadline, "Cy's challenge was not declined"
        time.sleep(0.1)
    assert bo.locator("#challenge-panel").is_hidden()
    # once the game page's game is over (room.js marks it so: set here rather than played to its
    # end), the page listens and shows the challenge that waited
    cy.evaluate(CHALLENGE, bo_id)
    other.wait_for_selector("#challenge-panel li button.accept", timeout=15_000)
    assert bo.locator("#challenge-panel").is_hidden() and _open_lobby_sockets(bo) == 0
    bo.evaluate("document.body.dataset.game = 'over'")
    bo.wait_for_selector("#challenge-panel li button.accept", timeout=15_000)
    assert (
        "Cy challenges you." in bo.locator("#challenge-panel").inner_text() and _open_lobby_sockets(bo) == 1
    )
    assert problems == []
    assert bo_errors == [] and ann_errors == [] and cy_errors == []
