"""Quick pairing and the lobby's websocket: players paired into one game, oldest first, never with
themselves; cancelling and closing the page leave the pool; the lobby lists open public tables; by
rating, within a window that widens with waiting."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import math
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import Connection, func, insert, select, update
from websockets.asyncio.client import connect

from roppyakken.server.club import pairing
from roppyakken.server.club.pairing import POOL_TTL, Pool
from roppyakken.server.people import players
from roppyakken.server.people.players import COOKIE
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import pairing as table
from roppyakken.server.store.tables import ratings
from tests.harness.lobby import CSRF, Lobby, new_player
from tests.harness.ratings_season import (
    START,
    make_people,
    sqlite_database,
)
from tests.harness.server_harness import Player, ServerThread, running_server


async def _welcomed(server: ServerThread, paired: dict[str, Any], token: str) -> dict[str, Any]:
    player = await Player.join(server, paired["room"], token)
    try:
        assert player.seat == paired["seat"]
        return player.log[0]
    finally:
        await player.close()


def test_two_players_are_paired_into_one_clocked_public_game(server: ServerThread) -> None:
    async def run() -> None:
        (ann, _), (bo, _) = new_player(server.url, "Ann"), new_player(server.url, "Bo")
        a, b = await Lobby.open(server.ws_url, ann), await Lobby.open(server.ws_url, bo)
        ta = await a.seek()
        tb = await b.seek()
        pa, pb = await a.expect("paired"), await b.expect("paired")
        assert pa["room"] == pb["room"] and (pa["seat"], pb["seat"]) == (0, 1)  # the oldest first
        assert (pa["token"], pb["token"]) == (ta, tb)
        welcome = await _welcomed(server, pa, ta)
        await _welcomed(server, pb, tb)
        room = welcome["room_info"]
        assert room["status"] == "playing" and room["clock"] == "15+60" and room["public"] is True
        assert [s["name"] for s in room["seats"]] == ["Ann", "Bo"]
        await a.ws.close()
        await b.ws.close()

    asyncio.run(run())


def test_three_player_pools_fill_three_seats(server: ServerThread) -> None:
    async def run() -> None:
        lobbies = [await Lobby.open(server.ws_url, new_player(server.url, n)[0]) for n in ("Cy", "Di", "Ed")]
        tokens = []
        for lobby in lobbies[:2]:
            tokens.append(await lobby.seek("fuke", 3, "30+120"))
        await lobbies[0].none_of("paired", 1.0)  # two of three: nobody is paired yet
        tokens.append(await lobbies[2].seek("fuke", 3, "30+120"))
        paired = [await lobby.expect("paired") for lobby in lobbies]
        assert len({p["room"] for p in paired}) == 1 and [p["seat"] for p in paired] == [0, 1, 2]
        welcome = await _welcomed(server, paired[2], tokens[2])
        assert welcome["room_info"]["players"] == 3 and welcome["room_info"]["status"] == "playing"
        for lobby in lobbies:
            await lobby.ws.close()

    asyncio.run(run())


def test_never_with_oneself_and_cancel_and_closing_leave_the_pool(server: ServerThread) -> None:
    async def run() -> None:
        fay, _ = new_player(server.url, "Fay")
        one, two = await Lobby.open(server.ws_url, fay), await Lobby.open(server.ws_url, fay)
        await one.seek("online", 2, "60+300")
        await two.seek("online", 2, "60+300")  # the same player in a second tab: still one row
        await two.none_of("paired", 1.2)
        watcher = await Lobby.open(server.ws_url, None)
        seen = watcher.log[-1]
        deadline = time.monotonic() + 5
        while seen["pools"].get("online:2:60+300") != 1 and time.monotonic() < deadline:
            seen = await watcher.expect("lobby")
        assert seen["pools"].get("online:2:60+300") == 1
        await two.send({"type": "cancel", "id": "c"})
        assert (await two.expect("cancelled"))["id"] == "c"
        gus = await Lobby.open(server.ws_url, new_player(server.url, "Gus")[0])
        await gus.seek("online", 2, "60+300")
        await gus.none_of("paired", 1.2)  # Fay cancelled: nobody to pair with
        await gus.ws.close()  # closing the page leaves the pool too
        hal = await Lobby.open(server.ws_url, new_player(server.url, "Hal")[0])
        await hal.seek("online", 2, "60+300")
        await hal.none_of("paired", 1.2)
        for lobby in (one, two, watcher, hal):
            await lobby.ws.close()

    asyncio.run(run())


def test_lobby_messages_are_checked(server: ServerThread) -> None:
    async def run() -> None:
        anonymous = await Lobby.open(server.ws_url, None)
        await anonymous.send({"type": "seek", "preset": "classic", "players": 2, "clock": "15+60"})
        assert "POST /api/me" in (await anonymous.expect("error"))["message"]
        ivy = await Lobby.open(server.ws_url, new_player(server.url, "Ivy")[0])
        bad: list[tuple[dict[str, Any], str]] = [
            ({"type": "seek", "preset": "nope", "players": 2, "clock": "15+60"}, "'preset'"),
            ({"type": "seek", "preset": "classic", "players": 4, "clock": "15+60"}, "'players'"),
            ({"type": "seek", "preset": "classic", "players": 2, "clock": "none"}, "'clock'"),
            ({"type": "seek", "preset": "yamayaku", "players": 3, "clock": "15+60"}, "2 players"),
            ({"type": "seek", "preset": "classic", "players": 2, "clock": "15+60", "x": 1}, "'x'"),
            ({"type": "dance"}, "dance"),
            ({"type": "ping", "pad": "x" * 2000}, "too large"),
        ]
        for message, part in bad:
            await ivy.send(message)
            error = await ivy.expect("error")
            assert part in error["message"] and "\n" not in error["message"], (message, error)
        await ivy.ws.send(b"\x00")
        assert "binary" in (await ivy.expect("error"))["message"]
        for _ in range(12):  # the rate limit: a burst of 10, then refusals
            await ivy.send({"type": "ping"})
        kinds = []
        for _ in range(12):
            message = json.loads(await asyncio.wait_for(ivy.ws.recv(), 5))
            kinds.append(message["type"] if message["type"] != "lobby" else None)
        assert "error" in kinds
        await anonymous.ws.close()
        await ivy.ws.close()

    asyncio.run(run())


def test_the_lobby_lists_open_public_tables_and_joins_in_one_click(server: ServerThread) -> None:
    async def run() -> None:
        jo_cookie, jo_csrf = new_player(server.url, "Jo")
        cookies = {COOKIE: jo_cookie}
        body = {"name": "Jo", "players": 3, "clock": "30+120", "public": True}
        made = httpx.post(server.url + "/api/rooms", json=body, cookies=cookies, headers={CSRF: jo_csrf})
        private = httpx.post(server.url + "/api/rooms", json={"name": "Jo", "clock": "1d"}, timeout=10)
        room, hidden = made.json()["room"], private.json()["room"]
        watcher = await Lobby.open(server.ws_url, None)
        seen = watcher.log[-1]
        deadline = time.monotonic() + 5
        while not any(t["room"] == room for t in seen["tables"]) and time.monotonic() < deadline:
            seen = await watcher.expect("lobby")
        table = next(t for t in seen["tables"] if t["room"] == room)
        assert table == {
            "room": room,
            "preset": "classic",
            "players": 3,
            "clock": "30+120",
            "rated": False,
            "taken": 1,
            "host": "Jo",
        }
        assert all(t["room"] != hidden for t in seen["tables"])  # a private table is never listed
        assert httpx.post(f"{server.url}/api/rooms/{room}/join", json={"name": "Kim"}).status_code == 200
        while next(t for t in seen["tables"] if t["room"] == room)["taken"] != 2:
            seen = await watcher.expect("lobby")
        await watcher.ws.close()

    asyncio.run(run())


def _pool_rows(conn: Connection) -> int:
    """Rows in the pool."""
    return int(conn.execute(select(func.count()).select_from(table)).scalar() or 0)


def test_the_pool_claims_oldest_first_and_expires_silent_rows(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'pool.sqlite3'}")
    db.open()

    def made(name: str) -> str:
        return db.run_now(lambda c: players.create(c, name)).id

    def enter(player_id: str, joined: float) -> None:
        db.run_now(lambda c: pairing.enter(c, player_id, player_id, pool, "h" + player_id, joined))

    def seen(player_id: str, at: float) -> None:
        db.run_now(
            lambda c: c.execute(update(table).where(table.c.player_id == player_id).values(seen_at=at))
        )

    try:
        ids = [made(n) for n in ("old", "new", "mid", "gone")]
        pool = Pool("classic", 2, "15+60")
        now = time.time()
        for player_id, joined in zip(ids, (now - 5, now - 1, now - 3, now - 9), strict=True):
            enter(player_id, joined)
            seen(player_id, now)
        seen(ids[3], now - POOL_TTL - 1)  # its member stopped its heartbeat
        claims = db.run_now(lambda c: pairing.claim(c, now, postgres=False))
        assert [[p[0] for p in c.players] for c in claims] == [[ids[0], ids[2]]]  # "gone" expired first
        assert db.run_now(_pool_rows) == 3
        again = db.run_now(lambda c: pairing.claim(c, now, postgres=False))
        assert again == []  # claimed rows are never claimed twice; "new" alone waits
    finally:
        db.engine.dispose()


def test_another_sites_page_cannot_open_the_lobby_with_the_cookie(server: ServerThread) -> None:
    """A websocket carries the cookie: its Origin is checked before the handshake (the CSRF guard)."""
    from websockets.exceptions import InvalidStatus

    cookie, _ = new_player(server.url, "Kit")

    async def run() -> None:
        headers = {"Cookie": f"{COOKIE}={cookie}", "Origin": "https://evil.example"}
        with pytest.raises(InvalidStatus) as refused:
            await connect(f"{server.ws_url}/ws/lobby", additional_headers=headers, open_timeout=10)
        assert refused.value.response.status_code == 403
        same = {"Cookie": f"{COOKIE}={cookie}", "Origin": server.url}
        async with connect(f"{server.ws_url}/ws/lobby", additional_headers=same, open_timeout=10) as ws:
            first = json.loads(await asyncio.wait_for(ws.recv(), 10))
            assert first["type"] == "lobby" and first["player"]["name"] == "Kit"

    asyncio.run(run())


def test_the_lobby_lists_a_table_while_its_host_is_there(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table is listed while its host has the room open, however old it is; once the host left (or
    never came), it leaves the list within the grace."""
    from roppyakken.server.club import open_tables as tables

    monkeypatch.setattr(tables, "HOST_GRACE", 1.5)
    monkeypatch.setattr(tables, "HOST_REFRESH", 0.2)

    def listed(snapshot: dict[str, Any]) -> set[str]:
        return {t["room"] for t in snapshot["tables"]}

    async def until(watcher: Lobby, check: Any, what: str, seconds: float = 10.0) -> None:
        deadline = time.monotonic() + seconds
        while not check(listed(watcher.log[-1])):
            assert time.monotonic() < deadline, what
            await watcher.expect("lobby", timeout=seconds)

    with running_server(f"sqlite:///{tmp_path / 'tables.sqlite3'}") as served:

        async def run() -> None:
            body = {"name": "Hal", "players": 2, "clock": "30+120", "public": True}
            stayed = httpx.post(served.url + "/api/rooms", json=body, timeout=10).json()
            left = httpx.post(served.url + "/api/rooms", json=body, timeout=10).json()
            never = httpx.post(served.url + "/api/rooms", json=body, timeout=10).json()
            watcher = await Lobby.open(served.ws_url, None)
            await until(watcher, lambda rooms: {stayed["room"], left["room"]} <= rooms, "not listed")
            host = await Player.join(served, stayed["room"], stayed["token"])
            leaving = await Player.join(served, left["room"], left["token"])
            await until(watcher, lambda rooms: never["room"] not in rooms, "a table nobody hosts stays")
            await leaving.close()
            await until(watcher, lambda rooms: left["room"] not in rooms, "a table its host left stays")
            began = time.monotonic()
            while time.monotonic() - began < 3 * tables.HOST_GRACE:  # well past the grace: still there
                assert stayed["room"] in listed(watcher.log[-1])
                with contextlib.suppress(TimeoutError):
                    await watcher.expect("lobby", timeout=0.5)
            await host.close()
            await watcher.ws.close()

        asyncio.run(run())


# ------------------------------------------------------------------ quick pairing by rating


def test_the_window_widens_with_waiting_and_opens() -> None:
    assert pairing.window(0.0) == pairing.WINDOW_START
    assert pairing.window(5.0) == pairing.WINDOW_START + 5 * pairing.WINDOW_GROWTH
    assert pairing.window(pairing.WINDOW_OPEN_AFTER) == math.inf
    now = 1000.0
    # a strong player waiting alone with two far weaker ones: the two weaker play together
    assert pairing.groups([(now - 1, 2000.0), (now - 1, 1500.0), (now, 1520.0)], 2, now) == [[1, 2]]
    # far apart: nobody is paired until the newer one's window reaches the gap too
    far = [(now - 2, 1500.0), (now - 1, 1500.0 + pairing.WINDOW_START + 60)]
    assert pairing.groups(far, 2, now) == []
    assert pairing.groups(far, 2, now + 5) == [[0, 1]]  # 150 + 10*6 s, 150 + 10*6 s
    # three players: every two must accept each other
    three = [(now, 1500.0), (now, 1640.0), (now, 1400.0), (now, 1560.0)]
    assert pairing.groups(three, 3, now) == [[0, 1, 3]]
    assert pairing.groups([(now - 40, 0.0), (now - 40, 3000.0)], 2, now) == [[0, 1]]


def test_the_claim_pairs_by_rating(tmp_path: Path) -> None:
    db = sqlite_database(tmp_path)
    pool = Pool("classic", 2, "15+60")
    try:
        ids = db.run_now(lambda c: make_people(c, 3))
        now = time.time()

        def rated(conn: Connection, player_id: str, mu: float) -> None:
            row = {"pool": "classic-2", "sigma": 2.0, "games": 30, "last_seq": 0, "last_played": START}
            conn.execute(insert(ratings).values(player_id=player_id, mu=mu, **row))

        def waiting(conn: Connection, player_id: str, joined: float) -> None:
            pairing.enter(conn, player_id, player_id, pool, "h" + player_id, joined)
            conn.execute(update(table).where(table.c.player_id == player_id).values(seen_at=now))

        for player_id, mu in zip(ids, (40.0, 25.0, 24.0), strict=True):
            db.run_now(functools.partial(rated, player_id=player_id, mu=mu))
        for player_id, joined in zip(ids, (now - 3, now - 2, now - 1), strict=True):
            db.run_now(functools.partial(waiting, player_id=player_id, joined=joined))
        claims = db.run_now(lambda c: pairing.claim(c, now, postgres=False))
        # the oldest (mu 40, 450 points above) waits; the two of about the same rating play
        assert [[p[0] for p in c.players] for c in claims] == [[ids[1], ids[2]]]
        assert db.run_now(lambda c: pairing.claim(c, now, postgres=False)) == []
    finally:
        db.engine.dispose()
