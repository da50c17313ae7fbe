"""The fixtures of the browser tests: one real server and one Chromium for a module's tests, and a
server with short clocks for one test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from tests.harness.browser import Server, chromium, need_browser

if TYPE_CHECKING:
    from playwright.sync_api import Browser


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a real ``roppyakken serve`` on a free loopback port."""
    need_browser()
    running = Server(tmp_path_factory.mktemp("web-e2e"))
    try:
        yield running.url
    finally:
        running.stop()


@pytest.fixture(scope="module")
def browser(server: str) -> Iterator[Browser]:
    """Headless Debian Chromium for the pages of ``server``."""
    with chromium() as b:
        yield b


CLOCK_SCALE = "0.2"
"""``15+60`` becomes 3 s a move and a 12 s bank."""


@pytest.fixture
def clocked_server(tmp_path: Path) -> Iterator[str]:
    """``roppyakken serve`` with short clocks (``--clock-scale``), on a free loopback port; every
    browser profile comes from 127.0.0.1, so rated games between them are allowed as from one
    network (``--rated-same-address``)."""
    need_browser()
    running = Server(tmp_path, extra=["--rated-same-address", "--clock-scale", CLOCK_SCALE])
    try:
        yield running.url
    finally:
        running.stop()
