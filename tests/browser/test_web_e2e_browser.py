"""End-to-end tests of the browser client: Debian's Chromium, headless, driven by Playwright.

The real server runs as ``roppyakken serve`` in a subprocess, on a free loopback
port, over a temporary SQLite database, with no bot delay.  The games use house
rules with a small target (``target = 100``) and a random bot so that a game
ends in a round or two.  The tests are skipped only on a developer machine
without Chromium or Playwright; with ``CI=true`` a missing browser is a failure.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import TYPE_CHECKING

from roppyakken.cards import SLUGS
from roppyakken.choices import automatic, choices
from roppyakken.rules import preset
from tests.harness.browser import (
    BOT_GAME_SEED,
    DESKTOP,
    HOUSE_RULES,
    PHONE,
    SHOW_STATE,
    Server,
    hand_of,
    new_context,
    play_all,
    play_step,
    round_end_message,
    start_bot_game,
    state_where,
    table_page,
    until_my_play,
    wait_js,
    watch_errors,
)

if TYPE_CHECKING:
    from playwright.sync_api import Browser


def test_full_game_against_a_bot(server: str, browser: Browser, tmp_path: Path) -> None:
    """A whole game against a random bot, by mouse and keyboard, then its replay in the viewer."""
    ctx = new_context(browser, DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    start_bot_game(page, server, "Alice", BOT_GAME_SEED)
    assert page.locator(".player.me .pname").inner_text() == "Alice"
    # A bot has a proper name, and its level as a badge.
    assert page.locator(".opponents .pname").inner_text() == "Momo"
    assert page.locator(".opponents .badge.bot").inner_text() == "Random bot"
    assert page.locator(".hand button.card").count() == 8  # 8 cards each with 2 players

    # The first play by keyboard: arrows move along the hand, Enter selects, Enter plays.
    until_my_play(page)
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

    done = play_all([page])
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
    host_ctx = new_context(browser, DESKTOP)
    guest_ctx = new_context(browser, PHONE, phone=True)
    watch_ctx = new_context(browser, DESKTOP)
    host, guest, watcher = host_ctx.new_page(), guest_ctx.new_page(), watch_ctx.new_page()
    for p in (host, guest, watcher):
        watch_errors(p, errors)

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
    late_ctx = new_context(browser, PHONE, phone=True)
    late = late_ctx.new_page()
    watch_errors(late, errors)
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
        results = [play_step(host), play_step(guest)]
        plays += results.count("play")
        if not any(results):
            time.sleep(0.05)
    assert plays >= 3
    # Let the others play on until the guest is to play: its hand is then settled.
    while not guest.locator('.prompt[data-state="play"]').count() and time.monotonic() < deadline:
        guest_dialog = guest.locator("dialog.round-end[open]")
        if guest_dialog.count():
            guest_dialog.locator("button").click()
        if play_step(host) is None:
            time.sleep(0.05)
    hand_before = hand_of(guest)
    log_before = guest.locator(".log li").all_inner_texts()
    assert len(log_before) > 3
    guest.reload()
    guest.wait_for_selector(".hand button.card")
    assert hand_of(guest) == hand_before
    assert guest.locator(".player.me .pname").inner_text() == "Kenji"
    # The log comes back from the server's history, as the others see it.
    wait_js(guest, f"document.querySelectorAll('.log li').length >= {len(log_before)}")
    assert guest.locator(".log li").all_inner_texts() == log_before
    assert host.locator(".log li").all_inner_texts()[-len(log_before) :] == log_before

    play_all([host, guest, watcher])  # the spectator, too, closes its round-end breakdowns
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
    ctx = new_context(browser, PHONE, phone=True)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
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
    from roppyakken.cards import NUM_CARDS, POINTS
    from roppyakken.rules import preset
    from roppyakken.yaku import SET_YAKU, YAKU_SLUGS

    ctx = new_context(browser, DESKTOP)
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
    ctx = new_context(browser, DESKTOP)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
    try:
        start_bot_game(page, first.url, "Ayumi", BOT_GAME_SEED)
        plays = 0
        deadline = time.monotonic() + 30
        while plays < 2 and time.monotonic() < deadline:
            result = play_step(page)
            plays += result == "play"
            if result is None:
                time.sleep(0.05)
        until_my_play(page)
        hand = hand_of(page)
        first.stop()
        page.wait_for_selector(".conn-status")  # "Connection lost — reconnecting…"
        # A move made while the server is away is kept, and the player is told at once.
        assert play_step(page) == "play"
        held = page.locator(".prompt .move-held")
        held.wait_for(timeout=1000)
        assert "kept" in held.inner_text()
        assert hand_of(page) == hand
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


def test_a_choice_that_changes_nothing_is_taken_and_one_that_matters_is_explained(
    server: str, browser: Browser
) -> None:
    options = preset("classic").options()
    page = table_page(browser, server, DESKTOP)
    # The turned-up card between two targets worth the same and advancing no yaku: taken at once.
    same = state_where(lambda v: v.phase == "take" and automatic(v) is not None)
    sent = page.evaluate(SHOW_STATE, {"msg": same, "options": options})
    want = next(
        c for c, a in zip(same["choices"], same["view"]["legal"], strict=True) if c["same_as"] is None
    )
    first = same["view"]["legal"][same["choices"].index(want)]
    assert sent == [{"type": "act", "action": first, "seq": same["seq"]}]  # with the state it was for
    assert "changed nothing" in page.locator(".prompt .notice").inner_text()
    # Targets that differ: one button each, with the points and yaku progress it gives.
    differ = state_where(lambda v: v.phase == "take" and len({(c.points, c.steps) for c in choices(v)}) > 1)
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
    page = table_page(browser, server, DESKTOP)
    msg = state_where(lambda v: v.phase == "declare" and bool(v.lucky_hands))
    page.evaluate(SHOW_STATE, {"msg": msg, "options": preset("classic").options()})
    lucky = msg["view"]["lucky_hands"]
    assert page.locator(".prompt .lucky-list li").count() == len(lucky)
    marked = page.locator(".hand button.card.lucky").evaluate_all("els => els.map(e => e.dataset.slug)")
    assert sorted(marked) == sorted({c for x in lucky for c in x["cards"]})
    assert lucky[0]["cards"] and all(c in msg["view"]["hand"] for c in lucky[0]["cards"])
    page.context.close()


def test_phone_round_end_dialog_and_tap_targets(server: str, browser: Browser) -> None:
    """On a phone, "Continue" never covers the breakdown, and controls are at least 44 px tall."""
    page = table_page(browser, server, PHONE, phone=True)
    msg = state_where(lambda v: v.phase == "play", players=3)
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
        round_end_message(),
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
    page = table_page(browser, server, PHONE, phone=True)
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
    from tests.harness.committed_games import SALT, played

    ctx = new_context(browser, DESKTOP, csp=True)
    page = ctx.new_page()
    errors: list[str] = []
    watch_errors(page, errors)
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
