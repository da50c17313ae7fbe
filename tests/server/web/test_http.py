"""The HTTP side of the web server: pages, the JSON API, its errors, scoring (docs/PROTOCOL.md)."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from roppyakken.ai.base import BOT_LEVELS
from roppyakken.rules import PRESETS
from roppyakken.server.web.app import STATIC
from tests.harness.said import said_in_english
from tests.harness.server_harness import running_server

JSON = {"Content-Type": "application/json"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    path = tmp_path_factory.mktemp("http") / "g.sqlite3"
    with running_server(f"sqlite:///{path}") as server, httpx.Client(base_url=server.url, timeout=10) as c:
        yield c


def _error(answer: Any, status: int) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"error", "text"} and "\n" not in body["error"]
    assert said_in_english(body["text"]) == body["error"]  # the template and fields say the same
    message: str = body["error"]
    return message


def test_presets_and_bots(client: httpx.Client) -> None:
    presets = client.get("/api/presets").json()["presets"]
    assert [p["name"] for p in presets] == list(PRESETS)
    classic = presets[0]
    assert classic["players"] == [2, 3] and classic["description"] and classic["options"]["target"] == 600
    bots = client.get("/api/bots").json()["bots"]
    assert [b["level"] for b in bots] == list(BOT_LEVELS) and all(b["description"] for b in bots)


def test_room_creation_is_checked(client: httpx.Client) -> None:
    cases = {
        "bad json": (b"{nope", 400, "not valid JSON"),
        "not an object": (b"[1]", 400, "JSON object"),
    }
    for raw, status, part in cases.values():
        assert part in _error(client.post("/api/rooms", content=raw, headers=JSON), status)
    bad_bodies: list[tuple[dict[str, Any], str]] = [
        ({}, "'name'"),
        ({"name": "   "}, "'name'"),
        ({"name": "x" * 40}, "'name'"),
        ({"name": "a\x07b"}, "'name'"),
        ({"name": "a", "players": 4}, "2 or 3"),
        ({"name": "a", "players": True}, "2 or 3"),
        ({"name": "a", "rules": {"preset": "nope"}}, "unknown preset"),
        ({"name": "a", "rules": {"preset": "classic", "toml": ""}}, "'rules'"),
        ({"name": "a", "rules": {"toml": "target = "}}, "not valid TOML"),
        ({"name": "a", "rules": {"toml": "no_such_option = 1"}}, "no_such_option"),
        ({"name": "a", "players": 3, "rules": {"preset": "yamayaku"}}, "2 players only"),
        ({"name": "a", "seed": -1}, "'seed'"),
        ({"name": "a", "seed": 2**64}, "'seed'"),
        ({"name": "a", "bots": {"0": "random"}}, "seat '0'"),
        ({"name": "a", "bots": {"1": "grandmaster-9000"}}, "unknown bot level"),
        ({"name": "a", "bots": ["random"]}, "'bots'"),
        ({"name": "a", "colour": "red"}, "unknown field 'colour'"),
    ]
    for body, part in bad_bodies:
        message = _error(client.post("/api/rooms", json=body), 400)
        assert part in message, (body, message)
    created = client.post(
        "/api/rooms",
        json={"name": "  Ann   Lee ", "players": 3, "rules": {"toml": 'preset = "fuke"\ntarget = 300'}},
    )
    assert created.status_code == 201
    info = client.get(f"/api/rooms/{created.json()['room']}").json()
    assert info["seats"][0] == {"name": "Ann Lee", "kind": "human", "connected": False}
    assert info["rules"]["preset"] == "fuke" and info["rules"]["options"]["target"] == 300
    assert info["status"] == "waiting" and [s["kind"] for s in info["seats"]] == ["human", "empty", "empty"]
    assert "token" not in json.dumps(info)


def test_joining(client: httpx.Client) -> None:
    room = client.post("/api/rooms", json={"name": "a", "players": 2}).json()["room"]
    assert "no room" in _error(client.post("/api/rooms/nope/join", json={"name": "b"}), 404)
    assert "'name'" in _error(client.post(f"/api/rooms/{room}/join", json={}), 400)
    joined = client.post(f"/api/rooms/{room}/join", json={"name": "b"}).json()
    assert joined["seat"] == 1 and len(joined["token"]) >= 32
    assert "no empty seat" in _error(client.post(f"/api/rooms/{room}/join", json={"name": "c"}), 409)
    assert "no room" in _error(client.get("/api/rooms/does-not-exist"), 404)
    assert "no room" in _error(client.get("/api/rooms/bad%20id!"), 404)


def test_records_only_for_finished_games(client: httpx.Client) -> None:
    room = client.post("/api/rooms", json={"name": "a", "bots": {"1": "random"}}).json()["room"]
    assert "not finished" in _error(client.get(f"/api/games/{room}/record"), 404)
    assert "no room" in _error(client.get("/api/games/nope/record"), 404)
    assert room not in json.dumps(client.get("/api/games").json())
    assert "'limit'" in _error(client.get("/api/games?limit=0"), 400)


def test_score_matches_the_score_command(client: httpx.Client) -> None:
    document = {
        "players": [
            {"captures": ["pine-crane", "pampas-moon", "paulownia-phoenix"], "lucky_hands": []},
            {"captures": ["plum-warbler", "maple-deer"]},
        ]
    }
    answer = client.post("/api/score", json={**document, "rules": {"preset": "classic"}})
    assert answer.status_code == 200
    cli = subprocess.run(
        [sys.executable, "-c", "from roppyakken.cli import main; raise SystemExit(main())", "score"],
        input=json.dumps(document),
        capture_output=True,
        text=True,
        check=True,
    )
    assert answer.json() == json.loads(cli.stdout)
    assert answer.json()["players"][0]["yaku"]
    bad = {"players": [{"captures": ["pine-crane"]}, {"captures": ["pine-crane"]}]}
    assert "also captured" in _error(client.post("/api/score", json=bad), 400)
    assert "unknown" in _error(client.post("/api/score", json={"players": [{"captures": ["nope"]}] * 2}), 400)


def test_pages_and_static_files(client: httpx.Client) -> None:
    if (STATIC / "index.html").is_file():
        for path in ("/", "/r/abcDEF123", "/replay/abc", "/score"):
            page = client.get(path)
            assert page.status_code == 200 and "text/html" in page.headers["content-type"]
    card = client.get("/static/cards/pine-crane.svg")
    assert card.status_code == 200 and "svg" in card.headers["content-type"]
    assert client.get("/static/cards/nope.svg").status_code == 404
    assert _error(client.get("/api/nothing-here"), 404)
    assert client.get("/robots.txt").status_code == 404
