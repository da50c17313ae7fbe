"""The browser client's layout in every language (Debian's Chromium through Playwright, against a
real ``roppyakken serve``, as ``test_web_e2e_browser`` does; a missing browser fails in CI)."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser

from tests.harness.browser import new_context

LANGUAGES = ["en", "fr", "ja", "ko", "pt-BR", "de", "zh-Hant"]
WIDTHS = [360, 768, 1366]

WIDER_THAN_THE_PAGE = """() => {
  const width = document.documentElement.clientWidth;
  return [...document.querySelectorAll('body *')]
    .filter((e) => e.getBoundingClientRect().right > width + 1)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className}: ${e.textContent.trim().slice(0, 40)}`);
}"""


def _in_language(lang: str) -> str:
    return f"try {{ localStorage.setItem('roppyakken-lang', '{lang}'); }} catch (e) {{}}"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_start_page_never_scrolls_sideways(server: str, browser: Browser, lang: str) -> None:
    for width in WIDTHS:
        phone = width < 640
        ctx = new_context(browser, {"width": width, "height": 900}, phone=phone)
        ctx.add_init_script(_in_language(lang))
        page = ctx.new_page()
        page.goto(server + "/")
        page.wait_for_selector("#online-rated")
        assert page.evaluate("document.documentElement.lang") == lang
        scroll = page.evaluate("document.documentElement.scrollWidth")
        assert scroll <= width, (lang, width, scroll, page.evaluate(WIDER_THAN_THE_PAGE)[:5])
        if phone:  # the header takes two rows of 44 px targets at most
            rows = page.evaluate(
                """() => new Set([...document.querySelectorAll('.top-nav a, .top-nav select')]
                     .filter((e) => e.getClientRects().length)
                     .map((e) => Math.round(e.getBoundingClientRect().top / 20))).size"""
            )
            height = page.evaluate("document.querySelector('#top').getBoundingClientRect().height")
            assert rows <= 2 and height <= 2 * 44 + 20, (lang, rows, height)
        ctx.close()


FRENCH_SLIPS = r"""(sel) => {
  const text = [...document.querySelectorAll(sel)].map((e) => e.innerText).join('\n');
  return [...text.matchAll(/.{0,20}(?:[ \u00a0][:;!?]|\p{L}'\p{L}).{0,10}/gu)].map((m) => m[0]);
}"""


def test_french_pages_keep_french_typography(server: str, browser: Browser) -> None:
    """A narrow no-break space before : ; ! ? and the apostrophe ’, in the browser's own text and in
    what it shares with the terminal (preset descriptions, card and yaku names)."""
    ctx = new_context(browser, {"width": 1366, "height": 900})
    ctx.add_init_script(_in_language("fr"))
    page = ctx.new_page()
    slips: dict[str, list[str]] = {}
    for path, ready in (
        ("/", "#online-rated"),
        ("/#/rules?preset=classic", ".rules-desc"),
        ("/#/calc", ".calc-month"),
    ):
        page.goto(server + path)
        page.wait_for_selector(ready)
        slips[path] = page.evaluate(FRENCH_SLIPS, "#app, #top")
    assert slips == {path: [] for path in slips}, slips
    ctx.close()


def test_traditional_chinese_is_set_in_a_traditional_chinese_face(server: str, browser: Browser) -> None:
    """Han characters shared with Japanese take their Traditional Chinese forms: the page's font
    stack names a Traditional face first for zh-Hant (Noto Sans CJK TC here)."""
    ctx = new_context(browser, {"width": 1366, "height": 900})
    ctx.add_init_script(_in_language("zh-Hant"))
    page = ctx.new_page()
    page.goto(server + "/")
    page.wait_for_selector("#online-rated")
    cdp = ctx.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
    used = {}
    for selector in ("#app h2", "#app label", "#app button"):  # the page's own (not a hidden panel's)
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        fonts = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
        used[selector] = [font["familyName"] for font in fonts]
    assert all("Noto Sans CJK TC" in names for names in used.values()), used
    ctx.close()
