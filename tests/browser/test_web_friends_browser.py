"""Friends in Chromium with two players (two browser profiles): Ann follows Bo from his profile and
sees him online, challenges him, Bo accepts in his #/friends page by keyboard and both land at the
table; then Bo blocks Ann and her next challenge is refused with one line.  axe-core finds no serious
or critical violation on #/friends (on a phone too) or on a profile with its buttons."""

from __future__ import annotations

from typing import TYPE_CHECKING

from tests.harness.axe import axe_problems
from tests.harness.browser import DESKTOP, PHONE, new_context, watch_errors

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

BECOME = """async (name) => {
  const r = await fetch('/api/me', {method: 'POST', headers: {'Content-Type': 'application/json',
    'X-CSRF-Token': 'new'}, body: JSON.stringify({name})});
  return (await r.json()).player.id;
}"""


def _player(browser: Browser, server: str, name: str, phone: bool = False) -> tuple[Page, str, list[str]]:
    page = new_context(browser, PHONE if phone else DESKTOP, phone=phone).new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server + "/#/friends")
    player_id: str = page.evaluate(BECOME, name)
    page.reload()
    page.wait_for_selector("#challenges-in")
    return page, player_id, errors


def test_follow_see_online_challenge_accept_then_block(server: str, browser: Browser) -> None:
    ann, ann_id, ann_errors = _player(browser, server, "Ann")
    bo, bo_id, bo_errors = _player(browser, server, "Bo", phone=True)  # Bo's page stays open: online

    ann.goto(f"{server}/#/player/{bo_id}")
    ann.locator("#follow").click()
    ann.wait_for_selector("#unfollow")
    problems = axe_problems(ann, "a profile with its buttons")
    ann.goto(server + "/#/friends")
    ann.wait_for_selector(f"#friends-online li[data-player='{bo_id}']", timeout=15_000)
    assert "Bo" in ann.locator("#friends-online").inner_text()
    bo.reload()
    bo.wait_for_selector(f"#followers li[data-player='{ann_id}']")

    # Ann challenges Bo from her list; Bo's page shows it live and he accepts by keyboard
    row = ann.locator(f"#following li[data-player='{bo_id}']")
    row.locator("summary").click()
    row.locator("select[name=clock]").select_option("1d")
    row.locator("button[type=submit]").click()
    ann.wait_for_selector("#challenges-out li[data-status=pending]")
    start = bo.context.new_page()  # Bo's start page shows it too, in the panel of every page
    start.goto(server + "/")
    start.wait_for_selector("#challenge-panel button.accept", timeout=15_000)
    assert "Ann challenges you." in start.locator("#challenge-panel").inner_text()
    start.close()
    assert bo.locator("#challenge-panel").is_hidden()  # #/friends answers it in its own list
    accept = bo.locator("#challenges-in li button.accept")
    accept.wait_for(timeout=15_000)
    problems += axe_problems(bo, "#/friends with a challenge, on a phone")
    assert bo.evaluate("document.documentElement.scrollWidth <= window.innerWidth")  # no sideways scroll
    assert (
        bo.evaluate("document.querySelector('#challenges-in button.accept').getBoundingClientRect().height")
        >= 44
    )
    problems += axe_problems(ann, "#/friends with a challenge sent")
    accept.focus()
    bo.keyboard.press("Enter")
    bo.wait_for_url("**/r/*", timeout=15_000)
    ann.wait_for_url("**/r/*", timeout=15_000)
    assert ann.url.rsplit("/r/", 1)[1] == bo.url.rsplit("/r/", 1)[1]
    for page in (ann, bo):  # both seated at the table, each with their hand (a spectator has none)
        page.wait_for_selector(".hand .card", timeout=15_000)

    # Bo blocks Ann: her challenge is refused with one line
    bo.goto(f"{server}/#/player/{ann_id}")
    bo.locator("#block").click()
    bo.wait_for_selector("#unblock")
    ann.goto(f"{server}/#/player/{bo_id}")
    ann.locator("#challenge").click()
    ann.locator(".challenge-form button[type=submit]").click()
    ann.wait_for_function(
        "document.querySelector('.relation-status')?.textContent.includes('cannot challenge this player')"
    )
    ann.goto(server + "/#/friends")
    ann.wait_for_selector("#following")
    assert ann.locator(f"#following li[data-player='{bo_id}']").count() == 0  # the block ended her follow
    assert problems == []
    assert ann_errors == [] and bo_errors == []
