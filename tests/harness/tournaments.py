"""Tournament players over HTTP, and their tables played over the room websocket."""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from typing import Any, Protocol

import httpx
import pytest
from sqlalchemy import Connection, insert

from roppyakken.server.club.tournaments import store
from roppyakken.server.club.tournaments.store import Entry
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import players, tournament_tables
from tests.harness.lobby import CSRF
from tests.harness.server_harness import Player, ServerThread, play_to_end

PASSWORD = "correct horse battery"


class Served(Protocol):
    """A server's address (a test server, or a cluster member)."""

    @property
    def url(self) -> str:
        """``http://HOST:PORT``."""
        ...


class Entrant:
    """A player (its own cookies) with the seat token of its tournament."""

    addresses = itertools.count(1)
    """Each entrant comes from an address of its own (``X-Forwarded-For``, for servers that trust
    127.0.0.1 as a proxy): one address enters a rated tournament once."""

    def __init__(
        self, server: Served, name: str, *, account: bool = False, address: str | None = None
    ) -> None:
        self.name = name
        n = next(Entrant.addresses)
        self.address = address or f"10.{n // 65536 % 256}.{n // 256 % 256}.{n % 256}"
        self.client = httpx.Client(base_url=server.url, timeout=30, headers={"X-Forwarded-For": self.address})
        made = self.client.post("/api/me", json={"name": name}, headers={CSRF: "new"})
        assert made.status_code == 201, made.text
        self.csrf = str(made.json()["csrf"])
        self.id = str(made.json()["player"]["id"])
        if account:
            signed = self.post("/api/account", {"login": name, "password": PASSWORD})
            assert signed.status_code == 201, signed.text
            self.csrf = str(signed.json()["csrf"])
        self.token: str | None = None

    def post(self, path: str, body: Any = None) -> httpx.Response:
        """POST JSON with the CSRF token."""
        return self.client.post(path, json={} if body is None else body, headers={CSRF: self.csrf})

    def make(self, body: dict[str, Any]) -> str:
        """Make a tournament (``POST /api/tournaments``): its id."""
        made = self.post("/api/tournaments", body)
        assert made.status_code == 201, made.text
        return str(made.json()["id"])

    def join(self, tournament: str) -> dict[str, Any]:
        """Join; keeps the token."""
        joined = self.post(f"/api/tournaments/{tournament}/join")
        assert joined.status_code == 200, joined.text
        answer: dict[str, Any] = joined.json()
        self.token = str(answer["token"])
        return answer

    def cookie_header(self) -> dict[str, str]:
        """This player's cookies as a ``Cookie`` header (for a websocket opened beside the client)."""
        return {"Cookie": "; ".join(f"{name}={value}" for name, value in self.client.cookies.items())}

    def view(self, tournament: str) -> dict[str, Any]:
        """``GET /api/tournaments/<id>`` as this player."""
        got = self.client.get(f"/api/tournaments/{tournament}")
        assert got.status_code == 200, got.text
        answer: dict[str, Any] = got.json()
        return answer

    def close(self) -> None:
        """Close the HTTP client."""
        self.client.close()


def wait_for(check: Any, seconds: float, what: str) -> Any:
    """Poll ``check()`` until it returns something true, and return it."""
    deadline = time.monotonic() + seconds
    while True:
        found = check()
        if found:
            return found
        if time.monotonic() > deadline:
            pytest.fail(f"not within {seconds:g} s: {what}")
        time.sleep(0.05)


def play_round(server: ServerThread, tournament: str, entrants: list[Entrant], seed: int) -> list[str]:
    """Every entrant with a table plays it to the end over its websocket; the rooms played."""
    seats: dict[str, list[tuple[Entrant, int]]] = {}
    for entrant in entrants:
        table = entrant.view(tournament)["me"]["table"]
        if table is not None:
            seats.setdefault(table["room"], []).append((entrant, table["seat"]))

    async def run() -> None:
        async def one(room: str, at: list[tuple[Entrant, int]]) -> None:
            players = [await Player.join(server, room, e.token) for e, _ in at]
            assert sorted(p.seat for p in players if p.seat is not None) == sorted(s for _, s in at)
            await play_to_end(players, seed=seed)
            for p in players:
                await p.close()

        await asyncio.gather(*(one(room, at) for room, at in seats.items()))

    asyncio.run(run())
    return sorted(seats)


def tournament_row(fmt: str, starts_at: float, **values: Any) -> dict[str, Any]:
    """A tournament's row for ``store.create`` (id ``t1``, named after its format): tables of 2,
    classic, 15+60, unrated, public, made by nobody a minute before it starts, scheduled; ``values``
    replace or add any column."""
    row: dict[str, Any] = {
        "id": "t1",
        "name": fmt,
        "format": fmt,
        "preset": "classic",
        "players": 2,
        "clock": "15+60",
        "rated": False,
        "visibility": "public",
        "creator": None,
        "created_at": starts_at - 60,
        "starts_at": starts_at,
        "status": store.SCHEDULED,
    }
    return row | values


def join_named(c: Connection, tournament_id: str, names: Iterable[str], joined_at: float) -> None:
    """Players whose ids are ``names`` (each shown upper-case, rated 1500, seat-token hash
    ``h<name>``) made and joined to the tournament at ``joined_at``."""
    for name in names:
        c.execute(insert(players).values(id=name, secret_hash="x", name=name, created_at=datetime.now(UTC)))
        entry = Entry(name, name.upper(), 1500.0, "h" + name, joined_at, joined_at, False, False, 0)
        store.join(c, tournament_id, entry)


def _write_straight(database: str, fill: Callable[[Connection], None]) -> None:
    """Run ``fill`` in one transaction on ``database`` (migrated first), beside any server on it."""
    db = Database(database)
    db.open()
    try:
        db.run_now(fill)
    finally:
        db.engine.dispose()


def add_entrants(database: str, tournament_id: str, count: int) -> list[str]:
    """``count`` entrants written straight into a tournament (players ``many00``…, named ``Many 00``…,
    rated from 1900 down): many lines of standings without as many clients.  Their names."""
    now = time.time()
    names = [f"Many {i:02d}" for i in range(count)]

    def fill(c: Connection) -> None:
        for i, name in enumerate(names):
            player = f"many{i:02d}"
            c.execute(
                insert(players).values(id=player, secret_hash="x", name=name, created_at=datetime.now(UTC))
            )
            store.join(c, tournament_id, Entry(player, name, 1900.0 - i, f"h{i}", now, now, False, False, 0))

    _write_straight(database, fill)
    return names


def add_tables_written(
    database: str, tournament_id: str, tables: Iterable[tuple[tuple[str, ...], str, tuple[int, ...] | None]]
) -> None:
    """Tables written straight into a tournament, numbered in the order given: each its players, its
    room and its places (None: in play): many tables without as many games."""
    now = time.time()

    def fill(c: Connection) -> None:
        for number, (seated, room, places) in enumerate(tables, start=1):
            c.execute(
                insert(tournament_tables).values(
                    tournament_id=tournament_id,
                    number=number,
                    round=0,
                    players=json.dumps(list(seated)),
                    paired_at=now,
                    room_id=room,
                    finished_at=None if places is None else now,
                    places=None if places is None else json.dumps(list(places)),
                )
            )

    _write_straight(database, fill)
