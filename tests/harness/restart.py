"""A game stopped mid-way and resumed on a new server over the same database."""

from __future__ import annotations

import asyncio
from typing import Any

from websockets.exceptions import ConnectionClosed

from roppyakken.record import replay
from tests.harness.server_harness import Player, ServerThread, play_to_end, running_server


def restart_scenario(database: str) -> None:
    """Two rooms (humans online; a human against a bot waiting to move), a restart, then both go on."""
    first = ServerThread(database, bot_delay=60.0).start()
    try:
        online = first.post("/api/rooms", {"name": "alice", "players": 2}).json()
        bob = first.post(f"/api/rooms/{online['room']}/join", {"name": "bob"}).json()
        solo = first.post("/api/rooms", {"name": "carol", "players": 2, "seed": 9, "bots": {"1": "random"}})
        solo_room = solo.json()

        async def before() -> tuple[list[dict[str, Any] | None], dict[str, Any]]:
            alice_p = await Player.join(first, online["room"], online["token"])
            bob_p = await Player.join(first, online["room"], bob["token"])
            await alice_p.send({"type": "start"})
            players = [alice_p, bob_p]
            for p in players:
                await p.expect("state")
            for _ in range(9):
                mover = next(p for p in players if p.last_state and p.last_state["view"]["legal"])
                await act_once(mover)
                for p in players:
                    p.last_state = await p.expect("state")
            # carol plays until it is the bot's turn, which (60 s pacing) never comes before the stop
            carol = await Player.join(first, solo_room["room"], solo_room["token"])
            state = await carol.expect("state")
            while state["view"]["legal"]:
                await carol.send({"type": "act", "action": state["view"]["legal"][0]})
                state = await carol.expect("state")
            connected = [alice_p, bob_p, carol]
            # stop while everyone is connected: the connections end, nothing is lost
            first.server.should_exit = True
            await asyncio.gather(*(drain(p) for p in connected))
            return [p.last_state for p in players], state

        states, carol_state = asyncio.run(before())
    finally:
        first.stop()

    with running_server(database, bot_delay=0.0) as second:
        info = second.get(f"/api/rooms/{online['room']}").json()
        assert info["status"] == "playing" and [s["name"] for s in info["seats"]] == ["alice", "bob"]

        async def after() -> None:
            alice_p = await Player.join(second, online["room"], online["token"])
            bob_p = await Player.join(second, online["room"], bob["token"])
            assert [await alice_p.expect("state"), await bob_p.expect("state")] == states
            carol = await Player.join(second, solo_room["room"], solo_room["token"])
            assert await carol.expect("state") == carol_state
            # the bot whose move was pending goes on by itself
            moved = await carol.expect("state")
            assert moved["seq"] == carol_state["seq"] + 1
            await asyncio.gather(play_to_end([alice_p, bob_p], seed=3), play_to_end([carol], seed=3))
            for p in (alice_p, bob_p, carol):
                await p.close()

        asyncio.run(after())
        for room, names in ((online["room"], ["alice", "bob"]), (solo_room["room"], ["carol", "bot:random"])):
            record = second.get(f"/api/games/{room}/record").json()
            game, got = replay(record)
            assert got == names and game.over


async def act_once(player: Player) -> dict[str, Any]:
    """Wait for this player's turn, act, and return the state it acted on."""
    state = player.last_state
    while state is None or not state["view"]["legal"]:
        state = await player.expect("state")
    await player.send({"type": "act", "action": state["view"]["legal"][-1]})
    player.last_state = None
    return state


async def drain(player: Player) -> None:
    """Read until the server goes away."""
    try:
        while True:
            await player.recv(timeout=10)
    except ConnectionClosed:
        pass
