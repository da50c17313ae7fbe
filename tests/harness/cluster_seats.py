"""Rooms made on a cluster through its front door, and seats that play them to the end across failovers."""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus

LONGER = {"toml": 'preset = "classic"\ninstant_win = "off"\ntarget = 1500\n'}
"""A game that cannot end in its first round (so a kill lands mid-game) but ends in a few seconds."""


def create_room(
    base: str, humans: int, bots: int, rules: dict[str, Any] | None = None
) -> tuple[str, list[str]]:
    """A started-when-joined room: humans' tokens (seat order); bots fill the last seats."""
    body: dict[str, Any] = {"name": "p0", "players": humans + bots}
    if rules:
        body["rules"] = rules
    if bots and humans == 1:
        body["bots"] = {str(s): "random" for s in range(1, 1 + bots)}
    created = httpx.post(base + "/api/rooms", json=body, timeout=10).json()
    room = created["room"]
    tokens = [created["token"]]
    for seat in range(1, humans):
        joined = httpx.post(f"{base}/api/rooms/{room}/join", json={"name": f"p{seat}"}, timeout=10)
        assert joined.status_code == 200, joined.text
        tokens.append(joined.json()["token"])
    return room, tokens


@dataclass
class Seat:
    """A client that plays its seat to the end, reconnecting whenever its connection drops.

    It acts on each state that offers it a decision, with that state's ``seq``
    (so a move resent after a failover is never made twice), and keeps every
    message it received and every move it sent.
    """

    urls: Callable[[], str]
    room: str
    token: str | None
    rng: random.Random
    host: bool = False
    bots: dict[int, str] = field(default_factory=dict)
    seat: int | None = None
    log: list[dict[str, Any]] = field(default_factory=list)
    sent: dict[int, list[dict[str, Any]]] = field(default_factory=dict)
    connections: int = 0
    errors: list[str] = field(default_factory=list)
    over: bool = False
    pace: float = 0.005
    """Seconds before each move (a little time for things to happen in between)."""
    paused: bool = False
    """While True the seat holds its moves (a test can keep a game running across an event)."""

    async def run(self, deadline: float) -> None:
        """Play until the game ends (fails after ``deadline``)."""
        while not self.over:
            assert time.monotonic() < deadline, f"the game stalled at {self.last_seq()}"
            try:
                await self._session()
            except (OSError, ConnectionClosed, InvalidHandshake, InvalidStatus, TimeoutError):
                await asyncio.sleep(0.2)

    def last_seq(self) -> int:
        """The latest ``seq`` seen."""
        return max((m["seq"] for m in self.log if "seq" in m), default=-1)

    async def _session(self) -> None:
        base = self.urls().replace("http://", "ws://", 1)
        async with connect(f"{base}/ws/{self.room}", open_timeout=10, max_size=2**22) as ws:
            self.connections += 1
            await ws.send(json.dumps({"type": "hello", "v": 1, "token": self.token}))
            while True:
                message = json.loads(await asyncio.wait_for(ws.recv(), 30))
                self.log.append(message)
                kind = message["type"]
                if kind == "welcome":
                    self.seat = message["seat"]
                    if self.host and message["room_info"]["status"] == "waiting":
                        for seat, level in self.bots.items():
                            order = {"type": "seat", "seat": seat, "kind": "bot", "level": level}
                            await ws.send(json.dumps(order))
                        await ws.send(json.dumps({"type": "start"}))
                elif kind == "error":
                    self.errors.append(message["message"])
                elif kind == "game_end":
                    self.over = True
                elif kind == "state" and self.over:
                    return
                if kind == "state" and self.seat is not None:
                    view = message["view"]
                    if view["legal"] and view["seat"] == self.seat and not view.get("winner"):
                        await asyncio.sleep(self.pace)
                        while self.paused:
                            await asyncio.sleep(0.01)
                        action = self.rng.choice(view["legal"])
                        self.sent.setdefault(message["seq"], []).append(action)
                        await ws.send(json.dumps({"type": "act", "action": action, "seq": message["seq"]}))
