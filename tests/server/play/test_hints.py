"""Hints and round reviews over the websocket: the seat's own view only, to that seat only, where allowed."""

from __future__ import annotations

import asyncio
import copy
import random
from typing import Any

from roppyakken.actions import action_from_json
from roppyakken.ai.offline import HINT_WORLDS, public_seed
from roppyakken.cards import iter_cards
from roppyakken.engine import Game
from roppyakken.rules import from_options
from roppyakken.server.play import hints
from roppyakken.view import view_of
from tests.harness.server_harness import Player, ServerThread, running_server, stored_actions


def _my_card_turn(state: dict[str, Any] | None, seat: int | None) -> bool:
    if state is None or state["view"]["seat"] != seat:
        return False
    return any(a["type"] in ("play", "take") for a in state["view"]["legal"])


async def _until_card_turn(player: Player) -> dict[str, Any]:
    """Read (acting first on declarations and redeal calls) until this seat has a card to play or take."""
    while True:
        state = player.last_state
        if _my_card_turn(state, player.seat):
            assert state is not None
            return state
        if state is not None and state["view"]["legal"] and state["view"]["seat"] == player.seat:
            await player.send({"type": "act", "action": state["view"]["legal"][0]})
            player.last_state = None
        await player.expect("state", timeout=30)


def poisoned(game: Game, seat: int, rng: random.Random) -> Game:
    """The game with every card ``seat`` cannot see (others' unrevealed hands, the pile) dealt anew."""
    other = copy.deepcopy(game)
    slots: list[tuple[str, int]] = []
    cards: list[int] = []
    for s in range(game.players):
        if s == seat:
            continue
        for c in iter_cards(game.hands[s] & ~game.revealed[s]):
            slots.append(("hand", s))
            cards.append(c)
    for i in range(game.pile_pos, len(game.pile)):
        if game.pile[i] != game.turned:
            slots.append(("pile", i))
            cards.append(game.pile[i])
    shuffled = cards[:]
    rng.shuffle(shuffled)
    for s in range(game.players):
        if s != seat:
            other.hands[s] &= other.revealed[s]
    for (where, k), c in zip(slots, shuffled, strict=True):
        if where == "hand":
            other.hands[k] |= 1 << c
        else:
            other.pile[k] = c
    return other


def _rebuild(server: ServerThread, room: str, seq: int) -> Game:
    info = server.get(f"/api/rooms/{room}").json()
    rules = from_options(info["rules"]["preset"], info["rules"]["options"])
    record_seed = 4242
    game = Game(rules, info["players"], record_seed)
    for data in stored_actions(server.database, room)[:seq]:
        game.apply(action_from_json(data))
    return game


def test_a_hint_shows_nothing_hidden(server: ServerThread) -> None:
    """The hint a seat gets is the hint of any game that looks the same from that seat."""
    created = server.post(
        "/api/rooms", {"name": "solo", "players": 2, "bots": {"1": "greedy"}, "seed": 4242}
    ).json()
    room = created["room"]

    async def scenario() -> tuple[dict[str, Any], dict[str, Any]]:
        me = await Player.join(server, room, created["token"])
        state = await _until_card_turn(me)
        await me.send({"type": "hint", "id": "h1"})
        await me.send({"type": "hint", "id": "h2"})  # while the first is being worked out
        assert await _error(me) == "a hint is already being worked out for your seat"
        answer = await me.expect("hint", timeout=60)
        await me.send({"type": "hint", "id": "h3"})  # the same decision again: the same hint, at once
        again = await me.expect("hint", timeout=5)
        assert {**again, "id": "h1"} == answer
        await me.close()
        return state, answer

    state, answer = asyncio.run(scenario())
    assert answer["id"] == "h1" and answer["seat"] == 0 and answer["seq"] == state["seq"]
    assert 1 <= len(answer["moves"]) <= 3
    assert sum(m["expert_choice"] for m in answer["moves"]) == 1
    legal = state["view"]["legal"]
    assert all(m["action"] in legal for m in answer["moves"])
    game = _rebuild(server, room, state["seq"])
    assert view_of(game, 0).to_json() == state["view"]
    seed = public_seed(room, state["seq"])
    payload = {k: v for k, v in answer.items() if k in ("worlds", "moves")}
    changed = 0
    for k in range(3):
        other = poisoned(game, 0, random.Random(k))
        assert view_of(other, 0).to_json() == view_of(game, 0).to_json()
        changed += other.pile != game.pile or other.hands != game.hands
        assert hints.compute_hint(view_of(other, 0), HINT_WORLDS, seed) == payload
    assert changed, "the poisoned games hid different cards"
    # The comparison can fail: other sampled worlds give other figures.
    assert hints.compute_hint(view_of(game, 0), HINT_WORLDS, seed + 1) != payload


def test_hints_are_refused_with_one_line(server: ServerThread) -> None:
    """Spectators, out of turn, and a game with other people whose room has hints off."""
    solo = server.post("/api/rooms", {"name": "solo", "players": 2, "bots": {"1": "greedy"}}).json()
    duo = server.post("/api/rooms", {"name": "a", "players": 2}).json()
    friend = server.post(f"/api/rooms/{duo['room']}/join", {"name": "b"}).json()

    async def scenario() -> list[str]:
        errors: list[str] = []
        watcher = await Player.join(server, solo["room"], None)
        await watcher.send({"type": "hint", "id": "w"})
        errors.append(await _error(watcher))
        a = await Player.join(server, duo["room"], duo["token"])
        b = await Player.join(server, duo["room"], friend["token"])
        await a.send({"type": "start"})
        await a.expect("state")
        await b.expect("state")
        await a.send({"type": "hint"})
        errors.append(await _error(a))
        for p in (watcher, a, b):
            await p.close()
        return errors

    spectator, off = asyncio.run(scenario())
    assert spectator == "spectators cannot ask for hints"
    assert off.startswith("hints are off in this room")
    assert server.get(f"/api/rooms/{duo['room']}").json()["hints"] is False


async def _error(player: Player) -> str:
    while True:
        message = await player.recv(timeout=30)
        if message["type"] == "error":
            assert "\n" not in message["message"]
            return str(message["message"])
        assert message["type"] != "hint", message


def test_hints_on_for_everyone_and_the_review_goes_only_to_its_seat(server: ServerThread) -> None:
    """A room made with hints on: each may ask on its own turn, not out of turn; reviews stay private."""
    created = server.post("/api/rooms", {"name": "a", "players": 2, "hints": True}).json()
    room = created["room"]
    friend = server.post(f"/api/rooms/{room}/join", {"name": "b"}).json()
    assert server.get(f"/api/rooms/{room}").json()["hints"] is True

    async def scenario() -> tuple[str, list[Player]]:
        a = await Player.join(server, room, created["token"])
        b = await Player.join(server, room, friend["token"])
        watcher = await Player.join(server, room, None)
        await a.send({"type": "start"})
        players = [a, b]
        out_of_turn = ""
        rng = random.Random(5)
        reviews_seen = False
        for turn in range(400):
            await asyncio.sleep(0)
            if turn % 10 == 0:  # the watcher reads as it goes: a spectator that never reads is dropped
                await watcher.quiet()
            for p in players:
                while p.last_state is None or p.last_state["seq"] < max(
                    q.last_state["seq"] if q.last_state else 0 for q in players
                ):
                    await p.expect("state", timeout=30)
            acting = next((p for p in players if p.last_state and p.last_state["view"]["legal"]), None)
            if acting is None:
                break
            waiting = players[1 - players.index(acting)]
            if not out_of_turn and _my_card_turn(acting.last_state, acting.seat):
                await waiting.send({"type": "hint"})
                out_of_turn = await _error(waiting)
                await acting.send({"type": "hint", "id": "x"})
                got = await acting.expect("hint", timeout=60)
                assert got["seat"] == acting.seat and got["moves"]
            assert acting.last_state is not None
            action = rng.choice(acting.last_state["view"]["legal"])
            await acting.send({"type": "act", "action": action})
            acting.last_state = None
            await acting.expect("state", timeout=30)
            if any(m["type"] == "round_end" for m in acting.log):
                reviews_seen = True
                break
        assert reviews_seen
        await watcher.quiet()
        for p in players:
            if not any(m["type"] == "review" for m in p.log):
                await p.expect("review", timeout=120)
        # Each seat's review is sent, to that seat's clients, by the task that worked it out: both
        # tasks are done once both reviews are in, and whatever they sent to any connection is in
        # before the pong that each quiet() waits for.
        for p in [*players, watcher]:
            await p.quiet()
            await p.close()
        return out_of_turn, [a, b, watcher]

    out_of_turn, (a, b, watcher) = asyncio.run(scenario())
    assert out_of_turn == "a hint is for your own turn to play or take a card"
    for p in (a, b):
        mine = [m for m in p.log if m["type"] == "review"]
        assert len(mine) == 1 and mine[0]["seat"] == p.seat
        assert len(mine[0]["reviews"]) <= 3
        for item in mine[0]["reviews"]:
            assert item["win_chance_lost"] > 0 and item["played"]["action"] != item["best"]["action"]
    assert not [m for m in watcher.log if m["type"] in ("review", "hint")]


def test_the_hints_option_survives_a_restart(tmp_path: Any) -> None:
    """The room option is stored with the room: after a restart the room still has hints on."""
    database = f"sqlite:///{tmp_path / 'games.sqlite3'}"
    with running_server(database) as first:
        on = first.post("/api/rooms", {"name": "a", "players": 2, "hints": True}).json()["room"]
        off = first.post("/api/rooms", {"name": "a", "players": 2}).json()["room"]
        assert first.post("/api/rooms", {"name": "a", "hints": "yes"}).status_code == 400
    with running_server(database) as second:
        room = second.get(f"/api/rooms/{on}").json()
        assert room["hints"] is True
        assert room["rules"]["options"] == second.get(f"/api/rooms/{off}").json()["rules"]["options"]
        assert second.get(f"/api/rooms/{off}").json()["hints"] is False


def test_a_connection_may_ask_for_so_many_hints_a_minute() -> None:
    class Fake:
        seat: int | None = 0

        def send(self, message: str) -> None:
            pass

        def close(self, code: int, reason: str) -> None:
            pass

    desk = hints.HintDesk()
    one, other = Fake(), Fake()
    assert all(desk._rate_ok(one) for _ in range(hints.HINTS_PER_MINUTE))
    assert not desk._rate_ok(one)
    assert desk._rate_ok(other)
    desk.forget(one)
    assert desk._rate_ok(one)
