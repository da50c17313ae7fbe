"""Direct challenges through the API and the lobby socket: received and answered live, accepted into a
private clocked room with both players seated, declined, cancelled and expired told to the sender; the
bounds on pending challenges and their rate; rated only between accounts; two players only."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # via ray in the dev lock

from tests.harness.friends import Friend
from tests.harness.lobby import Lobby
from tests.harness.server_harness import Player, ServerThread, limits_for_tests, running_server


async def _told(lobby: Lobby, challenge_id: str, status: str) -> dict[str, Any]:
    """The ``challenge`` message saying ``challenge_id`` is ``status`` (others of both players' on the
    way are skipped; the lobby's read times out if it never comes)."""
    while True:
        told: dict[str, Any] = (await lobby.expect("challenge"))["challenge"]
        if (told["id"], told["status"]) == (challenge_id, status):
            return told


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server where a player may have 2 challenges out and 3 in, send 4 a minute, each waiting 1.5 s."""
    path = tmp_path_factory.mktemp("challenges") / "c.sqlite3"
    limits = dataclasses.replace(
        limits_for_tests(), challenges_out=2, challenges_in=3, challenges_per_minute=4.0, challenge_ttl=1.5
    )
    with running_server(f"sqlite:///{path}", limits=limits) as served:
        yield served


@pytest.fixture(scope="module")
def roomy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server with the default bounds on challenges (they wait two minutes)."""
    path = tmp_path_factory.mktemp("challenges") / "r.sqlite3"
    with running_server(f"sqlite:///{path}") as served:
        yield served


def test_accepted_a_private_clocked_room_with_both_seated(roomy: ServerThread) -> None:
    ann, bo = Friend(roomy.url, "Ann"), Friend(roomy.url, "Bo")

    async def run() -> None:
        ann_lobby = await Lobby.open(roomy.ws_url, ann.cookie)
        bo_lobby = await Lobby.open(roomy.ws_url, bo.cookie)
        try:
            sent = ann.challenge(bo, preset="classic", clock="15+60")
            assert sent.status_code == 201, sent.text
            challenge = sent.json()["challenge"]
            assert challenge["status"] == "pending" and challenge["challenged"] == {"id": bo.id, "name": "Bo"}
            received = await _told(bo_lobby, challenge["id"], "pending")
            assert received["challenger"]["name"] == "Ann"
            assert (received["preset"], received["clock"], received["rated"]) == ("classic", "15+60", False)
            assert [c["id"] for c in bo.friends()["incoming"]] == [challenge["id"]]
            accepted = bo.post(f"/api/challenges/{challenge['id']}/accept")
            assert accepted.status_code == 200, accepted.text
            body = accepted.json()
            assert body["seat"] == 1 and body["challenge"]["room"] == body["room"]
            assert (await _told(ann_lobby, challenge["id"], "accepted"))["room"] == body["room"]
            hers = await Player.join(roomy, body["room"], sent.json()["token"])
            his = await Player.join(roomy, body["room"], body["token"])
            try:
                info = hers.log[0]["room_info"]
                assert (hers.seat, his.seat) == (0, 1)
                assert info["status"] == "playing" and info["clock"] == "15+60"
                assert info["public"] is False and info["rated"] is False
                assert [s["name"] for s in info["seats"]] == ["Ann", "Bo"]
            finally:
                await hers.close()
                await his.close()
            # the room is listed neither among the open tables nor the games to watch
            shown = [m for m in ann_lobby.log if m["type"] == "lobby"][-1]
            assert body["room"] not in [t["room"] for t in shown["tables"] + shown["games"]]
            # every friends' message either lobby received is what the published schema says
            published = roomy.get("/api/schema").json()["lobby_server_message"]
            validator = Draft202012Validator(published)
            told = [m for m in ann_lobby.log + bo_lobby.log if m["type"] in ("challenge", "friends")]
            assert {m["type"] for m in told} == {"challenge"} and len(told) >= 3
            assert [e.message for m in told for e in validator.iter_errors(m)] == []
            again = bo.post(f"/api/challenges/{challenge['id']}/accept")
            assert again.status_code == 404 and "no challenge" in again.json()["error"]
        finally:
            await ann_lobby.ws.close()
            await bo_lobby.ws.close()

    asyncio.run(run())


def test_declined_and_cancelled_are_told(roomy: ServerThread) -> None:
    cy, di = Friend(roomy.url, "Cy"), Friend(roomy.url, "Di")

    async def run() -> None:
        cy_lobby = await Lobby.open(roomy.ws_url, cy.cookie)
        di_lobby = await Lobby.open(roomy.ws_url, di.cookie)
        try:
            first = cy.challenge(di).json()["challenge"]
            await _told(di_lobby, first["id"], "pending")
            assert cy.post(f"/api/challenges/{first['id']}/accept").status_code == 404  # not hers
            declined = di.post(f"/api/challenges/{first['id']}/decline")
            assert declined.json()["challenge"]["status"] == "declined"
            await _told(cy_lobby, first["id"], "declined")
            second = cy.challenge(di).json()["challenge"]
            await _told(di_lobby, second["id"], "pending")
            assert di.post(f"/api/challenges/{second['id']}/cancel").status_code == 404  # not his
            assert (
                cy.post(f"/api/challenges/{second['id']}/cancel").json()["challenge"]["status"] == "cancelled"
            )
            await _told(di_lobby, second["id"], "cancelled")
        finally:
            await cy_lobby.ws.close()
            await di_lobby.ws.close()

    asyncio.run(run())


def test_expired_is_told(small: ServerThread) -> None:
    ed, fay = Friend(small.url, "Ed"), Friend(small.url, "Fay")

    async def run() -> dict[str, Any]:
        lobby = await Lobby.open(small.ws_url, ed.cookie)
        try:
            sent: dict[str, Any] = ed.challenge(fay).json()["challenge"]
            await _told(lobby, sent["id"], "expired")
            return sent
        finally:
            await lobby.ws.close()

    sent = asyncio.run(run())
    assert fay.friends()["incoming"] == []
    assert fay.post(f"/api/challenges/{sent['id']}/accept").status_code == 404


def test_bounds_and_rate(small: ServerThread) -> None:
    gus = Friend(small.url, "Gus")
    others = [Friend(small.url, f"O{n}") for n in range(3)]
    assert [gus.challenge(o).status_code for o in others[:2]] == [201, 201]
    assert gus.challenge(others[0]).status_code == 409  # one at a time to the same player
    full = gus.challenge(others[2])
    assert full.status_code == 409 and "2 challenges waiting" in full.json()["error"]
    # the challenged side: at most 3 pending
    target = Friend(small.url, "Popular")
    senders = [Friend(small.url, f"S{n}") for n in range(4)]
    codes = [s.challenge(target).status_code for s in senders]
    assert codes == [201, 201, 201, 409]
    # the rate: 4 a minute per player (cancelled ones count)
    hal = Friend(small.url, "Hal")
    friend = Friend(small.url, "Ivy")
    statuses = []
    for _ in range(5):
        sent = hal.challenge(friend)
        statuses.append(sent.status_code)
        if sent.status_code == 201:
            hal.post(f"/api/challenges/{sent.json()['challenge']['id']}/cancel")
    assert statuses[:4] == [201] * 4 and statuses[4] == 429
    refused = hal.challenge(friend)
    assert "too many challenges" in refused.json()["error"] and int(refused.headers["Retry-After"]) >= 1


def test_rated_between_accounts_two_players_checked_bodies(roomy: ServerThread) -> None:
    jo, kim = Friend(roomy.url, "Jo"), Friend(roomy.url, "Kim")
    for asked, status, part in (
        ({"rated": True, "clock": "15+60"}, 403, "signed in to an account"),
        ({"rated": True}, 400, "needs a clock"),
        ({"players": 3}, 400, "two players"),
        ({"preset": "nope"}, 400, "'preset'"),
        ({"clock": "5+0"}, 400, "'clock'"),
    ):
        refused = jo.challenge(kim, **asked)
        assert refused.status_code == status, (asked, refused.text)
        assert part in refused.json()["error"] and "\n" not in refused.json()["error"]
    assert jo.post("/api/challenges/nothing/accept").status_code == 404


def test_a_rated_challenge_between_accounts_is_a_public_rated_room(roomy: ServerThread) -> None:
    lea, max_ = Friend(roomy.url, "Lea"), Friend(roomy.url, "Max")
    lea.sign_up("lea")
    refused = lea.challenge(max_, rated=True, clock="1d")
    assert refused.status_code == 403 and "signed in to an account" in refused.json()["error"]
    max_.sign_up("max")
    sent = lea.challenge(max_, rated=True, clock="1d")
    assert sent.status_code == 201, sent.text
    accepted = max_.post(f"/api/challenges/{sent.json()['challenge']['id']}/accept")
    assert accepted.status_code == 200, accepted.text
    info = roomy.get(f"/api/rooms/{accepted.json()['room']}").json()
    assert (info["rated"], info["public"], info["clock"], info["status"]) == (True, True, "1d", "playing")


def test_a_rated_challenge_from_one_address_is_refused(tmp_path: Path) -> None:
    """Two accounts of one address (every test client is 127.0.0.1) may not play each other rated
    unless the server allows it (``--rated-same-address``); casually they may."""
    limits = dataclasses.replace(limits_for_tests(), rated_same_address=False)
    with running_server(f"sqlite:///{tmp_path / 'o.sqlite3'}", limits=limits) as server:
        ned, ola = Friend(server.url, "Ned"), Friend(server.url, "Ola")
        ned.sign_up("ned")
        ola.sign_up("ola")
        sent = ned.challenge(ola, rated=True, clock="1d").json()["challenge"]
        refused = ola.post(f"/api/challenges/{sent['id']}/accept")
        assert refused.status_code == 403 and "your address or browser" in refused.json()["error"]
        assert [c["id"] for c in ola.friends()["incoming"]] == [sent["id"]]  # still waiting: nothing taken
        casual = ned.post(f"/api/challenges/{sent['id']}/cancel")
        assert casual.status_code == 200
        again = ned.challenge(ola, clock="1d").json()["challenge"]
        assert ola.post(f"/api/challenges/{again['id']}/accept").status_code == 200
