"""A room leaves memory (and, in a cluster, gives its lease back) as soon as it is idle, even when
its last client left while a move was being stored (the room's lock held: not idle at that moment)."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from roppyakken.rules import preset
from roppyakken.server.play.registry import Registry
from roppyakken.server.store.database import Database
from roppyakken.server.wire.bodies import CreateRoom
from tests.harness.poll import until_async
from tests.harness.server_harness import limits_for_tests


class _Client:
    """A connected client of seat 0 that keeps what it is sent."""

    seat: int | None = 0

    def __init__(self) -> None:
        self.sent: list[str] = []

    def send(self, message: str) -> None:
        self.sent.append(message)

    def close(self, code: int, reason: str) -> None:
        """Nothing to close."""


def test_a_room_whose_last_client_left_during_a_move_is_let_go_when_the_move_is_stored(
    tmp_path: Path,
) -> None:
    async def scenario() -> None:
        db = Database(f"sqlite:///{tmp_path / 'rooms.sqlite3'}")
        db.open()
        await db.start()
        hub = Registry(db, limits=limits_for_tests())  # room_idle: far longer than this test
        try:
            request = CreateRoom("host", 2, preset("classic"), None, {1: "random"})
            room, _ = await hub.create(request)
            client = _Client()
            assert await room.attach(client)
            game = room.game
            assert game is not None
            await until_async(
                lambda: game.over or (game.to_act == 0 and not room.bot_loop.busy()),
                10,
                "seat 0 to act",
            )
            assert not game.over
            writing, stored = asyncio.Event(), asyncio.Event()
            submit = db.submit

            async def after_stored(work: Any) -> Any:
                await stored.wait()
                return await submit(work)

            def held_write(work: Any) -> asyncio.Future[Any]:
                writing.set()
                return asyncio.ensure_future(after_stored(work))

            db.submit = held_write  # type: ignore[method-assign]
            move = asyncio.create_task(room.apply(0, game.legal_actions()[0]))
            await asyncio.wait_for(writing.wait(), 5)
            room.detach(client)  # the last client goes while the move is being stored
            stored.set()
            assert room.id in hub.rooms, "not idle yet: the move holds the lock"
            await move
            await until_async(lambda: room.id not in hub.rooms, 5, "the idle room let go after the move")
            assert room.evicted
        finally:
            await hub.close()
            await db.close()

    asyncio.run(scenario())
