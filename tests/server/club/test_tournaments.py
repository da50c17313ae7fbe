"""Tournaments on one server through the API: made by an account, joined, started by the director,
paired by the rules of club/tournaments/model.py, played over the rooms' websockets to the final
standings (JSON and CSV); withdrawing, pausing, and two abandoned games withdrawing a player; the
live socket of a tournament's page."""

from __future__ import annotations

import asyncio
import csv
import io
import json
from pathlib import Path
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from sqlalchemy import func, select
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import rating_games, ratings, rooms, tournament_tables
from tests.harness.server_harness import limits_for_tests, running_server
from tests.harness.tournaments import Entrant, add_entrants, add_tables_written, play_round, wait_for


def _count(database: str, query: object) -> int:
    db = Database(database)
    try:
        with db.engine.connect() as conn:
            return int(conn.execute(query).scalar() or 0)  # type: ignore[call-overload]
    finally:
        db.engine.dispose()


def test_a_rated_swiss_of_four_is_played_two_rounds_to_its_standings(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 't.sqlite3'}"
    with running_server(database) as server:
        ann = Entrant(server, "Ann", account=True)
        others = [Entrant(server, n) for n in ("Bo", "Cy", "Di")]
        everyone = [ann, *others]
        guest = others[0].post(
            "/api/tournaments",
            {"name": "Guests", "format": "swiss", "rounds": 2, "clock": "15+60", "starts_in": 0},
        )
        assert guest.status_code == 403, guest.text  # a guest makes none
        bad = ann.post(
            "/api/tournaments", {"name": "Cup", "format": "swiss", "clock": "15+60", "starts_in": 1}
        )
        assert bad.status_code == 400 and "'rounds'" in bad.json()["error"]
        clubless = {"name": "Club", "format": "arena", "minutes": 5, "clock": "15+60", "starts_in": 9}
        refused = ann.post("/api/tournaments", {**clubless, "visibility": "club"})
        assert refused.status_code == 400 and "club" in refused.json()["error"]
        made = ann.post(
            "/api/tournaments",
            {"name": "Cup", "format": "swiss", "rounds": 2, "clock": "15+60", "starts_in": 1.5},
        )
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        listed = ann.client.get("/api/tournaments").json()["tournaments"]
        assert [t["id"] for t in listed] == [tid] and listed[0]["status"] == "scheduled"
        for entrant in everyone:
            assert entrant.join(tid)["me"]["entered"] is True
        # round 1: paired once started, each player told their table
        wait_for(lambda: all(e.view(tid)["me"]["table"] for e in everyone), 20, "every player paired")
        first = ann.view(tid)
        assert first["tournament"]["status"] == "running" and first["tournament"]["round"] == 1
        rooms_1 = play_round(server, tid, everyone, seed=1)
        assert len(rooms_1) == 2
        wait_for(lambda: ann.view(tid)["tournament"]["round"] == 2, 20, "round 2 paired")
        wait_for(lambda: all(e.view(tid)["me"]["table"] for e in everyone), 20, "round 2 tables")
        rooms_2 = play_round(server, tid, everyone, seed=2)
        assert not set(rooms_1) & set(rooms_2)
        final = wait_for(
            lambda: (v := ann.view(tid))["tournament"]["status"] == "finished" and v, 20, "the end"
        )
        lines = final["standings"]
        assert len(lines) == 4 and sum(line["points"] for line in lines) == 8.0  # 4 games, 2 points each
        assert [line["rank"] for line in lines] == sorted(line["rank"] for line in lines)
        assert all(line["games"] == 2 for line in lines)
        assert len(final["tables"]) == 4 and all(t["places"] and t["record"] for t in final["tables"])
        assert final["me"]["table"] is None
        # the CSV says the same
        got = ann.client.get(f"/api/tournaments/{tid}/standings.csv")
        assert got.status_code == 200 and got.headers["content-type"].startswith("text/csv")
        rows = list(csv.DictReader(io.StringIO(got.text)))
        assert [r["player"] for r in rows] == [line["player"] for line in lines]
        assert [float(r["points"]) for r in rows] == [line["points"] for line in lines]
        # every game is a rated room, recorded once, and moved its players' ratings
        for table in final["tables"]:
            assert ann.client.get(table["record"]).status_code == 200
        assert _count(database, select(func.count()).select_from(rating_games)) == 4
        assert _count(database, select(func.count()).select_from(rooms).where(rooms.c.rated)) == 4
        assert _count(database, select(func.min(ratings.c.games))) == 2
        assert _count(database, select(func.count()).select_from(tournament_tables)) == 4
        for entrant in everyone:
            entrant.close()


def test_two_abandoned_games_withdraw_a_player_and_a_paused_one_is_not_paired(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'a.sqlite3'}"
    # nobody comes to their tables: the clock gives each seat to a bot (an abandonment) in moments
    limits = limits_for_tests(clock_scale=0.002)
    with running_server(database, limits=limits) as server:
        ann = Entrant(server, "Ann", account=True)
        bo, cy = Entrant(server, "Bo"), Entrant(server, "Cy")
        made = ann.post(
            "/api/tournaments",
            {
                "name": "Blitz",
                "format": "arena",
                "minutes": 10,
                "clock": "15+60",
                "starts_in": 0.5,
                "rated": False,
                "preset": "ten-card",
            },
        )
        assert made.status_code == 201, made.text
        tid = made.json()["id"]
        for entrant in (ann, bo, cy):
            entrant.join(tid)
        paused = cy.post(f"/api/tournaments/{tid}/pause", {"paused": True})
        assert paused.status_code == 200 and paused.json()["me"]["paused"] is True
        assert cy.post(f"/api/tournaments/{tid}/pause", {"paused": "yes"}).status_code == 400

        def both_withdrawn() -> dict[str, object] | None:
            seen = ann.view(tid)
            gone = {line["name"] for line in seen["standings"] if line["withdrawn"]}
            return seen if gone == {"Ann", "Bo"} else None

        final = wait_for(both_withdrawn, 90, "Ann and Bo withdrawn after two abandoned games each")
        lines = {line["name"]: line for line in final["standings"]}
        assert lines["Ann"]["games"] == 2 and lines["Bo"]["games"] == 2
        assert lines["Ann"]["points"] == 0 and lines["Bo"]["points"] == 0  # an abandonment scores nothing
        assert lines["Cy"]["games"] == 0 and lines["Cy"]["paused"] is True and not lines["Cy"]["withdrawn"]
        assert ann.view(tid)["me"]["abandonments"] == 2
        refused = ann.post(f"/api/tournaments/{tid}/join")
        assert refused.status_code == 403 and "abandoned" in refused.json()["error"]
        # Cy comes back but is alone: nobody to play; then withdraws
        assert cy.post(f"/api/tournaments/{tid}/pause", {"paused": False}).json()["me"]["paused"] is False
        gone = cy.post(f"/api/tournaments/{tid}/withdraw")
        assert gone.status_code == 200 and gone.json()["me"]["withdrawn"] is True
        assert len(ann.view(tid)["tables"]) == 2
        for entrant in (ann, bo, cy):
            entrant.close()


def test_the_tournament_socket_sends_the_page_and_its_changes(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'w.sqlite3'}"
    with running_server(database) as server:
        ann, bo, cy = Entrant(server, "Ann", account=True), Entrant(server, "Bo"), Entrant(server, "Cy")
        made = ann.post(
            "/api/tournaments",
            {"name": "Later", "format": "swiss", "rounds": 3, "clock": "1d", "starts_in": 3600},
        )
        tid = made.json()["id"]
        ann.join(tid)
        schemas = httpx.get(server.url + "/api/schema").json()
        schema = Draft202012Validator(schemas["tournament_server_message"])
        said = Draft202012Validator(schemas["tournament_client_message"])
        hidden, shown = {"type": "visible", "visible": False}, {"type": "visible", "visible": True}
        assert said.is_valid(hidden) and said.is_valid({"type": "ping", "id": "p"})

        async def run() -> list[dict[str, Any]]:
            # the account's session and the player's cookies, as the browser sends them
            cookie = ann.cookie_header()
            async with connect(f"{server.ws_url}/ws/tournament/{tid}", additional_headers=cookie) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                bo.join(tid)  # another player joins: the page changes
                second = json.loads(await asyncio.wait_for(ws.recv(), 10))
                await ws.send(json.dumps({"type": "ping", "id": "p"}))
                pong = json.loads(await asyncio.wait_for(ws.recv(), 10))
                # a hidden page is not sent what is not Ann's own; shown again, it is at once
                await ws.send(json.dumps(hidden))
                await ws.send(json.dumps({"type": "visible"}))  # none the socket reads: ignored
                cy.join(tid)
                with pytest.raises(TimeoutError):
                    await asyncio.wait_for(ws.recv(), 3.5)
                await ws.send(json.dumps(shown))
                third = json.loads(await asyncio.wait_for(ws.recv(), 1))
                await ws.send("x" * 1000)
                with pytest.raises(ConnectionClosed):
                    await asyncio.wait_for(ws.recv(), 10)
            return [first, second, pong, third]

        first, second, pong, third = asyncio.run(run())
        for message in (first, second, pong, third):
            assert schema.is_valid(message), message
        assert sorted(s["name"] for s in third["tournament"]["standings"]) == ["Ann", "Bo", "Cy"]
        assert first["type"] == "tournament" and first["tournament"]["me"]["entered"] is True
        assert [s["name"] for s in first["tournament"]["standings"]] == ["Ann"]
        assert sorted(s["name"] for s in second["tournament"]["standings"]) == ["Ann", "Bo"]
        assert pong == {"type": "pong", "id": "p"}
        for entrant in (ann, bo, cy):
            entrant.close()


def test_the_tournament_socket_sends_the_page_of_the_standings_asked_for(tmp_path: Path) -> None:
    """A page of 25 lines at a time (view.LIVE_STANDINGS), the first by default, another when asked
    for at once, and the player's own line wherever it is; a page past the last is the last."""
    database = f"sqlite:///{tmp_path / 'p.sqlite3'}"
    with running_server(database) as server:
        ann = Entrant(server, "Ann", account=True)
        made = ann.post(
            "/api/tournaments",
            {"name": "Many", "format": "swiss", "rounds": 3, "clock": "1d", "starts_in": 3600},
        )
        tid = made.json()["id"]
        ann.join(tid)
        add_entrants(database, tid, 30)  # all rated above Ann
        said = Draft202012Validator(httpx.get(server.url + "/api/schema").json()["tournament_client_message"])
        assert said.is_valid({"type": "standings", "page": 2})
        assert not said.is_valid({"type": "standings", "page": 0})

        async def run() -> list[dict[str, Any]]:
            cookie = ann.cookie_header()
            async with connect(f"{server.ws_url}/ws/tournament/{tid}", additional_headers=cookie) as ws:
                first = json.loads(await asyncio.wait_for(ws.recv(), 10))
                await ws.send(json.dumps({"type": "standings", "page": 2}))
                second = json.loads(await asyncio.wait_for(ws.recv(), 1))
                await ws.send(json.dumps({"type": "standings", "page": 0}))  # none the socket reads
                await ws.send(json.dumps({"type": "standings", "page": 9}))  # the last: page 2 again
                with pytest.raises(TimeoutError):
                    await asyncio.wait_for(ws.recv(), 1.5)
                await ws.send(json.dumps({"type": "standings", "page": 1}))
                third = json.loads(await asyncio.wait_for(ws.recv(), 1))
            return [first, second, third]

        first, second, third = asyncio.run(run())
        names = [line["name"] for line in ann.view(tid)["standings"]]  # the whole standings
        assert len(names) == 31 and names[-1] == "Ann"  # (rated lowest)
        page_one = [*names[:25], "Ann"]
        for message, page, lines in ((first, 1, page_one), (second, 2, names[25:]), (third, 1, page_one)):
            assert (message["page"], message["pages"]) == (page, 2)
            assert [line["name"] for line in message["tournament"]["standings"]] == lines
        ann.close()


def test_the_tournament_socket_sends_the_page_of_the_tables_asked_for(tmp_path: Path) -> None:
    """Tables 20 at a time (view.LIVE_TABLES), latest first: the first page of every table by default,
    another page, of every table or of those in play only, at once when asked for, and the player's
    open table after the page when it is not on it; a page past the last is the last."""
    database = f"sqlite:///{tmp_path / 't.sqlite3'}"
    with running_server(database) as server:
        ann = Entrant(server, "Ann", account=True)
        tid = ann.make({"name": "Tables", "format": "swiss", "rounds": 3, "clock": "1d", "starts_in": 3600})
        ann.join(tid)
        many = [f"many{i:02d}" for i in range(len(add_entrants(database, tid, 50)))]
        # 25 games over, then 22 in play, Ann's the first of them: 47 tables, 3 pages (2 in play)
        over = [((many[2 * k], many[2 * k + 1]), f"over{k:02d}", (1, 2)) for k in range(25)]
        ann_table = ((ann.id, many[0]), "annsroom", None)
        playing = [((many[2 * k], many[2 * k + 1]), f"play{k:02d}", None) for k in range(4, 25)]
        add_tables_written(database, tid, [*over, ann_table, *playing])
        said = Draft202012Validator(httpx.get(server.url + "/api/schema").json()["tournament_client_message"])
        assert said.is_valid({"type": "tables", "page": 2}) and said.is_valid(
            {"type": "tables", "page": 1, "playing": True}
        )
        assert not said.is_valid({"type": "tables", "page": 0})
        assert not said.is_valid({"type": "tables", "page": 1, "playing": "yes"})
        tells = Draft202012Validator(
            httpx.get(server.url + "/api/schema").json()["tournament_server_message"]
        )

        async def run() -> list[dict[str, Any]]:
            cookie = ann.cookie_header()
            got = []
            async with connect(f"{server.ws_url}/ws/tournament/{tid}", additional_headers=cookie) as ws:
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
                for asked in ({"type": "tables", "page": 2}, {"type": "tables", "page": 1, "playing": True}):
                    await ws.send(json.dumps(asked))
                    got.append(json.loads(await asyncio.wait_for(ws.recv(), 1)))
                await ws.send(json.dumps({"type": "tables", "page": 1, "playing": "yes"}))  # none it reads
                await ws.send(json.dumps({"type": "tables", "page": 1, "playing": True}))  # the same page
                with pytest.raises(TimeoutError):
                    await asyncio.wait_for(ws.recv(), 1.5)
                await ws.send(json.dumps({"type": "tables", "page": 9, "playing": True}))  # the last
                got.append(json.loads(await asyncio.wait_for(ws.recv(), 1)))
            return got

        whole = [t["room"] for t in ann.view(tid)["tables"]]  # every table, the latest first
        assert len(whole) == 47 and whole[21] == "annsroom"
        in_play = [room for room in whole if not room.startswith("over")]
        first, second, third, last = asyncio.run(run())
        for message, at, rooms in (
            (first, (1, 3, False), [*whole[:20], "annsroom"]),
            (second, (2, 3, False), whole[20:40]),
            (third, (1, 2, True), [*in_play[:20], "annsroom"]),
            (last, (2, 2, True), in_play[20:]),
        ):
            assert tells.is_valid(message), message
            assert (message["tables_page"], message["tables_pages"], message["playing"]) == at
            assert [t["room"] for t in message["tournament"]["tables"]] == rooms
            assert message["tournament"]["me"]["table"] == {"room": "annsroom", "seat": 0}
        ann.close()


def test_round_robins_by_two_and_by_three_meet_every_pair_once(tmp_path: Path) -> None:
    """A round robin of three players by tables of 2 plays three rounds, each pair once and each
    player a bye; by a table of 3 it is one round of all three (model.round_robin_schedule)."""
    database = f"sqlite:///{tmp_path / 'rr.sqlite3'}"
    with running_server(database) as server:
        ann = Entrant(server, "Ann", account=True)
        everyone = [ann, Entrant(server, "Bo"), Entrant(server, "Cy")]
        by_three = {"name": "Ten", "format": "round_robin", "players": 3, "clock": "15+60", "starts_in": 1}
        refused = ann.post("/api/tournaments", {**by_three, "preset": "ten-card"})
        assert refused.status_code == 400 and "ten-card" in refused.json()["error"], refused.text
        for players, rounds in ((2, 3), (3, 1)):
            made = ann.post(
                "/api/tournaments",
                {
                    "name": f"Round robin by {players}",
                    "format": "round_robin",
                    "players": players,
                    "clock": "15+60",
                    "starts_in": 1,
                    "rated": False,
                },
            )
            assert made.status_code == 201, made.text
            tid = made.json()["id"]
            for entrant in everyone:
                entrant.join(tid)
            for number in range(1, rounds + 1):
                wait_for(
                    lambda t=tid, n=number: ann.view(t)["tournament"]["round"] == n, 20, f"round {number}"
                )
                wait_for(
                    lambda t=tid, k=players: sum(bool(e.view(t)["me"]["table"]) for e in everyone) == k,
                    20,
                    f"round {number}'s table",
                )
                assert len(play_round(server, tid, everyone, seed=number)) == 1
            final = wait_for(
                lambda t=tid: (v := ann.view(t))["tournament"]["status"] == "finished" and v, 20, "the end"
            )
            assert final["tournament"]["rounds"] == rounds
            met = [frozenset(t["players"]) for t in final["tables"]]
            assert len(met) == rounds and all(t["places"] for t in final["tables"])
            if players == 2:
                assert sorted(map(sorted, met)) == sorted(
                    sorted(pair)
                    for pair in (
                        {ann.id, everyone[1].id},
                        {ann.id, everyone[2].id},
                        {everyone[1].id, everyone[2].id},
                    )
                )
                assert all(line["byes"] == 1 and line["games"] == 2 for line in final["standings"])
                assert sum(line["points"] for line in final["standings"]) == 3 * 2.0 + 3 * 1.0
            else:
                assert met == [frozenset(e.id for e in everyone)]
                assert sum(line["points"] for line in final["standings"]) == 3.0
        for entrant in everyone:
            entrant.close()
