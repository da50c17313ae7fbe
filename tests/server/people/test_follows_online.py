"""The followed players online of many players read at once (server/people/follows.py ``online_of``)
agree with each player's own list (``following``): online by a fresh presence row, playing by a seat
at a game being played, named only if its room is public."""

from __future__ import annotations

import random
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import insert

from roppyakken.server.people import follows as follows_mod
from roppyakken.server.store.database import migrate
from roppyakken.server.store.engines import open_engine
from roppyakken.server.store.tables import follows, players, presence, rooms, seat_players
from tests.harness.services import fresh_database

NOW = 1_000_000.0


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'o.sqlite3'}"
    return fresh_database(request.getfixturevalue("pg_cluster"), "follows")


def test_online_of_agrees_with_each_players_list(url: str) -> None:
    rng = random.Random(7)
    engine = open_engine(url)
    migrate(engine)
    ids = [f"p{i:03d}" for i in range(60)]
    made = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(
            insert(players), [{"id": i, "secret_hash": "x", "name": f"N{i}", "created_at": made} for i in ids]
        )
        conn.execute(
            insert(follows),
            [
                {"follower": me, "followed": o, "since": NOW - rng.randrange(1000)}
                for me in ids[:20]
                for o in rng.sample([i for i in ids if i != me], 15)
            ],
        )
        conn.execute(insert(presence), [{"player_id": p, "seen_at": NOW - 1.0} for p in ids[20:35]])
        conn.execute(insert(presence), [{"player_id": p, "seen_at": NOW - 60.0} for p in ids[35:45]])  # stale
        for n, (status, public, seated) in enumerate(
            [
                ("playing", True, ids[40:42]),  # offline but playing, watchable
                ("playing", False, ids[42:44]),  # playing, private room
                ("over", True, ids[44:46]),  # finished: not playing
                ("playing", True, ids[21:23]),  # online and playing
            ]
        ):
            conn.execute(
                insert(rooms),
                [
                    {
                        "id": f"r{n}",
                        "created_at": made,
                        "players": 2,
                        "preset": "standard",
                        "options": "{}",
                        "seed": n,
                        "status": status,
                        "public": public,
                    }
                ],
            )
            conn.execute(
                insert(seat_players),
                [{"room_id": f"r{n}", "seat": s, "player_id": p} for s, p in enumerate(seated)],
            )
    with engine.connect() as conn:
        together = follows_mod.online_of(conn, [*ids[:20], "nobody"], NOW)
        assert together["nobody"] == []
        kinds = set()
        for me in ids[:20]:
            alone = [f for f in follows_mod.following(conn, me, NOW) if f["online"] or f["playing"]]
            assert together[me] == alone, me
            kinds |= {(f["online"], f["playing"], f["room"] is not None) for f in alone}
        # every case was met: online only, playing offline (public and private), online and playing
        assert {(True, False, False), (False, True, True), (False, True, False), (True, True, True)} <= kinds
        assert not any(f["id"] in ids[35:40] or f["id"] in ids[44:46] for v in together.values() for f in v)
    engine.dispose()
