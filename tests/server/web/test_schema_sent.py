"""What the server really sends validates against the JSON Schema it publishes (``GET /api/schema``):
the lobby's ``error`` and ``pong``, and chat errors, each echoing the ``id`` of the message it answers
(a client matches errors to its requests by it)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # via ray in the dev lock

from tests.harness.lobby import Lobby, new_player
from tests.harness.server_harness import Player, ServerThread, play_to_end
from tests.harness.support import ROOT


def _validator(server: ServerThread, name: str) -> Draft202012Validator:
    published = server.get("/api/schema").json()
    return Draft202012Validator(published[name])


def _valid(validator: Draft202012Validator, message: dict[str, Any]) -> None:
    problems = [e.message for e in validator.iter_errors(message)]
    assert problems == [], (message, problems)


def test_the_lobby_error_and_pong_validate_and_echo_the_id(server: ServerThread) -> None:
    validator = _validator(server, "lobby_server_message")

    async def run() -> list[dict[str, Any]]:
        anonymous = await Lobby.open(server.ws_url, None)
        await anonymous.send({"type": "seek", "id": "who", "preset": "classic", "players": 2, "clock": "1d"})
        nobody = await anonymous.expect("error")
        lobby = await Lobby.open(server.ws_url, new_player(server.url, "Schema")[0])
        await lobby.send({"type": "ping", "id": "p1"})
        pong = await lobby.expect("pong")
        await lobby.send({"type": "ping"})
        bare = await lobby.expect("pong")
        await lobby.send({"type": "seek", "id": "bad", "preset": "nope", "players": 2, "clock": "1d"})
        malformed = await lobby.expect("error")
        await lobby.send({"type": "seek", "id": "three", "preset": "yamayaku", "players": 3, "clock": "1d"})
        refused = await lobby.expect("error")
        await lobby.seek("classic", 2, "1d")
        await lobby.send({"type": "cancel", "id": "c"})
        await lobby.expect("cancelled")
        for each in (anonymous, lobby):
            await each.ws.close()
        assert [nobody["id"], pong["id"], malformed["id"], refused["id"]] == ["who", "p1", "bad", "three"]
        assert "id" not in bare and "2 players" in refused["message"]
        return anonymous.log + lobby.log

    sent = asyncio.run(run())
    assert {m["type"] for m in sent} >= {"lobby", "error", "pong", "seeking", "cancelled"}
    for message in sent:
        _valid(validator, message)
    assert not validator.is_valid({"type": "error", "id": "x"})  # the schema says what an error holds


def test_chat_errors_validate_and_echo_the_id(server: ServerThread) -> None:
    validator = _validator(server, "server_message")
    made = server.post("/api/rooms", {"name": "Ann"}).json()
    room = made["room"]

    async def run() -> list[dict[str, Any]]:
        ann = await Player.join(server, room, made["token"])
        errors = []
        for index, bad in enumerate(
            (
                {"type": "chat", "text": "   "},  # only spaces: nothing to say
                {"type": "chat", "text": "a\x07b"},  # a control character
                {"type": "chat", "text": "a\u202eb"},  # a format character
                {"type": "chat", "text": "x" * 201},
                {"type": "chat", "phrase": "insult"},
            )
        ):
            await ann.send({**bad, "id": f"c{index}"})
            errors.append(await ann.expect("error"))
        await ann.close()
        assert [e["id"] for e in errors] == [f"c{i}" for i in range(5)], errors
        return ann.log

    for message in asyncio.run(run()):
        _valid(validator, message)


def test_the_lobby_messages_documented_are_those_published(server: ServerThread, tmp_path: Path) -> None:
    """docs/PROTOCOL.md names every message the lobby sends, as the schema declares them."""
    published = server.get("/api/schema").json()["lobby_server_message"]
    kinds = {
        definition["properties"]["type"]["const"]
        for definition in published["$defs"].values()
        if "type" in definition.get("properties", {}) and "const" in definition["properties"]["type"]
    }
    assert kinds == {
        "lobby",
        "seeking",
        "cancelled",
        "paired",
        "playban",
        "error",
        "pong",
        "challenge",
        "friends",
    }
    docs = (ROOT / "docs" / "PROTOCOL.md").read_text(encoding="utf-8")
    lobby = docs.split("## The lobby: `/ws/lobby`")[1].split("\n## ")[0]
    assert all(f"`{kind}`" in lobby for kind in kinds), [k for k in kinds if f"`{k}`" not in lobby]


def test_every_message_of_a_whole_game_validates(server: ServerThread) -> None:
    """A game against a bot with a clock, chat, mutes, hints and pings: every message the server
    sends (one of a type the schema lacks included) validates against the published schema."""
    validator = _validator(server, "server_message")
    made = server.post(
        "/api/rooms", {"name": "Ann", "bots": {"1": "random"}, "hints": True, "clock": "1d"}
    ).json()

    async def run() -> list[dict[str, Any]]:
        ann = await Player.join(server, made["room"], made["token"])
        watcher = await Player.join(server, made["room"], None)
        await ann.send({"type": "start", "id": "s"})  # refused: a full room starts by itself
        while (await ann.recv())["type"] != "error":
            pass
        await ann.send({"type": "ping", "id": "p"})
        await ann.expect("pong")
        await ann.send({"type": "chat", "phrase": "good_luck", "id": "c"})
        await ann.expect("chat")
        await ann.send({"type": "chat", "text": "hello there"})
        await ann.expect("chat")
        await ann.send({"type": "chat_history", "id": "h"})
        await ann.expect("chat_history")
        await ann.send({"type": "mute", "author": "seat:1", "id": "m"})
        await ann.expect("muted")
        await play_to_end([ann], seed=5)
        await ann.quiet()
        await watcher.quiet()
        await ann.close()
        await watcher.close()
        return ann.log + watcher.log

    sent = asyncio.run(run())
    kinds = {m["type"] for m in sent}
    expected = {"welcome", "room", "history", "state", "events", "round_end", "game_end", "pong", "error"}
    assert kinds >= expected | {"chat", "chat_history", "muted"}, kinds
    for message in sent:
        _valid(validator, message)
    assert not validator.is_valid({"type": "undeclared"})  # a type the schema lacks fails
