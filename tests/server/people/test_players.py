"""Players without sign-up: the cookie, the stored hash, CSRF, renaming, and the seats a player takes."""

from __future__ import annotations

import hashlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from roppyakken.server.people.players import COOKIE
from tests.harness.server_harness import ServerThread, running_server

CSRF = "X-CSRF-Token"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[ServerThread, Path]]:
    path = tmp_path_factory.mktemp("players") / "p.sqlite3"
    with running_server(f"sqlite:///{path}") as server:
        yield server, path


def _become(client: httpx.Client, name: str) -> dict[str, str]:
    made = client.post("/api/me", json={"name": name}, headers={CSRF: "new"})
    assert made.status_code == 201, made.text
    body: dict[str, Any] = made.json()
    return {"id": body["player"]["id"], "csrf": body["csrf"], "set-cookie": made.headers["set-cookie"]}


def test_the_cookie_is_httponly_lax_and_only_its_hash_is_stored(served: tuple[ServerThread, Path]) -> None:
    server, path = served
    with httpx.Client(base_url=server.url, timeout=10) as client:
        assert client.get("/api/me").json() == {"player": None, "csrf": None, "account": None}
        made = _become(client, "Ann")
        cookie = made["set-cookie"].lower()
        assert "httponly" in cookie and "samesite=lax" in cookie and "path=/" in cookie
        assert "secure" not in cookie  # plain HTTP here: a Secure cookie would never come back
        value = client.cookies[COOKIE]
        player_id, secret = value.split(".")
        assert player_id == made["id"]
        me = client.get("/api/me").json()
        assert me["player"] == {"id": player_id, "name": "Ann"} and me["csrf"] == made["csrf"]
    with sqlite3.connect(path) as conn:
        rows = conn.execute("select id, secret_hash from players where id = ?", (player_id,)).fetchall()
        dump = "\n".join(conn.iterdump())
    assert rows == [(player_id, hashlib.sha256(secret.encode()).hexdigest())]
    assert secret not in dump


def test_secure_behind_tls(tmp_path: Path) -> None:
    """Over https (what uvicorn makes of a trusted proxy's X-Forwarded-Proto) the cookie is Secure."""
    from roppyakken.server.web.app import create_app
    from tests.harness.server_harness import limits_for_tests

    async def run() -> str:
        app = create_app(f"sqlite:///{tmp_path / 's.sqlite3'}", limits=limits_for_tests())
        transport = httpx.ASGITransport(app=app)
        async with (
            app.router.lifespan_context(app),
            httpx.AsyncClient(transport=transport, base_url="https://play.example") as client,
        ):
            made = await client.post("/api/me", json={"name": "Bo"}, headers={CSRF: "new"})
            assert made.status_code == 201
            return made.headers["set-cookie"].lower()

    import asyncio

    assert "; secure" in asyncio.run(run())


def test_changes_on_the_cookie_need_the_csrf_token(served: tuple[ServerThread, Path]) -> None:
    server, _ = served
    with httpx.Client(base_url=server.url, timeout=10) as client:
        made = _become(client, "Cy")
        refused = [
            client.post("/api/me", json={"name": "Mallory"}),
            client.post("/api/me", json={"name": "Mallory"}, headers={CSRF: "0" * 32}),
            client.post(
                "/api/me",
                json={"name": "Mallory"},
                headers={CSRF: made["csrf"], "Origin": "https://evil.example"},
            ),
            client.post(
                "/api/me",
                json={"name": "Mallory"},
                headers={CSRF: made["csrf"], "Sec-Fetch-Site": "cross-site"},
            ),
            client.post("/api/rooms", json={"name": "Mallory"}),
        ]
        for answer in refused:
            assert answer.status_code == 403, answer.text
            assert "X-CSRF-Token" in answer.json()["error"]
        assert client.get("/api/me").json()["player"]["name"] == "Cy"
        renamed = client.post("/api/me", json={"name": "  Cy   Two "}, headers={CSRF: made["csrf"]})
        assert renamed.status_code == 200 and renamed.json()["player"] == {"id": made["id"], "name": "Cy Two"}
        bad = client.post("/api/me", json={"name": "bot: x"}, headers={CSRF: made["csrf"]})
        assert bad.status_code == 400 and "bot" in bad.json()["error"]
        too_long = client.post("/api/me", json={"name": "x" * 25}, headers={CSRF: made["csrf"]})
        assert too_long.status_code == 400 and "'name'" in too_long.json()["error"]
    # a new identity needs the custom header too (a cross-site form must not replace the cookie)
    assert httpx.post(server.url + "/api/me", json={"name": "Dee"}, timeout=10).status_code == 403


def test_seats_remember_the_player_and_tokens_still_work(served: tuple[ServerThread, Path]) -> None:
    server, path = served
    with (
        httpx.Client(base_url=server.url, timeout=10) as host,
        httpx.Client(base_url=server.url, timeout=10) as guest,
    ):
        a, b = _become(host, "Host"), _become(guest, "Guest")
        room = host.post("/api/rooms", json={"name": "Host"}, headers={CSRF: a["csrf"]}).json()
        joined = guest.post(
            f"/api/rooms/{room['room']}/join", json={"name": "Guest"}, headers={CSRF: b["csrf"]}
        )
        assert joined.status_code == 200 and joined.json()["seat"] == 1
    # no cookie at all: seat tokens and invite links work as before, and no player is recorded
    anonymous = server.post("/api/rooms", {"name": "Anon"})
    assert anonymous.status_code == 201
    with sqlite3.connect(path) as conn:
        linked = conn.execute(
            "select seat, player_id from seat_players where room_id = ? order by seat", (room["room"],)
        )
        assert linked.fetchall() == [(0, a["id"]), (1, b["id"])]
        none = conn.execute(
            "select count(*) from seat_players where room_id = ?", (anonymous.json()["room"],)
        )
        assert none.fetchone() == (0,)


def test_the_player_survives_a_restart(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    with running_server(database) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        made = _become(client, "Eve")
        jar = client.cookies.get(COOKIE)
    with running_server(database) as server, httpx.Client(base_url=server.url, timeout=10) as client:
        client.cookies.set(COOKIE, jar or "")
        assert client.get("/api/me").json() == {
            "player": {"id": made["id"], "name": "Eve"},
            "csrf": made["csrf"],
            "account": None,
        }


def test_a_seat_given_away_and_taken_again_belongs_to_its_new_player(
    served: tuple[ServerThread, Path],
) -> None:
    import asyncio

    from tests.harness.server_harness import Player

    server, path = served
    clients = [httpx.Client(base_url=server.url, timeout=10) for _ in range(3)]
    try:
        host, first, second = (_become(c, n) for c, n in zip(clients, ("H", "F", "S"), strict=True))
        room = clients[0].post("/api/rooms", json={"name": "H"}, headers={CSRF: host["csrf"]}).json()
        joined = clients[1].post(
            f"/api/rooms/{room['room']}/join", json={"name": "F"}, headers={CSRF: first["csrf"]}
        )
        assert joined.json()["seat"] == 1

        async def give_away() -> None:
            hosting = await Player.join(server, room["room"], room["token"])
            await hosting.send({"type": "seat", "seat": 1, "kind": "empty"})
            while not any(s["kind"] == "empty" for s in (await hosting.expect("room"))["room_info"]["seats"]):
                pass
            await hosting.close()

        asyncio.run(give_away())
        again = clients[2].post(
            f"/api/rooms/{room['room']}/join", json={"name": "S"}, headers={CSRF: second["csrf"]}
        )
        assert again.status_code == 200 and again.json()["seat"] == 1
    finally:
        for client in clients:
            client.close()
    with sqlite3.connect(path) as conn:
        rows = conn.execute(
            "select seat, player_id from seat_players where room_id = ? order by seat", (room["room"],)
        )
        assert rows.fetchall() == [(0, host["id"]), (1, second["id"])]
