"""Fair deals between people: nobody chooses the seed, the server commits to it and reveals it at the end."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from roppyakken.record import deal_commitment, replay
from tests.harness.server_harness import Player, play_to_end, running_server


def test_no_one_may_choose_the_deal_of_a_game_with_other_people(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'g.sqlite3'}") as server:
        for body in (
            {"name": "a", "players": 2, "seed": 5},
            {"name": "a", "players": 3, "seed": 5, "bots": {"1": "random"}},
        ):
            answer = server.post("/api/rooms", body)
            assert answer.status_code == 400, answer.text
            assert "'seed' can be chosen only for a game against bots" in answer.json()["error"]
        solo = server.post("/api/rooms", {"name": "a", "seed": 5, "bots": {"1": "random"}})
        assert solo.status_code == 201
        assert server.get(f"/api/rooms/{solo.json()['room']}").json()["commitment"] is None


def test_the_deal_is_committed_before_the_game_and_proven_after(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'g.sqlite3'}") as server:
        created = server.post("/api/rooms", {"name": "alice", "players": 2}).json()
        room = created["room"]
        shown = server.get(f"/api/rooms/{room}").json()
        commitment = shown["commitment"]
        assert re.fullmatch(r"[0-9a-f]{64}", commitment) and "seed" not in shown
        joined = server.post(f"/api/rooms/{room}/join", {"name": "bob"}).json()

        async def scenario() -> None:
            alice = await Player.join(server, room, created["token"])
            bob = await Player.join(server, room, joined["token"])
            for p in (alice, bob):
                welcome = next(m for m in p.log if m["type"] == "welcome")
                assert welcome["room_info"]["commitment"] == commitment
            await alice.send({"type": "start"})
            for p in (alice, bob):
                p.last_state = await p.expect("state")
            await play_to_end([alice, bob], seed=6)
            for p in (alice, bob):
                assert "seed" not in str([m for m in p.log if m["type"] != "game_end"]).replace("'seq'", "")
                await p.close()

        asyncio.run(scenario())
        record = server.get(f"/api/games/{room}/record").json()
    assert record["commitment"] == commitment
    assert deal_commitment(record["seed"], record["salt"]) == commitment
    game, names = replay(record)  # checks the commitment and re-derives every deal from the seed
    assert game.over and names == ["alice", "bob"]
