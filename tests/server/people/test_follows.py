"""Follows through the API: the followed player sees their followers, who is online or playing, the
bound on follows and their rate, and the one-line refusals."""

from __future__ import annotations

import asyncio
import dataclasses
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # via ray in the dev lock
from websockets.asyncio.client import connect

from roppyakken.server.people.players import COOKIE
from tests.harness.friends import Friend
from tests.harness.lobby import Lobby
from tests.harness.poll import until, until_async
from tests.harness.server_harness import ServerThread, limits_for_tests, running_server


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server where one may follow 3 players and send 6 challenges (12 follows) a minute."""
    path = tmp_path_factory.mktemp("follows") / "f.sqlite3"
    limits = dataclasses.replace(limits_for_tests(), max_follows=3, challenges_per_minute=6.0)
    with running_server(f"sqlite:///{path}", limits=limits) as served:
        yield served


def test_follow_unfollow_and_the_followed_sees_their_followers(small: ServerThread) -> None:
    ann, bo = Friend(small.url, "Ann"), Friend(small.url, "Bo")
    made = ann.follow(bo)
    assert made.status_code == 200 and made.json() == {"player": bo.id, "changed": True}
    assert ann.follow(bo).json()["changed"] is False  # once is enough
    assert [f["id"] for f in ann.friends()["following"]] == [bo.id]
    seen = bo.friends()
    assert [(f["id"], f["name"]) for f in seen["followers"]] == [(ann.id, "Ann")]
    assert seen["followers_count"] == 1 and seen["following"] == []
    assert ann.delete(f"/api/follows/{bo.id}").json()["changed"] is True
    assert bo.friends()["followers"] == [] and ann.friends()["following"] == []


def test_refusals_are_one_line(small: ServerThread) -> None:
    cy = Friend(small.url, "Cy")
    for body, status, part in (
        ({"player": cy.id}, 400, "yourself"),
        ({"player": "nobody0"}, 404, "no player"),
        ({"player": "a b"}, 400, "'player'"),
        ({"player": cy.id, "extra": 1}, 400, "unknown field"),
    ):
        refused = cy.post("/api/follows", body)
        assert refused.status_code == status, (body, refused.text)
        assert part in refused.json()["error"] and "\n" not in refused.json()["error"]
    # without the CSRF token: refused
    other = Friend(small.url, "Other")
    assert cy.client.post("/api/follows", json={"player": other.id}).status_code == 403


def test_the_bound_on_follows(small: ServerThread) -> None:
    di = Friend(small.url, "Di")
    others = [Friend(small.url, f"P{n}") for n in range(4)]
    for other in others[:3]:
        assert di.follow(other).status_code == 200
    refused = di.follow(others[3])
    assert refused.status_code == 409 and "3 players already" in refused.json()["error"]


def test_the_rate_of_follows(small: ServerThread) -> None:
    ed = Friend(small.url, "Ed")
    target = Friend(small.url, "Target")
    statuses = []
    for _ in range(14):  # 12 a minute at most (twice the challenges' 6)
        statuses.append(ed.follow(target).status_code)
        ed.delete(f"/api/follows/{target.id}")
    assert statuses[:12] == [200] * 12 and 429 in statuses[12:]


def test_who_is_online_and_playing(small: ServerThread) -> None:
    fay, gus = Friend(small.url, "Fay"), Friend(small.url, "Gus")
    assert fay.follow(gus).status_code == 200
    entry = fay.friends()["following"][0]
    assert (entry["online"], entry["playing"], entry["room"]) == (False, False, None)

    async def run() -> None:
        lobby = await Lobby.open(small.ws_url, gus.cookie)
        watching = await Lobby.open(small.ws_url, fay.cookie)
        try:
            until(lambda: fay.friends()["following"][0]["online"], 10, "Gus online")
            told = await watching.expect("friends")  # Fay's lobby is told without asking
            assert [(f["id"], f["online"]) for f in told["online"]] == [(gus.id, True)]
            published = small.get("/api/schema").json()["lobby_server_message"]
            assert [e.message for e in Draft202012Validator(published).iter_errors(told)] == []
        finally:
            await lobby.ws.close()
            await watching.ws.close()

    asyncio.run(run())
    # a challenge accepted: Gus plays (a private room is not named to watch)
    sent = fay.challenge(gus, clock="15+60")
    assert sent.status_code == 201, sent.text
    accepted = gus.post(f"/api/challenges/{sent.json()['challenge']['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    entry = fay.friends()["following"][0]
    assert entry["playing"] is True and entry["room"] is None

    async def at_the_table() -> None:
        """Gus at the table alone (no lobby): online all the same."""
        room, token = accepted.json()["room"], accepted.json()["token"]
        headers = {"Cookie": f"{COOKIE}={gus.cookie}"}
        ws = await connect(f"{small.ws_url}/ws/{room}", additional_headers=headers, open_timeout=10)
        try:
            await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
            await until_async(
                lambda: fay.friends()["following"][0]["online"], 15, "Gus online from his room's socket"
            )
        finally:
            await ws.close()

    until(lambda: not fay.friends()["following"][0]["online"], 20, "Gus offline, his lobby closed")
    asyncio.run(at_the_table())


def test_without_a_player_the_lists_are_empty(small: ServerThread, tmp_path: Path) -> None:
    got = small.get("/api/friends")
    assert got.status_code == 200 and got.json()["following"] == []


def test_an_account_exports_its_follows_and_erasing_it_removes_them(small: ServerThread) -> None:
    """An account's export holds its follows and blocks; erased, its players follow, block and
    challenge nobody any more and nobody follows them."""
    gil, hana, ivo = Friend(small.url, "Gil"), Friend(small.url, "Hana"), Friend(small.url, "Ivo")
    password = "a long enough password"
    made = gil.post("/api/account", {"login": "gil", "password": password})
    assert made.status_code == 201, made.text
    gil.csrf = made.json()["csrf"]
    assert gil.follow(hana).status_code == 200 and ivo.follow(gil).status_code == 200
    assert gil.block(ivo).status_code == 200  # Ivo's follow goes with it
    assert ivo.follow(gil).status_code == 403
    assert gil.challenge(hana).status_code == 201
    exported = gil.client.get("/api/account/export").json()
    assert [(f["follower"], f["followed"]) for f in exported["follows"]] == [(gil.id, hana.id)]
    assert [(b["blocker"], b["blocked"]) for b in exported["blocks"]] == [(gil.id, ivo.id)]
    assert [c["to_id"] for c in exported["challenges"]] == [hana.id]
    assert all("token_hash" not in c for c in exported["challenges"])
    erased = gil.client.request(
        "DELETE", "/api/account", json={"password": password}, headers={"X-CSRF-Token": gil.csrf}
    )
    assert erased.status_code == 200, erased.text
    assert hana.friends()["followers"] == [] and hana.friends()["incoming"] == []
    assert ivo.follow(gil).status_code == 200  # the block went too
