"""A blocked pair is kept apart by tournament pairing as far as the format allows: a Swiss round
counts it as already met (never paired while a repeat-free round exists), an arena wave as last
opponents (never at one table while the player has not waited the longest), a round robin never
holds both."""

from __future__ import annotations

from pathlib import Path

from sqlalchemy import Connection

from roppyakken.server.club.tournaments import blocking, model, store
from roppyakken.server.club.tournaments.records import Waiting
from roppyakken.server.people import blocks
from tests.harness.ratings_season import make_people, sqlite_database
from tests.harness.server_harness import running_server
from tests.harness.tournaments import Entrant, wait_for


def _pairs(tables: object) -> set[frozenset[str]]:
    return {frozenset(t) for t in tables}  # type: ignore[attr-defined]


def test_swiss_counts_a_blocked_pair_as_met() -> None:
    scores = {p: 0.0 for p in "abcd"}
    ratings = {"a": 2000.0, "b": 1900.0, "c": 1800.0, "d": 1700.0}
    plain = model.swiss_pairing(scores, [], {}, 2, ratings=ratings)
    assert _pairs(plain.tables) == {frozenset("ac"), frozenset("bd")}  # top half against bottom half
    apart = model.swiss_pairing(scores, [], {}, 2, ratings=ratings, apart=[("c", "a")])
    assert frozenset("ac") not in _pairs(apart.tables) and len(apart.tables) == 2
    # nothing else possible: the blocked pair plays rather than nobody
    only = model.swiss_pairing({"a": 0.0, "c": 0.0}, [], {}, 2, apart=[("a", "c")])
    assert _pairs(only.tables) == {frozenset("ac")}
    # tables of 3: the blocked pair is not at one table while another grouping exists
    six = {p: 0.0 for p in "abcdef"}
    for seed in range(20):
        got = model.swiss_pairing(six, [], {}, 3, seed, apart=[("a", "b"), ("c", "d")])
        assert not any({"a", "b"} <= set(t) or {"c", "d"} <= set(t) for t in got.tables), seed


def test_an_arena_wave_keeps_a_blocked_pair_apart_like_last_opponents() -> None:
    waiting = [Waiting("a", 3.0, 0.0), Waiting("b", 3.0, 1.0), Waiting("c", 0.0, 2.0), Waiting("d", 0.0, 3.0)]
    assert _pairs(model.arena_pairing(waiting, 2, now=4.0)) == {frozenset("ab"), frozenset("cd")}
    apart = {frozenset("ab")}
    assert frozenset("ab") not in _pairs(model.arena_pairing(waiting, 2, now=4.0, apart=apart))
    # two players alone, blocked: they wait (until one has waited the longest)
    two = [Waiting("a", 0.0, 0.0), Waiting("b", 0.0, 1.0)]
    assert model.arena_pairing(two, 2, now=2.0, apart=apart) == []


def test_a_swiss_tournament_pairs_a_blocked_pair_only_when_nothing_else_is_possible(tmp_path: Path) -> None:
    """Four players, Ann blocking Bo and Cy blocking Ann: of the three ways to pair four, only
    Ann–Di with Bo–Cy is left, in each of three tournaments (each shuffled by its own seed)."""
    with running_server(f"sqlite:///{tmp_path / 'b.sqlite3'}") as server:
        ann = Entrant(server, "Ann", account=True)
        bo, cy, di = (Entrant(server, n) for n in ("Bo", "Cy", "Di"))
        everyone = [ann, bo, cy, di]
        assert ann.post("/api/blocks", {"player": bo.id}).status_code == 200
        assert cy.post("/api/blocks", {"player": ann.id}).status_code == 200
        made = []
        for n in range(3):
            got = ann.post(
                "/api/tournaments",
                {"name": f"Cup {n}", "format": "swiss", "rounds": 1, "clock": "15+60", "starts_in": 1.5},
            )
            assert got.status_code == 201, got.text
            made.append(got.json()["id"])
            for entrant in everyone:
                entrant.join(made[-1])
        for tid in made:
            tables = wait_for(
                lambda tid=tid: len(t := ann.view(tid)["tables"]) == 2 and t, 20, "round 1 paired"
            )
            assert {frozenset(t["players"]) for t in tables} == {
                frozenset((ann.id, di.id)),
                frozenset((bo.id, cy.id)),
            }
        for entrant in everyone:
            entrant.close()


def test_a_round_robin_never_holds_a_blocked_pair(tmp_path: Path) -> None:
    """Every pair of a round robin meets (by 2 and by 3), so a blocked pair is never entered together:
    the join is refused (one line, naming nobody, whoever blocks whom), and a player who blocks an
    entrant of a round robin both are in leaves it (before the start) or is withdrawn (running)."""
    refused = "you cannot join this round robin"
    with running_server(f"sqlite:///{tmp_path / 'rr.sqlite3'}") as server:
        ann = Entrant(server, "Ann", account=True)
        bo, cy, di = (Entrant(server, n) for n in ("Bo", "Cy", "Di"))

        def made(players: int, starts_in: float) -> str:
            body = {
                "name": "RR",
                "format": "round_robin",
                "players": players,
                "clock": "15+60",
                "starts_in": starts_in,
            }
            got = ann.post("/api/tournaments", body)
            assert got.status_code == 201, got.text
            return str(got.json()["id"])

        def entered(tid: str) -> dict[str, bool]:
            return {s["player"]: s["withdrawn"] for s in ann.view(tid)["standings"]}

        assert bo.post("/api/blocks", {"player": cy.id}).status_code == 200
        later = [made(2, 600), made(3, 600)]
        for tid in later:
            bo.join(tid)
            got = cy.post(f"/api/tournaments/{tid}/join")  # blocked by Bo: told only that it cannot be done
            assert (got.status_code, got.json()["error"]) == (403, refused), got.text
            di.join(tid)
        # Bo, the blocker, cannot join where Cy is either
        cys = made(2, 600)
        cy.join(cys)
        got = bo.post(f"/api/tournaments/{cys}/join")
        assert (got.status_code, got.json()["error"]) == (403, refused)
        # a block between two entrants before the start: the blocker leaves (and may not come back)
        blocked = di.post("/api/blocks", {"player": bo.id})
        assert blocked.status_code == 200 and blocked.json()["left"] == sorted(later), blocked.text
        assert all(set(entered(tid)) == {bo.id} for tid in later)
        got = di.post(f"/api/tournaments/{later[0]}/join")
        assert (got.status_code, got.json()["error"]) == (403, refused)
        # a withdrawn entrant is no longer in the way
        running = made(2, 1.5)
        for entrant in (ann, cy, di):
            entrant.join(running)
        wait_for(lambda: ann.view(running)["tournament"]["status"] == "running", 20, "the round robin runs")
        # a block once it runs: the blocker is withdrawn (their games still to come are not played)
        blocked = ann.post("/api/blocks", {"player": cy.id})
        assert blocked.json()["left"] == [running], blocked.text
        assert entered(running) == {ann.id: True, cy.id: False, di.id: False}
        # a block between players with no round robin in common: nobody leaves anything
        assert "left" not in ann.post("/api/blocks", {"player": bo.id}).json()
        for entrant in (ann, bo, cy, di):
            entrant.close()


def test_blockers_part_from_a_round_robin_about_to_start(tmp_path: Path) -> None:
    """``blocking.part_at_start``: for a block that reached the entries some other way, each blocked
    pair loses its blocker (a blocker whose blocked player left already stays)."""
    db = sqlite_database(tmp_path)
    try:

        def work(conn: Connection) -> tuple[set[str], list[str], list[str]]:
            ann, bo, cy, di = make_people(conn, 4)
            values = {"id": "rr", "name": "RR", "format": "round_robin", "preset": "classic", "players": 2}
            values |= {"clock": "15+60", "rated": False, "visibility": "public", "created_at": 0.0}
            store.create(conn, {**values, "starts_at": 1.0, "status": store.SCHEDULED})
            for n, player in enumerate((ann, bo, cy, di)):
                store.join(conn, "rr", store.Entry(player, player, 0.0, "h", float(n), 0.0, False, False, 0))
            for blocker, blocked_id in ((ann, bo), (bo, ann), (cy, di)):
                blocks.block(conn, blocker, blocked_id, 0.0, 10)
            gone = blocking.part_at_start(conn, "rr", [ann, bo, cy, di])
            left = [e.player_id for e in store.entries(conn, "rr")]
            return gone, left, sorted((ann, bo, cy, di))

        gone, left, everyone = db.run_now(work)
        assert len(gone) == 2 and set(left) == set(everyone) - gone
        assert db.run_now(lambda c: blocks.pairs_among(c, left)) == set()  # no blocked pair is left
        assert db.run_now(lambda c: blocking.part_at_start(c, "rr", left)) == set()
    finally:
        db.engine.dispose()
