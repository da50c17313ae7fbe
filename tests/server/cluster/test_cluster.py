"""Several servers, one service: three ``serve --redis`` members, PostgreSQL, Redis and nginx, for real.

The services are Debian's own (``scripts/setup`` installs them), started on
loopback ports from 18000–18999 (tests/harness/services.py); nginx runs the
configuration docs/DEPLOY.md ships (round-robin, no affinity).  Players reach
different members, a member holding a game is killed with ``kill -9`` and
another is restarted, and each game still ends with every move stored exactly
once, each client having seen only what its seat may see.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import random
import signal
import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import httpx
import psycopg
import pytest
import redis
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from roppyakken.record import replay
from tests.harness import services
from tests.harness.cluster_seats import LONGER, Seat, create_room
from tests.harness.poll import until
from tests.harness.server_harness import stored_actions
from tests.harness.support import run_cli
from tests.harness.truth import Truth

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def postgres() -> Iterator[str]:
    """A PostgreSQL cluster's admin URL (databases made per use)."""
    with services.postgres() as pg:
        yield pg


@pytest.fixture(scope="module")
def backends(postgres: str) -> Iterator[tuple[str, str]]:
    """A PostgreSQL cluster's admin URL and a Redis server's address (databases made per use)."""
    with services.redis_server() as rd:
        yield postgres, rd.rsplit("/", 1)[0]


@pytest.fixture(scope="module")
def stack(backends: tuple[str, str]) -> Iterator[services.Stack]:
    pg, rd = backends
    database, redis_url = services.new_database(pg, "cluster"), f"{rd}/0"
    with (
        services.members(database, redis_url, 3) as members,
        services.nginx([m.port for m in members]) as port,
    ):
        yield services.Stack(database, redis_url, members, port)


def _play(
    stack: services.Stack,
    seats_of: list[list[Seat]],
    during: Callable[[], Coroutine[Any, Any, None]] | None = None,
) -> None:
    """Run every seat of every game to the end; ``during`` runs alongside once play has begun."""

    async def scenario() -> None:
        deadline = time.monotonic() + 90
        tasks = [asyncio.create_task(s.run(deadline)) for seats in seats_of for s in seats]
        if during is not None:
            await during()
        await asyncio.gather(*tasks)

    asyncio.run(scenario())


def _check_exactly_once(stack: services.Stack, room: str, seats: list[Seat]) -> list[dict[str, Any]]:
    """The stored moves replay to a finished game; each human move stored is one its seat sent for that
    state; every client saw the game to its last move; nothing any client was shown is missing."""
    record = httpx.get(f"{stack.url}/api/games/{room}/record", timeout=10).json()
    game, _ = replay(record)
    assert game.over
    actions = stored_actions(stack.database, room)
    with psycopg.connect(stack.database) as conn:
        query = "select idx, seat from actions where room_id = %s order by idx"
        rows = conn.execute(query, (room,)).fetchall()
    assert [r[0] for r in rows] == list(range(len(actions)))
    by_seat = {s.seat: s for s in seats if s.seat is not None}
    for (idx, seat), action in zip(rows, actions, strict=True):
        if seat in by_seat:
            sent = by_seat[seat].sent.get(idx, [])
            assert action in sent, f"move {idx} of seat {seat} was never sent for it"
    for s in seats:
        assert s.last_seq() == len(actions), "every client saw the game to its end"
    return actions


def _hidden_check(room: str, seats: list[Seat], actions: list[dict[str, Any]], stack: services.Stack) -> int:
    record = httpx.get(f"{stack.url}/api/games/{room}/record", timeout=10).json()
    game, names = replay(record)
    truth = Truth(game.rules, len(names), record["seed"], actions)
    checked = 0
    for s in seats:
        for message in s.log:
            if message["type"] in ("error", "restarting"):
                continue
            truth.check(s.seat, message)
            checked += 1
    return checked


def test_redis_needs_postgresql(tmp_path: Any) -> None:
    db = str(tmp_path / "g.sqlite3")
    code, _, err = run_cli(["serve", "--port", "0", "--database", db, "--redis", "redis://x"])
    refusal = "--redis needs a shared --database postgresql://…: a SQLite file belongs to one machine"
    assert code != 0 and err.strip().splitlines() == [f"roppyakken: error: {refusal}"]
    assert not os.path.exists(db), "nothing was made"
    # a Redis that does not answer, or a URL that is not Redis's: one line each, no password shown
    pg = "postgresql://u@127.0.0.1:1/x"
    for redis_url, said in (
        ("redis://:secret@127.0.0.1:1/0", "cannot reach Redis at redis://***@127.0.0.1:1/0: "),
        ("http://x", "unsupported Redis URL 'http://x' (use redis://HOST:PORT/DB, rediss://… or "),
    ):
        code, _, err = run_cli(["serve", "--port", "0", "--database", pg, "--redis", redis_url])
        lines = err.strip().splitlines()
        assert code != 0 and len(lines) == 1 and lines[0].startswith(f"roppyakken: error: {said}")
        assert "secret" not in err and "Traceback" not in err


def test_players_on_different_members_and_a_spectator_on_a_third(stack: services.Stack) -> None:
    a, b, c = stack.members
    room, tokens = create_room(a.url, 2, 1)
    seats = [
        Seat(lambda: a.url, room, tokens[0], random.Random(1), host=True, bots={2: "random"}),
        Seat(lambda: b.url, room, tokens[1], random.Random(2)),
        Seat(lambda: c.url, room, None, random.Random(3)),
    ]
    assert httpx.get(f"{c.url}/api/rooms/{room}", timeout=10).json()["seats"][1]["name"] == "p1"
    _play(stack, [seats])
    actions = _check_exactly_once(stack, room, seats)
    assert all(s.connections == 1 for s in seats), "nobody had to reconnect"
    assert not any(s.errors for s in seats)
    assert any(json.loads(json.dumps(a)) for a in actions)
    # the hidden-information check over every message of a game played across three members
    checked = _hidden_check(room, seats, actions, stack)
    assert checked > 2 * len(actions)
    assert seats[2].seat is None and all(not m["view"]["hand"] for m in seats[2].log if m["type"] == "state")
    assert stack.errors() == []


def test_kill_9_of_the_holder_mid_game(stack: services.Stack) -> None:
    room, tokens = create_room(stack.url, 2, 1, LONGER)
    seats = [
        Seat(lambda: stack.url, room, tokens[0], random.Random(4), host=True, bots={2: "random"}),
        Seat(lambda: stack.url, room, tokens[1], random.Random(5)),
        Seat(lambda: stack.url, room, None, random.Random(6)),
    ]
    killed: dict[str, Any] = {}

    ids = stack.member_ids()
    leases = redis.Redis.from_url(stack.redis, decode_responses=True)

    async def kill_holder() -> None:
        deadline = time.monotonic() + 60
        while max(s.last_seq() for s in seats) < 8:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.002)
        holder = ids[str(leases.get(f"roppyakken:lease:{room}"))]
        holder.kill()  # mid-move, as likely as not
        killed["at"] = max(s.last_seq() for s in seats)
        killed["when"] = time.monotonic()
        while max(s.last_seq() for s in seats) <= killed["at"] + 1:
            assert time.monotonic() < deadline and not all(s.over for s in seats), "the game did not go on"
            await asyncio.sleep(0.01)
        killed["moved_on"] = time.monotonic() - killed["when"]
        await asyncio.to_thread(holder.start)  # the same port again, a new member id

    _play(stack, [seats], during=kill_holder)
    actions = _check_exactly_once(stack, room, seats)
    assert sum(s.connections for s in seats) > 3, "some clients had to reconnect"
    print("kill -9:", killed, [s.connections for s in seats], [s.errors for s in seats])
    assert killed["moved_on"] < 10, killed
    with psycopg.connect(stack.database) as conn:
        late_bots = conn.execute(
            "select count(*) from actions where room_id = %s and seat = 2 and idx > %s",
            (room, killed["at"] + 1),
        ).fetchone()
    assert late_bots is not None and late_bots[0] > 0, "the bot went on playing on the new holder"
    _hidden_check(room, seats, actions, stack)


def test_a_member_restarted_while_games_run(stack: services.Stack) -> None:
    games = []
    for n in range(3):
        room, tokens = create_room(stack.url, 2, 0, LONGER)
        games.append(
            [
                Seat(lambda: stack.url, room, t, random.Random(10 * n + i), host=i == 0)
                for i, t in enumerate(tokens)
            ]
        )
    victim = stack.members[1]

    async def restart() -> None:
        while min(max(s.last_seq() for s in seats) for seats in games) < 6:
            await asyncio.sleep(0.002)
        # SIGTERM: its leases are given back, its clients told to reconnect
        await asyncio.to_thread(victim.stop)
        assert not all(s.over for seats in games for s in seats), "the games went on while it was down"
        await asyncio.to_thread(victim.start)

    _play(stack, games, during=restart)
    for seats in games:
        room = seats[0].room
        _check_exactly_once(stack, room, seats)
    reconnected = sum(s.connections for seats in games for s in seats) > 6
    assert reconnected, "the restarted member's clients came back"
    assert httpx.get(victim.url + "/healthz", timeout=10).status_code == 200


def test_bounds_hold_across_the_cluster(backends: tuple[str, str]) -> None:
    """Rate limits, websockets per address and the rooms held count over all members, not each."""
    pg, rd = backends
    database, redis_url = services.new_database(pg, "bounds"), f"{rd}/1"
    bounds = ["--requests-per-minute", "6", "--connections-per-address", "2", "--max-rooms", "3"]
    bounds += ["--room-idle", "1"]
    with (
        services.members(database, redis_url, 2, extra=bounds) as (a, b),
        services.nginx([a.port, b.port]) as port,
    ):
        balancer = f"http://127.0.0.1:{port}"
        # 10 API requests (the burst) from one client, whichever member answers; the 11th is refused
        # (clients on other loopback addresses: nginx passes the address it saw, not the client's header)
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3"), timeout=10) as client:
            answers = [client.get(f"{balancer}/api/presets") for _ in range(11)]
        assert [r.status_code for r in answers] == [200] * 10 + [429]
        assert int(answers[-1].headers["retry-after"]) >= 1
        # another client behind the same balancer is counted apart
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.4"), timeout=10) as client:
            other = client.get(f"{balancer}/api/presets", headers={"X-Forwarded-For": "127.0.0.3"})
        assert other.status_code == 200
        # at most 3 rooms held over both members: a 4th is refused on the member holding none
        # of the busy rooms until one of those is let go (it went idle) on another member
        asyncio.run(_rooms_bound(a, b))

        async def sockets() -> None:
            # two websockets from one address, on two members; a third is refused on either
            first = await connect(f"ws://127.0.0.1:{a.port}/ws/none")
            second = await connect(f"ws://127.0.0.1:{b.port}/ws/none")
            with pytest.raises(InvalidStatus) as refused:
                await connect(f"ws://127.0.0.1:{a.port}/ws/none")
            assert refused.value.response.status_code == 403
            await first.close()
            await asyncio.sleep(0.2)
            third = await connect(f"ws://127.0.0.1:{b.port}/ws/none")
            for ws in (second, third):
                await ws.close()

        asyncio.run(sockets())


async def _rooms_bound(a: services.Member, b: services.Member) -> None:
    def create(member: services.Member, n: int) -> httpx.Response:
        headers = {"X-Forwarded-For": f"10.1.0.{n}"}
        body = {"name": "x", "players": 2}
        return httpx.post(f"{member.url}/api/rooms", json=body, headers=headers, timeout=10)

    watchers = []
    for n, member in enumerate((a, b, a)):
        answer = create(member, n)
        assert answer.status_code == 201, answer.text
        ws = await connect(
            f"ws://127.0.0.1:{member.port}/ws/{answer.json()['room']}",
            additional_headers={"X-Forwarded-For": f"10.2.0.{n}"},
        )
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": None}))
        assert json.loads(await ws.recv())["type"] == "welcome"
        watchers.append(ws)
    refused = create(b, 3)
    assert refused.status_code == 503 and refused.json()["error"].startswith("the server holds as many rooms")
    await watchers[0].close()  # the first room (on a) goes idle, and a lets it go after --room-idle
    deadline = time.monotonic() + 10
    while (answer := create(b, 4)).status_code == 503:
        assert time.monotonic() < deadline, "the idle room was never let go"
        await asyncio.sleep(0.2)
    assert answer.status_code == 201
    for ws in watchers[1:]:
        await ws.close()


def test_a_move_in_flight_when_the_holder_dies_gets_an_error_and_can_be_sent_again(
    stack: services.Stack,
) -> None:
    """The holder is frozen (SIGSTOP) while a move relayed to it is on its way, then killed: the client
    is told its move was not confirmed, reconnects, and sends it again; it is made once."""
    holder, relay = stack.members[0], stack.members[1]
    room, tokens = create_room(holder.url, 2, 0, LONGER)  # the member that creates a room holds it
    assert stack.holder(room) is holder
    ws_url = f"ws://127.0.0.1:{relay.port}/ws/{room}"

    async def hello(token: str, until: str) -> tuple[Any, dict[str, Any]]:
        ws = await connect(ws_url)
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": token}))
        while (message := json.loads(await asyncio.wait_for(ws.recv(), 15)))["type"] != until:
            pass
        return ws, message

    async def scenario() -> tuple[int, dict[str, Any]]:
        (ws0, _), (ws1, _) = await hello(tokens[0], "welcome"), await hello(tokens[1], "welcome")
        await ws0.send(json.dumps({"type": "start"}))
        states = [None, None]
        for i, ws in enumerate((ws0, ws1)):
            while (message := json.loads(await asyncio.wait_for(ws.recv(), 15)))["type"] != "state":
                pass
            states[i] = message
        index = next(i for i, st in enumerate(states) if st and st["view"]["legal"])
        mover, state = (ws0, ws1)[index], states[index]
        assert state is not None
        action = state["view"]["legal"][0]
        assert holder.proc is not None
        os.kill(holder.proc.pid, signal.SIGSTOP)
        try:
            await mover.send(json.dumps({"type": "act", "action": action, "seq": state["seq"], "id": "m1"}))
            await asyncio.sleep(0.3)
        finally:
            holder.kill()
        answers = []
        while (message := json.loads(await asyncio.wait_for(mover.recv(), 15)))["type"] != "restarting":
            answers.append(message)
        assert [(m["type"], m.get("id")) for m in answers] == [("error", "m1")]
        # "… went away …" (its death seen first) or "… did not answer in time …" (the relay's
        # --write-timeout first): either way the move was not confirmed
        assert answers[0]["message"].startswith("the server holding this game")
        for ws in (ws0, ws1):
            await ws.close()
        # back through the same member, which now takes the room: the move was not made
        again, fresh = await hello(tokens[index], "state")
        assert fresh["seq"] == state["seq"] and fresh["view"]["legal"] == state["view"]["legal"]
        act = {"type": "act", "action": action, "seq": state["seq"], "id": "m2"}
        await again.send(json.dumps(act))
        while (message := json.loads(await again.recv()))["type"] != "state":
            assert message["type"] != "error", message
        assert message["seq"] == state["seq"] + 1
        await again.send(json.dumps({**act, "id": "m3"}))  # the same move resent: refused, not made twice
        while (message := json.loads(await again.recv()))["type"] != "error":
            pass
        assert message["id"] == "m3" and message["message"].startswith("the game has moved on")
        await again.close()
        return state["seq"], action

    try:
        seq, action = asyncio.run(scenario())
    finally:
        holder.start()
    actions = stored_actions(stack.database, room)
    assert len(actions) == seq + 1 and actions[seq] == action


def test_redis_restarted_empty_while_a_game_runs(postgres: str) -> None:
    """Every lease is forgotten: the members let the rooms go, the clients reconnect, the game goes on."""
    database = services.new_database(postgres, "redis_restart")
    with (
        services.redis_process() as rd,
        services.members(database, rd.url, 2) as members,
        services.nginx([m.port for m in members]) as port,
    ):
        stack = services.Stack(database, rd.url, members, port)
        room, tokens = create_room(stack.url, 2, 1, LONGER)
        seats = [
            Seat(lambda: stack.url, room, tokens[0], random.Random(7), host=True, bots={2: "random"}),
            Seat(lambda: stack.url, room, tokens[1], random.Random(8)),
        ]

        restarted_at: list[int] = []

        async def restart() -> None:
            deadline = time.monotonic() + 60
            while max(s.last_seq() for s in seats) < 8:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.002)
            for s in seats:  # the people hold their moves, so the game is still on when Redis is back
                s.paused = True
            assert not any(s.over for s in seats)
            await asyncio.to_thread(rd.stop)
            await asyncio.sleep(0.5)
            await asyncio.to_thread(rd.start)
            restarted_at.append(max(s.last_seq() for s in seats))
            for s in seats:
                s.paused = False

        _play(stack, [seats], during=restart)
        actions = _check_exactly_once(stack, room, seats)
        assert len(actions) > restarted_at[0], "the game went on after Redis came back"
        assert sum(s.connections for s in seats) > 2, "the clients had to reconnect"


def test_a_dead_relay_lets_its_clients_seats_go(stack: services.Stack) -> None:
    """A member relaying a client dies while nothing happens in the room: the holder sees the seat free."""
    holder, relay = stack.members[0], stack.members[2]
    room, tokens = create_room(holder.url, 2, 0)  # a waiting room: nothing is sent to anyone by itself

    def connected() -> list[bool]:
        info = httpx.get(f"{holder.url}/api/rooms/{room}", timeout=10).json()
        return [bool(seat["connected"]) for seat in info["seats"]]

    async def scenario() -> float:
        ws = await connect(f"ws://127.0.0.1:{relay.port}/ws/{room}")
        await ws.send(json.dumps({"type": "hello", "v": 1, "token": tokens[1]}))
        assert json.loads(await ws.recv())["type"] == "welcome"
        assert connected() == [False, True]
        assert "roppyakken_cluster_relayed 1.0" in httpx.get(relay.url + "/metrics", timeout=10).text
        held = httpx.get(holder.url + "/metrics", timeout=10).text
        assert "roppyakken_cluster_incoming 1.0" in held and "roppyakken_cluster_leases 0.0" not in held
        relay.kill()
        killed = time.monotonic()
        while connected() != [False, False]:
            assert time.monotonic() - killed < 10, "the dead relay's client still holds its seat"
            await asyncio.sleep(0.1)
        return time.monotonic() - killed

    try:
        asyncio.run(scenario())
    finally:
        relay.start()
    assert stack.holder(room) is holder


def test_a_relayed_client_cannot_make_its_member_publish_what_it_likes(backends: tuple[str, str]) -> None:
    """A client relayed to the holder gets the holder's one-line errors for malformed messages, but
    those are refused by its own member, never published; and its member publishes for it at a
    bounded pace, however fast it sends (it used to publish each message at once, unbounded)."""
    pg, rd = backends
    database, redis_url = services.new_database(pg, "relay_input"), f"{rd}/2"
    with services.members(database, redis_url, 2) as (a, b):
        holder = httpx.get(f"{b.url}/healthz", timeout=10).json()["member"]
        created = httpx.post(f"{b.url}/api/rooms", json={"name": "h", "players": 2}, timeout=10)
        room = created.json()["room"]  # made on b: b holds it, a relays
        listener = redis.Redis.from_url(redis_url, decode_responses=True)
        pubsub = listener.pubsub()
        pubsub.subscribe(f"roppyakken:member:{holder}")
        pings = 400

        async def scenario() -> tuple[list[str], float]:
            async with connect(f"ws://127.0.0.1:{a.port}/ws/{room}") as ws:
                await ws.send(json.dumps({"type": "hello", "v": 1, "token": None}))
                assert json.loads(await ws.recv())["type"] == "welcome"
                errors = []
                bad = [
                    json.dumps({"type": "ping", "id": "big", "pad": "y" * 20_000}),
                    "not json at all",
                    json.dumps({"type": "hello", "v": 1, "token": "zzzz-forged", "id": "again"}),
                    json.dumps({"type": "act", "action": {"type": "take"}, "seq": True, "id": "boolseq"}),
                ]
                for raw in bad:
                    await ws.send(raw)
                    answer = json.loads(await ws.recv())
                    assert answer["type"] == "error" and "\n" not in answer["message"], answer
                    errors.append(answer["message"])
                began = time.monotonic()
                for n in range(pings):
                    await ws.send(json.dumps({"type": "ping", "id": str(n)}))
                got = 0
                while got < pings:
                    if json.loads(await ws.recv())["type"] == "pong":
                        got += 1
                return errors, time.monotonic() - began

        errors, took = asyncio.run(scenario())
        published = []
        while (message := pubsub.get_message(timeout=0.5)) is not None:
            if message["type"] == "message":
                published.append(str(message["data"]))
        pubsub.close()
        listener.close()
    relayed = [m for m in published if m.startswith("i ")]
    assert len(relayed) == pings, "only the pings were published, each once"
    assert not [m for m in relayed if "yyyy" in m or "not json" in m or "forged" in m or "boolseq" in m]
    assert "too large" in errors[0] and "JSON" in errors[1]
    # 400 pings at 100 a second after a burst of 200: about 2 s, not as fast as the client sends
    assert took > 1.5, f"{pings} relayed pings answered in {took:.2f} s: the relay publishes unbounded"


def test_a_holder_that_lost_its_link_to_redis_makes_no_move_until_renewed() -> None:
    """Redis stops (it will come back empty, every lease forgotten): the holder stops making moves in
    its rooms at once, not only when its last renewal grows old (for up to 0.8 of a lease's life,
    while another member may already have taken the room: two would move in it); once Redis is back
    the renewal finds the lease gone and the room is let go."""
    from roppyakken.server.cluster.link import Cluster, Handlers
    from roppyakken.server.wire.member import MemberAnswer, MemberCall, Moved

    lost: list[list[str]] = []

    async def call(member: str, call: MemberCall) -> MemberAnswer:
        return Moved(moved="")

    async def message(member: str, conn: str, raw: str) -> None:
        return None

    handlers = Handlers(call=call, message=message, gone=lambda m, c: None, lost=lost.append)

    async def scenario(rd: services.RedisServer) -> float:
        cluster = Cluster(rd.url, lease_ms=30_000)  # the old rule: sure for 24 s after a renewal
        await cluster.start(handlers)
        try:
            assert await cluster.claim("room1") is None and cluster.holds("room1")
            await asyncio.to_thread(rd.stop)
            stopped = time.monotonic()
            while cluster.holds("room1"):
                assert time.monotonic() - stopped < 10, "still sure to hold a lease Redis may have forgotten"
                await asyncio.sleep(0.02)
            unsure_after = time.monotonic() - stopped
            await asyncio.to_thread(rd.start)  # empty
            while not lost:
                assert time.monotonic() - stopped < 30, "the lost lease was never noticed"
                await asyncio.sleep(0.05)
            assert lost == [["room1"]] and not cluster.holds("room1")
            return unsure_after
        finally:
            await cluster.close()

    with services.redis_process() as rd:
        assert asyncio.run(scenario(rd)) < 5


def test_a_room_refused_a_move_for_want_of_its_lease_is_let_go(tmp_path: Any) -> None:
    """A member no longer sure to hold a room (its lease lapsed unrenewed, or was lost while the room
    was being loaded, so no renewal will ever cover it) used to refuse every move in it for good,
    its bot retrying in silence: the game stalled with everyone connected.  The room is now let
    go at the first refused move: its clients are told to reconnect, the lease is given back,
    nothing is stored."""
    from roppyakken.rules import preset
    from roppyakken.server.play.registry import CLOSE_RESTARTING, Registry
    from roppyakken.server.play.room import WriteFailed
    from roppyakken.server.store.database import Database
    from roppyakken.server.wire.bodies import CreateRoom
    from roppyakken.view import view_of
    from tests.harness.server_harness import limits_for_tests

    class Claims:
        """Every claim succeeds; ``sure`` says whether the lease is still sure."""

        def __init__(self) -> None:
            self.sure = True
            self.released: list[str] = []

        async def claim(self, room_id: str) -> str | None:
            return None

        def release_soon(self, room_id: str) -> None:
            self.released.append(room_id)

        def holds(self, room_id: str) -> bool:
            return self.sure

        async def confirm(self, room_id: str) -> bool:
            return self.sure

        def orphaned_since(self, room_id: str) -> float | None:
            return None

        shared = False

        async def give_back(self, room_id: str, *, busy: bool) -> None:
            return None

    class Client:
        seat: int | None = 0

        def __init__(self) -> None:
            self.sent: list[dict[str, Any]] = []
            self.closed: list[int] = []

        def send(self, message: str) -> None:
            self.sent.append(json.loads(message))

        def close(self, code: int, reason: str) -> None:
            self.closed.append(code)

    async def scenario(bot_first: bool) -> None:
        db = Database(f"sqlite:///{tmp_path / f'r{bot_first}.sqlite3'}")
        db.open()
        await db.start()
        claims = Claims()
        hub = Registry(db, limits=limits_for_tests(), claims=claims, bot_delay=0)
        try:
            for seed in range(100):
                room, _ = await hub.create(CreateRoom("host", 2, preset("classic"), seed, {1: "random"}))
                assert room.game is not None
                if (room.game.to_act == 1) == bot_first:
                    break
            game = room.game
            assert game is not None and (game.to_act == 1) == bot_first
            claims.sure = False  # the lease is no longer sure (and no renewal will make it so)
            client = Client()
            assert await room.attach(client)  # a bot to act starts its loop now
            if not bot_first:
                with pytest.raises(WriteFailed):
                    await room.apply(0, view_of(game, 0).legal[0])
            for _ in range(200):
                if room.id not in hub.rooms and client.closed:
                    break
                await asyncio.sleep(0.01)
            assert room.id not in hub.rooms, "the room stays, refusing every move"
            assert client.closed == [CLOSE_RESTARTING] and client.sent[-1]["type"] == "restarting"
            assert room.id in claims.released and room.actions == 0
            assert await db.run(lambda c: len(stored(c, room.id))) == 0
            await asyncio.sleep(0.05)
            assert not room.bot_loop.busy(), "the bot still retries"
        finally:
            await hub.close()
            await db.close()

    from roppyakken.server.store import room_store

    def stored(c: Any, room_id: str) -> list[Any]:
        loaded = room_store.load_room(c, room_id)
        assert loaded is not None
        return list(loaded.actions)

    asyncio.run(scenario(bot_first=True))
    asyncio.run(scenario(bot_first=False))


def test_a_renewal_that_never_answers_is_given_up_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    """A renewal round that hung (a Redis connection that never answers) held up every later
    renewal: the leases lapsed and the rooms refused every move, with nothing logged.  A round
    now gives up after a lease's life, logs it, and the next one is tried."""
    from roppyakken.server.cluster.link import Cluster

    tries: list[float] = []

    async def hang(**kwargs: Any) -> list[str]:
        tries.append(time.monotonic())
        await asyncio.sleep(3600)
        return []

    async def scenario() -> None:
        cluster = Cluster("redis://127.0.0.1:1/0", lease_ms=300)  # never connected
        cluster.leases._renew = hang  # type: ignore[assignment]
        cluster.leases.held["room1"] = time.monotonic() + 0.24
        renewing = asyncio.create_task(cluster.leases.renew_loop())
        try:
            deadline = time.monotonic() + 10
            while len(tries) < 3:
                assert time.monotonic() < deadline, "a renewal that never answers holds up the next ones"
                await asyncio.sleep(0.02)
            assert not cluster.holds("room1")
        finally:
            renewing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewing
            await cluster.redis.aclose()

    with caplog.at_level(logging.ERROR, logger="roppyakken.server"):
        asyncio.run(scenario())
    assert any("leases not renewed: no answer in time" in r.getMessage() for r in caplog.records)


def test_a_finished_rooms_lease_is_let_go_when_its_players_leave(stack: services.Stack) -> None:
    """A game played to its end, one seat on the holder and one relayed from another member: once
    both players leave, the room's lease and its entry in the set of held rooms are gone at once,
    not ``--room-idle`` (120 s by default) later."""
    a, b = stack.members[0], stack.members[1]
    room, tokens = create_room(a.url, 2, 1)  # the member that creates a room holds it
    seats = [
        Seat(lambda: a.url, room, tokens[0], random.Random(31), host=True, bots={2: "random"}),
        Seat(lambda: b.url, room, tokens[1], random.Random(32)),
    ]
    client = redis.Redis.from_url(stack.redis, decode_responses=True)
    try:
        lease = f"roppyakken:lease:{room}"
        until(lambda: client.get(lease) is not None, 10, "the room's lease taken")
        _play(stack, [seats])
        assert all(s.over for s in seats)
        until(
            lambda: client.get(lease) is None and client.zscore("roppyakken:rooms", room) is None,
            15,
            "the finished room's lease let go once its players left",
        )
    finally:
        client.close()
