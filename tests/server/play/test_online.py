"""The web server over real websockets: an online game, refused messages, reconnecting (docs/PROTOCOL.md)."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from roppyakken.record import replay
from tests.harness.said import said_in_english
from tests.harness.server_harness import Player, ServerThread, play_to_end


def _create(server: ServerThread, **body: Any) -> dict[str, Any]:
    answer = server.post("/api/rooms", {"name": "alice", **body})
    assert answer.status_code == 201, answer.text
    data: dict[str, Any] = answer.json()
    return data


def test_an_online_game_between_two_clients_and_a_bot(fresh_server: ServerThread) -> None:
    created = _create(fresh_server, players=3, rules={"preset": "classic"}, public=True)
    room = created["room"]
    assert created["invite"] == f"/r/{room}"
    joined = fresh_server.post(f"/api/rooms/{room}/join", {"name": "bob"}).json()
    assert joined["seat"] == 1 and joined["token"] != created["token"]

    async def scenario() -> None:
        alice = await Player.join(fresh_server, room, created["token"])
        bob = await Player.join(fresh_server, room, joined["token"])
        watcher = await Player.join(fresh_server, room, None)
        assert (alice.seat, bob.seat, watcher.seat) == (0, 1, None)
        # the host fills the last seat with a bot, then starts
        await alice.send({"type": "seat", "seat": 2, "kind": "bot", "level": "random", "id": "s"})
        info = (await bob.expect("room"))["room_info"]
        while info["seats"][2]["kind"] != "bot":
            info = (await bob.expect("room"))["room_info"]
        assert [s["kind"] for s in info["seats"]] == ["human", "human", "bot"]
        assert info["seats"][2]["name"] == "bot:random"
        await alice.send({"type": "start"})
        first = await watcher.expect("state")
        assert first["view"]["hand"] == [] and first["names"] == ["alice", "bob", "bot:random"]
        assert first["view"]["seat"] is None
        ends = await asyncio.gather(play_to_end([alice, bob], seed=1), watcher.expect("game_end"))
        game_end = ends[0][0]
        assert game_end == ends[0][1] == ends[1]
        for p in (alice, bob, watcher):
            assert not [m for m in p.log if m["type"] == "error"]
            assert any(m["type"] == "round_end" for m in p.log)
        for p in (alice, bob):
            await p.close()
        await watcher.close()
        return None

    asyncio.run(scenario())
    info = fresh_server.get(f"/api/rooms/{room}").json()
    assert info["status"] == "over"
    record = fresh_server.get(f"/api/games/{room}/record")
    assert record.status_code == 200
    assert "attachment" in record.headers["content-disposition"]
    game, names = replay(record.json())
    assert names == ["alice", "bob", "bot:random"]
    assert game.over and game.winner == record.json()["winner"]
    listed = fresh_server.get("/api/games").json()["games"]
    assert listed[0]["room"] == room and listed[0]["players"] == names
    assert listed[0]["winner"] == game.winner and listed[0]["finished_at"].endswith("Z")


def test_play_against_bots_starts_at_once(fresh_server: ServerThread) -> None:
    created = _create(fresh_server, players=2, seed=3, bots={"1": "random"})

    async def scenario() -> None:
        alice = await Player.join(fresh_server, created["room"], created["token"])
        state = await alice.expect("state")
        assert state["view"]["seat"] == 0 and len(state["view"]["hand"]) in (7, 8, 10)
        assert alice.log[0]["room_info"]["status"] == "playing"
        await play_to_end([alice], seed=2)
        await alice.close()

    asyncio.run(scenario())
    assert fresh_server.get(f"/api/rooms/{created['room']}").json()["status"] == "over"


def test_a_client_that_comes_after_the_end_is_told_the_result(fresh_server: ServerThread) -> None:
    created = _create(fresh_server, players=2, seed=3, bots={"1": "random"})

    async def scenario() -> None:
        alice = await Player.join(fresh_server, created["room"], created["token"])
        await alice.expect("state")
        ended = (await play_to_end([alice], seed=2))[0]
        await alice.close()
        # a reload of seat 0's page and a spectator, both after the end: history, the same
        # game_end as seen when it happened (winner, reason, record), then the final state
        for token in (created["token"], None):
            late = await Player.join(fresh_server, created["room"], token)
            kinds = [(await late.recv())["type"] for _ in range(3)]
            assert kinds == ["history", "game_end", "state"], kinds
            assert late.log[2] == ended  # (log[0] is the welcome)
            assert late.last_state is not None and late.last_state["seq"] == ended["seq"]
            assert late.last_state["view"]["winner"] == ended["winner"]
            # nothing more, but the room's news that seat 0 is connected again
            assert {m["type"] for m in await late.quiet()} <= {"room"}
            await late.close()

    asyncio.run(scenario())


async def _error(player: Player, message: dict[str, Any] | str) -> dict[str, Any]:
    if isinstance(message, str):
        await player.ws.send(message)
    else:
        await player.send(message)
    answer = await player.recv()
    assert answer["type"] == "error", answer
    assert said_in_english(answer["text"]) == answer["message"]  # its template and fields say the same
    return answer


def test_illegal_malformed_out_of_turn_and_wrong_seat_messages_change_nothing(
    fresh_server: ServerThread,
) -> None:
    created = _create(fresh_server, players=2)
    room = created["room"]
    joined = fresh_server.post(f"/api/rooms/{room}/join", {"name": "bob"}).json()

    async def scenario() -> None:
        alice = await Player.join(fresh_server, room, created["token"])
        bob = await Player.join(fresh_server, room, joined["token"])
        watcher = await Player.join(fresh_server, room, None)
        for p in (alice, bob, watcher):
            await p.quiet()  # the room messages of the others' arrival
        # before the start: nobody can act; only the host may seat or start
        assert (await _error(bob, {"type": "start", "id": "b1"}))["id"] == "b1"
        await _error(bob, {"type": "seat", "seat": 1, "kind": "bot"})
        await _error(alice, {"type": "act", "action": {"type": "declare", "hands": []}})
        await _error(alice, {"type": "seat", "seat": 0, "kind": "bot"})
        await _error(alice, {"type": "seat", "seat": 5, "kind": "empty"})
        await _error(alice, {"type": "seat", "seat": 1, "kind": "bot", "level": "nonsense"})
        await alice.send({"type": "start"})
        for p in (alice, bob, watcher):
            await p.expect("state")
        state = alice.last_state
        assert state is not None and bob.last_state is not None
        view = state["view"]
        mover, other = (alice, bob) if view["to_act"] == 0 else (bob, alice)
        mover_state = mover.last_state
        assert mover_state is not None
        legal = mover_state["view"]["legal"]
        assert legal
        hand = set(mover_state["view"]["hand"])
        not_mine = next(
            c for c in ("pine-crane", "plum-warbler", "cherry-curtain", "maple-deer") if c not in hand
        )
        refused: list[dict[str, Any] | str] = [
            "not json at all",
            "[1, 2]",
            '{"no": "type"}',
            {"type": "dance"},
            {"type": "act"},
            {"type": "act", "action": {"type": "play", "card": "no-such-card", "target": []}},
            {"type": "act", "action": {"type": "play", "card": not_mine, "target": []}},
            {"type": "act", "action": {"type": "fly"}},
            {"type": "act", "action": legal[0], "extra": 1},
            {"type": "act", "action": legal[0], "id": 42},
            {"type": "hello", "v": 1, "token": None},
            {"type": "seat", "seat": 1, "kind": "bot"},
            {"type": "start"},
        ]
        for bad in refused:
            await _error(mover, bad)
        # out of turn: the other seat sends an action that is legal for the mover
        answer = await _error(other, {"type": "act", "action": legal[0], "id": "x"})
        assert answer["id"] == "x" and "turn" in answer["message"]
        # wrong seat: a spectator cannot act for anyone
        await _error(watcher, {"type": "act", "action": legal[0]})
        # nothing changed and nobody else heard of it
        for p in (alice, bob, watcher):
            assert await p.quiet() == []
        # the right seat's legal action still works, at the same point of the game
        await mover.send({"type": "act", "action": legal[0], "id": "ok"})
        after = await other.expect("state")
        assert after["seq"] == state["seq"] + 1
        for p in (alice, bob, watcher):
            await p.close()

    asyncio.run(scenario())


def test_hello_is_checked_and_bad_tokens_are_refused(fresh_server: ServerThread) -> None:
    created = _create(fresh_server, players=2)
    room = created["room"]
    other = _create(fresh_server, players=2)

    async def refused(room_id: str, hello: dict[str, Any]) -> tuple[dict[str, Any], int | None]:
        from websockets.asyncio.client import connect

        async with connect(f"{fresh_server.ws_url}/ws/{room_id}") as ws:
            import json

            await ws.send(json.dumps(hello))
            answer = json.loads(await ws.recv())
            with pytest.raises(ConnectionClosed) as closed:
                await ws.recv()
            return answer, closed.value.rcvd.code if closed.value.rcvd else None

    async def scenario() -> None:
        answer, code = await refused(room, {"type": "hello", "v": 1, "token": other["token"]})
        assert answer["type"] == "error" and code == 4003
        answer, code = await refused(room, {"type": "hello", "v": 2, "token": None})
        assert "version" in answer["message"] and code == 1008
        answer, code = await refused(room, {"type": "ping"})
        assert answer["message"] == "the first message must be hello"
        answer, code = await refused("nosuchroom", {"type": "hello", "v": 1, "token": None})
        assert code == 4004

    asyncio.run(scenario())


def test_a_player_who_reconnects_gets_the_seat_and_the_whole_state_back(fresh_server: ServerThread) -> None:
    created = _create(fresh_server, players=2, seed=21, bots={"1": "random"})
    room = created["room"]

    async def scenario() -> None:
        alice = await Player.join(fresh_server, room, created["token"])
        # play a few moves, then drop the connection
        for _ in range(6):
            state = alice.last_state
            while state is None or not state["view"]["legal"]:
                state = await alice.expect("state")
            await alice.send({"type": "act", "action": state["view"]["legal"][0]})
            alice.last_state = None
        before = await alice.expect("state")
        while not before["view"]["legal"]:
            before = await alice.expect("state")
        await alice.close()
        # The server sees the connection go in its own time: wait for it (a busy machine
        # may take long), rather than sleeping a fixed time and racing it.
        deadline = time.monotonic() + 10.0
        while fresh_server.get(f"/api/rooms/{room}").json()["seats"][0]["connected"] is not False:
            assert time.monotonic() < deadline, "the server still shows the player connected after 10 s"
            await asyncio.sleep(0.02)
        again = await Player.join(fresh_server, room, created["token"])
        assert again.seat == 0
        resumed = await again.expect("state")
        assert resumed == before
        assert fresh_server.get(f"/api/rooms/{room}").json()["seats"][0]["connected"] is True
        await play_to_end([again], seed=4)
        await again.close()

    asyncio.run(scenario())


def test_the_host_can_give_a_seat_away_before_the_start(fresh_server: ServerThread) -> None:
    created = _create(fresh_server, players=3)
    room = created["room"]
    bob_token = fresh_server.post(f"/api/rooms/{room}/join", {"name": "bob"}).json()["token"]
    carol = fresh_server.post(f"/api/rooms/{room}/join", {"name": "carol"}).json()
    assert carol["seat"] == 2
    full = fresh_server.post(f"/api/rooms/{room}/join", {"name": "dave"})
    assert full.status_code == 409 and "no empty seat" in full.json()["error"]

    async def scenario() -> None:
        alice = await Player.join(fresh_server, room, created["token"])
        bob = await Player.join(fresh_server, room, bob_token)
        await alice.send({"type": "seat", "seat": 1, "kind": "bot", "level": "random"})
        with pytest.raises(ConnectionClosed):
            while True:
                await bob.recv()
        assert any(m["type"] == "error" for m in bob.log)
        await alice.send({"type": "start"})
        await alice.expect("state")
        await alice.close()

    asyncio.run(scenario())
    info = fresh_server.get(f"/api/rooms/{room}").json()
    assert info["status"] == "playing" and info["seats"][1]["kind"] == "bot"
    late = fresh_server.post(f"/api/rooms/{room}/join", {"name": "erin"})
    assert late.status_code == 409 and "already started" in late.json()["error"]
