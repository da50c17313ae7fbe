"""Friends across a cluster (PostgreSQL, Redis, two real ``serve --redis`` members): a player whose
lobby is on one member is seen online by a follower asking another; a challenge sent through one member
reaches the challenged player's lobby on the other (each member reads its connected players' challenges
from the shared database), and the challenger's lobby is told when it is accepted there; both reach
the room through their own member."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import pytest

from tests.harness import services
from tests.harness.friends import Friend
from tests.harness.lobby import Lobby
from tests.harness.poll import until
from tests.harness.server_harness import Player

pytestmark = pytest.mark.slow


@dataclass
class _At:
    """A member's websocket address, as :meth:`Player.join` reads it from a server."""

    ws_url: str


def test_a_challenge_reaches_a_player_on_another_member() -> None:
    with services.postgres() as pg, services.redis_server() as rd:
        database = services.new_database(pg, "friends")
        with services.members(database, rd, 2) as (first, second):
            ws_first, ws_second = (m.url.replace("http://", "ws://") for m in (first, second))
            ann, bo = Friend(first.url, "Ann"), Friend(second.url, "Bo")
            try:
                assert ann.follow(bo).status_code == 200

                async def run() -> None:
                    ann_lobby = await Lobby.open(ws_first, ann.cookie)
                    bo_lobby = await Lobby.open(ws_second, bo.cookie)
                    try:
                        until(
                            lambda: ann.friends()["following"][0]["online"],
                            15,
                            "Bo online, seen from the other member",
                        )
                        sent = ann.challenge(bo, clock="60+300")
                        assert sent.status_code == 201, sent.text
                        challenge_id = sent.json()["challenge"]["id"]
                        while True:
                            told = (await bo_lobby.expect("challenge", 15))["challenge"]
                            if told["id"] == challenge_id:
                                break
                        accepted = bo.post(f"/api/challenges/{challenge_id}/accept")
                        assert accepted.status_code == 200, accepted.text
                        room = accepted.json()["room"]
                        while True:
                            told = (await ann_lobby.expect("challenge", 15))["challenge"]
                            if told["status"] == "accepted":
                                break
                        assert told["room"] == room
                        hers = await Player.join(_At(ws_first), room, sent.json()["token"])  # type: ignore[arg-type]
                        his = await Player.join(_At(ws_second), room, accepted.json()["token"])  # type: ignore[arg-type]
                        assert (hers.seat, his.seat) == (0, 1)
                        assert hers.log[0]["room_info"]["status"] == "playing"
                        await hers.close()
                        await his.close()
                    finally:
                        await ann_lobby.ws.close()
                        await bo_lobby.ws.close()

                asyncio.run(run())
            finally:
                ann.close()
                bo.close()
            assert not [e for m in (first, second) for e in m.errors()]
