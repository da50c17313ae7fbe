"""The web server on a real PostgreSQL server: a throwaway cluster started for these tests.

The cluster is made by ``tests/services.postgres`` (the cluster tests use it
too) with the installed PostgreSQL binaries (``scripts/setup`` installs Debian's
``postgresql``) in a temporary folder, on a free loopback port, as the
``postgres`` user when running as root.  Without PostgreSQL these tests are
skipped on a developer's machine, but fail in CI (``CI=true``).
"""

from __future__ import annotations

import asyncio

import psycopg
import pytest

from roppyakken.record import replay
from tests.harness.restart import restart_scenario
from tests.harness.schema import check_schema
from tests.harness.server_harness import Player, limits_for_tests, play_to_end, running_server
from tests.harness.services import fresh_database


@pytest.fixture
def pg_url(pg_cluster: str) -> str:
    """A fresh, empty database on the module's cluster."""
    return fresh_database(pg_cluster, "test")


def test_migrations_on_postgresql(pg_url: str) -> None:
    check_schema(pg_url)


def test_a_game_against_a_bot_on_postgresql(pg_url: str) -> None:
    with running_server(pg_url) as server:
        created = server.post(
            "/api/rooms", {"name": "アン", "seed": 2**63 - 1, "bots": {"1": "random"}, "public": True}
        ).json()

        async def scenario() -> None:
            ann = await Player.join(server, created["room"], created["token"])
            await play_to_end([ann], seed=9)
            await ann.close()

        asyncio.run(scenario())
        record = server.get(f"/api/games/{created['room']}/record").json()
        game, names = replay(record)
        assert names == ["アン", "bot:random"] and game.over and record["seed"] == 2**63 - 1
        assert server.get("/api/games").json()["games"][0]["room"] == created["room"]


def test_a_game_survives_a_restart_on_postgresql(pg_url: str) -> None:
    restart_scenario(pg_url)


def test_a_move_that_postgresql_cannot_store_is_not_made(pg_url: str) -> None:
    """A lock held elsewhere past the write timeout, then the server's connections cut (as in a failover)."""
    url = pg_url.replace("postgresql://", "postgresql+psycopg://", 1)
    plain = pg_url
    with running_server(url, limits=limits_for_tests(write_timeout=0.3)) as server:
        created = server.post("/api/rooms", {"name": "a", "players": 2}).json()
        room = created["room"]
        joined = server.post(f"/api/rooms/{room}/join", {"name": "b"}).json()

        async def scenario() -> None:
            players = [await Player.join(server, room, t) for t in (created["token"], joined["token"])]
            await players[0].send({"type": "start"})
            for p in players:
                p.last_state = await p.expect("state")
            for cut in (False, True):
                mover = next(p for p in players if p.last_state and p.last_state["view"]["legal"])
                assert mover.last_state is not None
                action = mover.last_state["view"]["legal"][0]
                with psycopg.connect(plain, autocommit=True) as other:
                    if cut:  # every connection of the server is dropped, as a failover would
                        other.execute(
                            "select pg_terminate_backend(pid) from pg_stat_activity "
                            "where datname = current_database() and pid <> pg_backend_pid()"
                        )
                        await mover.send({"type": "act", "action": action, "id": "x"})
                        answer = await mover.recv()
                    else:
                        other.execute("begin")
                        other.execute("lock table actions in access exclusive mode")
                        await mover.send({"type": "act", "action": action, "id": "x"})
                        answer = await mover.recv()
                        other.execute("rollback")
                        assert answer["type"] == "error", answer  # lock_timeout = the write timeout
                if answer["type"] == "error":  # a cut connection may also be replaced before the write
                    assert "could not be saved" in answer["message"], answer
                    for p in players:
                        assert await p.quiet() == []
                    await mover.send({"type": "act", "action": action, "id": "again"})
                    answer = await mover.recv()
                assert answer["type"] in ("events", "state"), answer
                for p in players:
                    p.last_state = await p.expect("state")
            for p in players:
                await p.close()

        asyncio.run(scenario())
        assert server.get(f"/api/rooms/{room}").status_code == 200
    with psycopg.connect(plain) as conn:
        rows = conn.execute("select idx from actions where room_id = %s order by idx", (room,)).fetchall()
    assert [r[0] for r in rows] == list(range(len(rows))) and len(rows) == 2
