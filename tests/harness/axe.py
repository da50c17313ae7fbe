"""Accessibility measured by axe-core in a page, and a page switched to another language."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from tests.harness.support import require_module

if TYPE_CHECKING:
    from playwright.sync_api import Page

LANGUAGES = ("en", "ja", "ko", "fr", "pt-BR", "es", "de", "zh-Hant")


SERIOUS = ("serious", "critical")


def axe_problems(page: Page, where: str) -> list[str]:
    """The serious and critical violations axe finds on ``page``, one line each."""
    results = axe_runner().run(page)
    found: list[dict[str, Any]] = results.response["violations"]
    return [
        f"{where}: {v['id']} ({v['impact']}): {v['help']} — "
        + "; ".join(str(n["target"]) for n in v["nodes"][:4])
        for v in found
        if v.get("impact") in SERIOUS
    ]


def in_language(page: Page, lang: str) -> None:
    page.add_init_script(f"try {{ localStorage.setItem('roppyakken-lang', '{lang}'); }} catch (e) {{}}")


def axe_runner() -> Any:
    """axe-core's runner for Playwright (the ``test`` extra installs it)."""
    module = require_module("axe_playwright_python.sync_playwright", "pip install 'roppyakken[test]'")
    return module.Axe()
