"""What a newcomer met in the browser: each finding, measured in Debian's Chromium.

Playwright drives the real client against a real ``roppyakken serve``, as in
test_web_e2e_browser.py (under CI=true a missing browser fails).
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

from roppyakken.actions import Play
from roppyakken.record import dumps, record_of
from roppyakken.rules import preset
from tests.harness.browser import (
    DESKTOP,
    HOUSE_RULES,
    PHONE,
    SHOW_STATE,
    new_context,
    play_step,
    play_to_round_end,
    start_bot_game,
    state_where,
    table_page,
    until_my_play,
    wait_js,
    watch_errors,
)
from tests.harness.committed_games import SALT, played
from tests.harness.korean_cases import CASES

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page, ViewportSize

KANA = re.compile(r"[\u3040-\u30ff]")


def _lang_context(
    chrome: Browser, lang: str, viewport: ViewportSize = DESKTOP, *, phone: bool = False
) -> BrowserContext:
    ctx = new_context(chrome, viewport, phone=phone)
    ctx.add_init_script(f"try {{ localStorage.setItem('roppyakken-lang', '{lang}'); }} catch (e) {{}}")
    return ctx


def test_the_skip_link_speaks_the_pages_language(server: str, browser: Browser) -> None:
    for lang, words in (
        ("ko", "게임"),
        ("fr", "partie"),
        ("ja", "対局"),
        ("pt-BR", "jogo"),
        ("es", "partida"),
        ("de", "Partie"),
        ("zh-Hant", "對局"),
    ):
        ctx = _lang_context(browser, lang)
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_selector(".top-nav")
        text = page.locator(".skip-link").text_content() or ""
        assert words in text, (lang, text)
        if lang != "ja":
            assert not KANA.search(text), (lang, text)
        ctx.close()


def test_a_decimal_number_takes_the_pages_mark(server: str, browser: Browser) -> None:
    for lang, want in (("es", "12,5 en 3 rondas"), ("en", "12.5 over 3 rounds")):
        ctx = _lang_context(browser, lang)
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_selector(".top-nav")
        said = page.evaluate(
            """async () => (await import('/static/js/i18n.js'))
                 .t('{mean} over {rounds} rounds', {mean: 12.5, rounds: 3})"""
        )
        assert said == want, (lang, said)
        ctx.close()


def test_korean_particles_in_the_browser(server: str, browser: Browser) -> None:
    ctx = _lang_context(browser, "ko")
    page = ctx.new_page()
    page.goto(server + "/#/rules")
    page.wait_for_selector(".rules-table")
    texts = [text for text, _ in CASES]
    got = page.evaluate(
        "async (texts) => { const k = await import('/static/js/korean.js'); return texts.map(k.particles); }",
        texts,
    )
    assert got == [expected for _, expected in CASES]
    # The page's own translator resolves them in the lines it fills.
    line = page.evaluate(
        """async () => { const { t } = await import('/static/js/i18n.js');
             return [t('{who} declares nothing.', {who: '민수'}),
                     t('{who} declares nothing.', {who: 'Tom'}),
                     t('{who} plays {card}, taking {taken}.',
                       {who: 'Kenji', card: '송학', taken: '피'})]; }"""
    )
    assert line == ["민수는 선언하지 않음.", "Tom은 선언하지 않음.", "Kenji가 송학을 내어 피를 먹음."], line
    ctx.close()


def test_a_korean_game_log_has_no_particle_fallbacks(server: str, browser: Browser) -> None:
    ctx = _lang_context(browser, "ko")
    page = ctx.new_page()
    start_bot_game(page, server, "민수", 4)
    deadline = time.monotonic() + 60
    while page.locator(".log li").count() < 8:
        assert time.monotonic() < deadline
        if play_step(page) is None:
            page.wait_for_timeout(50)
    log = " ".join(page.locator(".log li").all_inner_texts())
    assert not re.search(r"이\(가\)|을\(를\)|은\(는\)|\(으\)로", log), log
    assert "민수가" in log or "민수는" in log, log
    ctx.close()


def test_fair_deal_text_in_japanese(server: str, browser: Browser, tmp_path: Path) -> None:
    ctx = _lang_context(browser, "ja")
    page = ctx.new_page()
    honest = tmp_path / "honest.json"
    honest.write_text(dumps(record_of(played(preset("classic"), 12), ["a", "b"], salt=SALT)))
    rigged = json.loads(honest.read_text())
    rigged["salt"] = "ab" * 16
    rigged_path = tmp_path / "rigged.json"
    rigged_path.write_text(json.dumps(rigged))
    page.goto(server + "/#/replay")
    page.set_input_files("#replay-file", str(honest))
    verdict = page.locator(".fair-deal")
    verdict.wait_for()
    assert "公正な配りを確認" in verdict.inner_text(), verdict.inner_text()
    page.set_input_files("#replay-file", str(rigged_path))
    page.locator(".fair-deal.error").wait_for()
    text = page.locator(".fair-deal").inner_text()
    assert "FAILED" not in text and "commitment" not in text and "約束" in text, text
    ctx.close()


def _guest_join_page(chrome: Browser, base: str, lang: str, *, hints: bool) -> tuple[Page, Page]:
    host = new_context(chrome, DESKTOP).new_page()
    host.goto(base + "/")
    host.fill("#player-name", "Hana")
    if hints:
        host.check("#online-hints")
    host.click("#play-online button[type=submit]")
    invite = host.input_value(".invite-link")
    guest = _lang_context(chrome, lang).new_page()
    guest.goto(invite)
    guest.wait_for_selector("form.join")
    return host, guest


def test_an_invited_player_sees_the_rules_hints_and_fair_deal_before_joining(
    server: str,
    browser: Browser,
) -> None:
    host, guest = _guest_join_page(browser, server, "en", hints=True)
    form = guest.locator("form.join").inner_text()
    assert "Classic" in form, form
    assert "Every player at this table may ask for hints." in form
    assert "Fair deal: the server has committed" in form
    guest.click("form.join .join-rules-help summary")
    assert guest.locator("form.join .rules-table").count() >= 1
    host.context.close()
    guest.context.close()
    host, guest = _guest_join_page(browser, server, "fr", hints=False)
    form = guest.locator("form.join").inner_text()
    assert "Les indices sont désactivés" in form, form
    assert "Donne équitable" in form, form
    host.context.close()
    guest.context.close()


def test_the_table_behind_the_round_end_dialog_is_the_rounds_end(server: str, browser: Browser) -> None:
    ctx = new_context(browser, DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    start_bot_game(page, server, "Hana", 1)
    play_to_round_end(page)
    behind = page.evaluate(
        """() => ({
          hand: document.querySelectorAll('.hand button.card').length,
          toAct: document.querySelectorAll('.badge.to-act').length,
          sending: document.querySelectorAll('.prompt .sending, .prompt .waiting').length,
          state: document.querySelector('.prompt').dataset.state,
          counts: [...document.querySelectorAll('.hand-count')].map((e) => e.textContent),
          totals: [...document.querySelectorAll('.ptotal')].map((e) => e.textContent),
        })"""
    )
    assert behind["hand"] == 0 and behind["toAct"] == 0 and behind["sending"] == 0, behind
    assert behind["state"] == "round-over", behind
    assert all(c.startswith("0 ") for c in behind["counts"]), behind
    dialog_totals = page.locator("dialog.round-end").inner_text()
    for total in behind["totals"]:
        assert total.split()[0] in dialog_totals, (total, dialog_totals)
    assert errors == []
    ctx.close()


def _hint_message(msg: dict[str, Any], expert_at: int) -> dict[str, Any]:
    """A ``hint`` for ``msg``: three plays ranked by chance to win, the expert's at ``expert_at``."""
    plays = [a for a in msg["view"]["legal"] if a["type"] == "play"][:3]
    assert len(plays) == 3
    moves = [
        {
            "action": a,
            "card": a["card"],
            "target": a["target"],
            "expert_choice": i == expert_at,
            "points_now": 0,
            "yaku_now": [],
            "expected_score": 100 - 10 * i,
            "score_ci95": 5,
            "risk": 50,
            "win_chance": 0.6 - 0.1 * i,
            "yaku_chances": [],
        }
        for i, a in enumerate(plays)
    ]
    return {"type": "hint", "seq": msg["seq"], "worlds": 48, "moves": moves}


def test_the_hint_lists_the_experts_choice_first_and_says_why_the_chances_may_differ(
    server: str,
    browser: Browser,
) -> None:
    page = table_page(browser, server, DESKTOP)
    msg = state_where(
        lambda v: v.phase == "play" and len({a.card for a in v.legal if isinstance(a, Play)}) >= 3
    )
    page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("classic").options()})
    hint = _hint_message(msg, expert_at=1)
    page.evaluate("(m) => window.gv.onHint(m)", hint)
    items = page.locator(".hint-panel .hint-move")
    assert items.count() == 3
    assert "expert" in (items.nth(0).get_attribute("class") or "")
    assert items.nth(0).locator(".badge.expert-choice").count() == 1
    assert items.nth(0).get_attribute("data-card") == hint["moves"][1]["card"]
    assert [items.nth(i).get_attribute("data-card") for i in (1, 2)] == [
        hint["moves"][0]["card"],
        hint["moves"][2]["card"],
    ]
    assert "luck of the deals" in page.locator(".hint-panel .hint-note").inner_text()
    page.context.close()


def _settled_hand(page: Page, quiet: float = 0.5, within: float = 20.0) -> dict[str, float]:
    """The hand's box once it has stayed the same for ``quiet`` seconds (polled; fails after ``within``)."""
    hand = "JSON.stringify(document.querySelector('.hand').getBoundingClientRect())"
    deadline = time.monotonic() + within
    last, since = page.evaluate(hand), time.monotonic()
    while time.monotonic() - since < quiet:
        assert time.monotonic() < deadline, "the hand never stopped moving"
        page.wait_for_timeout(50)
        now = page.evaluate(hand)
        if now != last:
            last, since = now, time.monotonic()
    box: dict[str, float] = json.loads(last)
    return box


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_the_hint_panel_never_moves_the_hand(server: str, browser: Browser, phone: bool) -> None:
    """Beside the table at 1280x860 (the hand above the fold), under the hand on a phone: it covers
    no opponent and shows every play without scrolling inside it."""
    ctx = new_context(browser, PHONE if phone else DESKTOP, phone=phone)
    page = ctx.new_page()
    start_bot_game(page, server, "Hana", 3)
    until_my_play(page)
    page.evaluate("window.scrollTo(0, 0)")
    before = _settled_hand(page)  # (the last bot move's log and strips drawn: a loaded machine is late)
    page.locator(".prompt .hint-button").click()
    wait_js(page, "document.querySelectorAll('.hint-panel .hint-move').length > 0", timeout=60)
    page.evaluate("window.scrollTo(0, 0)")
    after = _settled_hand(page)
    # the panel never pushes the hand (a line of it would be 18 px and more); a pixel or two of
    # the prompt's own height between its two states is not the panel's doing, nor is the hand
    # rising (on a loaded machine a line above it drawn late may go meanwhile): the panel, beside
    # or under the hand, could only push it down, aside or squeeze it
    moved = max(after["y"] - before["y"], *(abs(after[k] - before[k]) for k in ("x", "width", "height")))
    assert moved <= 2, (before, after)
    panel = page.locator(".hint-host").bounding_box()
    assert panel is not None
    if phone:
        opponents = page.locator(".opponents").bounding_box()
        assert opponents is not None
        assert panel["y"] >= after["bottom"] - 1, "the panel lies under the hand"
        assert panel["y"] >= opponents["y"] + opponents["height"], "the panel covers no opponent"
        clipped = page.evaluate(
            "(e => e.scrollHeight > e.clientHeight + 1)(document.querySelector('.hint-host'))"
        )
        assert not clipped and page.locator(".hint-panel .hint-move").count() >= 2
    else:
        assert after["bottom"] <= DESKTOP["height"], f"the hand ends at {after['bottom']} px, below the fold"
        assert panel["x"] >= after["right"] - 1, "the panel sits beside the table"
    ctx.close()


def _show(page: Page, msg: dict[str, Any], *, hints: bool) -> None:
    page.evaluate(
        """async ({msg, options, hints}) => {
          const { GameView } = await import('/static/js/table.js');
          const conn = { open: true, backlog: 0, send: () => '1' };
          const seats = msg.names.map((n, i) =>
            i === msg.view.seat ? {kind: 'human'} : {kind: 'bot', level: 'expert'});
          window.gv = new GameView(document.querySelector('#app'), { room: 'r', seat: msg.view.seat, conn,
            rules: { preset: 'classic', options }, roomInfo: hints ? { seats, hints: false } : null });
          await window.gv.onState(msg.view, msg.names, msg.seq, msg.choices);
        }""",
        {"msg": msg, "options": preset("classic").options(), "hints": hints},
    )


def test_the_declare_prompt_says_why_not_and_the_hint_covers_it(server: str, browser: Browser) -> None:
    from roppyakken.ai.expert import declare_choice
    from roppyakken.cards import SLUGS

    page = table_page(browser, server, DESKTOP)
    msg = state_where(lambda v: v.phase == "declare" and bool(v.lucky_hands))
    _show(page, msg, hints=True)
    assert "A hidden hand scores nothing" in page.locator(".prompt .declare-why").inner_text()
    page.locator(".prompt .hint-button").click()
    panel = page.locator(".declare-hint")
    panel.wait_for()
    mask = {s: 1 << i for i, s in enumerate(SLUGS)}
    held = [(x["slug"], x["points"], sum(mask[c] for c in x["cards"])) for x in msg["view"]["lucky_hands"]]
    chosen = declare_choice(held)
    assert chosen, "with the classic values the expert declares"
    assert "Declare " in panel.locator(".expert").inner_text()
    # The browser's rule is the expert's: the same choice on hands worth little and much.
    pines = ["pine-crane", "pine-ribbon", "pine-chaff-1"]
    held_cases: list[list[tuple[str, int, list[str]]]] = [
        [("hand-three", 20, pines)],
        [("hand-three", 200, pines)],
        [("hand-three", 30, pines), ("all-chaff", 15, ["pine-chaff-1", "plum-chaff-1", "cherry-chaff-1"])],
    ]
    cases = [[{"slug": s, "points": p, "cards": c} for s, p, c in case] for case in held_cases]
    got = page.evaluate(
        """async (cases) => { const d = await import('/static/js/declare.js');
                              return cases.map((c) => d.expertDeclares(c)); }""",
        cases,
    )
    want = [
        list(declare_choice([(s, p, sum(mask[c] for c in cards)) for s, p, cards in case]))
        for case in held_cases
    ]
    assert got == want == [[], ["hand-three"], ["hand-three"]], (got, want)
    # No Hint button where hints are not allowed (a room with other people, hints off).
    _show(page, msg, hints=False)
    assert page.locator(".prompt .hint-button").count() == 0
    page.context.close()


def test_words_the_newcomer_found_untranslated_or_cut(server: str, browser: Browser) -> None:
    ctx = _lang_context(browser, "ja")
    page = ctx.new_page()
    page.goto(server + "/#/rules?preset=classic")
    page.wait_for_selector(".rules-table.options", state="attached")
    values = page.locator(".rules-table.options td:nth-child(2)").all_text_contents()
    assert "なし (off)" in values, values
    assert all(not re.fullmatch(r"[a-z-]+", v) for v in values), values  # no bare identifier
    page.goto(server + "/#/calc")
    page.click(".calc-grid [data-slug='pine-crane']")
    badge = page.locator(".calc-grid .owner-badge").first.inner_text()
    assert "P" not in badge, badge
    ctx.close()
    for lang in ("fr", "es"):
        ctx = _lang_context(browser, lang)
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_selector("#bot-seat-1")
        cut = page.evaluate(
            """() => [...document.querySelectorAll('#play-bots select, #play-bots .bot-desc')].filter((e) => {
                 const form = document.querySelector('#play-bots').getBoundingClientRect();
                 const r = e.getBoundingClientRect();
                 return r.right > form.right + 0.5 || e.scrollWidth > e.clientWidth + 1;
               }).map((e) => e.id || e.className)"""
        )
        assert cut == [], (lang, cut)
        assert page.locator("#bot-seat-1 option").first.inner_text().count("—") == 0
        assert page.locator("#play-bots .bot-desc").first.inner_text()  # the description, whole, below
        ctx.close()


SMALL_TARGETS = """() => {
  const out = [];
  const seen = new Set();
  for (const el of document.querySelectorAll('a[href], button, select, input, textarea, summary')) {
    if (!el.getClientRects().length || el.closest('[hidden]')) continue;
    const box = el.matches('input[type=checkbox], input[type=radio]') ? el.closest('label') || el : el;
    if (seen.has(box)) continue;
    seen.add(box);
    const r = box.getBoundingClientRect();
    const text = (box.textContent || '').trim().slice(0, 24);
    if (r.width < 44 || r.height < 44)
      out.push(`${box.tagName}.${box.className} "${text}" ${Math.round(r.width)}x${Math.round(r.height)}`);
  }
  return out;
}"""
PILE_INSIDE = """() => {
  const field = document.querySelector('.field').getBoundingClientRect();
  const count = document.querySelector('.pile-count').getBoundingClientRect();
  return count.left >= field.left && count.right <= field.right;
}"""


def test_every_control_on_a_phone_is_at_least_44_px(server: str, browser: Browser) -> None:
    ctx = new_context(browser, PHONE, phone=True)
    page = ctx.new_page()
    start_bot_game(page, server, "Hana", 1)
    until_my_play(page)
    small = page.evaluate(SMALL_TARGETS)
    assert small == [], small
    widths = page.locator(".hand button.card").evaluate_all(
        "els => els.map(e => e.getBoundingClientRect().width)"
    )
    assert min(widths) >= 44, widths
    assert page.evaluate(PILE_INSIDE)
    assert page.locator(".hand-legend").is_visible() == (page.locator(".hand .can-capture").count() > 0)
    _play_out_keyboardless(page)
    page.goto(server + "/")
    page.wait_for_selector(".game-list a")
    for path, ready in (
        ("/", ".game-list a"),
        ("/#/calc", ".calc-grid"),
        ("/#/rules", ".rules-table"),
        ("/#/replay", "#replay-file"),
    ):
        page.goto(server + path)
        page.wait_for_selector(ready)
        wait_js(page, "Array.from(document.images).every(i => i.complete)")  # the cards' faces laid out
        small = page.evaluate(SMALL_TARGETS)
        assert small == [], (path, small)
    ctx.close()
    for lang in (
        "fr",
        "ko",
        "ja",
        "pt-BR",
        "es",
        "de",
        "zh-Hant",
    ):  # "cards left" stays inside the table in every language
        ctx = _lang_context(browser, lang, PHONE, phone=True)
        page = _table_page_in(ctx, server)
        msg = state_where(lambda v: v.phase == "play" and v.pile_count > 9)
        page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("classic").options()})
        assert page.evaluate(PILE_INSIDE), lang
        ctx.close()


def _table_page_in(ctx: BrowserContext, base: str) -> Page:
    page = ctx.new_page()
    page.goto(base + "/#/rules")
    page.wait_for_selector(".rules-table")
    return page


def _play_out_keyboardless(page: Page, max_seconds: float = 150) -> None:
    deadline = time.monotonic() + max_seconds
    while play_step(page) != "over":
        assert time.monotonic() < deadline, "the game did not end"
        page.wait_for_timeout(20)


def _tab_to(page: Page, selector: str, presses: int = 120) -> int | None:
    """Press Tab until the focused element matches ``selector``: the presses it took (None: never)."""
    for pressed in range(presses):
        if page.evaluate(
            f"!!document.activeElement && document.activeElement.matches({json.dumps(selector)})"
        ):
            return pressed
        page.keyboard.press("Tab")
    return None


def test_a_whole_game_with_the_keyboard_alone(server: str, browser: Browser) -> None:
    """Every decision by keyboard; the focus waits where the next decision is."""
    ctx = new_context(browser, DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server + "/")
    page.wait_for_selector("#player-name")
    # The start page by keyboard: the name, the house rules, the random bot, then Enter.
    assert _tab_to(page, "#player-name") is not None
    page.keyboard.type("Kei")
    assert _tab_to(page, "#bots-house") is not None
    page.keyboard.press("Space")
    assert _tab_to(page, "#bots-toml") is not None
    page.keyboard.press("Control+A")
    page.keyboard.type(HOUSE_RULES)
    assert _tab_to(page, "#bot-seat-1") is not None
    for _ in range(6):
        if page.locator("#bot-seat-1").input_value() == "random":
            break
        page.keyboard.press("ArrowUp")
    assert page.locator("#bot-seat-1").input_value() == "random"
    assert _tab_to(page, "#play-bots summary") is not None
    page.keyboard.press("Enter")  # unfold the seed: a deal where the player holds a lucky hand
    assert _tab_to(page, "#bots-seed") is not None
    page.keyboard.type("3")
    assert _tab_to(page, "#play-bots button[type=submit]") is not None
    page.keyboard.press("Enter")
    page.wait_for_selector(".hand button.card")
    done: dict[str, int] = {}
    tabs: dict[str, int] = {}  # the most Tab presses a decision of each kind needed
    deadline = time.monotonic() + 180
    while not page.locator(".game-over:not([hidden])").count():
        assert time.monotonic() < deadline, f"the game did not end ({done})"
        if page.locator("dialog.round-end[open]").count():
            kind, selector = "dialog", "dialog.round-end[open] .dialog-actions button"
        else:
            kind = page.locator(".prompt").get_attribute("data-state") or ""
            if kind not in ("play", "take", "declare", "redeal"):
                page.wait_for_timeout(30)
                continue
            selector = ".hand button.card" if kind == "play" else ".prompt-actions button.act"
        pressed = _tab_to(page, selector, 80)
        if pressed is None:
            continue  # the page moved on meanwhile: look again
        page.keyboard.press("Enter")
        if kind == "play":  # the card chosen, the focus is on its first play
            if not page.evaluate(
                "!!document.activeElement && document.activeElement.matches('.prompt-actions button.act')"
            ):
                continue
            page.keyboard.press("Enter")
        done[kind] = done.get(kind, 0) + 1
        tabs[kind] = max(tabs.get(kind, 0), pressed)
    assert done.get("play", 0) >= 8 and done.get("dialog", 0) >= 1 and done.get("declare", 0) >= 1, done
    # The focus waits on each decision, the round's Continue too: no Tab needed.
    assert set(tabs.values()) == {0}, f"Tab presses to reach a decision: {tabs}"
    assert page.locator(".game-over .winner").inner_text()
    assert errors == []
    ctx.close()
