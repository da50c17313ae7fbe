"""Hidden information over the wire: every message of several full games, checked against the true game.

For each message a seat (or a spectator) received, the game is rebuilt from the
stored actions at the point the message describes (its ``seq``).  No message may
name a card that is then in another seat's hand (unless declared and revealed,
R-4) or still in the pile — so neither another hand nor the pile order can be
read from it.  Events and round ends may also name the cards public during the
change they report (cards played, or captured before a new deal).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from roppyakken.cards import SLUGS
from roppyakken.engine import Game
from roppyakken.rules import from_options
from tests.harness.poll import until_async
from tests.harness.server_harness import (
    Player,
    ServerThread,
    hand_over_when_open,
    limits_for_tests,
    play_to_end,
    running_server,
    stored_actions,
)
from tests.harness.truth import Truth, cards_named

GAMES = [
    pytest.param({"players": 2, "rules": {"preset": "classic"}, "seed": 101}, 0, id="classic-2-humans"),
    pytest.param({"players": 3, "rules": {"preset": "classic"}, "seed": 202}, 1, id="classic-3-with-a-bot"),
    pytest.param({"players": 2, "rules": {"preset": "yukbaek"}, "seed": 303}, 0, id="yukbaek-instant-wins"),
    pytest.param(
        {"players": 2, "rules": {"preset": "marguerite"}, "seed": 404}, 0, id="marguerite-auto-lucky"
    ),
    pytest.param(
        {
            "players": 3,
            "rules": {"toml": 'preset = "classic"\nhand_four = "optional"\ntarget = 300'},
            "seed": 505,
        },
        0,
        id="house-rules-optional-redeal",
    ),
]


SEEDS: list[int] = []
"""The next secret seeds the server draws (fixed so that each game is the same every run)."""


@pytest.fixture(scope="module")
def seeded_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    path = tmp_path_factory.mktemp("hidden") / "games.sqlite3"
    with running_server(f"sqlite:///{path}", draw_seed=SEEDS.pop) as s:
        yield s


@pytest.mark.parametrize(("body", "bots"), GAMES)
def test_no_message_shows_another_hand_or_the_pile(
    seeded_server: ServerThread, body: dict[str, Any], bots: int
) -> None:
    n = body["players"]
    bot_seats = {str(n - 1 - i): "random" for i in range(bots)}
    SEEDS.append(body["seed"])
    answer = seeded_server.post(
        "/api/rooms", {"name": "p0", **{k: v for k, v in body.items() if k != "seed"}}
    )
    created = answer.json()
    room = created["room"]
    tokens = [created["token"]]
    for seat in range(1, n - bots):
        tokens.append(seeded_server.post(f"/api/rooms/{room}/join", {"name": f"p{seat}"}).json()["token"])

    async def scenario() -> list[Player]:
        players = [await Player.join(seeded_server, room, t) for t in tokens]
        watcher = await Player.join(seeded_server, room, None)
        host = players[0]
        for seat, level in bot_seats.items():
            await host.send({"type": "seat", "seat": int(seat), "kind": "bot", "level": level})
        await host.send({"type": "start"})

        async def arrive_late() -> tuple[list[Player], list[Player]]:
            # A spectator and a second connection of seat 0 arrive mid-game: each gets the history.
            await until_async(
                lambda: watcher.last_state is not None and watcher.last_state["seq"] >= 12,
                120,
                "the watcher saw move 12",
                every=0.01,  # they arrive mid-game: soon after move 12, before the game ends
            )
            late = [
                await Player.join(seeded_server, room, None),
                await Player.join(seeded_server, room, tokens[0]),
            ]
            during = []
            for p in late:
                first = await p.recv()
                assert first["type"] == "history" and first["seq"] >= 12, first
                then = (await p.recv())["type"]
                if then == "game_end":  # the game ended as it came (its moves are quick): told so
                    then = (await p.recv())["type"]
                else:
                    during.append(p)
                assert then == "state"
            await asyncio.gather(*(p.expect("game_end", timeout=60) for p in during))
            return during, late

        _, _, (during, late) = await asyncio.gather(
            play_to_end(players, seed=n), watcher.expect("game_end", timeout=60), arrive_late()
        )
        await watcher.expect("state")
        for p in during:
            await p.expect("state")
        for p in [*players, watcher, *late]:
            await p.close()
        return [*players, watcher, *late]

    clients = asyncio.run(scenario())
    info = seeded_server.get(f"/api/rooms/{room}").json()
    rules = from_options(info["rules"]["preset"], info["rules"]["options"])
    actions = stored_actions(seeded_server.database, room)
    record = seeded_server.get(f"/api/games/{room}/record").json()
    assert record["seed"] == body["seed"]  # revealed at the end, and only then
    truth = Truth(rules, n, record["seed"], actions)
    checked = 0
    histories = 0
    for client in clients:
        histories += sum(m["type"] == "history" for m in client.log)
        states = [m["seq"] for m in client.log if m["type"] == "state"]
        assert states[-1] == len(actions), "every client saw the game to its end"
        for message in client.log:
            truth.check(client.seat, message)
            checked += 1
    assert checked > 4 * len(actions)
    assert histories == 2, "the two clients that arrived mid-game got the history"


def _check_all(server: ServerThread, room: str, clients: list[Player], players: int) -> int:
    info = server.get(f"/api/rooms/{room}").json()
    rules = from_options(info["rules"]["preset"], info["rules"]["options"])
    actions = stored_actions(server.database, room)
    record = server.get(f"/api/games/{room}/record").json()
    truth = Truth(rules, players, record["seed"], actions)
    for client in clients:
        for message in client.log:
            truth.check(client.seat, message)
    return sum(len(c.log) for c in clients)


def test_clock_and_hand_over_messages_show_no_hand(tmp_path: Path) -> None:
    """A seat whose clock runs out (``timeout``, the clock in every ``state``) and a seat handed to a bot
    by the others (``handed``): every message, to every seat and a spectator, checked as above."""
    limits = limits_for_tests(clock_scale=0.05, hand_over_after=0.3)
    rules = {"toml": 'preset = "classic"\ntarget = 100\n'}
    with running_server(f"sqlite:///{tmp_path / 'clocks.sqlite3'}", limits=limits) as server:
        timed = server.post(
            "/api/rooms", {"name": "p0", "players": 3, "rules": rules, "clock": "15+60"}
        ).json()
        timed_tokens = [timed["token"]] + [
            server.post(f"/api/rooms/{timed['room']}/join", {"name": f"p{i}"}).json()["token"] for i in (1, 2)
        ]
        handed = server.post("/api/rooms", {"name": "p0", "players": 2, "rules": rules}).json()
        handed_tokens = [
            handed["token"],
            server.post(f"/api/rooms/{handed['room']}/join", {"name": "p1"}).json()["token"],
        ]

        async def clocked() -> list[Player]:
            players = [await Player.join(server, timed["room"], t) for t in timed_tokens]
            watcher = await Player.join(server, timed["room"], None)
            await players[0].send({"type": "start"})
            await asyncio.gather(
                play_to_end(players, seed=8, idle=frozenset({2})), watcher.expect("game_end")
            )
            await watcher.expect("state")
            return [*players, watcher]

        async def hand_over() -> list[Player]:
            players = [await Player.join(server, handed["room"], t) for t in handed_tokens]
            watcher = await Player.join(server, handed["room"], None)
            await players[0].send({"type": "start"})
            await players[1].close()
            assert (await hand_over_when_open(players[0], 1))["done"]
            await players[0].expect("state")
            await asyncio.gather(play_to_end(players[:1], seed=9), watcher.expect("game_end"))
            await watcher.expect("state")
            return [players[0], watcher]

        first, second = asyncio.run(clocked()), asyncio.run(hand_over())
        assert any(m["type"] == "timeout" for m in first[0].log)
        assert any(m["type"] == "handed" for m in second[1].log)
        checked = _check_all(server, timed["room"], first, 3) + _check_all(server, handed["room"], second, 2)
    assert checked > 200


def test_the_checker_catches_a_leak() -> None:
    """The check above would fail if a seat were sent another seat's view."""
    from roppyakken.rules import preset
    from roppyakken.server.wire import server as to_client
    from roppyakken.view import view_of

    game = Game(preset("classic"), 2, 7)
    truth = Truth(preset("classic"), 2, 7, [])
    import json

    wrong = json.loads(to_client.state(["a", "b"], 0, view_of(game, 1).to_json(), []))
    wrong["view"]["seat"] = 0
    with pytest.raises(AssertionError):
        truth.check(0, wrong)
    right = json.loads(to_client.state(["a", "b"], 0, view_of(game, 0).to_json(), []))
    truth.check(0, right)
    pile = [SLUGS[c] for c in game.pile[game.pile_pos : game.pile_pos + 2]]
    with pytest.raises(AssertionError):
        truth.check(None, {"type": "events", "seq": 0, "events": [{"type": "x", "next": pile}]})
    opening = [e.to_json() for e in game.events]
    truth.check(None, {"type": "history", "seq": 0, "first": 0, "events": opening})
    with pytest.raises(AssertionError):
        truth.check(None, {"type": "history", "seq": 0, "first": 0, "events": [*opening, {"next": pile}]})


def test_lobby_messages_show_no_hand_and_no_other_players_secret(tmp_path: Path) -> None:
    """The lobby's messages (``lobby``, ``seeking``, ``cancelled``, ``paired``, ``error``) to two paired
    players and a watcher name no card and no other player's seat token, cookie or stored hash; the game
    they are paired into, chat included (``chat``, ``chat_history``, ``muted``), is checked message by
    message as above."""
    import contextlib
    import hashlib
    import json

    from tests.harness.lobby import Lobby, new_player

    with running_server(f"sqlite:///{tmp_path / 'lobby.sqlite3'}") as server:

        async def scenario() -> tuple[list[Lobby], list[Player], list[str], list[str]]:
            cookies = [new_player(server.url, n)[0] for n in ("p0", "p1")]
            watcher = await Lobby.open(server.ws_url, None)
            lobbies = [await Lobby.open(server.ws_url, c) for c in cookies]
            await lobbies[0].seek("classic", 2, "60+300")
            await lobbies[0].send({"type": "cancel"})
            await lobbies[0].expect("cancelled")
            await lobbies[0].send({"type": "seek", "preset": "nope", "players": 2, "clock": "1d"})
            await lobbies[0].expect("error")
            await watcher.send({"type": "ping", "id": "p"})
            await watcher.expect("pong")
            tokens = [await lobby.seek("classic", 2, "60+300") for lobby in lobbies]
            paired = [await lobby.expect("paired") for lobby in lobbies]
            players = [await Player.join(server, p["room"], p["token"]) for p in paired]
            spectator = await Player.join(server, paired[0]["room"], None)
            await players[0].send({"type": "chat", "phrase": "hello"})
            await players[1].send({"type": "chat", "text": "hi, good luck"})
            await players[1].send({"type": "mute", "author": "seat:0"})
            await spectator.send({"type": "chat", "phrase": "well_played"})
            await spectator.send({"type": "chat_history"})
            await players[0].send({"type": "chat_history"})
            await asyncio.gather(play_to_end(players, seed=3), spectator.expect("game_end"))
            await spectator.expect("state")
            for lobby in (watcher, *lobbies):
                with contextlib.suppress(TimeoutError):  # whatever the lobby said meanwhile
                    await lobby.expect("never", 1.5)
                await lobby.ws.close()
            return [watcher, *lobbies], [*players, spectator], tokens, cookies

        lobbies, clients, tokens, cookies = asyncio.run(scenario())
        room = clients[0].log[0]["room"]
        assert _check_all(server, room, clients, 2) > 50
        chat_kinds = {
            m["type"] for c in clients for m in c.log if m["type"] in ("chat", "chat_history", "muted")
        }
        assert chat_kinds == {"chat", "chat_history", "muted"}
    secrets_of = [
        {tokens[i], cookies[i], cookies[i].split(".")[1], hashlib.sha256(tokens[i].encode()).hexdigest()}
        for i in range(2)
    ]
    kinds = set()
    for index, lobby in enumerate(lobbies):
        own = None if index == 0 else index - 1
        for message in lobby.log:
            kinds.add(message["type"])
            assert not cards_named(message), message
            raw = json.dumps(message)
            for seat in range(2):
                forbidden = secrets_of[seat] - {tokens[seat]} if own == seat else secrets_of[seat]
                assert not [s for s in forbidden if s in raw], (
                    index,
                    message,
                    [s for s in forbidden if s in raw],
                )
            if message["type"] == "lobby":
                assert message["player"] is None if own is None else message["player"]["name"] == f"p{own}"
    assert {"lobby", "seeking", "cancelled", "paired", "error", "pong"} <= kinds
