"""The server's side of the offline client: the core's zip, the service worker, uploads of offline games.

``GET /offline/core-<digest>.zip`` holds the installed package's own pure-Python source (the
core and the bots), content-addressed; ``GET /sw.js`` carries the client's version and what it
precaches; ``POST /api/me/offline-games`` stores a record only once it replays, and the
profile lists it (never rated).
"""

from __future__ import annotations

import io
import json
import zipfile
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from roppyakken.record import record_of, replay
from roppyakken.server.people.players import COOKIE, CSRF_HEADER
from roppyakken.server.web import offline_routes
from tests.harness.lobby import new_player
from tests.harness.offline_games import finished_record
from tests.harness.server_harness import ServerThread, running_server
from tests.harness.support import require


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    path = tmp_path_factory.mktemp("offline") / "s.sqlite3"
    with running_server(f"sqlite:///{path}") as served:
        yield served


def test_the_core_zip_is_the_packages_own_pure_source(server: ServerThread) -> None:
    info = server.get("/api/offline").json()
    assert info["core"].startswith("/offline/core-") and info["pyodide"] == "/static/offline/pyodide/"
    assert set(info["levels"]) == {"random", "greedy", "expert", "master"}
    answer = server.get(info["core"])
    assert answer.status_code == 200 and "immutable" in answer.headers["cache-control"]
    names = zipfile.ZipFile(io.BytesIO(answer.content)).namelist()
    assert (
        "roppyakken/engine.py" in names
        and "roppyakken/ai/offline.py" in names
        and "roppyakken/ai/master.py" in names
    )
    assert not [n for n in names if not n.endswith(".py") or n.endswith("_c.py")]
    assert not [n for n in names if n.startswith(("roppyakken/server", "roppyakken/tui", "roppyakken/cli"))]
    with zipfile.ZipFile(io.BytesIO(answer.content)) as archive:
        for name in ("roppyakken/engine.py", "roppyakken/ai/offline.py"):
            assert archive.read(name) == (offline_routes.PACKAGE.parent / name).read_bytes()
    assert offline_routes.build_core_zip() == answer.content  # the same bytes every time
    assert server.get("/offline/core-0000.zip").status_code == 404


def test_the_service_worker_carries_its_version_and_list(server: ServerThread) -> None:
    info = server.get("/api/offline").json()
    worker = server.get("/sw.js")
    assert worker.status_code == 200 and worker.headers["content-type"].startswith("text/javascript")
    assert worker.headers["cache-control"] == "no-cache"
    assert f'const VERSION = "{info["version"]}";' in worker.text
    listed = json.loads(worker.text.split("const PRECACHE = ", 1)[1].split(";\n", 1)[0])
    assert "/" in listed and info["core"] in listed and "/static/js/offline/worker.js" in listed
    assert "/static/tutorial.json" in listed and "/static/cards/pine-crane.svg" in listed
    assert "/static/manifest.webmanifest" in listed and "/api/presets" in listed
    if info["runtime"]:
        assert "/static/offline/pyodide/pyodide.asm.wasm" in listed
    assert "__ROPPYAKKEN" not in worker.text
    # only the offline worker's scripts may compile WebAssembly
    assert "wasm-unsafe-eval" in server.get("/static/js/offline/worker.js").headers["content-security-policy"]
    assert "wasm-unsafe-eval" not in server.get("/").headers["content-security-policy"]


def test_a_new_client_is_a_new_version() -> None:
    before = offline_routes.build_client()
    assert offline_routes.build_client("next").version != before.version
    assert offline_routes.build_client().version == before.version


def test_the_manifest_names_the_app_and_its_icons(server: ServerThread) -> None:
    manifest = server.get("/static/manifest.webmanifest").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = {icon["sizes"] for icon in manifest["icons"]}
    assert {"192x192", "512x512"} <= sizes
    for icon in manifest["icons"]:
        assert server.get(icon["src"]).status_code == 200


def _client(server: ServerThread, name: str) -> httpx.Client:
    cookie, csrf = new_player(server.url, name)
    client = httpx.Client(base_url=server.url, timeout=10, headers={CSRF_HEADER: csrf})
    client.cookies.set(COOKIE, cookie)
    return client


def test_an_offline_game_is_uploaded_once_and_shown_unrated(server: ServerThread) -> None:
    record = finished_record()
    with _client(server, "Ann") as ann:
        me = ann.get("/api/me").json()["player"]["id"]
        made = ann.post("/api/me/offline-games", json={"record": record})
        assert made.status_code == 201, made.text
        again = ann.post("/api/me/offline-games", json={"record": record})
        assert again.status_code == 200 and again.json()["id"] == made.json()["id"]
    listed = server.get(f"/api/players/{me}/offline-games").json()["games"]
    assert len(listed) == 1
    game = listed[0]
    assert game["rated"] is False and game["opponents"] == ["random"] and game["seat"] == 0
    assert game["won"] == (record["winner"] == 0)
    stored = server.get(game["record"]).json()
    assert stored == record  # the player is Ann: the record names the player as the profile does
    profile = server.get(f"/api/players/{me}").json()
    assert all(g.get("rated") is not True for g in profile.get("recent", []))


def _refusal(server: ServerThread, record: Any) -> httpx.Response:
    with _client(server, "Bea") as bea:
        return bea.post("/api/me/offline-games", json={"record": record})


def test_a_record_that_does_not_replay_is_refused_with_one_line(server: ServerThread) -> None:
    record = finished_record(seed=8)
    tampered = json.loads(json.dumps(record))
    first = tampered["rounds"][0]["events"][0]
    first["card"] = "pine-crane" if first["card"] != "pine-crane" else "plum-warbler"
    answer = _refusal(server, tampered)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith("this record does not replay: ")
    assert "\n" not in answer.json()["error"]
    unfinished = json.loads(json.dumps(record))
    unfinished["rounds"] = unfinished["rounds"][:1]
    unfinished["rounds"][0]["events"] = unfinished["rounds"][0]["events"][:3]
    unfinished["rounds"][0]["scores"] = unfinished["rounds"][0]["totals"] = None
    unfinished["winner"] = None
    assert _refusal(server, unfinished).status_code == 400
    two_people = json.loads(json.dumps(record))
    two_people["players"] = ["Ann", "Bea"]
    assert _refusal(server, two_people).json()["error"] == "an offline game is one player against bots"
    assert _refusal(server, "not a record").status_code == 400


def test_uploading_needs_a_player(server: ServerThread) -> None:
    answer = httpx.post(
        server.url + "/api/me/offline-games", json={"record": finished_record()}, headers={CSRF_HEADER: "new"}
    )
    assert answer.status_code == 401


def test_the_stored_record_is_the_engines_own_with_the_players_name(server: ServerThread) -> None:
    """What is stored is written again from the replayed game (a field the upload added is not
    kept), and is served with the player's name as it is then (a rename, an erasure follow)."""
    record = finished_record(seed=13, level="greedy")
    sent = {**record, "note": "not part of a record"}
    with _client(server, "Cy") as cy:
        made = cy.post("/api/me/offline-games", json={"record": sent})
        assert made.status_code == 201, made.text
        stored = server.get(made.json()["record"]).json()
        assert stored["players"] == ["Cy", "bot:greedy"]  # the player's own name, not the upload's
        assert stored == {**record, "players": ["Cy", "bot:greedy"]}
        assert record_of(*replay(stored)) == stored
        assert cy.post("/api/me", json={"name": "Cyril"}).status_code == 200
        assert server.get(made.json()["record"]).json()["players"][0] == "Cyril"


def test_the_runtime_is_served_gzipped_to_browsers_that_take_it(server: ServerThread) -> None:
    require(
        offline_routes.build_client().runtime, "the Pyodide runtime is missing (./scripts/offline-runtime)"
    )
    url = server.url + "/static/offline/pyodide/pyodide.asm.wasm"
    plain = httpx.get(url, headers={"Accept-Encoding": "identity"}, timeout=30)
    assert plain.status_code == 200 and plain.headers["content-type"] == "application/wasm"
    assert plain.content == (offline_routes.RUNTIME_DIR / "pyodide.asm.wasm").read_bytes()
    if (offline_routes.RUNTIME_DIR / "pyodide.asm.wasm.gz").is_file():
        with httpx.stream("GET", url, headers={"Accept-Encoding": "gzip"}, timeout=30) as packed:
            assert packed.headers["content-encoding"] == "gzip"
            assert int(packed.headers["content-length"]) < len(plain.content) / 2
            assert packed.read() == plain.content  # httpx undoes the gzip
    assert httpx.get(server.url + "/static/offline/pyodide/other.js", timeout=10).status_code == 404
