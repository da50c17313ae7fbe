"""The live socket's message for a big arena: the first standings lines and the latest tables, each
player's own line and open table besides, assembled from parts encoded once (club/tournaments/view.py);
and what a director's step costs, in the server's metrics."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest
from sqlalchemy import Connection

from roppyakken.server.club.tournaments import director, store, view
from roppyakken.server.club.tournaments.store import Entry, TableRow, Tournament
from roppyakken.server.store.database import Database
from roppyakken.server.web.metrics import Metrics
from roppyakken.server.wire import tournament as to_page
from tests.harness.tournaments import join_named, tournament_row

PLAYERS = 300


def _snapshot() -> view.Snapshot:
    t = Tournament(
        "arena1", "Big", "arena", "classic", 2, "15+60", False, "public", None, "host", None,
        0.0, 10.0, 3600.0, None, 0, "running", None,
    )  # fmt: skip
    entries = tuple(
        Entry(f"p{i}", f"Player {i}", 1500.0 + i, f"h{i}", 1.0, 1.0, False, False, 0) for i in range(PLAYERS)
    )
    # finished tables first (player 2k beat 2k+1), then every player at an open table
    done = [
        TableRow(k + 1, 0, (f"p{2 * k}", f"p{2 * k + 1}"), 20.0, f"done{k}", 30.0 + k, (1, 2), frozenset())
        for k in range(PLAYERS // 2)
    ]
    ongoing = [
        TableRow(
            len(done) + k + 1, 0, (f"p{k}", f"p{PLAYERS - 1 - k}"), 400.0, f"room{k}", None, None, frozenset()
        )
        for k in range(PLAYERS // 2)
    ]
    return view.Snapshot(t, entries, tuple(done + ongoing), ())


@pytest.mark.parametrize(
    ("page", "tables_page", "playing"),
    [(1, 1, False), (2, 3, True), (7, 1, True), (12, 8, False), (99, 99, True), (3, 99, False)],
)
@pytest.mark.parametrize("player", ["p0", "p1", "p150", "p299", None, "nobody"])
def test_the_live_message_is_a_page_of_the_answer_with_the_players_own_parts(
    player: str | None, page: int, tables_page: int, playing: bool
) -> None:
    shared = view.Shared.of(_snapshot())
    whole = shared.answer(player, 5.0)
    assert whole == view.answer(_snapshot(), player, 5.0)  # the GET answer is whole
    assert len(whole["standings"]) == PLAYERS and len(whole["tables"]) == PLAYERS

    live = view.Live(shared)
    pages = -(-PLAYERS // view.LIVE_STANDINGS)
    shown = min(page, pages)  # a page past the last is the last
    listing = [t for t in whole["tables"] if t["places"] is None] if playing else whole["tables"]
    tables_pages = -(-len(listing) // view.LIVE_TABLES)
    tables_shown = min(tables_page, tables_pages)
    sent = live.message(live.own(player), 5.0, page, tables_page, playing)
    trimmed = view.live_answer(shared, player, 5.0, page, tables_page, playing)
    # assembled exactly as the builder writes it
    assert sent == to_page.tournament(trimmed, shown, pages, tables_shown, tables_pages, playing)
    message = json.loads(sent)
    assert (message["page"], message["pages"]) == (shown, pages)
    assert (message["tables_page"], message["tables_pages"], message["playing"]) == (
        tables_shown,
        tables_pages,
        playing,
    )
    got = message["tournament"]
    first = (shown - 1) * view.LIVE_STANDINGS
    lines = [line["player"] for line in whole["standings"][first : first + view.LIVE_STANDINGS]]
    mine = [line for line in whole["standings"] if line["player"] == player]
    assert [line["player"] for line in got["standings"]] == lines + [
        line["player"] for line in mine if line["player"] not in lines
    ]
    if mine:  # the player's own line is always there, once
        assert got["standings"].count(mine[0]) == 1
    first = (tables_shown - 1) * view.LIVE_TABLES
    paged = [table["room"] for table in listing[first : first + view.LIVE_TABLES]]
    rooms = [table["room"] for table in got["tables"]]
    assert rooms[: len(paged)] == paged and len(paged) == min(view.LIVE_TABLES, len(listing) - first)
    assert got["me"] == whole["me"]
    if player in {"p0", "p1", "p150", "p299"}:  # at an open table: it is there, once, and it is theirs
        assert got["me"]["table"] is not None and rooms.count(got["me"]["table"]["room"]) == 1
        assert len(rooms) == len(paged) + (got["me"]["table"]["room"] not in paged)
    else:
        assert got["me"]["table"] is None and rooms == paged
    assert len(sent) < len(to_page.tournament(whole)) / 4


def test_a_live_message_shares_its_parts_and_changes_only_with_them() -> None:
    snap = _snapshot()
    shared = view.Shared.of(snap)
    live, again = view.Live(shared), view.Live(view.Shared.of(_snapshot()))
    assert live.same_shared(again)  # a read without a change: nobody is sent anything
    assert live.own("p299") != live.own("p298")  # each player's own line differs
    first, last = shared.standings[0]["player"], shared.standings[-1]["player"]
    assert json.loads(live.own(last).line)["player"] == last
    assert live.own(first).place == 0 and live.own("nobody").place == -1
    # a change on the last page only (a late entrant) is a change of what all share: the watchers
    # of that page are sent it
    late = dataclasses.replace(
        snap, entries=(*snap.entries, Entry("late", "Late", 1400.0, "hl", 2.0, 2.0, False, False, 0))
    )
    moved = view.Live(view.Shared.of(late))
    assert not moved.same_shared(live)
    page_one = moved.message(moved.own(None), 5.0, 1)
    assert page_one.split('"tables"')[0].count('"player"') == view.LIVE_STANDINGS
    assert '"late"' in moved.message(moved.own(None), 5.0, moved.pages)
    # so is a game ending on a later page of the tables: the watchers of that page are sent it,
    # and it leaves the pages of the tables in play
    oldest = next(i for i, row in enumerate(snap.tables) if row.places is None)
    over = dataclasses.replace(snap.tables[oldest], finished_at=500.0, places=(2, 1))
    ended = view.Live(
        view.Shared.of(
            dataclasses.replace(
                snap, tables=tuple(over if r is snap.tables[oldest] else r for r in snap.tables)
            )
        )
    )
    assert not ended.same_shared(live)
    last_page = live.table_pages[True]
    assert f'"room":"{over.room_id}"' in live.message(live.own(None), 5.0, 1, last_page, True)
    assert f'"room":"{over.room_id}"' not in ended.message(ended.own(None), 5.0, 1, last_page, True)


def test_a_read_wakes_only_the_players_whose_own_parts_changed() -> None:
    snap = _snapshot()
    before = view.Live(view.Shared.of(snap))
    rng = random.Random(3)
    tables = list(snap.tables)
    entries = list(snap.entries)
    for _ in range(20):
        # a few games end (their players free, at no open table), a player pauses, a new table opens
        for at in rng.sample([i for i, t in enumerate(tables) if t.places is None], 3):
            tables[at] = dataclasses.replace(tables[at], finished_at=500.0, places=(2, 1))
        at = rng.randrange(len(entries))
        entries[at] = dataclasses.replace(entries[at], paused=not entries[at].paused)
        free = [
            e.player_id
            for e in entries
            if not any(p == e.player_id for t in tables if t.places is None for p in t.players)
        ]
        if len(free) >= 2:
            tables.append(
                TableRow(
                    len(tables) + 1, 0, tuple(free[:2]), 600.0, f"new{len(tables)}", None, None, frozenset()
                )
            )
        after = view.Live(
            view.Shared.of(dataclasses.replace(snap, entries=tuple(entries), tables=tuple(tables)))
        )
        changed = after.changed_since(before)
        # (a line's rank and tie-breaks, moved by others' games, wait with the shared parts)
        differ = {e.player_id for e in entries if after.own(e.player_id)[1:3] != before.own(e.player_id)[1:3]}
        points = {
            e.player_id
            for e in entries
            if (lambda a, b: (a["points"], a["games"]) != (b["points"], b["games"]))(
                after.line_of[e.player_id], before.line_of[e.player_id]
            )
        }
        assert differ | points <= changed  # everyone whose own parts changed is woken
        assert len(changed) < len(entries) / 4  # and few others
        before = after


def test_a_directors_step_says_what_it_cost_and_the_metrics_count_it(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'cost.sqlite3'}")
    db.open()
    start = 1_800_000_000.0

    def fill(c: Connection) -> None:
        store.create(c, tournament_row("arena", start, name="Arena", duration=3600.0))
        join_named(c, "t1", "abcd", start - 30)

    try:
        db.run_now(fill)
        epoch = db.run_now(lambda c: store.take(c, "t1", "one", start, 5.0))
        assert epoch is not None
        early = db.run_now(lambda c: director.step(c, "t1", epoch, start - 10, 5.0))
        assert early.pairing is None and early.seconds > 0 and early.cpu >= 0  # not started: no pairing
        paired = db.run_now(lambda c: director.step(c, "t1", epoch, start + 1, 5.0))
        assert len(paired.unmade) == 2 and paired.pairing is not None and paired.pairing > 0
        assert paired.seconds >= paired.pairing
    finally:
        db.engine.dispose()
    metrics = Metrics()
    metrics.tournament_stepped("pairing", paired.pairing)
    metrics.tournament_stepped("transaction", paired.seconds)
    text = metrics.render().decode()
    assert 'roppyakken_tournament_step_seconds_count{part="pairing"} 1.0' in text
    assert 'roppyakken_tournament_step_seconds_count{part="transaction"} 1.0' in text
