"""Every JSON answer of the HTTP API is declared (server/wire/answers.py) and is what the published
schema says (``GET /api/schema``, ``http_answers``): each route of server/web/app.py that answers
JSON has a declaration, and each declared answer, asked of a real server, validates against it,
with no field the declaration leaves out."""

from __future__ import annotations

import asyncio
import copy
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from starlette.routing import Route

from roppyakken.server.people import recovery
from roppyakken.server.store.database import Database
from roppyakken.server.web.app import routes
from roppyakken.server.wire import answers
from tests.harness.offline_games import finished_record
from tests.harness.server_harness import Player, ServerThread, play_to_end
from tests.harness.soft_authenticator import SoftAuthenticator

NOT_JSON = {
    "GET /metrics",
    "GET /favicon.ico",
    "GET /",
    "GET /{path:path}",
    "GET /offline/core-{digest}.zip",
    "GET /sw.js",
    "GET /static/offline/pyodide/{name}",
    "GET /api/tournaments/{tournament}/standings.csv",
}
"""The routes whose answer is not JSON: Prometheus text, the client's files and pages."""


def _route_keys() -> set[str]:
    """Every ``METHOD path`` the application answers over HTTP (websockets and files aside)."""
    keys = set()
    for route in routes():
        if isinstance(route, Route):
            keys |= {f"{method} {route.path}" for method in route.methods or () if method != "HEAD"}
    return keys


def test_every_route_with_a_json_answer_declares_it() -> None:
    json_routes = _route_keys() - NOT_JSON
    assert json_routes - set(answers.ANSWERS) == set(), "routes without a declared answer"
    assert set(answers.ANSWERS) - json_routes == set(), "declared answers of no route"


def _closed(schema: Any) -> Any:
    """``schema`` with every declared object closed: a field it does not declare is refused."""
    if isinstance(schema, dict):
        out = {key: _closed(value) for key, value in schema.items()}
        if out.get("type") == "object" and "properties" in out:
            out.setdefault("additionalProperties", False)
        return out
    if isinstance(schema, list):
        return [_closed(item) for item in schema]
    return schema


class Checked:
    """The published answers' schemas, and the routes whose answers were checked so far."""

    def __init__(self, published: dict[str, Any]) -> None:
        self.validators = {
            route: Draft202012Validator(_closed(copy.deepcopy(schema)))
            for route, schema in published["http_answers"].items()
        }
        self.error = Draft202012Validator(_closed(published["http_error"]))
        self.seen: set[str] = set()

    def answer(self, route: str, response: httpx.Response, status: int = 200) -> dict[str, Any]:
        """``response`` (to ``route``, ``METHOD /path/{param}``) has ``status`` and a declared body."""
        assert response.status_code == status, (route, response.text)
        body: dict[str, Any] = response.json()
        errors = [
            f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
            for e in self.validators[route].iter_errors(body)
        ]
        assert not errors, (route, errors)
        self.seen.add(route)
        return body

    def refused(self, response: httpx.Response, status: int) -> None:
        """``response`` is an error answer as ``http_error`` declares it."""
        assert response.status_code == status, response.text
        assert not list(self.error.iter_errors(response.json())), response.text


class Browser:
    """One browser: its cookies, and the CSRF token its changes carry."""

    def __init__(self, server: ServerThread) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=30)
        self.origin = server.url
        self.csrf = "new"

    def send(self, method: str, path: str, body: Any = None) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf}
        return self.http.request(method, path, json=body, headers=headers)

    def refresh(self) -> None:
        """Take the CSRF token of the browser's player now (``GET /api/me``)."""
        self.csrf = self.http.get("/api/me").json()["csrf"] or "new"

    def keep(self, answer: dict[str, Any]) -> dict[str, Any]:
        """Take the CSRF token an answer gives."""
        if answer.get("csrf"):
            self.csrf = answer["csrf"]
        return answer


@pytest.fixture
def browsers(server: ServerThread) -> Iterator[list[Browser]]:
    made = [Browser(server) for _ in range(3)]
    try:
        yield made
    finally:
        for browser in made:
            browser.http.close()


def test_every_declared_answer_is_what_the_schema_says(server: ServerThread, browsers: list[Browser]) -> None:
    check = Checked(server.get("/api/schema").json())
    ann, bob, cat = browsers
    get, post = ann.http.get, ann.send

    # the server, its presets and bots, the protocol itself
    check.answer("GET /api/schema", server.get("/api/schema"))
    check.answer("GET /healthz", server.get("/healthz"))
    check.answer("GET /readyz", server.get("/readyz"))
    presets = check.answer("GET /api/presets", get("/api/presets"))
    assert presets["presets"] and presets["presets"][0]["options"]
    check.answer("GET /api/bots", get("/api/bots"))

    # the player of a browser
    check.answer("GET /api/me", get("/api/me"))
    me = ann.keep(check.answer("POST /api/me", post("POST", "/api/me", {"name": "ann"}), 201))
    me = ann.keep(check.answer("POST /api/me", post("POST", "/api/me", {"name": "Ann"})))
    assert me["player"]["name"] == "Ann"
    ann.keep(check.answer("GET /api/me", get("/api/me")))
    bob.keep(check.answer("POST /api/me", bob.send("POST", "/api/me", {"name": "bob"}), 201))

    # rooms: one against a bot played to its end, one for two people
    made = post("POST", "/api/rooms", {"name": "Ann", "players": 2, "bots": {"1": "random"}, "public": True})
    solo = check.answer("POST /api/rooms", made, 201)
    check.answer("GET /api/rooms/{room}", get(f"/api/rooms/{solo['room']}"))

    async def finish() -> None:
        player = await Player.join(server, solo["room"], solo["token"])
        try:
            await play_to_end([player], seed=1)
        finally:
            await player.close()

    asyncio.run(finish())
    pair = check.answer("POST /api/rooms", post("POST", "/api/rooms", {"name": "Ann", "players": 2}), 201)
    joined = bob.send("POST", f"/api/rooms/{pair['room']}/join", {"name": "bob"})
    check.answer("POST /api/rooms/{room}/join", joined)
    check.answer("GET /api/rooms/{room}", get(f"/api/rooms/{pair['room']}"))
    check.refused(get("/api/rooms/nowhere"), 404)

    # finished games, held games, records, scores, history
    games = check.answer("GET /api/games", get("/api/games"))
    assert solo["room"] in [g["room"] for g in games["games"]]
    tokens = {solo["room"]: solo["token"], pair["room"]: pair["token"]}
    held = check.answer("POST /api/my-games", post("POST", "/api/my-games", {"rooms": tokens}))
    assert len(held["games"]) == 2
    record = check.answer("GET /api/games/{room}/record", get(f"/api/games/{solo['room']}/record"))
    assert record["rounds"]
    document = {"players": [{"captures": ["pine-crane", "pampas-moon"]}, {"captures": ["plum-warbler"]}]}
    scored = post("POST", "/api/score", {**document, "rules": {"preset": "classic"}})
    check.answer("POST /api/score", scored)
    history = check.answer("GET /api/me/games", get("/api/me/games"))
    assert {g["room"] for g in history["games"]} == {solo["room"], pair["room"]}
    check.answer("GET /api/me/games", cat.http.get("/api/me/games"))

    # a report, ratings, leaderboards, profiles
    report = {"seat": 1, "reason": "spam", "token": pair["token"]}
    check.answer(
        "POST /api/rooms/{room}/report", post("POST", f"/api/rooms/{pair['room']}/report", report), 201
    )
    check.answer("GET /api/me/ratings", get("/api/me/ratings"))
    check.answer("GET /api/me/ratings", cat.http.get("/api/me/ratings"))
    check.answer("GET /api/leaderboard/{pool}", get("/api/leaderboard/classic-2"))
    profile = check.answer("GET /api/players/{player}", get(f"/api/players/{me['player']['id']}"))
    assert profile["recent"] and profile["points"] is not None

    # the offline client: where its runtime is; a game played offline uploaded, listed, its record
    check.answer("GET /api/offline", get("/api/offline"))
    upload = post("POST", "/api/me/offline-games", {"record": finished_record()})
    uploaded = check.answer("POST /api/me/offline-games", upload, 201)
    offline = get(f"/api/players/{me['player']['id']}/offline-games")
    assert check.answer("GET /api/players/{player}/offline-games", offline)["games"]
    check.answer("GET /api/offline-games/{game}/record", get(uploaded["record"]))

    # friends: follows, blocks, challenges (bob's player, not yet an account)
    bob_id = bob.http.get("/api/me").json()["player"]["id"]
    check.answer("POST /api/follows", post("POST", "/api/follows", {"player": bob_id}))
    check.answer("DELETE /api/follows/{player}", post("DELETE", f"/api/follows/{bob_id}"))
    sent = check.answer("POST /api/challenges", post("POST", "/api/challenges", {"player": bob_id}), 201)
    cancel = f"/api/challenges/{sent['challenge']['id']}/cancel"
    check.answer("POST /api/challenges/{challenge}/cancel", post("POST", cancel))
    sent = check.answer("POST /api/challenges", post("POST", "/api/challenges", {"player": bob_id}), 201)
    decline = f"/api/challenges/{sent['challenge']['id']}/decline"
    check.answer("POST /api/challenges/{challenge}/decline", bob.send("POST", decline))
    sent = check.answer("POST /api/challenges", post("POST", "/api/challenges", {"player": bob_id}), 201)
    accept = f"/api/challenges/{sent['challenge']['id']}/accept"
    check.answer("POST /api/challenges/{challenge}/accept", bob.send("POST", accept))
    check.answer("POST /api/blocks", post("POST", "/api/blocks", {"player": bob_id}))
    assert check.answer("GET /api/friends", get("/api/friends"))["blocked"]
    check.answer("DELETE /api/blocks/{player}", post("DELETE", f"/api/blocks/{bob_id}"))

    # an account: made, read, exported, its password and codes changed, its sessions, erased
    password = "a long enough password"
    made_account = post("POST", "/api/account", {"login": "ann", "password": password})
    codes = ann.keep(check.answer("POST /api/account", made_account, 201))["recovery_codes"]
    account = check.answer("GET /api/account", get("/api/account"))
    assert account["games"]
    check.answer("GET /api/account/export", get("/api/account/export"))

    # a tournament: made by the account, listed, joined, paused, read, left
    arena = {"name": "Cup", "format": "arena", "minutes": 30, "clock": "15+60", "starts_in": 3600}
    cup = check.answer("POST /api/tournaments", post("POST", "/api/tournaments", arena), 201)
    assert cup["id"] in [
        t["id"] for t in check.answer("GET /api/tournaments", get("/api/tournaments"))["tournaments"]
    ]
    at = f"/api/tournaments/{cup['id']}"
    check.answer("POST /api/tournaments/{tournament}/join", post("POST", f"{at}/join", {}))
    check.answer("POST /api/tournaments/{tournament}/pause", post("POST", f"{at}/pause", {"paused": True}))
    assert check.answer("GET /api/tournaments/{tournament}", get(at))["standings"][0]["paused"] is True
    check.answer("POST /api/tournaments/{tournament}/withdraw", post("POST", f"{at}/withdraw", {}))
    check.refused(get("/api/tournaments/nowhere"), 404)
    new_password = "another long password"
    changed = post("POST", "/api/account/password", {"password": password, "new_password": new_password})
    check.answer("POST /api/account/password", changed)
    fresh = post("POST", "/api/account/recovery-codes", {"password": new_password})
    codes = check.answer("POST /api/account/recovery-codes", fresh)["recovery_codes"]
    signed = cat.send("POST", "/api/session", {"login": "ann", "password": new_password})
    cat.keep(check.answer("POST /api/session", signed))
    listed = check.answer("GET /api/sessions", get("/api/sessions"))
    other = next(s["id"] for s in listed["sessions"] if not s["current"])
    check.answer("DELETE /api/sessions/{session}", post("DELETE", f"/api/sessions/{other}"))
    cat.refresh()
    recover = {"login": "ann", "code": codes[0], "new_password": password}
    cat.keep(check.answer("POST /api/account/recover", cat.send("POST", "/api/account/recover", recover)))
    db = Database(server.database)
    try:
        account_id = account["account"]["id"]
        token = db.run_now(lambda c: recovery.issue_reset(c, account_id, time.time(), 3600, "test"))
    finally:
        db.engine.dispose()
    reset = cat.send("POST", "/api/account/reset", {"token": token, "new_password": new_password})
    cat.keep(check.answer("POST /api/account/reset", reset))
    check.answer("DELETE /api/account", cat.send("DELETE", "/api/account", {"password": new_password}))
    ann.refresh()
    check.answer("DELETE /api/session", ann.send("DELETE", "/api/session"))
    check.refused(get("/api/account"), 401)
    cat.refresh()

    # passkeys: bob's guest becomes an account by one, signs in with it, adds and removes another
    key, spare = SoftAuthenticator(), SoftAuthenticator()
    options = check.answer(
        "POST /api/passkeys/register/options", bob.send("POST", "/api/passkeys/register/options", {})
    )
    made_key = {"ceremony": options["ceremony"], "credential": key.create(options["publicKey"], bob.origin)}
    bob.keep(
        check.answer(
            "POST /api/passkeys/register/verify",
            bob.send("POST", "/api/passkeys/register/verify", made_key),
            201,
        )
    )
    options = check.answer(
        "POST /api/passkeys/signin/options", cat.send("POST", "/api/passkeys/signin/options", {})
    )
    used_key = {"ceremony": options["ceremony"], "credential": key.get(options["publicKey"], cat.origin)}
    cat.keep(
        check.answer(
            "POST /api/passkeys/signin/verify", cat.send("POST", "/api/passkeys/signin/verify", used_key)
        )
    )
    options = check.answer(
        "POST /api/passkeys/register/options",
        cat.send("POST", "/api/passkeys/register/options", {"name": "spare"}),
    )
    added = {"ceremony": options["ceremony"], "credential": spare.create(options["publicKey"], cat.origin)}
    done = check.answer(
        "POST /api/passkeys/register/verify", cat.send("POST", "/api/passkeys/register/verify", added), 201
    )
    assert done == {"added": True, "signed_in": True}
    found = check.answer("GET /api/passkeys", cat.http.get("/api/passkeys"))
    assert len(found["passkeys"]) == 2
    spare_id = next(p["id"] for p in found["passkeys"] if p["name"] == "spare")
    check.answer("POST /api/passkeys/remove", cat.send("POST", "/api/passkeys/remove", {"id": spare_id}))
    check.answer("GET /api/passkeys", server.get("/api/passkeys"))
    check.answer("DELETE /api/sessions", cat.send("DELETE", "/api/sessions"))

    # clubs: dee makes one by request, eve asks and is accepted, both chat, dee hides a line
    dee, eve = Browser(server), Browser(server)
    try:
        for who, login in ((dee, "dee"), (eve, "eve")):
            who.keep(
                check.answer(
                    "POST /api/account",
                    who.send("POST", "/api/account", {"login": login, "password": password}),
                    201,
                )
            )
        eve_id = eve.http.get("/api/me").json()["player"]["id"]
        made_club = dee.send("POST", "/api/clubs", {"name": "Pine Club", "admission": "request"})
        club = check.answer("POST /api/clubs", made_club, 201)["club"]
        at = f"/api/clubs/{club}"
        check.answer("GET /api/clubs", dee.http.get("/api/clubs?q=pine"))
        check.answer("POST /api/clubs/{club}/join", eve.send("POST", f"{at}/join"))
        check.answer("POST /api/clubs/{club}/decline", dee.send("POST", f"{at}/decline", {"player": eve_id}))
        check.answer("POST /api/clubs/{club}/invite", dee.send("POST", f"{at}/invite", {"player": eve_id}))
        check.answer("POST /api/clubs/{club}/join", eve.send("POST", f"{at}/join"))
        check.answer("POST /api/clubs/{club}/leave", eve.send("POST", f"{at}/leave"))
        check.answer("POST /api/clubs/{club}/join", eve.send("POST", f"{at}/join"))
        check.answer("POST /api/clubs/{club}/accept", dee.send("POST", f"{at}/accept", {"player": eve_id}))
        role = {"player": eve_id, "role": "leader"}
        check.answer("POST /api/clubs/{club}/role", dee.send("POST", f"{at}/role", role))
        settled = dee.send("POST", f"{at}/settings", {"description": "Evenings", "private": False})
        assert check.answer("POST /api/clubs/{club}/settings", settled)["description"] == "Evenings"
        page = check.answer("GET /api/clubs/{club}", dee.http.get(at))
        assert [m["role"] for m in page["members"]] == ["owner", "leader"]
        line = check.answer(
            "POST /api/clubs/{club}/chat", eve.send("POST", f"{at}/chat", {"text": "hello"}), 201
        )
        check.answer("GET /api/clubs/{club}/chat", dee.http.get(f"{at}/chat"))
        reported = dee.send("POST", f"{at}/chat/{line['id']}/report", {"reason": "spam"})
        check.answer("POST /api/clubs/{club}/chat/{line}/report", reported, 201)
        check.answer(
            "POST /api/clubs/{club}/chat/{line}/hide", dee.send("POST", f"{at}/chat/{line['id']}/hide")
        )
        check.answer("POST /api/clubs/{club}/remove", dee.send("POST", f"{at}/remove", {"player": eve_id}))
        check.refused(server.get(f"/api/clubs/{club}/chat"), 403)
    finally:
        dee.http.close()
        eve.http.close()

    assert set(answers.ANSWERS) - check.seen == set(), "declared answers this test does not ask for"
