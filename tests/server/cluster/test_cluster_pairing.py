"""Quick pairing across a cluster: players whose lobby connections reach different members (PostgreSQL,
Redis, three real ``serve --redis`` members) are paired by the pool in the database into one game,
which each reaches through its own member; four players in one pool make two games, nobody twice."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

import httpx
import pytest

from tests.harness import services
from tests.harness.lobby import Lobby, new_player
from tests.harness.server_harness import Player

pytestmark = pytest.mark.slow


@dataclass
class _At:
    """A member's websocket address, as :meth:`Player.join` reads it from a server."""

    ws_url: str


def test_players_on_different_members_are_paired_by_the_pool() -> None:
    with services.postgres() as pg, services.redis_server() as rd:
        database = services.new_database(pg, "pairing")
        with services.members(database, rd, 3) as started:

            async def run() -> None:
                urls = [m.url for m in started]
                ws_urls = [u.replace("http://", "ws://") for u in urls]
                # four players of four addresses (the members trust 127.0.0.1 as a proxy)
                where = [{"X-Forwarded-For": f"192.0.2.{i + 1}"} for i in range(4)]
                cookies = [new_player(urls[i % 3], f"P{i}", where[i])[0] for i in range(4)]
                # each player's lobby on another member than the one before it
                lobbies = [await Lobby.open(ws_urls[i % 3], cookies[i], where[i]) for i in range(4)]
                tokens = []
                for lobby in lobbies:
                    tokens.append(await lobby.seek("classic", 2, "60+300"))
                paired = [await lobby.expect("paired", 20) for lobby in lobbies]
                rooms = [p["room"] for p in paired]
                assert rooms[0] == rooms[1] and rooms[2] == rooms[3] and rooms[0] != rooms[2]  # oldest first
                assert [p["seat"] for p in paired] == [0, 1, 0, 1]
                assert [p["token"] for p in paired] == tokens
                # each player reaches its game through another member (relayed to the holder)
                for i, p in enumerate(paired):
                    at = _At(ws_urls[(i + 1) % 3])
                    player = await Player.join(at, p["room"], p["token"])  # type: ignore[arg-type]
                    assert player.seat == p["seat"]
                    welcome = player.log[0]
                    assert welcome["room_info"]["status"] == "playing"
                    assert welcome["room_info"]["seats"][p["seat"]]["name"] == f"P{i}"
                    await player.close()
                for lobby in lobbies:
                    await lobby.ws.close()

            asyncio.run(run())
            assert not [e for m in started for e in m.errors()], [e for m in started for e in m.errors()]


def test_puppets_of_one_address_are_never_paired_together_across_members() -> None:
    """Guests of one address, their lobbies on different members, wait apart in the shared pool: a
    player of another address is paired with the oldest; and the guests one address may make are
    counted over every member (the shared Redis buckets)."""
    with services.postgres() as pg, services.redis_server() as rd:
        database = services.new_database(pg, "puppets")
        bound = ["--guests-per-hour", "9"]  # a burst of 3 for the whole cluster
        with services.members(database, rd, 3, extra=bound) as started:
            urls = [m.url for m in started]
            ws_urls = [u.replace("http://", "ws://") for u in urls]
            puppet = {"X-Forwarded-For": "203.0.113.7"}
            made = [
                httpx.post(
                    urls[i % 3] + "/api/me",
                    json={"name": f"Puppet{i}"},
                    headers={"X-CSRF-Token": "new", **puppet},
                    timeout=10,
                )
                for i in range(5)
            ]
            assert [m.status_code for m in made] == [201, 201, 201, 429, 429]
            assert "too many new players" in made[3].json()["error"] and made[3].headers["Retry-After"]
            cookies = [m.cookies["rp_player"] for m in made[:3]]

            async def run() -> None:
                lobbies = [await Lobby.open(ws_urls[i], cookies[i], puppet) for i in range(3)]
                for lobby in lobbies:
                    await lobby.seek("classic", 2, "1d")
                # eight rounds on each member: nobody paired
                await asyncio.gather(*(lobby.none_of("paired", 2.0) for lobby in lobbies))
                elsewhere = {"X-Forwarded-For": "192.0.2.99"}
                stranger = await Lobby.open(
                    ws_urls[2], new_player(urls[1], "Stranger", elsewhere)[0], elsewhere
                )
                await stranger.seek("classic", 2, "1d")
                mine, theirs = await lobbies[0].expect("paired", 20), await stranger.expect("paired", 20)
                assert mine["room"] == theirs["room"] and (mine["seat"], theirs["seat"]) == (0, 1)
                await asyncio.gather(*(lobby.none_of("paired", 1.0) for lobby in lobbies[1:]))
                for lobby in (*lobbies, stranger):
                    await lobby.ws.close()

            asyncio.run(run())
            assert not [e for m in started for e in m.errors()], [e for m in started for e in m.errors()]


def test_chat_reaches_players_relayed_through_another_member() -> None:
    """Chat goes through the room's holder: a player on another member (relayed) says and reads lines."""
    with services.postgres() as pg, services.redis_server() as rd:
        database = services.new_database(pg, "chat")
        with services.members(database, rd, 2) as (first, second):
            made = httpx.post(first.url + "/api/rooms", json={"name": "Ann"}, timeout=10).json()
            joined = httpx.post(
                second.url + f"/api/rooms/{made['room']}/join", json={"name": "Bo"}, timeout=10
            ).json()

            async def run() -> None:
                ann = await Player.join(_At(first.url.replace("http", "ws")), made["room"], made["token"])  # type: ignore[arg-type]
                bo = await Player.join(_At(second.url.replace("http", "ws")), made["room"], joined["token"])  # type: ignore[arg-type]
                await bo.send({"type": "chat", "phrase": "hello"})
                line = await ann.expect("chat")
                assert (line["author"], line["name"], line["phrase"]) == ("seat:1", "Bo", "hello")
                await bo.send({"type": "mute", "author": "seat:0"})
                assert (await bo.expect("muted"))["muted"] == ["seat:0"]
                await ann.send({"type": "chat", "text": "hi"})
                await ann.expect("chat")
                assert [m for m in await bo.quiet() if m["type"] == "chat"] == []  # Ann is muted
                assert [m for m in bo.log if m["type"] == "chat"] == [line]  # its own line came back
                await ann.close()
                await bo.close()

            asyncio.run(run())
            assert not [e for m in (first, second) for e in m.errors()]


def test_two_members_claiming_at_once_never_pair_a_row_twice() -> None:
    """Two transactions claim the same pool at the same moment on PostgreSQL: the second skips the rows
    the first holds (``FOR UPDATE SKIP LOCKED``), so each player is in one game at most."""
    import time

    from sqlalchemy import update

    from roppyakken.server.club import pairing
    from roppyakken.server.club.pairing import Pool
    from roppyakken.server.people import players
    from roppyakken.server.store.database import Database
    from roppyakken.server.store.tables import pairing as table

    with services.postgres() as pg:
        db = Database(services.new_database(pg, "claims"))
        db.open()
        try:
            pool = Pool("classic", 2, "15+60")
            now = time.time()

            def made(name: str) -> str:
                return db.run_now(lambda c: players.create(c, name)).id

            def enter(player_id: str, joined: float) -> None:
                db.run_now(lambda c: pairing.enter(c, player_id, player_id, pool, "h" + player_id, joined))

            ids = [made(n) for n in ("a", "b", "c")]
            for offset, player_id in enumerate(ids):
                enter(player_id, now - 10 + offset)
            db.run_now(lambda c: c.execute(update(table).values(seen_at=now)))  # every member alive
            with db.engine.connect() as first, db.engine.connect() as second:
                one = first.begin()
                claimed_first = pairing.claim(first, now, postgres=True)  # holds the two oldest rows
                two = second.begin()
                claimed_second = pairing.claim(second, now, postgres=True)  # skips them: one row is left
                two.commit()
                one.commit()
            assert [[p[0] for p in c.players] for c in claimed_first] == [ids[:2]]
            assert claimed_second == []
            third = db.run_now(lambda c: pairing.claim(c, now, postgres=True))
            assert third == []  # "c" alone waits; "a" and "b" are never claimed again
        finally:
            db.engine.dispose()
