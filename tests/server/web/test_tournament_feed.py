"""The tournament socket's feed (server/web/tournament_feed.py): a watcher is sent its own parts at
once and what all share at its own moments, one a period, the watchers' moments spread over it."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import random
import time
from collections.abc import Awaitable, Callable

import pytest

from roppyakken.server.club.tournaments import view
from roppyakken.server.club.tournaments.store import Entry, TableRow, Tournament
from roppyakken.server.web import tournament_feed
from roppyakken.server.web.tournament_feed import Watcher, follow

PERIOD = 0.4


def _live(name: str) -> view.Live:
    """A small arena's page; ``name`` changes what every watcher shares (the tournament's name)."""
    t = Tournament(
        "a1", name, "arena", "classic", 2, "15+60", False, "public", None, "host", None,
        0.0, 10.0, 3600.0, None, 0, "running", None,
    )  # fmt: skip
    entries = tuple(Entry(f"p{i}", f"P{i}", 1500.0, "h", 1.0, 1.0, False, False, 0) for i in range(4))
    table = TableRow(1, 0, ("p0", "p1"), 5.0, "room1", None, None, frozenset())
    return view.Live(view.Shared.of(view.Snapshot(t, entries, (table,), ())))


@dataclasses.dataclass
class _Feed:
    """What :func:`follow` reads of a feed."""

    live: view.Live | None
    version: int = 1
    gone: bool = False


def test_shared_changes_reach_each_watcher_within_a_period_at_its_own_moments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tournament_feed, "LIVE_SHARED_EVERY", PERIOD)
    random.seed(5)  # the watchers' moments

    async def scenario() -> tuple[dict[int, list[float]], list[float]]:
        feed = _Feed(_live("v1"))
        watchers = [Watcher(f"p{i % 4}") for i in range(24)]
        sends: dict[int, list[float]] = {i: [] for i in range(len(watchers))}

        def sender(i: int) -> Callable[[str], Awaitable[None]]:
            async def send(message: str) -> None:
                sends[i].append(time.monotonic())

            return send

        tasks = [asyncio.create_task(follow(feed, w, sender(i))) for i, w in enumerate(watchers)]
        await asyncio.sleep(0.05)  # each sent the page at once
        changes = []
        for n in range(2, 40):  # what all share changes every 50 ms for 1.9 s
            feed.live, feed.version = _live(f"v{n}"), n
            changes.append(time.monotonic())
            for w in watchers:
                if not w.waiting:
                    w.poked.set()
            await asyncio.sleep(0.05)
        await asyncio.sleep(PERIOD + 0.1)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return sends, changes

    sends, changes = asyncio.run(scenario())
    slack = 0.15  # a loaded machine wakes a task late (changes come every 50 ms: unthrottled, 50 ms apart)
    for times in sends.values():
        assert len(times) >= 2
        later = times[1:]
        # at most one such message a period
        assert all(b - a >= PERIOD - slack for a, b in itertools.pairwise(later))
        # the last change reached the watcher within a period
        assert times[-1] >= changes[-1] and times[-1] - changes[-1] <= PERIOD + slack
    # the watchers all got the page at one instant; their later sends are spread over the period
    moments = sorted((times[1] - changes[0]) % PERIOD for times in sends.values())
    assert moments[-1] - moments[0] > 0.7 * PERIOD


def test_a_hidden_page_is_sent_only_its_own_parts_and_the_rest_once_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tournament_feed, "LIVE_SHARED_EVERY", PERIOD)

    async def scenario() -> list[tuple[str, float]]:
        feed = _Feed(_live("v1"))
        watcher = Watcher("p0")
        sent: list[tuple[str, float]] = []
        began = time.monotonic()

        async def send(message: str) -> None:
            sent.append((message, time.monotonic() - began))

        task = asyncio.create_task(follow(feed, watcher, send))
        await asyncio.sleep(0.05)
        watcher.shown(False)
        feed.live, feed.version = _live("v2"), 2  # what all share: not sent while hidden
        watcher.poked.set()
        await asyncio.sleep(PERIOD + 0.2)
        assert len(sent) == 1
        paused = dataclasses.replace(feed.live.shared.snap.entries[0], paused=True)
        snap = dataclasses.replace(
            feed.live.shared.snap, entries=(paused, *feed.live.shared.snap.entries[1:])
        )
        feed.live, feed.version = view.Live(view.Shared.of(snap)), 3  # p0's own entry: sent at once
        watcher.poked.set()
        await asyncio.sleep(0.05)
        assert len(sent) == 2
        feed.live, feed.version = _live("v4"), 4
        watcher.poked.set()
        await asyncio.sleep(0.05)
        watcher.shown(True)  # shown again: what changed meanwhile at once
        await asyncio.sleep(0.05)
        task.cancel()
        await asyncio.gather(task, return_exceptions=True)
        return sent

    sent = asyncio.run(scenario())
    assert len(sent) == 3
    assert '"paused":true' in sent[1][0] and '"name":"v4"' in sent[2][0]
