"""Rating farming with identities one controls: seats of one address or one browser are never paired
together in quick pairing (every pool is rated) unless the operator allows it; guests are made at a
bounded rate per address; a server may keep rated games to accounts; pairing's window widens on the
server's ``--clock-scale``.

Addresses are given with ``X-Forwarded-For`` through a trusted proxy (127.0.0.1, the test client), as
a balancer in front of the server would name them."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import insert, select, update

from roppyakken.server.club import pairing
from roppyakken.server.club.ratings.scale import MU0
from roppyakken.server.config import Limits
from roppyakken.server.people.players import BROWSER_COOKIE, COOKIE
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import ratings, seat_players
from tests.harness.lobby import CSRF, Lobby, new_player
from tests.harness.server_harness import ServerThread, limits_for_tests, running_server

POOL = ("online", 2, "1d")
"""The pool the puppets seek (turn-based: a paired game's clock never runs out during a test)."""
KEY = "online:2:1d"
PUPPETS_ADDRESS = "203.0.113.7"


def _limits(**changes: Any) -> Limits:
    """The test bounds, behind a trusted proxy, with the default protection unless ``changes`` say."""
    return limits_for_tests(**{"trusted_proxies": ("127.0.0.1",), "rated_same_address": False, **changes})


@pytest.fixture(scope="module")
def proxied_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """A server with the default protection (``rated_same_address`` off) behind a trusted proxy."""
    path = tmp_path_factory.mktemp("puppets") / "p.sqlite3"
    with running_server(f"sqlite:///{path}", limits=_limits()) as served:
        yield served


def _from(address: str, browser: str | None = None) -> dict[str, str]:
    headers = {"X-Forwarded-For": address}
    if browser is not None:
        headers["Cookie"] = f"{BROWSER_COOKIE}={browser}"
    return headers


async def _waiting(watcher: Lobby, count: int) -> None:
    """Poll the watcher's lobby until ``count`` players wait in the pool (or fail after 10 s)."""
    deadline = time.monotonic() + 10
    while watcher.log[-1]["pools"].get(KEY, 0) != count:
        assert time.monotonic() < deadline, watcher.log[-1]["pools"]
        await watcher.expect("lobby")


def test_rows_of_one_address_or_browser_are_never_grouped() -> None:
    now = 1000.0
    waiting = [(now - 9, 1500.0), (now - 8, 1500.0), (now - 7, 1500.0), (now - 6, 1500.0)]
    one = frozenset({"a:1"})
    origins = [one, one | {"b:1"}, frozenset({"a:2", "b:1"}), frozenset({"a:3"})]
    assert pairing.groups(waiting, 2, now) == [[0, 1], [2, 3]]  # without origins: oldest first
    # 0 and 1 share an address, 1 and 2 a browser: 0 goes with 2, then 1 with 3
    assert pairing.groups(waiting, 2, now, origins=origins) == [[0, 2], [1, 3]]
    assert pairing.groups(waiting[:2], 2, now, origins=origins[:2]) == []
    assert pairing.groups(waiting, 3, now, origins=[one] * 4) == []


def test_guests_of_one_address_are_never_paired_together(proxied_server: ServerThread) -> None:
    async def run() -> None:
        puppets = [new_player(proxied_server.url, f"Puppet{i}", _from(PUPPETS_ADDRESS))[0] for i in range(4)]
        watcher = await Lobby.open(proxied_server.ws_url, None)
        lobbies = [await Lobby.open(proxied_server.ws_url, c, _from(PUPPETS_ADDRESS)) for c in puppets]
        tokens = [await lobby.seek(*POOL) for lobby in lobbies]
        await _waiting(watcher, 4)
        await asyncio.gather(*(lobby.none_of("paired", 1.5) for lobby in lobbies))  # six rounds: nobody
        stranger = await Lobby.open(proxied_server.ws_url, new_player(proxied_server.url, "Stranger")[0])
        theirs = await stranger.seek(*POOL)
        mine, paired = await lobbies[0].expect("paired"), await stranger.expect("paired")
        assert mine["room"] == paired["room"] and (mine["seat"], paired["seat"]) == (0, 1)
        assert (mine["token"], paired["token"]) == (tokens[0], theirs)
        await _waiting(watcher, 3)  # the three other puppets still wait, apart
        for lobby in (watcher, stranger, *lobbies):
            await lobby.ws.close()

    asyncio.run(run())


def test_guests_of_one_browser_are_never_paired_together_from_any_address(
    proxied_server: ServerThread,
) -> None:
    async def run() -> None:
        browser = httpx.get(proxied_server.url + "/api/me", timeout=10).cookies[BROWSER_COOKIE]
        addresses = [f"198.51.100.{i}" for i in range(1, 4)]
        made = [
            new_player(proxied_server.url, f"Tab{i}", _from(a, browser))[0] for i, a in enumerate(addresses)
        ]
        watcher = await Lobby.open(proxied_server.ws_url, None)
        lobbies = [
            await Lobby.open(proxied_server.ws_url, c, _from(a, browser))
            for c, a in zip(made, addresses, strict=True)
        ]
        for lobby in lobbies:
            await lobby.seek(*POOL)
        await _waiting(watcher, 3)
        await asyncio.gather(*(lobby.none_of("paired", 1.5) for lobby in lobbies))
        elsewhere = _from("192.0.2.50")
        stranger = await Lobby.open(
            proxied_server.ws_url, new_player(proxied_server.url, "Other", elsewhere)[0], elsewhere
        )
        await stranger.seek(*POOL)
        mine, paired = await lobbies[0].expect("paired"), await stranger.expect("paired")
        assert mine["room"] == paired["room"]
        await _waiting(watcher, 2)
        for lobby in (watcher, stranger, *lobbies):
            await lobby.ws.close()

    asyncio.run(run())


def test_the_browser_mark_is_given_once_and_kept_across_new_guests(proxied_server: ServerThread) -> None:
    with httpx.Client(base_url=proxied_server.url, timeout=10) as client:
        client.get("/api/me")
        mark = client.cookies[BROWSER_COOKIE]
        client.post("/api/me", json={"name": "First"}, headers={CSRF: "new"})
        client.cookies.delete(COOKIE)  # a new guest in the same browser
        again = client.post("/api/me", json={"name": "Second"}, headers={CSRF: "new"})
        assert again.status_code == 201 and BROWSER_COOKIE not in again.cookies
        assert client.cookies[BROWSER_COOKIE] == mark
        set_cookie = httpx.get(proxied_server.url + "/api/me", timeout=10).headers["set-cookie"]
        assert "HttpOnly" in set_cookie and "SameSite=lax" in set_cookie


def test_with_rated_same_address_a_club_on_one_network_is_paired(tmp_path: Path) -> None:
    limits = _limits(rated_same_address=True)
    with running_server(f"sqlite:///{tmp_path / 'club.sqlite3'}", limits=limits) as club:
        browser = httpx.get(club.url + "/api/me", timeout=10).cookies[BROWSER_COOKIE]
        one = _from(PUPPETS_ADDRESS, browser)

        async def run() -> None:
            lobbies = [await Lobby.open(club.ws_url, new_player(club.url, n, one)[0], one) for n in "AB"]
            for lobby in lobbies:
                await lobby.seek(*POOL)
            first, second = [await lobby.expect("paired") for lobby in lobbies]
            assert first["room"] == second["room"]
            for lobby in lobbies:
                await lobby.ws.close()

        asyncio.run(run())


def test_guest_creation_is_bounded_per_address(tmp_path: Path) -> None:
    """The default bound (30 an hour, a burst of 10): an address firing 100 creations gets 10 guests;
    the others get 429 with ``Retry-After`` and one line; another address is not held back, and a
    guest changing its name makes nobody."""
    limits = _limits(guests_per_hour=30.0)
    with running_server(f"sqlite:///{tmp_path / 'guests.sqlite3'}", limits=limits) as served:

        async def fire() -> list[httpx.Response]:
            async with httpx.AsyncClient(base_url=served.url, timeout=30) as client:
                body, headers = {"name": "farm"}, {CSRF: "new", **_from(PUPPETS_ADDRESS)}
                return list(
                    await asyncio.gather(
                        *(client.post("/api/me", json=body, headers=headers) for _ in range(100))
                    )
                )

        answers = asyncio.run(fire())
        assert sorted(a.status_code for a in answers) == [201] * 10 + [429] * 90
        refused = next(a for a in answers if a.status_code == 429)
        assert int(refused.headers["Retry-After"]) >= 60
        line = refused.json()["error"]
        assert line.startswith("too many new players from your address") and "\n" not in line
        assert refused.json()["text"]["template"].startswith("too many new players")
        assert COOKIE not in refused.cookies
        with httpx.Client(base_url=served.url, timeout=10) as client:
            other = client.post("/api/me", json={"name": "x"}, headers={CSRF: "new", **_from("192.0.2.9")})
            assert other.status_code == 201
        cookie, csrf = new_player(served.url, "Kept", _from("192.0.2.10"))
        for i in range(15):  # renaming is no new guest
            renamed = httpx.post(
                served.url + "/api/me",
                json={"name": f"Kept{i}"},
                headers={CSRF: csrf, **_from("192.0.2.10")},
                cookies={COOKIE: cookie},
                timeout=10,
            )
            assert renamed.status_code == 200, renamed.text


def test_only_accounts_play_rated_when_the_server_says_so(tmp_path: Path) -> None:
    limits = _limits(rated_accounts_only=True)
    with running_server(f"sqlite:///{tmp_path / 'accounts.sqlite3'}", limits=limits) as served:
        guest, guest_csrf = new_player(served.url, "Guest")
        with httpx.Client(base_url=served.url, timeout=30) as client:
            made = client.post(
                "/api/account", json={"login": "member", "password": "a long password"}, headers={CSRF: "new"}
            )
            assert made.status_code == 201, made.text
            session = "; ".join(f"{k}={v}" for k, v in client.cookies.items())
            member_csrf = made.json()["csrf"]
            body = {"name": "member", "clock": "1d", "public": True, "rated": True}
            assert client.post("/api/rooms", json=body, headers={CSRF: member_csrf}).status_code == 201
        rated = {"name": "Guest", "clock": "1d", "public": True, "rated": True}
        refused = httpx.post(
            served.url + "/api/rooms", json=rated, headers={CSRF: guest_csrf}, cookies={COOKIE: guest}
        )
        assert refused.status_code == 403 and "signed in to an account" in refused.json()["error"]
        unrated = {**rated, "rated": False}
        assert (
            httpx.post(
                served.url + "/api/rooms", json=unrated, headers={CSRF: guest_csrf}, cookies={COOKIE: guest}
            ).status_code
            == 201
        )

        async def run() -> None:
            lobby = await Lobby.open(served.ws_url, guest)
            await lobby.send({"type": "seek", "id": "g", "preset": "online", "players": 2, "clock": "1d"})
            error = await lobby.expect("error")
            assert error["id"] == "g" and "signed in to an account" in error["message"]
            member = await Lobby.open(served.ws_url, None, {"Cookie": session})
            assert (await member.seek(*POOL)) != ""
            for each in (lobby, member):
                await each.ws.close()

        asyncio.run(run())


def test_the_rating_window_widens_on_the_clock_scale(tmp_path: Path) -> None:
    """Two players 600 display points apart are paired once the window opens (30 s): at
    ``--clock-scale 0.02`` that is 0.6 s."""
    database = f"sqlite:///{tmp_path / 'scale.sqlite3'}"
    with running_server(database, limits=_limits(clock_scale=0.02)) as served:
        strong, _ = new_player(served.url, "Strong", _from("192.0.2.1"))
        weak, _ = new_player(served.url, "Weak", _from("192.0.2.2"))
        db = Database(database)
        db.open()
        try:
            row = {
                "player_id": strong.split(".")[0],
                "pool": "classic-2",
                "mu": MU0 + 20.0,  # 600 display points above a newcomer
                "sigma": 2.0,
                "games": 50,
                "last_seq": 0,
                "last_played": datetime.now(UTC),
            }
            db.run_now(lambda c: c.execute(insert(ratings).values(**row)))
        finally:
            db.engine.dispose()
        assert pairing.window(0.1) < 600 <= pairing.window(0.7, 0.02)

        async def run() -> None:
            a = await Lobby.open(served.ws_url, strong, _from("192.0.2.1"))
            b = await Lobby.open(served.ws_url, weak, _from("192.0.2.2"))
            await a.seek("online", 2, "1d")
            await b.seek("online", 2, "1d")
            first, second = await a.expect("paired", 10), await b.expect("paired", 10)
            assert first["room"] == second["room"]
            for lobby in (a, b):
                await lobby.ws.close()

        asyncio.run(run())


def _rated_room(base: str, headers: dict[str, str], cookie: str, csrf: str) -> str:
    """A public rated room (turn-based) made by the player of ``cookie``: its id."""
    sent = {
        **headers,
        CSRF: csrf,
        "Cookie": "; ".join(filter(None, (f"{COOKIE}={cookie}", headers.get("Cookie")))),
    }
    body = {"name": "Main", "clock": "1d", "public": True, "rated": True}
    made = httpx.post(base + "/api/rooms", json=body, headers=sent, timeout=10)
    assert made.status_code == 201, made.text
    return str(made.json()["room"])


def _join(base: str, room: str, headers: dict[str, str], name: str) -> httpx.Response:
    """A new guest made with ``headers`` joins ``room`` with them."""
    cookie, csrf = new_player(base, name, headers)
    sent = {
        **headers,
        CSRF: csrf,
        "Cookie": "; ".join(filter(None, (f"{COOKIE}={cookie}", headers.get("Cookie")))),
    }
    return httpx.post(f"{base}/api/rooms/{room}/join", json={"name": name}, headers=sent, timeout=10)


def test_a_rated_room_gives_no_seat_to_the_same_address_or_browser(proxied_server: ServerThread) -> None:
    browser = httpx.get(proxied_server.url + "/api/me", timeout=10).cookies[BROWSER_COOKIE]
    main = _from(PUPPETS_ADDRESS, browser)
    room = _rated_room(proxied_server.url, main, *new_player(proxied_server.url, "Main", main))
    for puppet in (_from(PUPPETS_ADDRESS), _from("198.51.100.77", browser)):
        refused = _join(proxied_server.url, room, puppet, "Puppet")
        assert refused.status_code == 403, refused.text
        line = refused.json()["error"]
        assert "your address or browser" in line and "\n" not in line
    assert _join(proxied_server.url, room, _from("192.0.2.77"), "Stranger").status_code == 200
    unrated = httpx.post(
        proxied_server.url + "/api/rooms",
        json={"name": "Main", "clock": "1d", "public": True},
        headers=main,
        timeout=10,
    ).json()["room"]
    assert _join(proxied_server.url, unrated, _from(PUPPETS_ADDRESS), "Friend").status_code == 200


def test_a_club_server_seats_one_address_in_a_rated_room(tmp_path: Path) -> None:
    limits = _limits(rated_same_address=True)
    with running_server(f"sqlite:///{tmp_path / 'club.sqlite3'}", limits=limits) as club:
        one = _from(PUPPETS_ADDRESS)
        room = _rated_room(club.url, one, *new_player(club.url, "Main", one))
        assert _join(club.url, room, one, "Clubmate").status_code == 200


def test_a_rated_game_between_two_seats_of_one_address_does_not_count(tmp_path: Path) -> None:
    """The join's check reads the seats already taken: two puppets joining at once could both pass it,
    so the game's end counts it only if no two seats were taken from one address or browser."""
    from roppyakken.server.club.ratings import store
    from roppyakken.server.people import players
    from tests.harness.ratings_season import START, Game, make_people, record, store_room

    db = Database(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    db.open()
    try:
        a, b = db.run_now(lambda c: make_people(c, 2))
        game = Game("twins", "classic-2", [a, b], 0, [600, 0], [0, 0], [False, False], START)
        db.run_now(lambda c: store_room(c, game))
        here, there = players.origin("203.0.113.7", None), players.origin("192.0.2.1", "other")
        db.run_now(lambda c: players.link_seat(c, "twins", 0, a, here))
        db.run_now(lambda c: players.link_seat(c, "twins", 1, b, here))
        assert db.run_now(lambda c: store.seat_owners(c, "twins", 2)) is None
        assert db.run_now(lambda c: record(c, game)) is None
        db.run_now(lambda c: players.link_seat(c, "twins", 1, b, there))
        assert db.run_now(lambda c: store.seat_owners(c, "twins", 2)) == [a, b]
        assert db.run_now(lambda c: record(c, game)) == 1
        kept = db.run_now(
            lambda c: c.execute(
                select(seat_players.c.address_hash, seat_players.c.browser_hash).where(
                    seat_players.c.room_id == "twins"
                )
            ).all()
        )
        assert [tuple(r) for r in kept] == [(None, None), (None, None)]  # not kept past the game's end
    finally:
        db.engine.dispose()


def test_a_pool_of_one_address_says_why_in_the_log(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Behind a proxy that is not a --trusted-proxy every player has the proxy's address and nobody is
    paired: the log says so (once an hour a pool), and not for players of several addresses."""
    from roppyakken.server.people import players
    from roppyakken.server.store.tables import pairing as rows

    db = Database(f"sqlite:///{tmp_path / 'hint.sqlite3'}")
    db.open()
    pairing._hinted.clear()
    try:
        now = time.time()
        proxied, apart = pairing.Pool("classic", 2, "1d"), pairing.Pool("fuke", 2, "1d")
        seeks = [(proxied, players.origin("127.0.0.1", f"b{i}"), now - 90 + i) for i in range(4)]
        seeks += [(apart, players.origin(f"192.0.2.{i}", "one"), now - 90 + i) for i in range(4)]
        for pool, came, joined in seeks:
            made = db.run_now(lambda c: players.create(c, "p")).id
            db.run_now(lambda c: pairing.enter(c, made, "p", pool, "h" + made, joined, came))  # noqa: B023
        db.run_now(lambda c: c.execute(update(rows).values(seen_at=now)))  # every member alive
        with caplog.at_level("WARNING", logger="roppyakken.server"):
            assert db.run_now(lambda c: pairing.claim(c, now, postgres=False)) == []
            assert db.run_now(lambda c: pairing.claim(c, now, postgres=False)) == []
        hints = [r.getMessage() for r in caplog.records if "all from one address" in r.getMessage()]
        assert len(hints) == 1 and "classic:2:1d" in hints[0] and "--trusted-proxy" in hints[0], hints
    finally:
        pairing._hinted.clear()
        db.engine.dispose()
