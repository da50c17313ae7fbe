"""The fixtures of the server tests: a real server on a fresh SQLite file, shared by a module's
tests or made for one test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.harness.server_harness import ServerThread, running_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server with the default settings over a fresh SQLite file, shared by a module's tests."""
    path = tmp_path_factory.mktemp("server") / "games.sqlite3"
    with running_server(f"sqlite:///{path}") as served:
        yield served


@pytest.fixture
def fresh_server(tmp_path: Path) -> Iterator[ServerThread]:
    """A server with the default settings over a fresh SQLite file, for one test alone."""
    with running_server(f"sqlite:///{tmp_path / 'games.sqlite3'}") as served:
        yield served
