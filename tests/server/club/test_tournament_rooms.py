"""A tournament's table names its tournament to its players and watchers (``room_info.tournament``:
``GET /api/rooms/<room>`` and the ``welcome``), read with the room when it is made and again when a
server loads it from the database; a plain room names none."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from tests.harness.server_harness import Player, ServerThread, running_server
from tests.harness.tournaments import Entrant, wait_for


def _make(maker: Entrant, body: dict[str, Any]) -> str:
    made = maker.post("/api/tournaments", {"clock": "15+60", "starts_in": 0.5, "rated": False, **body})
    assert made.status_code == 201, made.text
    return str(made.json()["id"])


def _table(entrant: Entrant, tournament: str) -> dict[str, Any]:
    found: dict[str, Any] = wait_for(
        lambda: entrant.view(tournament)["me"]["table"], 30, f"{entrant.name} paired in {tournament}"
    )
    return found


def _info(server: ServerThread, room: str) -> dict[str, Any]:
    got = server.get(f"/api/rooms/{room}")
    assert got.status_code == 200, got.text
    info: dict[str, Any] = got.json()
    return info


def _welcomes(server: ServerThread, room: str, token: str | None) -> list[dict[str, Any]]:
    """The ``room_info`` of the welcome a seated player (``token``) and a watcher get."""

    async def run() -> list[dict[str, Any]]:
        seen = []
        for who in (token, None):
            player = await Player.join(server, room, who)
            welcome = next(m for m in player.log if m["type"] == "welcome")
            assert (welcome["seat"] is None) == (who is None)
            seen.append(welcome)
            await player.close()
        return seen

    return asyncio.run(run())


def test_a_tournament_room_names_its_tournament_and_a_plain_room_does_not(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'rooms.sqlite3'}"
    with running_server(database) as server:
        schema = httpx.get(server.url + "/api/schema").json()
        message = Draft202012Validator(schema["server_message"])
        ann = Entrant(server, "Ann", account=True)
        bo, cy, di = Entrant(server, "Bo"), Entrant(server, "Cy"), Entrant(server, "Di")
        swiss = _make(ann, {"name": "Cup", "format": "swiss", "rounds": 3})
        arena = _make(ann, {"name": "Blitz", "format": "arena", "minutes": 30})
        for entrant in (ann, bo):
            entrant.join(swiss)
        for entrant in (cy, di):
            entrant.join(arena)
        swiss_room = _table(ann, swiss)["room"]
        arena_room = _table(cy, arena)["room"]
        expected = {
            swiss_room: {"id": swiss, "name": "Cup", "format": "swiss", "round": 1, "rounds": 3},
            arena_room: {"id": arena, "name": "Blitz", "format": "arena", "round": None, "rounds": None},
        }
        for room, seated in ((swiss_room, ann), (arena_room, cy)):
            assert _info(server, room)["tournament"] == expected[room]
            for welcome in _welcomes(server, room, seated.token):
                assert welcome["room_info"]["tournament"] == expected[room]
                assert message.is_valid(welcome), welcome
        plain = server.post("/api/rooms", {"name": "Eve", "clock": "15+60"})
        assert plain.status_code == 201, plain.text
        lone, token = plain.json()["room"], plain.json()["token"]
        assert "tournament" not in _info(server, lone)
        for welcome in _welcomes(server, lone, token):
            assert "tournament" not in welcome["room_info"]
            assert message.is_valid(welcome), welcome
        for entrant in (ann, bo, cy, di):
            entrant.close()
    # another server loads the rooms from the database: the tables still name their tournaments
    with running_server(database) as server:
        for room, named in expected.items():
            assert _info(server, room)["tournament"] == named
        assert "tournament" not in _info(server, lone)
