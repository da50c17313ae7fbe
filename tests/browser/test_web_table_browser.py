"""The game table drawn from real engine states in Debian's Chromium (through Playwright, against a
real ``roppyakken serve``, as ``test_web_e2e_browser`` does; a missing browser fails in CI)."""

from __future__ import annotations

import json
from typing import Any

from playwright.sync_api import Browser, Page

from roppyakken.rules import preset
from roppyakken.server.play.clocks import Clock
from tests.harness.axe import axe_problems
from tests.harness.browser import (
    BOT_GAME_SEED,
    DESKTOP,
    SHOW_STATE,
    new_context,
    round_end_message,
    start_bot_game,
    state_where,
    table_page,
)

SHOW_CLOCKED_STATE = """async ({msg, options, clock}) => {
  const { GameView } = await import('/static/js/table.js');
  const { ClockBar } = await import('/static/js/clock.js');
  const conn = { open: true, backlog: 0, send: () => '1' };
  window.clocks = new ClockBar('r', conn);
  window.clocks.setSeat(msg.view.seat);
  window.gv = new GameView(document.querySelector('#app'), { room: 'r', seat: msg.view.seat, conn,
    rules: { preset: 'classic', options }, clocks: window.clocks });
  await window.gv.onState(msg.view, msg.names, msg.seq, msg.choices);
  window.clocks.update(clock, msg.names);
}"""


def test_each_clock_sits_beside_its_players_name_and_goes_when_the_game_ends(
    server: str,
    browser: Browser,
) -> None:
    page = table_page(browser, server, DESKTOP)
    msg = state_where(lambda v: v.phase == "play", players=3)
    msg["names"] = ["Alice", "Bob", "Carol"]
    me = msg["view"]["seat"]
    clock = Clock.new("15+60", 3)
    clock.start_turn(me, 0, 100.0)
    view = clock.view(100.0 + 70)  # 5 s left: the player to move is warned
    page.evaluate(SHOW_CLOCKED_STATE, {"msg": msg, "options": preset("classic").options(), "clock": view})

    beside = page.evaluate(
        """() => [...document.querySelectorAll('.player')].map((p) => {
             const c = p.querySelector('.pheader .clock-seat');
             return [Number(p.dataset.seat), c && c.previousElementSibling.className,
                     c && c.querySelector('.clock-time').textContent];
           })"""
    )
    assert sorted(beside) == sorted([[s, "pname", "0:05" if s == me else "1:15"] for s in range(3)]), beside
    running = page.locator(f".player[data-seat='{me}'] .clock-seat.running .clock-time")
    other = page.locator(f".player[data-seat='{(me + 1) % 3}'] .clock-seat .clock-time")
    size = "e => parseFloat(getComputedStyle(e).fontSize)"
    assert running.evaluate(size) > other.evaluate(size), "the running clock stands out"
    warning = page.locator(".player.me .clock-seat.clock-low .clock-warning")
    assert warning.inner_text() == "Your time is running out!"
    # Nothing floats over the header any more.
    covered = page.evaluate(
        """() => { const r = document.querySelector('#lang-select').getBoundingClientRect();
                   return document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2).id; }"""
    )
    assert covered == "lang-select"
    assert page.evaluate(
        "[...document.querySelectorAll('.clock-seat, .clock-status')].every(e => e.closest('.game'))"
    )

    page.evaluate("() => window.clocks.onTimeout({type: 'timeout', seat: 1, abandoned: true})")
    assert "Bob ran out of time again" in page.locator(".status-bar .clock-notice").inner_text()
    assert axe_problems(page, "the table with its clocks") == []

    page.evaluate(
        """() => { window.clocks.end();
                   window.gv.onGameEnd({type: 'game_end', winner: 0, reason: 'target',
                                        totals: [120, 0, 0]}); }"""
    )
    page.wait_for_selector(".game-over:not([hidden])")
    shown = page.evaluate(
        "[...document.querySelectorAll('.clock-seat, .clock-status, .clock-notice')]"
        ".filter(e => e.getClientRects().length).map(e => e.outerHTML)"
    )
    assert shown == []
    page.context.close()


LOG_LINE = """([card, captured]) => window.gv.eventText(
  {type: 'played', seat: 1, card, captured, source: captured.length ? 'hand' : 'pile'}, undefined)"""


def test_the_log_agrees_with_the_cards_gender_and_joins_lists_in_the_pages_language(
    server: str,
    browser: Browser,
) -> None:
    msg = state_where(lambda v: v.phase == "play")
    msg["names"] = ["Alice", "Bob"]
    said = {}
    for lang in ("fr", "ja", "pt-BR", "es", "zh-Hant"):
        page = table_page(browser, server, DESKTOP)
        page.evaluate(f"localStorage.setItem('roppyakken-lang', '{lang}')")
        page.reload()
        page.wait_for_selector(".rules-table")
        page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("classic").options()})
        said[lang] = {
            card: page.evaluate(LOG_LINE, [card, captured])
            for card, captured in (
                ("cherry-curtain", []),
                ("pine-crane", []),
                ("peony-butterflies", []),
                ("pampas-geese", []),
                ("pine-ribbon", ["pine-chaff-1", "pine-chaff-2", "pine-crane"]),
            )
        }
        page.context.close()
    fr = said["fr"]
    assert "Rideau du Cerisier, posé sur la table" in fr["cherry-curtain"], fr
    assert "Grue du Pin, posée sur la table" in fr["pine-crane"], fr
    assert "posés sur la table" in fr["peony-butterflies"] and "posées sur la table" in fr["pampas-geese"], fr
    assert "Ivraie du Pin, Ivraie du Pin et Grue du Pin" in fr["pine-ribbon"], fr
    es = said["es"]
    assert "Básica del Pino, Básica del Pino y Grulla del Pino" in es["pine-ribbon"], es
    assert "Telón del Cerezo, que queda en la mesa" in es["cherry-curtain"], es
    ja = said["ja"]["pine-ribbon"]
    assert "、" in ja and ", " not in ja, ja
    pt = said["pt-BR"]
    assert "Cortina da Cerejeira na mesa" in pt["cherry-curtain"], pt
    assert "Comum do Pinheiro, Comum do Pinheiro e Grou do Pinheiro" in pt["pine-ribbon"], pt
    zh = said["zh-Hant"]["pine-ribbon"]
    assert "松素札、松素札和松鶴" in zh and ", " not in zh, zh


def _show_round_end(page: Page, msg: dict[str, Any]) -> str:
    page.evaluate("(m) => { window.gv.shownNames = ['Alice', 'Ryū', 'Taka']; window.gv.onRoundEnd(m); }", msg)
    page.wait_for_selector("dialog.round-end[open]")
    text = page.locator("dialog.round-end .breakdown").inner_text()
    page.locator("dialog.round-end .dialog-actions button").click()
    page.wait_for_selector("dialog.round-end", state="detached")
    return text


def test_the_breakdowns_labels_never_run_into_the_scores_in_french(
    server: str,
    browser: Browser,
) -> None:
    page = table_page(browser, server, DESKTOP)
    page.evaluate("localStorage.setItem('roppyakken-lang', 'fr')")
    page.reload()
    page.wait_for_selector(".rules-table")
    msg = state_where(lambda v: v.phase == "play", players=3)
    page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("classic").options()})
    page.evaluate("(m) => { window.gv.onRoundEnd(m); }", round_end_message())
    page.wait_for_selector("dialog.round-end[open]")
    overlaps = page.evaluate(
        """() => [...document.querySelectorAll('.bd-table tr')].flatMap((row) => {
             const th = row.querySelector('th'), num = row.querySelector('td.num');
             if (!th || !num) return [];
             const spill = th.scrollWidth > th.clientWidth + 1;
             const text = document.createRange(); text.selectNodeContents(th);
             const right = Math.max(...[...text.getClientRects()].map((r) => r.right));
             return spill || right > num.getBoundingClientRect().left + 1 ? [th.textContent] : [];
           })"""
    )
    assert "Score de la manche" in page.locator("dialog.round-end").inner_text()
    assert overlaps == []
    page.context.close()


def test_yukbaeks_round_scores_are_explained_and_the_end_shows_the_standings(
    server: str,
    browser: Browser,
) -> None:
    page = table_page(browser, server, DESKTOP)
    msg = state_where(lambda v: v.phase == "play", players=3, name="yukbaek")
    msg["names"] = ["Alice", "bot:master", "bot:expert"]
    page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("yukbaek").options()})
    names = ["Alice", "Ryū", "Taka"]

    end = round_end_message("yukbaek", 3, 5)
    scores = [p["round_score"] for p in end["score"]["players"]]
    top, second = sorted(scores, reverse=True)[:2]
    said = _show_round_end(page, end)
    assert "only the top scorer scores, the difference to the next best" in said
    if top > second:
        leader = names[scores.index(top)]
        assert f"{leader} adds {top} − {second} = {top - second}; the others add 0." in said
    tie = json.loads(json.dumps(end))
    for p, s in zip(tie["score"]["players"], (260, 60, 260), strict=True):
        p["round_score"], p["final"] = s, 0
    said = _show_round_end(page, tie)
    assert "a tie at the top scores nothing. Alice and Taka tie with 260, so nobody adds anything" in said

    page.evaluate(
        """() => { window.gv.view.totals = [120, 610, 300];
                   window.gv.onGameEnd({type: 'game_end', winner: 1, reason: 'target', record_url: ''}); }"""
    )
    rows = page.locator(".game-over .standings tbody tr").evaluate_all(
        "rows => rows.map(r => [...r.children].map(c => c.textContent))"
    )
    assert rows == [["1", "Ryū", "610"], ["2", "Taka", "300"], ["3", "Alice", "120"]]
    assert page.locator(".game-over .standings caption").inner_text() == "Final standings"
    page.context.close()


FOCUSED = """() => { const e = document.activeElement;
  return e === document.body ? 'body' : e.closest('.hand') ? 'hand' : e.closest('.prompt') ? 'prompt'
    : e.closest('dialog') ? `dialog:${e.textContent}` : e.tagName; }"""


def test_the_keyboard_focus_follows_the_game(server: str, browser: Browser) -> None:
    """After a play the focus stays in the hand (never on the page's body), a new decision gets it,
    and the round-end dialog focuses its Continue."""
    page = table_page(browser, server, DESKTOP)
    msg = state_where(lambda v: v.phase == "play")
    msg["names"] = ["Alice", "Bob"]
    page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("classic").options()})
    assert page.evaluate(FOCUSED) == "hand"
    page.keyboard.press("Enter")  # selects the card: the focus goes to the prompt's first button
    assert page.evaluate(FOCUSED) == "prompt"
    page.keyboard.press("Enter")  # plays it
    assert page.evaluate("window.sent.length") == 1
    assert page.evaluate(FOCUSED) == "hand"
    # The server's answer: someone else to move; the focus is still in the hand.
    waiting = json.loads(json.dumps(msg))
    waiting["view"]["legal"] = []
    waiting["view"]["to_act"] = 1 - waiting["view"]["seat"]
    page.evaluate("(m) => window.gv.onState(m.view, m.names, m.seq + 1, [])", waiting)
    assert page.evaluate(FOCUSED) == "hand"
    page.evaluate("(m) => { window.gv.onRoundEnd(m); }", round_end_message())
    page.wait_for_selector("dialog.round-end[open]")
    assert page.evaluate(FOCUSED) == "dialog:Continue"
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog.round-end", state="detached")
    page.context.close()


def test_the_review_never_shows_minus_zero(server: str, browser: Browser) -> None:
    page = table_page(browser, server, DESKTOP)
    msg = state_where(lambda v: v.phase == "play")
    msg["names"] = ["Alice", "bot:master"]
    page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("classic").options()})
    seats = [{"kind": "bot"}, {"kind": "bot"}]
    seats[msg["view"]["seat"]] = {"kind": "human"}
    end = round_end_message()
    page.evaluate(
        """([seats, m]) => { window.gv.roomInfo = {seats}; window.gv.shownNames = ['Alice', 'Ryū', 'Taka'];
                             window.gv.onRoundEnd(m); }""",
        [seats, end],
    )
    page.wait_for_selector("dialog.round-end[open] .review")
    play = {"card": "pine-crane", "target": []}
    reviews = [
        {"turn": 2, "played": play, "best": play, "points_lost": 3.2, "win_chance_lost": 0.004},
        {"turn": 5, "played": play, "best": play, "points_lost": 0.2, "win_chance_lost": 0.001},
        {"turn": 7, "played": play, "best": play, "points_lost": 12, "win_chance_lost": 0.06},
    ]
    page.evaluate(
        "(m) => window.gv.onReview(m)", {"type": "review", "round": end["round"], "reviews": reviews}
    )
    lines = page.locator(".review-list .review-lost").all_inner_texts()
    assert lines == [
        "3 points given up (chance to win down by less than 1%)",
        "12 points given up (chance to win −6%)",
    ]
    page.context.close()


def test_a_game_against_bots_shows_no_players_chat(server: str, browser: Browser) -> None:
    ctx = new_context(browser, DESKTOP)
    page = ctx.new_page()
    start_bot_game(page, server, "Hanako", BOT_GAME_SEED)
    page.wait_for_selector(".chat-panel", state="attached")
    assert page.locator(".chat-panel").is_hidden(), "nobody to talk to"
    ctx.close()


def test_the_progress_panels_yaku_names_clear_their_thumbnails(server: str, browser: Browser) -> None:
    page = table_page(browser, server, DESKTOP)
    page.evaluate("localStorage.setItem('roppyakken-lang', 'ko')")
    page.reload()
    page.wait_for_selector(".rules-table")
    msg = state_where(
        lambda v: v.phase == "play" and sum(c.bit_count() for c in v.captures) > 14, name="yukbaek"
    )
    msg["names"] = ["Alice", "bot:master"]
    page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("yukbaek").options()})
    page.evaluate(
        "() => document.querySelectorAll('.progress-host details').forEach((d) => { d.open = true; })"
    )
    # A thumbnail's outline is drawn 2 px outside it: the name's line ends above that.
    touching = page.evaluate(
        """() => [...document.querySelectorAll('.yaku-entry')].filter((e) => {
             const name = e.querySelector('.yaku-name').getBoundingClientRect();
             const chips = e.querySelector('.yaku-chips').getBoundingClientRect();
             return chips.height && name.bottom + 2 > chips.top;
           }).map((e) => e.querySelector('.yaku-name').textContent)"""
    )
    assert page.locator(".yaku-entry").count() > 5
    assert touching == []
    page.context.close()
