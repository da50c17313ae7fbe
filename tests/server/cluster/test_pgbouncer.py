"""Members reaching PostgreSQL through PgBouncer in transaction pooling mode (``?pooler=transaction``).

Debian's pgbouncer runs docs/deploy/pgbouncer.ini (tests/harness/replica.py) in front of a
throwaway primary: under transaction pooling a server session serves many clients' transactions,
so the members keep nothing in a session (no prepared statements, no session settings, only
transaction-scoped advisory locks, no LISTEN); start-up migrations run in one transaction.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import httpx
import psycopg
import pytest

from roppyakken.errors import RoppyakkenError
from roppyakken.server.store.database import Database
from tests.harness.lobby import CSRF, Lobby, new_player
from tests.harness.replica import pgbouncer
from tests.harness.server_harness import Player, play_to_end
from tests.harness.services import fresh_database, members, postgres, redis_server

pytestmark = pytest.mark.slow

POOLED = "?pooler=transaction"


class _At:
    """A member's websocket address, as :meth:`Player.join` reads it."""

    def __init__(self, ws_url: str) -> None:
        self.ws_url = ws_url


@pytest.fixture(scope="module")
def primary() -> Iterator[str]:
    """The module's primary (its admin URL)."""
    with postgres() as url:
        yield url


def _rating(base: str, cookie: str) -> int | None:
    answer = httpx.get(base + "/api/me/ratings", cookies={"rp_player": cookie}, timeout=10).json()
    rating: int | None = answer["ratings"]["classic-2"]["rating"]
    return rating


def test_members_pair_play_rate_and_sign_in_through_the_pooler(primary: str) -> None:
    name = fresh_database(primary, "pooled").rsplit("/", 1)[1]
    with pgbouncer(primary, pool_size=3) as pooler, redis_server() as rd:
        database = f"{pooler}/{name}{POOLED}"
        with members(database, rd, 2) as started:
            urls = [m.url for m in started]
            ws_urls = [u.replace("http://", "ws://") for u in urls]
            where = [{"X-Forwarded-For": f"192.0.2.{i + 1}"} for i in range(4)]
            cookies = [new_player(urls[i % 2], f"P{i}", where[i])[0] for i in range(4)]
            before = [_rating(urls[0], c) for c in cookies]

            async def run() -> None:
                lobbies = [await Lobby.open(ws_urls[i % 2], cookies[i], where[i]) for i in range(4)]
                for lobby in lobbies:
                    await lobby.seek("classic", 2, "60+300")
                paired = [await lobby.expect("paired", 30) for lobby in lobbies]
                assert paired[0]["room"] == paired[1]["room"] != paired[2]["room"] == paired[3]["room"]
                players = [
                    await Player.join(_At(ws_urls[i % 2]), p["room"], p["token"])  # type: ignore[arg-type]
                    for i, p in enumerate(paired)
                ]
                ends = await asyncio.gather(
                    play_to_end(players[:2], seed=11), play_to_end(players[2:], seed=12)
                )
                assert all(len(end) == 2 for end in ends)
                for p in players:
                    await p.close()
                for lobby in lobbies:
                    await lobby.ws.close()

            asyncio.run(run())
            after = [_rating(urls[1], c) for c in cookies]
            assert before == [None] * 4 and all(isinstance(r, int) for r in after), (before, after)

            # an account made on one member, signed in on the other
            with httpx.Client(base_url=urls[0], timeout=30, cookies={"rp_player": cookies[0]}) as ann:
                csrf = ann.get("/api/me").json()["csrf"]
                made = ann.post(
                    "/api/account",
                    json={"login": "player0", "password": "a long enough password 1"},
                    headers={CSRF: csrf},
                )
                assert made.status_code == 201, made.text
            with httpx.Client(base_url=urls[1], timeout=30) as phone:
                signed = phone.post(
                    "/api/session",
                    json={"login": "player0", "password": "a long enough password 1"},
                    headers={CSRF: "new"},
                )
                assert signed.status_code == 200, signed.text
                assert phone.get("/api/me/games").json()["games"]

            # the members' sessions were shared: PostgreSQL saw no more than the pooler's three
            with psycopg.connect(f"{primary}/{name}", autocommit=True) as conn:
                row = conn.execute(
                    "select count(*) from pg_stat_activity where datname = current_database()"
                    " and pid <> pg_backend_pid()"
                ).fetchone()
            assert row is not None and row[0] <= 3
            errors = [e for m in started for e in m.errors()]
            assert errors == [], errors


def test_prepared_statements_and_timeouts_work_in_transaction_mode(primary: str) -> None:
    """One server connection for two clients: a statement psycopg prepared on it for one client
    would clash with the other's (``prepared statement "_pg3_0" already exists``)."""
    name = fresh_database(primary, "prepared").rsplit("/", 1)[1]
    with pgbouncer(primary, pool_size=1) as pooler:
        db = Database(f"{pooler}/{name}{POOLED}", write_timeout=0.5)
        try:
            db.open()
            with db.engine.connect() as first, db.engine.connect() as second:
                for i in range(12):
                    for conn in (first, second):
                        got = conn.exec_driver_sql("select %(i)s::int + 1", {"i": i}).scalar()
                        assert got == i + 1
                        # the write timeout holds in every transaction, whichever session serves it
                        assert conn.exec_driver_sql("show lock_timeout").scalar() == "500ms"
                        conn.commit()
        finally:
            db.engine.dispose()


def test_the_pooler_needs_the_hint(primary: str) -> None:
    """Without ``?pooler=transaction`` PgBouncer refuses the connection's options: one line says so."""
    name = fresh_database(primary, "unhinted").rsplit("/", 1)[1]
    with pgbouncer(primary) as pooler:
        db = Database(f"{pooler}/{name}")
        with pytest.raises(RoppyakkenError) as refused:
            db.open()
        assert "unsupported startup parameter" in str(refused.value) and "\n" not in str(refused.value)
        db.engine.dispose()
        with pytest.raises(RoppyakkenError, match="unsupported pooler 'session'"):
            Database(f"{pooler}/{name}?pooler=session")
