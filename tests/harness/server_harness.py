"""Test support for the web server: a real uvicorn server on a free loopback port, and websocket players.

Used by the ``test_server_*`` modules (and only by them); the server runs in a
thread with its own event loop, the test drives clients with ``asyncio.run``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from roppyakken.server.config import Limits
from roppyakken.server.store.database import Database
from roppyakken.server.web.app import create_app
from roppyakken.server.web.serving import Server, uvicorn_config
from roppyakken.server.wire import text


def limits_for_tests(**changes: Any) -> Limits:
    """The bounds of test servers: bots in threads, and no rate limits (tests make many rooms and
    guests quickly); every test client comes from 127.0.0.1, one network, so pairing may pair players of
    one address (``rated_same_address``, as a club's server would: tests of the default turn it off)."""
    base = Limits(
        bot_workers=0,
        rooms_per_minute=1e9,
        guests_per_hour=1e9,
        requests_per_minute=1e9,
        connections_per_address=10_000,
        rated_same_address=True,
    )
    return dataclasses.replace(base, **changes)


def metric(body: str, name: str) -> float:
    """The value of the metric ``name`` (with its labels, as exposed) in a ``/metrics`` body."""
    match = re.search(rf"^{re.escape(name)} ([0-9.e+-]+)$", body, re.MULTILINE)
    assert match, name
    return float(match.group(1))


class ServerThread:
    """``create_app(database)`` served by uvicorn on 127.0.0.1 and a free port, in a thread."""

    def __init__(
        self,
        database: str | Database,
        *,
        bot_delay: float = 0.0,
        limits: Limits | None = None,
        draw_seed: Callable[[], int] | None = None,
    ) -> None:
        self.database: str = database.url if isinstance(database, Database) else database
        """The database's URL."""
        self.bot_delay = bot_delay
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.port: int = self.sock.getsockname()[1]
        limits = limits or limits_for_tests()
        app = create_app(database, bot_delay=bot_delay, limits=limits, draw_seed=draw_seed)
        self.server = Server(uvicorn_config(app, limits), app)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def url(self) -> str:
        """``http://127.0.0.1:PORT``."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_url(self) -> str:
        """``ws://127.0.0.1:PORT``."""
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> ServerThread:
        """Start and wait until it accepts connections."""
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("the test server did not start")
            time.sleep(0.01)
        return self

    def stop(self) -> None:
        """Stop as Ctrl-C would (graceful shutdown), and wait."""
        self.server.should_exit = True
        self.thread.join(timeout=20)
        self.sock.close()
        if self.thread.is_alive():
            raise RuntimeError("the test server did not stop")

    def post(self, path: str, body: Any) -> httpx.Response:
        """POST JSON."""
        return httpx.post(self.url + path, json=body, timeout=10)

    def get(self, path: str) -> httpx.Response:
        """GET."""
        return httpx.get(self.url + path, timeout=10)


@contextmanager
def running_server(
    database: str | Database,
    *,
    bot_delay: float = 0.0,
    limits: Limits | None = None,
    draw_seed: Callable[[], int] | None = None,
) -> Iterator[ServerThread]:
    """A started :class:`ServerThread`, stopped at the end."""
    server = ServerThread(database, bot_delay=bot_delay, limits=limits, draw_seed=draw_seed).start()
    try:
        yield server
    finally:
        server.stop()


def stored_actions(database: str, room: str) -> list[dict[str, Any]]:
    """The actions stored for ``room`` (JSON), read straight from the database."""
    from roppyakken.server.store.room_store import load_room

    db = Database(database)
    try:
        stored = db.run_now(lambda c: load_room(c, room))
    finally:
        db.engine.dispose()
    assert stored is not None
    return [json.loads(a) for a in stored.actions]


class Player:
    """A websocket client of a room: every message it received is kept in ``log``."""

    def __init__(self, ws: ClientConnection, seat: int | None) -> None:
        self.ws = ws
        self.seat = seat
        self.log: list[dict[str, Any]] = []
        self.last_state: dict[str, Any] | None = None

    @classmethod
    async def join(cls, server: ServerThread, room: str, token: str | None) -> Player:
        """Connect, say hello and read the welcome."""
        ws = await connect(f"{server.ws_url}/ws/{room}", open_timeout=10, max_size=2**22)
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        player = cls(ws, None)
        welcome = await player.expect("welcome")
        player.seat = welcome["seat"]
        return player

    async def send(self, message: dict[str, Any]) -> None:
        """Send one message (JSON)."""
        await self.ws.send(json.dumps(message))

    async def recv(self, timeout: float = 10.0) -> dict[str, Any]:
        """The next message."""
        raw = await asyncio.wait_for(self.ws.recv(), timeout)
        message: dict[str, Any] = json.loads(raw)
        self.log.append(message)
        if message["type"] == "state":
            self.last_state = message
        return message

    async def expect(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        """Read until a message of type ``kind`` (an ``error`` on the way fails)."""
        while True:
            message = await self.recv(timeout)
            if message["type"] == kind:
                return message
            assert message["type"] != "error", message

    async def quiet(self) -> list[dict[str, Any]]:
        """Ping and return whatever arrived before the pong (nothing, if nothing happened)."""
        await self.send({"type": "ping", "id": "quiet"})
        seen: list[dict[str, Any]] = []
        while True:
            message = await self.recv()
            if message["type"] == "pong" and message.get("id") == "quiet":
                return seen
            seen.append(message)

    async def close(self) -> None:
        """Disconnect."""
        await self.ws.close()


async def hand_over_when_open(player: Player, seat: int, seconds: float = 30.0) -> dict[str, Any]:
    """``player`` asks for ``seat`` to be handed to a bot until the server agrees; the ``handed`` message.

    A seat may be handed over once the server has seen its player go and ``hand_over_after`` has
    passed since: an ask before that is refused (the player is connected, or wait) and changes
    nothing, so asking again is the poll.  The refusals, answers to the poll only, are not kept in
    ``player.log``.  The test fails if it is still refused after ``seconds``.
    """
    deadline = time.monotonic() + seconds
    while True:
        await player.send({"type": "hand_over", "seat": seat})
        answer = await player.recv()
        while answer["type"] not in ("handed", "error"):
            answer = await player.recv()
        if answer["type"] == "handed":
            return answer
        assert answer["text"]["template"] in (text.HAND_OVER_PRESENT, text.HAND_OVER_WAIT), answer
        assert player.log.pop() is answer
        if time.monotonic() > deadline:
            pytest.fail(f"not within {seconds:g} s: seat {seat} could be handed over ({answer['message']})")
        await asyncio.sleep(0.05)


async def play_to_end(
    players: list[Player], seed: int, max_moves: int = 5000, idle: frozenset[int] = frozenset()
) -> list[dict[str, Any]]:
    """Every player acts whenever its state offers legal actions (a seeded random choice), until game_end.

    Players of the ``idle`` seats never act (they only read).  Returns the ``game_end``
    messages.  Fails on any ``error``.
    """

    async def run(player: Player) -> dict[str, Any]:
        rng = random.Random(f"{seed}:{player.seat}")
        state = player.last_state
        moves = 0
        while True:
            mine = state is not None and state["view"]["seat"] == player.seat and player.seat not in idle
            if state is not None and mine and state["view"]["legal"]:
                action = rng.choice(state["view"]["legal"])
                await player.send({"type": "act", "action": action, "id": f"m{state['seq']}"})
                moves += 1
                assert moves < max_moves
            state = None
            while state is None:
                message = await player.recv(timeout=30)
                assert message["type"] != "error", message
                if message["type"] == "game_end":
                    # the final state follows; read it so logs are complete
                    await player.expect("state")
                    return message
                if message["type"] == "state":
                    state = message

    return list(await asyncio.gather(*(run(p) for p in players if p.seat is not None)))
