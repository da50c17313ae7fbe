"""The two card decks in the browser: hwatu for Korean rules or a Korean page, hanafuda
otherwise, a switch in the header that is remembered, on the table, the replay and the
calculator; and each card's kind mark and name in the page's language.

Runs Debian's Chromium through Playwright against a real ``roppyakken serve``, as
``test_web_e2e_browser`` does (and fails in CI when the browser is missing).
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from playwright.sync_api import Browser, Page

from roppyakken import Game, preset, view_of
from roppyakken.cards import KIND, SLUGS
from roppyakken.record import record_of
from tests.harness.browser import DESKTOP, new_context, wait_js, watch_errors

KIND_OF = dict(zip(SLUGS, KIND, strict=True))
MARKS = {
    "en": {"bright": "B", "animal": "A", "ribbon": "R", "chaff": "C"},
    "ja": {"bright": "光", "animal": "種", "ribbon": "短", "chaff": "カス"},
    "ko": {"bright": "광", "animal": "열끗", "ribbon": "띠", "chaff": "피"},
    "fr": {"bright": "L", "animal": "A", "ribbon": "R", "chaff": "I"},
    "pt-BR": {"bright": "B", "animal": "A", "ribbon": "F", "chaff": "C"},
    "es": {"bright": "L", "animal": "A", "ribbon": "C", "chaff": "B"},
    "de": {"bright": "L", "animal": "T", "ribbon": "B", "chaff": "K"},
}
SCRIPT = {
    "ja": r"[\u3040-\u30ff\u4e00-\u9fff]",
    "ko": r"[\uac00-\ud7a3]",
    "en": r"^[ -~]+$",
    "fr": r"[A-Za-z]",
    "pt-BR": r"[A-Za-z]",
    "es": r"[A-Za-z]",
    "de": r"[A-Za-z]",
}


def _folders(page: Page, selector: str = "img[data-card]") -> set[str]:
    """The deck folders the card images on the page come from."""
    srcs = page.locator(selector).evaluate_all("els => els.map(e => e.getAttribute('src'))")
    return {str(src).rsplit("/", 2)[-2] for src in srcs}


def _wait_deck(page: Page, folder: str) -> None:
    wait_js(
        page, f"[...document.querySelectorAll('img[data-card]')].every(i => i.src.includes('/{folder}/'))"
    )
    assert _folders(page) == {folder}


def _page_in(chrome: Browser, lang: str) -> Page:
    """A fresh profile whose page is in ``lang`` (set once, so reloads keep what the page stored)."""
    ctx = new_context(chrome, DESKTOP)
    once = f"localStorage.setItem('roppyakken-lang', '{lang}'); sessionStorage.setItem('set', '1');"
    ctx.add_init_script(f"try {{ if (!sessionStorage.getItem('set')) {{ {once} }} }} catch (e) {{}}")
    return ctx.new_page()


def _check_marks_and_names(page: Page, lang: str) -> None:
    """Every card's kind mark is its language's, and its image's name is in that language."""
    cards = page.locator(".calc-grid .card").evaluate_all(
        "els => els.map(e => [e.dataset.slug, e.querySelector('.kind-mark text').textContent,"
        " e.querySelector('img').alt])"
    )
    assert len(cards) == 48
    for slug, mark, alt in cards:
        assert mark == MARKS[lang][KIND_OF[slug]], (lang, slug, mark)
        assert re.search(SCRIPT[lang], alt), (lang, slug, alt)
        assert slug not in alt


def test_calculator_defaults_switch_and_memory(server: str, browser: Browser) -> None:
    """English: hanafuda for classic, hwatu for yukbaek; the switch overrides and is remembered."""
    page = _page_in(browser, "en")
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server + "/#/calc")
    page.wait_for_selector(".calc-grid img[data-card]")
    _wait_deck(page, "cards")
    assert page.locator("#deck-select").input_value() == "auto"
    _check_marks_and_names(page, "en")
    assert page.evaluate("document.documentElement.dataset.deck") == "hanafuda"

    auto = page.locator("#deck-select option[value='auto']")
    assert auto.inner_text() == "Cards: automatic (hanafuda)"
    for korean in ("yukbaek", "sambong", "korean-high"):
        page.select_option("#calc-preset", korean)
        _wait_deck(page, "cards-hwatu")
    assert auto.inner_text() == "Cards: automatic (hwatu)"  # the automatic choice says what it gives
    page.select_option("#calc-preset", "classic")
    _wait_deck(page, "cards")

    # The switch: hwatu on classic rules, remembered over a reload; "auto" goes back.
    page.select_option("#deck-select", "hwatu")
    _wait_deck(page, "cards-hwatu")
    assert page.evaluate("document.documentElement.dataset.deck") == "hwatu"
    page.reload()
    page.wait_for_selector(".calc-grid img[data-card]")
    assert page.locator("#deck-select").input_value() == "hwatu"
    _wait_deck(page, "cards-hwatu")
    page.select_option("#deck-select", "hanafuda")
    page.select_option("#calc-preset", "yukbaek")  # the player's choice wins over the rules
    _wait_deck(page, "cards")
    page.select_option("#deck-select", "auto")
    _wait_deck(page, "cards-hwatu")
    # Every face the page asks for exists.
    for src in page.locator("img[data-card]").evaluate_all("els => els.map(e => e.src)")[:3]:
        assert page.request.get(src).status == 200
    assert errors == []
    page.context.close()


def test_korean_page_defaults_to_hwatu_and_marks_in_each_language(server: str, browser: Browser) -> None:
    for lang, folder in (
        ("ko", "cards-hwatu"),
        ("ja", "cards"),
        ("fr", "cards"),
        ("pt-BR", "cards"),
        ("es", "cards"),
        ("de", "cards"),
    ):
        page = _page_in(browser, lang)
        errors: list[str] = []
        watch_errors(page, errors)
        page.goto(server + "/#/calc")
        page.wait_for_selector(".calc-grid img[data-card]")
        assert page.evaluate("document.documentElement.lang") == lang
        _wait_deck(page, folder)
        _check_marks_and_names(page, lang)
        if lang == "ko":  # a Korean who prefers the Japanese cards keeps them
            page.select_option("#deck-select", "hanafuda")
            _wait_deck(page, "cards")
            page.reload()
            page.wait_for_selector(".calc-grid img[data-card]")
            _wait_deck(page, "cards")
        assert errors == []
        page.context.close()


def test_table_and_replay_follow_the_rules(server: str, browser: Browser, tmp_path: Path) -> None:
    """A yukbaek game against a bot is dealt in hwatu; a classic record replays in hanafuda."""
    page = _page_in(browser, "en")
    errors: list[str] = []
    watch_errors(page, errors)
    page.goto(server + "/")
    page.fill("#player-name", "Minsu")
    page.select_option("#bots-preset", "yukbaek")
    page.select_option("#bot-seat-1", "random")
    page.click("#play-bots button[type=submit]")
    page.wait_for_url(re.compile(r"/r/[\w-]+$"))
    page.wait_for_selector(".hand button.card")
    _wait_deck(page, "cards-hwatu")
    hand = page.locator(".hand button.card").evaluate_all(
        "els => els.map(e => [e.dataset.slug, e.querySelector('.kind-mark text').textContent])"
    )
    assert hand and all(mark == MARKS["en"][KIND_OF[slug]] for slug, mark in hand)
    assert "/cards-hwatu/back.svg" in (page.locator(".card.back img").first.get_attribute("src") or "")

    # The replay of a classic game, then of a sambong one.
    for name, folder in (("classic", "cards"), ("sambong", "cards-hwatu")):
        game = Game(preset(name), players=2, seed=5)
        rng = random.Random(5)
        while not game.over:
            game.apply(rng.choice(view_of(game, game.to_act).legal))
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(record_of(game, ["a", "b"])))
        page.goto(server + "/#/replay")
        page.set_input_files("#replay-file", str(path))
        page.wait_for_selector(".replay-viewer img[data-card]")
        _wait_deck(page, folder)
    assert errors == []
    page.context.close()
