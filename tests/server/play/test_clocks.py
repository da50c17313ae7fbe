"""Clocks over the real server: a player who stops moving is played for, then handed to a bot, and every
game ends; deadlines survive a restart; rooms without a clock hand an absent player over by agreement
and end when left alone; finished private games are not listed.

Real-time clocks are shortened with ``Limits.clock_scale`` (``serve --clock-scale``) so that the
games take seconds.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Any

from roppyakken.record import replay
from roppyakken.server.store.database import Database
from roppyakken.server.store.room_store import game_record, load_room
from tests.harness.server_harness import (
    Player,
    ServerThread,
    limits_for_tests,
    play_to_end,
    running_server,
    stored_actions,
)

RULES = {"toml": 'preset = "classic"\ntarget = 100\n'}
"""A short game: the first to 100 wins."""
SCALE = 0.05
"""``15+60`` becomes 0.75 s a move and a 3 s bank."""
PRECISION = 0.25
"""How late a timeout may be seen, in seconds (the target under load)."""


def _stored(database: str, room: str) -> Any:
    db = Database(database)
    try:
        return db.run_now(lambda c: load_room(c, room))
    finally:
        db.engine.dispose()


def _room(server: ServerThread, players: int, **body: Any) -> tuple[str, list[str]]:
    """A room made by alice with the others joined: its id and every seat's token."""
    created = server.post("/api/rooms", {"name": "alice", "players": players, "rules": RULES, **body})
    assert created.status_code == 201, created.text
    room = created.json()["room"]
    tokens = [created.json()["token"]]
    for name in ("bob", "carol")[: players - 1]:
        tokens.append(server.post(f"/api/rooms/{room}/join", {"name": name}).json()["token"])
    return room, tokens


async def _watch_clock(player: Player, seat: int) -> list[tuple[float, dict[str, Any]]]:
    """Read until game_end: each ``timeout`` with how late it came after the deadline ``seat``'s clock
    showed (the state's ``remaining`` counted from its arrival).  Once abandoned, the player tries to
    move again, and is refused."""
    deadline: float | None = None
    timeouts: list[tuple[float, dict[str, Any]]] = []
    refused = False
    while True:
        message = await player.recv(timeout=30)
        now = time.monotonic()
        if message["type"] == "state":
            clock = message["clock"]
            if clock["turn"] == seat and deadline is None:
                deadline = now + clock["remaining"]
        elif message["type"] == "timeout":
            if message["seat"] == seat:
                assert deadline is not None
                timeouts.append((now - deadline, message))
                if message["abandoned"]:
                    late = {"type": "act", "action": {"type": "take", "target": []}, "id": "late"}
                    await player.send(late)
            deadline = None
        elif message["type"] == "error":
            assert message["id"] == "late" and "handed to a bot" in message["message"], message
            refused = True
        elif message["type"] == "game_end":
            await player.expect("state")
            assert refused
            return timeouts


def test_a_real_time_game_goes_on_when_a_player_stops_moving(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'clocks.sqlite3'}"
    with running_server(database, limits=limits_for_tests(clock_scale=SCALE)) as server:
        room, tokens = _room(server, 3, clock="15+60")
        info = server.get(f"/api/rooms/{room}").json()
        assert info["clock"] == "15+60" and info["public"] is False
        waiting = server.post("/api/my-games", {"rooms": {room: tokens[1]}}).json()["games"]
        assert waiting == [
            {
                "room": room,
                "seat": 1,
                "players": ["alice", "bob", "carol"],
                "status": "waiting",
                "winner": None,
                "finished_at": None,
                "clock": "15+60",
                "turn": None,
                "remaining": None,
            }
        ]

        async def scenario() -> tuple[list[tuple[float, dict[str, Any]]], list[dict[str, Any]], Player]:
            alice, bob, carol = [await Player.join(server, room, t) for t in tokens]
            await alice.send({"type": "start"})
            ends, timeouts = await asyncio.gather(play_to_end([alice, bob], seed=5), _watch_clock(carol, 2))
            for p in (alice, bob, carol):
                await p.close()
            return timeouts, ends, alice

        timeouts, ends, alice = asyncio.run(scenario())

    # carol's clock ran out twice in a row (bank, then a move's own time): played for, then abandoned
    assert [m["abandoned"] for _, m in timeouts] == [False, True]
    assert all(late < PRECISION for late, _ in timeouts), timeouts
    assert all(late > -0.05 for late, _ in timeouts), "never before the deadline"
    # the server played carol's moves to the end: everyone saw the game end
    assert len(ends) == 2 and all(e["type"] == "game_end" for e in ends)
    others = [m for m in alice.log if m["type"] == "timeout"]
    assert [(m["seat"], m["abandoned"]) for m in others] == [(2, False), (2, True)]
    states = [m for m in alice.log if m["type"] == "state"]
    seat2_moves = [i for i, m in enumerate(states[:-1]) if m["view"]["to_act"] == 2]
    assert len(seat2_moves) > 2, "the bot went on playing carol's seat after she was abandoned"
    last_clock = states[-1]["clock"]
    assert last_clock["abandoned"] == [False, False, True] and last_clock["turn"] is None

    # stored before it was seen, and recorded: which moves the clock played, who abandoned
    stored = _stored(database, room)
    assert stored.room.status == "over" and stored.room.clock_deadline is None
    db = Database(database)
    record_answer = json.loads(str(db.run_now(lambda c: game_record(c, room))))
    db.engine.dispose()
    server_record = record_answer["online"]
    assert server_record["clock"] == "15+60" and server_record["abandoned"] == [2]
    played = [(e["move"], e["seat"]) for e in server_record["by_clock"]]
    assert [s for _, s in played] == [2, 2]
    assert [m["seq"] - 1 for _, m in timeouts] == [i for i, _ in played]
    actions = stored_actions(database, room)
    assert len(actions) == states[-1]["seq"]
    game, names = replay(record_answer)
    assert game.over and names == ["alice", "bob", "carol"]


def test_a_turn_based_deadline_survives_a_restart(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'turns.sqlite3'}"
    first = ServerThread(database).start()
    try:
        room, tokens = _room(first, 2, clock="1d")

        async def before() -> float:
            alice = await Player.join(first, room, tokens[0])
            await alice.send({"type": "start"})
            state = await alice.expect("state")
            clock = state["clock"]
            assert clock["kind"] == "turn" and clock["turn"] == state["view"]["to_act"]
            assert 86_399 < clock["remaining"] <= 86_400
            await alice.close()
            return float(state["clock"]["remaining"])

        asyncio.run(before())
        stored_before = _stored(database, room).room
    finally:
        first.stop()
    paused = _stored(database, room).room.clock
    assert paused["paused"] is not None and abs(paused["deadline"] - stored_before.clock_deadline) < 1e-6
    left = paused["paused"]
    stopped = time.time()
    # The server stays down a while: this downtime is what the test shows is charged to nobody.
    time.sleep(1.5)
    down = time.time() - stopped
    restarted = time.monotonic()
    with running_server(database) as second:

        async def after() -> dict[str, Any]:
            alice = await Player.join(second, room, tokens[0])
            state = await alice.expect("state")
            state["at"] = time.monotonic()
            await alice.close()
            return state

        state = asyncio.run(after())
        resumed = _stored(database, room).room
        mine = second.post("/api/my-games", {"rooms": {room: tokens[1]}}).json()["games"][0]
    assert mine["turn"] == state["clock"]["turn"] and 86_000 < mine["remaining"] <= left
    # only the time the server has been up again is charged (its start-up and alice's connection)
    assert left - (state["at"] - restarted) - 0.05 <= state["clock"]["remaining"] <= left
    assert resumed.clock["paused"] is None
    assert resumed.clock_deadline >= stored_before.clock_deadline + down  # moved on by the downtime


def test_a_clocked_game_ends_after_a_restart_with_nobody_connected(tmp_path: Path) -> None:
    """Turn-based, shortened to 2.6 s a move: after a restart nobody comes back; the loader brings the
    room in, each clock runs out once (turn-based: abandoned at once) and the bots finish the game."""
    database = f"sqlite:///{tmp_path / 'alone.sqlite3'}"
    limits = limits_for_tests(clock_scale=3e-5)
    first = ServerThread(database, limits=limits).start()
    try:
        room, tokens = _room(first, 2, clock="1d")

        async def start() -> None:
            alice = await Player.join(first, room, tokens[0])
            await alice.send({"type": "start"})
            await alice.expect("state")
            await alice.close()

        asyncio.run(start())
    finally:
        first.stop()
    with running_server(database, limits=limits) as second:
        deadline = time.monotonic() + 30
        while _stored(database, room).room.status != "over":
            assert time.monotonic() < deadline, "the game did not end by itself"
            time.sleep(0.2)
        record = second.get(f"/api/games/{room}/record").json()
    online = record["online"]
    assert sorted(online["abandoned"]) == [0, 1]
    assert sorted(e["seat"] for e in online["by_clock"]) == [0, 1]
    game, _ = replay(record)
    assert game.over


def test_players_hand_an_absent_player_to_a_bot_without_a_clock(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'hand.sqlite3'}"
    with running_server(database, limits=limits_for_tests(hand_over_after=1.0)) as server:
        room, tokens = _room(server, 3)

        async def scenario() -> tuple[Player, Player]:
            alice, bob, carol = [await Player.join(server, room, t) for t in tokens]
            await alice.send({"type": "start"})
            await carol.close()
            await alice.send({"type": "hand_over", "seat": 1, "id": "here"})
            assert "connected" in (await alice.expect("error"))["message"]
            await alice.send({"type": "hand_over", "seat": 2, "id": "soon"})
            error = await alice.expect("error")
            assert error["id"] == "soon" and "wait" in error["message"]
            # the hand-over opens hand_over_after (1 s) after carol left: asked again until it is
            opens = time.monotonic() + 30
            while True:
                await alice.send({"type": "hand_over", "seat": 2, "id": "again"})
                mine = await alice.recv()
                while mine["type"] not in ("error", "handed"):
                    mine = await alice.recv()
                if mine["type"] == "handed":
                    break
                assert mine["id"] == "again" and "wait" in mine["message"], mine
                assert time.monotonic() < opens, "the hand-over never opened"
                await asyncio.sleep(0.1)
            first = await bob.expect("handed")
            assert first == {"type": "handed", "seat": 2, "votes": [0], "done": False}
            assert mine == first
            await bob.send({"type": "hand_over", "seat": 2})
            done = await alice.expect("handed")
            assert done == {"type": "handed", "seat": 2, "votes": [0, 1], "done": True}
            state = await alice.expect("state")
            assert state["clock"]["abandoned"] == [False, False, True]
            assert await bob.expect("handed") == done
            await bob.expect("state")  # both start from the state after the hand-over
            await play_to_end([alice, bob], seed=3)
            return alice, bob

        alice, _ = asyncio.run(scenario())
        record = server.get(f"/api/games/{room}/record").json()
    assert record["online"]["abandoned"] == [2] and record["online"]["by_clock"] == []
    assert record["online"]["clock"] == "none"
    assert any(m["type"] == "game_end" for m in alice.log)


def test_a_game_without_a_clock_left_alone_ends_as_abandoned(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'left.sqlite3'}"
    limits = limits_for_tests(abandon_after=1.0, clock_horizon=2.0)
    with running_server(database, limits=limits) as server:
        room, tokens = _room(server, 2)

        async def leave() -> None:
            alice, bob = [await Player.join(server, room, t) for t in tokens]
            await alice.send({"type": "start"})
            await alice.expect("state")
            await alice.close()
            await bob.close()

        asyncio.run(leave())
        assert server.get(f"/api/rooms/{room}").json()["status"] == "playing"
        deadline = time.monotonic() + 10
        while server.get(f"/api/rooms/{room}").json()["status"] != "over":
            assert time.monotonic() < deadline, "the game left alone did not end"
            time.sleep(0.1)
        record = server.get(f"/api/games/{room}/record").json()

        async def come_back() -> dict[str, Any]:
            alice = await Player.join(server, room, tokens[0])
            end = await alice.expect("game_end")
            await alice.close()
            return end

        end = asyncio.run(come_back())
    assert record["online"]["ended"] == "abandoned" and record["winner"] is None
    game, names = replay(record)  # the game so far: it replays and verifies like any record
    assert not game.over and names == ["alice", "bob"]
    assert end["winner"] is None and end["reason"] == "abandoned"


def test_a_player_who_comes_back_is_not_abandoned(tmp_path: Path) -> None:
    """One timeout, then the player moves again: the next timeout is again only the first in a row."""
    database = f"sqlite:///{tmp_path / 'back.sqlite3'}"
    with running_server(database, limits=limits_for_tests(clock_scale=0.02)) as server:
        room, tokens = _room(server, 2, clock="15+60")

        async def scenario() -> list[dict[str, Any]]:
            alice, bob = [await Player.join(server, room, t) for t in tokens]
            await alice.send({"type": "start"})
            timeouts: list[dict[str, Any]] = []
            # bob plays; alice lets her clock run out, plays one move herself, then lets it run out again
            moved_since = False

            async def alice_loop() -> None:
                nonlocal moved_since
                while len(timeouts) < 2:
                    message = await alice.recv(timeout=30)
                    if message["type"] == "timeout" and message["seat"] == 0:
                        timeouts.append(message)
                    elif (
                        message["type"] == "state"
                        and message["view"]["legal"]
                        and timeouts
                        and not moved_since
                    ):
                        moved_since = True
                        await alice.send({"type": "act", "action": message["view"]["legal"][0]})

            async def bob_loop() -> None:
                while len(timeouts) < 2:
                    try:
                        message = await bob.recv(timeout=1)
                    except TimeoutError:
                        continue
                    if message["type"] == "state" and message["view"]["legal"]:
                        await bob.send({"type": "act", "action": message["view"]["legal"][0]})

            await asyncio.gather(alice_loop(), bob_loop())
            await alice.close()
            await bob.close()
            return timeouts

        timeouts = asyncio.run(scenario())
    assert [t["abandoned"] for t in timeouts] == [False, False]


def test_finished_private_games_are_not_listed(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'private.sqlite3'}"
    with running_server(database) as server:
        rooms = {}
        for public in (False, True):
            created = server.post(
                "/api/rooms",
                {"name": "dora", "seed": 4, "bots": {"1": "random"}, "rules": RULES, "public": public},
            ).json()
            rooms[public] = created

            async def play(created: dict[str, Any] = created) -> None:
                dora = await Player.join(server, created["room"], created["token"])
                await play_to_end([dora], seed=1)
                await dora.close()

            asyncio.run(play())
        listed = server.get("/api/games").json()["games"]
        assert [g["room"] for g in listed] == [rooms[True]["room"]]
        assert "dora" not in json.dumps(listed).replace(json.dumps(listed[0]), "")
        # the private game's players, and whoever has its link, still get its record
        private = server.get(f"/api/games/{rooms[False]['room']}/record")
        assert private.status_code == 200 and private.json()["players"][0] == "dora"
        # a browser lists its own games with the tokens it holds; a wrong token shows nothing
        mine = server.post("/api/my-games", {"rooms": {rooms[False]["room"]: rooms[False]["token"]}}).json()
        assert [(g["room"], g["seat"], g["status"]) for g in mine["games"]] == [
            (rooms[False]["room"], 0, "over")
        ]
        wrong = {rooms[False]["room"]: rooms[True]["token"], "nosuchroom": "x"}
        assert server.post("/api/my-games", {"rooms": wrong}).json() == {"games": []}
        many = {f"r{i}": "t" for i in range(101)}
        refused = server.post("/api/my-games", {"rooms": many})
        assert refused.status_code == 400 and "at most 100" in refused.json()["error"]
        bad = server.post("/api/rooms", {"name": "dora", "public": "yes"})
        assert bad.status_code == 400 and bad.json()["error"] == "'public' must be true or false"
        bad = server.post("/api/rooms", {"name": "dora", "clock": "5m"})
        assert bad.status_code == 400 and "15+60" in bad.json()["error"]
