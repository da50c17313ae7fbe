"""A PostgreSQL streaming replica for the reads that tolerate a little lag (``--database-replica``).

A throwaway primary and a hot standby made from it by ``pg_basebackup -R`` on another loopback
port (tests/harness/replica.py).  The lag-tolerant reads (finished games, records, leaderboards,
profiles, a player's history) run on the replica; a player's own reads never show them less than
they wrote (the replica serves them only once it has replayed the primary's writes); a stopped
replica only moves the reads to the primary.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest

from roppyakken.server.store.database import Database
from tests.harness.lobby import CSRF
from tests.harness.poll import until
from tests.harness.replica import replica_of
from tests.harness.server_harness import Player, play_to_end, running_server
from tests.harness.services import Member, fresh_database, postgres

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def primary() -> Iterator[str]:
    """The module's primary (its admin URL)."""
    with postgres() as url:
        yield url


@pytest.fixture
def database(primary: str) -> str:
    """A fresh database on the primary; its name."""
    return fresh_database(primary, "replica").rsplit("/", 1)[1]


class Browser:
    """One browser: its cookies and its CSRF token."""

    def __init__(self, base: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        self.csrf = "new"

    def post(self, path: str, body: Any) -> httpx.Response:
        return self.http.post(path, json=body, headers={CSRF: self.csrf})

    def become(self, name: str) -> str:
        """A guest named ``name``; its player id."""
        answer = self.post("/api/me", {"name": name}).json()
        self.csrf = answer["csrf"]
        return str(answer["player"]["id"])

    def rooms(self, path: str) -> list[str]:
        """The rooms of a list of games (``/api/games``, ``/api/me/games``)."""
        answer = self.http.get(path)
        assert answer.status_code == 200, answer.text
        return [g["room"] for g in answer.json()["games"]]


def bot_game(base: str, browser: Browser, seed: int) -> str:
    """A public game of ``browser``'s player against a bot, played to its end; the room."""
    made = browser.post("/api/rooms", {"name": "Ann", "players": 2, "bots": {"1": "random"}, "public": True})
    assert made.status_code == 201, made.text
    room = str(made.json()["room"])

    async def play() -> None:
        player = await Player.join(_At(base.replace("http://", "ws://")), room, made.json()["token"])  # type: ignore[arg-type]
        await play_to_end([player], seed=seed)
        await player.close()

    asyncio.run(play())
    return room


class _At:
    """A server's websocket address, as :meth:`Player.join` reads it."""

    def __init__(self, ws_url: str) -> None:
        self.ws_url = ws_url


def where(db: Database, call: Callable[[], object]) -> str:
    """Where the lag-tolerant read(s) of ``call`` ran: ``replica``, ``primary`` or ``none``."""
    before = dict(db.reads)
    call()
    moved = [side for side, count in db.reads.items() if count != before[side]]
    assert len(moved) <= 1, (before, db.reads)
    return moved[0] if moved else "none"


def test_lag_tolerant_reads_run_on_the_replica_and_a_players_own_reads_stay_fresh(
    primary: str, database: str
) -> None:
    with replica_of(primary) as replica:
        # (the replica may lag a loaded machine's whole test: its bound is tried below)
        db = Database(f"{primary}/{database}", replica=f"{replica.admin}/{database}", replica_max_lag=600)
        db.open()
        with running_server(db) as server:
            ann, bob = Browser(server.url), Browser(server.url)
            ann_id = ann.become("Ann")
            bob.become("Bob")
            first = bot_game(server.url, ann, seed=1)
            replica.wait_caught_up(database)

            # every lag-tolerant read runs on the replica, and finds the game there
            assert where(db, lambda: bob.rooms("/api/games")) == "replica"
            assert first in bob.rooms("/api/games")
            assert (
                where(db, lambda: bob.http.get(f"/api/games/{first}/record").raise_for_status()) == "replica"
            )
            board = bob.http.get("/api/leaderboard/classic-2")
            assert board.status_code == 200
            assert where(db, lambda: bob.http.get("/api/leaderboard/classic-2")) == "replica"
            assert where(db, lambda: bob.http.get(f"/api/players/{ann_id}").raise_for_status()) == "replica"
            assert where(db, lambda: ann.rooms("/api/me/games")) == "replica"  # caught up: own reads too
            assert where(db, lambda: ann.http.get(f"/api/players/{ann_id}").raise_for_status()) == "replica"
            # what decides a move, a seat or a sign-in never asks the replica
            assert where(db, lambda: bot_game(server.url, bob, seed=2)) == "none"
            assert where(db, lambda: ann.http.get("/api/me").raise_for_status()) == "none"

            # the replica lags: a third party sees its view, the player their own latest game
            replica.wait_caught_up(database)
            replica.pause(database)
            second = bot_game(server.url, ann, seed=3)
            assert where(db, lambda: bob.rooms("/api/games")) == "replica"
            assert second not in bob.rooms("/api/games")  # the lagging view, from the replica
            assert where(db, lambda: ann.rooms("/api/me/games")) == "primary"
            assert ann.rooms("/api/me/games")[0] == second
            own = ann.http.get(f"/api/players/{ann_id}").json()
            assert own["recent"][0]["room"] == second and own["games"] == 2
            other = bob.http.get(f"/api/players/{ann_id}").json()
            assert other["games"] == 1  # Bob may see Ann's profile as the replica has it
            # a record the replica does not have yet is read on the primary
            assert (
                where(db, lambda: bob.http.get(f"/api/games/{second}/record").raise_for_status()) == "primary"
            )

            # a replica that replayed nothing for longer than the bound serves nobody
            db.replica_max_lag = 0.5

            def from_primary() -> bool:
                return where(db, lambda: bob.rooms("/api/games")) == "primary"

            until(from_primary, 30, "the lagging replica's reads went to the primary")
            assert second in bob.rooms("/api/games")
            db.replica_max_lag = 600

            # a name just changed is the name the player sees on their own profile
            renamed = ann.post("/api/me", {"name": "Anne"})
            assert renamed.status_code == 200, renamed.text
            assert ann.http.get(f"/api/players/{ann_id}").json()["name"] == "Anne"

            replica.resume(database)
            replica.wait_caught_up(database)
            assert where(db, lambda: ann.rooms("/api/me/games")) == "replica"
            assert second in bob.rooms("/api/games")
            scraped = server.get("/metrics").text
            assert f'roppyakken_db_reads_total{{where="replica"}} {db.reads["replica"]}.0' in scraped
            assert f'roppyakken_db_reads_total{{where="primary"}} {db.reads["primary"]}.0' in scraped


def _warnings(member: Member) -> list[str]:
    return [line for line in member.log.read_text(errors="replace").splitlines() if "read replica" in line]


def test_a_stopped_replica_moves_the_reads_to_the_primary(primary: str, database: str) -> None:
    """``serve --database-replica``: the replica stopped, every page still answers (from the primary),
    the outage is logged once, and the replica is used again once it is back."""
    with replica_of(primary) as replica:
        replica.wait_caught_up(database)
        extra = ["--database-replica", f"{replica.admin}/{database}", "--log-level", "info"]
        member = Member(f"{primary}/{database}", None, extra=extra).start()
        try:
            ann, bob = Browser(member.url), Browser(member.url)
            ann_id = ann.become("Ann")
            bob.become("Bob")
            replica.stop()
            # moves, seats, an account and a sign-in: nothing of it reads the replica
            room = bot_game(member.url, ann, seed=5)
            made = ann.post("/api/account", {"login": "ann", "password": "a long enough password 1"})
            assert made.status_code == 201, made.text
            signed = bob.post("/api/session", {"login": "ann", "password": "a long enough password 1"})
            assert signed.status_code == 200, signed.text
            bob.csrf = signed.json()["csrf"]
            assert _warnings(member) == []

            # every lag-tolerant page answers, from the primary, with what was just written
            for _ in range(3):
                assert room in bob.rooms("/api/games")
                assert bob.http.get(f"/api/games/{room}/record").status_code == 200
                assert bob.http.get("/api/leaderboard/classic-2").status_code == 200
                assert bob.http.get(f"/api/players/{ann_id}").json()["games"] == 1
                assert bob.rooms("/api/me/games") == [room]  # signed in as Ann: her games
            failed = _warnings(member)
            assert len(failed) == 1 and "failed" in failed[0], failed  # logged once

            replica.start()

            def back() -> bool:
                bob.rooms("/api/games")
                return any("answers again" in line for line in _warnings(member))

            until(back, 60, "the member reads on the replica again")
            assert member.errors() == []
        finally:
            member.stop()
            member.log.unlink(missing_ok=True)


def test_a_replica_needs_postgresql(tmp_path: Any) -> None:
    from roppyakken.errors import RoppyakkenError

    with pytest.raises(RoppyakkenError, match="read replica needs a PostgreSQL"):
        Database(f"sqlite:///{tmp_path / 'a.sqlite3'}", replica="postgresql://127.0.0.1/x")
