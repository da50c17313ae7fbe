"""Rating farming through a tournament: one address or one browser enters a rated tournament once
(its entrants would be paired together, and their games move ratings), as quick pairing and rated
rooms keep them apart; an unrated tournament, or a server that lets one address play itself
(``--rated-same-address``), takes them all.

Addresses are given with ``X-Forwarded-For`` through a trusted proxy (127.0.0.1, the test client)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import pytest

from roppyakken.server.people.players import BROWSER_COOKIE
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import tournament_entries
from roppyakken.server.wire import text
from tests.harness import services
from tests.harness.server_harness import limits_for_tests, running_server
from tests.harness.tournaments import Entrant

PUPPETS = "203.0.113.9"
ARENA = {"name": "Farm", "format": "arena", "minutes": 30, "clock": "15+60", "starts_in": 600}


def _entries(database: str, tournament: str) -> int:
    db = Database(database)
    try:
        with db.engine.connect() as conn:
            mine = tournament_entries.c.tournament_id == tournament
            return len(conn.execute(tournament_entries.select().where(mine)).all())
    finally:
        db.engine.dispose()


def _made(host: Entrant, **changes: Any) -> str:
    made = host.post("/api/tournaments", {**ARENA, **changes})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def test_one_address_or_browser_enters_a_rated_tournament_once(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 't.sqlite3'}"
    limits = limits_for_tests(trusted_proxies=("127.0.0.1",), rated_same_address=False)
    with running_server(database, limits=limits) as server:
        host = Entrant(server, "Main", account=True, address="198.51.100.1")
        rated, unrated = _made(host), _made(host, rated=False)
        puppets = [Entrant(server, f"Puppet{i}", address=PUPPETS) for i in range(3)]
        assert puppets[0].join(rated)["me"]["entered"] is True
        for puppet in puppets[1:]:
            refused = puppet.post(f"/api/tournaments/{rated}/join")
            assert refused.status_code == 403, refused.text
            assert refused.json()["error"] == text.RATED_TOURNAMENT_SAME_ORIGIN
        # the host's own browser, from another address, is refused too once a puppet of it is in
        tab = httpx.Client(base_url=server.url, timeout=30, headers={"X-Forwarded-For": "192.0.2.77"})
        tab.cookies.set(BROWSER_COOKIE, host.client.cookies[BROWSER_COOKIE])
        made = tab.post("/api/me", json={"name": "Tab"}, headers={"X-CSRF-Token": "new"})
        assert made.status_code == 201, made.text
        csrf = {"X-CSRF-Token": made.json()["csrf"]}
        assert host.join(rated)["me"]["entered"] is True
        refused = tab.post(f"/api/tournaments/{rated}/join", json={}, headers=csrf)
        assert refused.status_code == 403 and refused.json()["error"] == text.RATED_TOURNAMENT_SAME_ORIGIN
        # the first puppet coming back (a join again) is still itself, and strangers enter
        assert puppets[0].join(rated)["me"]["entered"] is True
        stranger = Entrant(server, "Stranger", address="192.0.2.50")
        assert stranger.join(rated)["me"]["entered"] is True
        assert _entries(database, rated) == 3  # the first puppet, the host and the stranger
        # a puppet who left before the start (its entry gone) frees the address for another
        assert puppets[0].post(f"/api/tournaments/{rated}/withdraw").status_code == 200
        assert _entries(database, rated) == 2
        assert puppets[1].join(rated)["me"]["entered"] is True
        assert puppets[0].post(f"/api/tournaments/{rated}/join").status_code == 403
        # an unrated tournament takes them all
        for puppet in puppets:
            assert puppet.join(unrated)["me"]["entered"] is True
        for entrant in (host, stranger, *puppets):
            entrant.close()
        tab.close()


def test_a_club_on_one_network_enters_one_rated_tournament_together(tmp_path: Path) -> None:
    limits = limits_for_tests(trusted_proxies=("127.0.0.1",), rated_same_address=True)
    with running_server(f"sqlite:///{tmp_path / 'c.sqlite3'}", limits=limits) as server:
        host = Entrant(server, "Host", account=True, address=PUPPETS)
        rated = _made(host)
        members = [host, *(Entrant(server, f"Member{i}", address=PUPPETS) for i in range(2))]
        for member in members:
            assert member.join(rated)["me"]["entered"] is True
            member.close()


@pytest.mark.slow
def test_puppets_joining_at_once_through_two_members_leave_one_entry() -> None:
    """Eight guests of one address join a rated tournament at the same moment through two cluster
    members on PostgreSQL: the tournament's row, held by each join, lets one in."""
    with services.postgres() as pg, services.redis_server() as rd:
        database = services.new_database(pg, "puppets")
        with services.members(database, rd, 2) as (first, second):
            host = Entrant(first, "Host", account=True, address="198.51.100.2")
            rated = _made(host)
            puppets = [Entrant(second if i % 2 else first, f"P{i}", address=PUPPETS) for i in range(8)]
            barrier = threading.Barrier(len(puppets))

            def join(puppet: Entrant) -> int:
                barrier.wait()
                return puppet.post(f"/api/tournaments/{rated}/join").status_code

            with ThreadPoolExecutor(len(puppets)) as pool:
                answers = sorted(pool.map(join, puppets))
            assert answers == [200] + [403] * (len(puppets) - 1), answers
            assert _entries(database, rated) == 1
            for entrant in (host, *puppets):
                entrant.close()
