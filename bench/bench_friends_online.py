"""The followed players online of a member's lobby sockets, read at once (server/people/follows.py
``online_of``): 500 lobby players each following 100 of 5,000 players, 1,000 of them online, 200
playing, over a history of 20,000 finished rooms, on SQLite.

    PYTHONPATH=src python bench/bench_friends_online.py
"""

from __future__ import annotations

import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from sqlalchemy import insert

from roppyakken.server.people import follows as follows_mod
from roppyakken.server.store.database import migrate
from roppyakken.server.store.engines import open_engine
from roppyakken.server.store.tables import follows, players, presence, rooms, seat_players

PLAYERS = 5_000
LOBBY = 500
FOLLOWS_EACH = 100
ONLINE = 1_000
PLAYING = 200
FINISHED_ROOMS = 20_000


def fill(url: str, now: float) -> list[str]:
    """The players, follows, presence and rooms; the lobby players' ids."""
    rng = random.Random(38)
    engine = open_engine(url)
    migrate(engine)
    ids = [f"p{i:05d}" for i in range(PLAYERS)]
    made = datetime.now(UTC)
    with engine.begin() as conn:
        conn.execute(
            insert(players), [{"id": i, "secret_hash": "x", "name": i, "created_at": made} for i in ids]
        )
        lobby = ids[:LOBBY]
        rows = []
        for me in lobby:
            others = [o for o in rng.sample(ids, FOLLOWS_EACH + 1) if o != me][:FOLLOWS_EACH]
            rows += [{"follower": me, "followed": o, "since": now - rng.random() * 1e6} for o in others]
        conn.execute(insert(follows), rows)
        online = set(lobby) | set(rng.sample(ids, ONLINE))
        conn.execute(insert(presence), [{"player_id": p, "seen_at": now - 1.0} for p in online])
        stale = rng.sample([i for i in ids if i not in online], 500)
        conn.execute(insert(presence), [{"player_id": p, "seen_at": now - 60.0} for p in stale])
        room_rows, seats = [], []
        for n in range(FINISHED_ROOMS + PLAYING // 2):
            playing = n >= FINISHED_ROOMS
            room_id = f"r{n:06d}"
            room_rows.append(
                {
                    "id": room_id,
                    "created_at": made,
                    "players": 2,
                    "preset": "standard",
                    "options": "{}",
                    "seed": n,
                    "status": "playing" if playing else "over",
                    "public": n % 2 == 0,
                }
            )
            for seat, p in enumerate(rng.sample(ids, 2)):
                seats.append({"room_id": room_id, "seat": seat, "player_id": p})
        conn.execute(insert(rooms), room_rows)
        conn.execute(insert(seat_players), seats)
    engine.dispose()
    return lobby


def main() -> None:
    """Fill a database, then time ``online_of`` for the whole lobby."""
    now = time.time()
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite:///{Path(tmp) / 'b.sqlite3'}"
        lobby = fill(url, now)
        engine = open_engine(url)
        times = []
        found = 0
        for _ in range(7):
            with engine.connect() as conn:
                start = time.perf_counter()
                out = follows_mod.online_of(conn, lobby, now)
                times.append(time.perf_counter() - start)
                found = sum(len(v) for v in out.values())
        engine.dispose()
    print(
        f"online_of: {LOBBY} lobby players x {FOLLOWS_EACH} follows, {found} entries: "
        f"median {statistics.median(times) * 1000:.0f} ms, min {min(times) * 1000:.0f} ms",
        file=sys.stdout,
    )


if __name__ == "__main__":
    main()
