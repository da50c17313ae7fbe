"""Under CI (``CI=true``, :func:`tests.harness.support.in_ci`) a skip of any origin is a failure.

Tests decide what they need with :func:`tests.harness.support.require`; this is the net under it,
so that a skip written some other way (``pytest.importorskip``, a marker) cannot hide a
missing browser, service or package in CI either.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from _pytest.reports import CollectReport, TestReport

from tests.harness.support import in_ci


def _as_failure(report: CollectReport | TestReport) -> None:
    """Turn a skipped report into a failed one that says what was skipped and why."""
    if not in_ci() or not report.skipped or hasattr(report, "wasxfail"):
        return
    reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
    report.outcome = "failed"
    report.longrepr = f"skipped under CI=true, where every test must run: {reason}"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, None]:
    """A test skipped under CI fails."""
    outcome = yield
    _as_failure(outcome.get_result())


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector) -> Generator[None, Any, None]:
    """A module skipped under CI (a skip while importing it) fails."""
    outcome = yield
    _as_failure(outcome.get_result())


@pytest.fixture(scope="module")
def pg_cluster() -> Iterator[str]:
    """A throwaway PostgreSQL cluster shared by a module's tests (started only when asked for);
    its admin URL."""
    from tests.harness.services import postgres

    with postgres() as url:
        yield url


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh, empty database of each kind: a SQLite file, or a new database on
    :func:`pg_cluster`; its URL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    from tests.harness.services import fresh_database

    cluster: str = request.getfixturevalue("pg_cluster")
    return fresh_database(cluster, request.module.__name__.rsplit(".", 1)[-1])
