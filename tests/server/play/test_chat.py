"""Room chat: players and spectators apart, quick phrases, the length cap and rate limit, no control
characters, muting, the history kept with the room and removed with it."""

from __future__ import annotations

import asyncio
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

from roppyakken.server.store import room_store
from roppyakken.server.store.database import Database
from tests.harness.server_harness import Player, running_server


async def _quiet_lines(player: Player) -> list[dict[str, object]]:
    return [m for m in await player.quiet() if m["type"] == "chat"]


def test_chat_channels_limits_and_mutes(tmp_path: Path) -> None:
    database = f"sqlite:///{tmp_path / 'chat.sqlite3'}"
    with running_server(database) as server:
        made = server.post("/api/rooms", {"name": "Ann"}).json()
        room = made["room"]
        second = server.post(f"/api/rooms/{room}/join", {"name": "Bo"}).json()["token"]

        async def run() -> None:
            ann, bo = await Player.join(server, room, made["token"]), await Player.join(server, room, second)
            watch1, watch2 = await Player.join(server, room, None), await Player.join(server, room, None)
            everyone = (ann, bo, watch1, watch2)
            for p in everyone:
                await p.quiet()
            await ann.send({"type": "chat", "text": "  hello   <b>there</b> "})
            line = await bo.expect("chat")
            assert line["channel"] == "players" and line["author"] == "seat:0" and line["name"] == "Ann"
            assert line["text"] == "hello <b>there</b>"  # stored and sent as plain text, never rendered
            assert (await ann.expect("chat"))["idx"] == line["idx"]  # the author sees its own line
            assert await _quiet_lines(watch1) == []  # spectators do not read the players
            await watch1.send({"type": "chat", "phrase": "good_game"})
            seen = await watch2.expect("chat")
            assert seen["channel"] == "spectators" and seen["phrase"] == "good_game" and seen["text"] is None
            assert seen["author"].startswith("spec:") and seen["name"] == ""
            assert await _quiet_lines(ann) == [] and await _quiet_lines(bo) == []
            # refused, each with one line, and nothing sent to anyone
            for bad, part in (
                ({"type": "chat", "text": "x" * 201}, "'text'"),
                ({"type": "chat", "text": "a\x07b"}, "control"),
                ({"type": "chat", "text": "a\u202eb"}, "control"),
                ({"type": "chat", "text": "hi", "phrase": "thanks"}, "'text'"),
                ({"type": "chat"}, "'text'"),
                ({"type": "chat", "phrase": "insult"}, "'phrase'"),
            ):
                await bo.send(bad)
                error = await bo.expect("error")
                assert part in error["message"] and "\n" not in error["message"], (bad, error)
            assert await _quiet_lines(ann) == []
            # Bo mutes Ann: Bo no longer gets her lines; she and the others still do
            await bo.send({"type": "mute", "author": "seat:0", "id": "m"})
            assert (await bo.expect("muted"))["muted"] == ["seat:0"]
            await ann.send({"type": "chat", "phrase": "oops"})
            assert (await ann.expect("chat"))["phrase"] == "oops"
            assert await _quiet_lines(bo) == []
            await bo.send({"type": "chat_history", "id": "h"})
            history = await bo.expect("chat_history")
            assert history["muted"] == ["seat:0"] and all(x["author"] != "seat:0" for x in history["lines"])
            await bo.send({"type": "mute", "author": "seat:0", "muted": False})
            assert (await bo.expect("muted"))["muted"] == []
            # the rate limit: a burst of 5 lines, then a one-line refusal
            for n in range(5):
                await bo.send({"type": "chat", "text": f"line {n}"})
                await bo.expect("chat")
            await bo.send({"type": "chat", "text": "one too many"})
            assert "too many chat lines" in (await bo.expect("error"))["message"]
            # the history is kept: a new connection of Ann's asks for it
            await ann.close()
            again = await Player.join(server, room, made["token"])
            await again.send({"type": "chat_history"})
            lines = (await again.expect("chat_history"))["lines"]
            assert [x.get("text") or x.get("phrase") for x in lines] == [
                "hello <b>there</b>",
                "oops",
                *[f"line {n}" for n in range(5)],
            ]
            for p in (again, bo, watch1, watch2):
                await p.close()

        asyncio.run(run())

    # removed with the room
    path = tmp_path / "chat.sqlite3"
    with sqlite3.connect(path) as conn:
        assert conn.execute("select count(*) from chat where room_id = ?", (room,)).fetchone() == (8,)
    db = Database(database)
    try:
        db.run_now(lambda c: room_store.delete_unfinished(c, datetime.now(UTC) + timedelta(days=1)))
    finally:
        db.engine.dispose()
    with sqlite3.connect(path) as conn:
        assert conn.execute("select count(*) from chat where room_id = ?", (room,)).fetchone() == (0,)
