"""Sound and motion at the table (Debian's Chromium driven by Playwright, as in test_web_e2e_browser.py).

Card sounds are synthesized with the Web Audio API: the page's AudioContext is watched to
count the oscillators and noise bursts it makes.  The mute switch is remembered; a spectator
starts muted; under ``prefers-reduced-motion`` no card moves and the sounds start off.
"""

from __future__ import annotations

import copy
import time
from typing import TYPE_CHECKING, Any

from roppyakken.rules import preset
from tests.harness.browser import (
    DESKTOP,
    FAST_ANIMATIONS,
    SHOW_STATE,
    play_step,
    start_bot_game,
    state_where,
    table_page,
    until_my_play,
    watch_errors,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

# Counts every sound source the page's Web Audio makes, and every card animation and flying card.
WATCH = """
window.__audio = 0;
window.__animations = 0;
window.__ghosts = 0;
for (const name of ['createOscillator', 'createBufferSource']) {
  const base = BaseAudioContext.prototype[name];
  BaseAudioContext.prototype[name] = function (...args) {
    window.__audio += 1;
    return base.apply(this, args);
  };
}
const animate = Element.prototype.animate;
Element.prototype.animate = function (...args) {
  window.__animations += 1;
  return animate.apply(this, args);
};
new MutationObserver((records) => {
  for (const r of records)
    for (const n of r.addedNodes) if (n.classList && n.classList.contains('ghost-card')) window.__ghosts += 1;
}).observe(document, { childList: true, subtree: true });
"""
PLAYED = "async () => (await import('/static/js/sound.js')).played.slice()"


def _watched(chrome: Browser, *, reduced: bool = False) -> BrowserContext:
    ctx = chrome.new_context(
        viewport=DESKTOP,
        bypass_csp=True,
        reduced_motion="reduce" if reduced else None,
        service_workers="block",  # its precache is megabytes (test_web_offline_browser.py tests it)
    )
    ctx.add_init_script(FAST_ANIMATIONS)
    ctx.add_init_script(WATCH)
    ctx.set_default_timeout(15_000)
    return ctx


def _play_some(page: Page, plays: int, max_seconds: float = 60) -> None:
    done = 0
    deadline = time.monotonic() + max_seconds
    while done < plays:
        assert time.monotonic() < deadline, f"only {done} plays in {max_seconds} s"
        result = play_step(page)
        done += result == "play"
        if result is None:
            page.wait_for_timeout(50)


def _counters(page: Page) -> dict[str, Any]:
    counts: dict[str, Any] = page.evaluate(
        "() => ({audio: window.__audio, animations: window.__animations, ghosts: window.__ghosts})"
    )
    counts["played"] = page.evaluate(PLAYED)
    return counts


def test_card_sounds_play_and_the_mute_switch_is_remembered(server: str, browser: Browser) -> None:
    ctx = _watched(browser)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    start_bot_game(page, server, "Hana", 2)
    toggle = page.locator(".status-bar .sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "true"  # on by default for a player
    until_my_play(page)
    _play_some(page, 2)
    counts = _counters(page)
    assert "turn" in counts["played"], counts
    assert {"place", "capture"} & set(counts["played"]), counts
    assert counts["audio"] >= len(counts["played"]), "each cue is synthesized by Web Audio"
    assert counts["animations"] > 0 and counts["ghosts"] > 0, "cards move"

    toggle.click()
    assert page.locator(".status-bar .sound-toggle").get_attribute("aria-pressed") == "false"
    assert page.evaluate("localStorage.getItem('roppyakken-sound')") == "off"
    before = _counters(page)
    _play_some(page, 2)
    after = _counters(page)
    assert after["played"] == before["played"] and after["audio"] == before["audio"], "muted: silence"
    page.reload()
    page.wait_for_selector(".status-bar .sound-toggle")
    assert page.locator(".status-bar .sound-toggle").get_attribute("aria-pressed") == "false"

    # A spectator of the same game starts muted.
    watcher = (
        ctx.browser.new_context(viewport=DESKTOP, bypass_csp=True, service_workers="block")
        if ctx.browser
        else None
    )
    assert watcher is not None
    watcher.add_init_script(WATCH)
    spectator = watcher.new_page()
    spectator.goto(page.url)
    spectator.wait_for_selector(".status-bar .sound-toggle")
    assert spectator.locator(".sound-toggle").get_attribute("aria-pressed") == "false"
    assert spectator.evaluate(PLAYED) == []
    watcher.close()
    assert errors == []
    ctx.close()


def test_a_completed_yaku_and_the_clock_sound(server: str, browser: Browser) -> None:
    page = table_page(browser, server, DESKTOP)
    options = preset("classic").options()
    msg = state_where(lambda v: v.phase == "play" and not any(v.captures))
    page.evaluate(SHOW_STATE, {"msg": msg, "options": options})
    later = copy.deepcopy(msg)
    later["seq"] = msg["seq"] + 1
    later["view"]["legal"] = []
    later["view"]["captures"][1] = ["pine-ribbon", "plum-ribbon", "cherry-ribbon"]  # Red Poems
    page.evaluate("async (m) => window.gv.onState(m.view, m.names, m.seq, [])", later)
    assert "yaku" in page.evaluate(PLAYED)
    # The game clock's hook: a warning when the seat's time runs out.
    page.evaluate("() => window.gv.clockRunningOut()")
    assert page.evaluate(PLAYED)[-1] == "clock"
    page.context.close()


def test_reduced_motion_keeps_the_cards_still_and_the_table_quiet(server: str, browser: Browser) -> None:
    ctx = _watched(browser, reduced=True)
    page = ctx.new_page()
    start_bot_game(page, server, "Hana", 2)
    assert page.locator(".status-bar .sound-toggle").get_attribute("aria-pressed") == "false"
    until_my_play(page)
    _play_some(page, 3)
    counts = _counters(page)
    assert counts == {"audio": 0, "animations": 0, "ghosts": 0, "played": []}, counts
    transition = page.evaluate("getComputedStyle(document.querySelector('.hand .card')).transitionDuration")
    assert transition in ("0s", ""), transition
    ctx.close()
