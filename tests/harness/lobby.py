"""Players made over HTTP, and the lobby's websocket as a client sees it."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import pytest
from websockets.asyncio.client import ClientConnection, connect

from roppyakken.server.people.players import COOKIE

CSRF = "X-CSRF-Token"


def new_player(base: str, name: str, headers: dict[str, str] | None = None) -> tuple[str, str]:
    """A player made over HTTP (with ``headers`` besides the CSRF one): (its cookie value, its CSRF
    token)."""
    with httpx.Client(base_url=base, timeout=10) as client:
        made = client.post("/api/me", json={"name": name}, headers={CSRF: "new", **(headers or {})})
        assert made.status_code == 201
        return client.cookies[COOKIE], made.json()["csrf"]


class Lobby:
    """A lobby websocket with every message kept."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.log: list[dict[str, Any]] = []

    @classmethod
    async def open(cls, ws_url: str, cookie: str | None, headers: dict[str, str] | None = None) -> Lobby:
        """The lobby of the player of ``cookie`` (None: nobody), ``headers`` added (a ``Cookie`` one
        is joined to the player's)."""
        sent = dict(headers or {})
        if cookie is not None:
            sent["Cookie"] = "; ".join(c for c in (f"{COOKIE}={cookie}", sent.get("Cookie")) if c)
        lobby = cls(await connect(f"{ws_url}/ws/lobby", additional_headers=sent, open_timeout=10))
        await lobby.expect("lobby")
        return lobby

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def expect(self, kind: str, timeout: float = 10.0) -> dict[str, Any]:
        while True:
            message: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), timeout))
            self.log.append(message)
            if message["type"] == kind:
                return message
            assert message["type"] in ("lobby", "pong", "friends", "challenge"), message  # told unasked

    async def none_of(self, kind: str, seconds: float) -> None:
        with pytest.raises(TimeoutError):
            await self.expect(kind, seconds)

    async def seek(self, preset: str = "classic", players: int = 2, clock: str = "15+60") -> str:
        await self.send({"type": "seek", "id": "s", "preset": preset, "players": players, "clock": clock})
        token: str = (await self.expect("seeking"))["token"]
        return token
