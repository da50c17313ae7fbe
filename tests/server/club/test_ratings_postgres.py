"""Ratings on a real PostgreSQL server: the seeded season against openskill, updates from several
connections at once applied one after the other in ``seq`` order (the cluster's one rating store), and
the upgrade from the previous schema with games in it."""

from __future__ import annotations

import functools
import threading
import time

import pytest
from sqlalchemy import select

from roppyakken.server.club.ratings import store
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import rating_games
from tests.harness.ratings_season import (
    Reference,
    as_reference,
    expected_places,
    make_people,
    play_season,
    record,
    season,
    store_room,
    stored,
    stored_history,
    upgrade_with_games,
)
from tests.harness.services import fresh_database


@pytest.fixture
def pg_url(pg_cluster: str) -> str:
    """A fresh, empty database on the module's cluster."""
    return fresh_database(pg_cluster, "ratings")


def test_a_seeded_season_on_postgresql_equals_openskill_and_recomputes(pg_url: str) -> None:
    db = Database(pg_url)
    db.open()
    try:
        ref = play_season(db, 5, 200, 10)
        assert db.run_now(stored) == as_reference(ref)
        assert db.run_now(stored_history) == ref.history
        db.run_now(store.recompute)
        assert db.run_now(stored) == as_reference(ref)
        assert db.run_now(lambda c: store.differences(c, store.replay(list(store.stored_games(c))))) == []
    finally:
        db.engine.dispose()


def test_updates_from_several_connections_at_once_apply_in_seq_order(pg_url: str) -> None:
    """Four players, three writers (as three cluster members would be) ending games that share
    players at the same moment: every update reads the one before it, so replaying the stored games in
    ``seq`` order gives exactly the stored ratings (a lost update would not)."""
    db = Database(pg_url, write_timeout=30.0)
    db.open()
    try:
        people = db.run_now(lambda c: make_people(c, 4))
        games = [g for g in season(3, 90, people) if expected_places(g) is not None]
        for game in games:
            db.run_now(functools.partial(store_room, game=game))
        start = threading.Barrier(3)
        failures: list[BaseException] = []

        def writer(mine: list[object]) -> None:
            try:
                start.wait()
                for game in mine:
                    with db.engine.begin() as conn:
                        record(conn, game)  # type: ignore[arg-type]
                        time.sleep(0.002)  # the update's transaction stays open a moment
            except BaseException as exc:
                failures.append(exc)

        threads = [threading.Thread(target=writer, args=(games[i::3],)) for i in range(3)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert failures == []
        order = db.run_now(
            lambda c: [r[0] for r in c.execute(select(rating_games.c.room_id).order_by(rating_games.c.seq))]
        )
        assert sorted(order) == sorted(g.room for g in games)
        by_room = {g.room: g for g in games}
        seqs = db.run_now(lambda c: dict(c.execute(select(rating_games.c.room_id, rating_games.c.seq)).all()))
        ref = Reference()
        for room in order:
            ref.play(by_room[room], seqs[room])
        assert db.run_now(stored) == as_reference(ref)
        assert db.run_now(stored_history) == ref.history
    finally:
        db.engine.dispose()


def test_upgrading_from_0005_with_games_in_it_on_postgresql(pg_url: str) -> None:
    upgrade_with_games(pg_url)
