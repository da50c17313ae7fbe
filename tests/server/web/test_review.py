"""Attacks on the server: each test is a weakness the server must resist."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from roppyakken.actions import Action
from roppyakken.engine import Game
from roppyakken.rules import PRESETS, preset
from roppyakken.server.addresses import client_address
from roppyakken.server.cluster.link import Cluster, Relayed
from roppyakken.server.play.bots import BotRunner
from roppyakken.server.play.room import HUMAN, Room, Seat, hash_token
from roppyakken.server.store import room_store
from roppyakken.server.store.database import Database
from roppyakken.server.wire.client import Act, parse_client_message
from roppyakken.server.wire.protocol import ProtocolError
from tests.harness import services
from tests.harness.server_harness import limits_for_tests, running_server

SERVE = [sys.executable, "-c", "from roppyakken.cli import main; raise SystemExit(main())", "serve"]


class _Client:
    """A room client that keeps what it was sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.sent: list[str] = []

    def send(self, message: str) -> None:
        self.sent.append(message)

    def close(self, code: int, reason: str) -> None:
        pass


def _twice_in_a_row(rules_name: str, seed: int) -> tuple[list[Action], int]:
    """Legal actions from the deal up to a seat about to act twice in a row; and that seat."""
    game = Game(preset(rules_name), 2, seed)
    actions: list[Action] = []
    while not game.over:
        seat = game.to_act
        action = game.legal_actions()[0]
        game.apply(action, seat)
        actions.append(action)
        if game.to_act == seat and not game.over:
            actions.append(game.legal_actions()[0])
            return actions, seat
    raise AssertionError("no seat ever acted twice in a row")


def test_two_acts_for_the_same_seq_cannot_both_be_made(tmp_path: Path) -> None:
    """Two sockets of one seat (or a resend racing its first copy) send acts for the same ``seq``:
    the second must be refused as stale, not applied to the state the first one made."""
    name = next(iter(PRESETS))
    actions, seat = _twice_in_a_row(name, 7)
    *before, first, second = actions

    async def scenario() -> tuple[int, list[BaseException | None]]:
        db = Database(f"sqlite:///{tmp_path / 'r.sqlite3'}")
        db.open()
        await db.start()
        bots = BotRunner(0, 1)
        seats = [Seat(HUMAN, "a", None, hash_token("ta")), Seat(HUMAN, "b", None, hash_token("tb"))]
        room = Room("seqrace", 2, preset(name), 7, seats, db=db, bots=bots, bot_delay=0.0)
        room.start_now()
        await db.run(lambda c: room_store.insert_room(c, room.row(), [s.row(i) for i, s in enumerate(seats)]))
        for action in before:
            assert room.game is not None
            await room.apply(room.game.to_act, action)
        seq = room.actions
        one, two = _Client(seat), _Client(seat)
        results = await asyncio.gather(
            room.handle(one, Act(first, "m1", seq)),
            room.handle(two, Act(second, "m2", seq)),
            return_exceptions=True,
        )
        made = room.actions - seq
        bots.shutdown()
        await db.close()
        return made, list(results)

    made, results = asyncio.run(scenario())
    assert made == 1, "both acts for one seq were made"
    assert results[0] is None
    assert isinstance(results[1], ProtocolError) and "moved on" in str(results[1])


def _statuses(url: str, headers: list[dict[str, str]], source: str = "127.0.0.1") -> list[int]:
    """The status of ``GET url/api/presets`` with each of ``headers``, from the address ``source``."""
    transport = httpx.HTTPTransport(local_address=source)
    with httpx.Client(transport=transport, timeout=10) as client:
        return [client.get(f"{url}/api/presets", headers=h).status_code for h in headers]


def test_a_client_cannot_name_its_address_to_dodge_the_rate_limits(tmp_path: Path) -> None:
    """Proxy headers count only from a peer named by ``--trusted-proxy``: a client that is not
    one sends ``X-Forwarded-For`` (or ``X-Real-IP``) in vain."""
    limits = limits_for_tests(requests_per_minute=6, trusted_proxies=("10.9.9.9",))
    with running_server(str(tmp_path / "h.sqlite3"), limits=limits) as server:
        spoofed = [{"X-Forwarded-For": f"10.0.0.{n}", "X-Real-IP": f"10.1.0.{n}"} for n in range(11)]
        assert _statuses(server.url, spoofed) == [200] * 10 + [429]


def test_nginx_replaces_the_forwarded_for_a_client_sends(tmp_path: Path) -> None:
    """Behind the shipped nginx configuration, each request counts for the address nginx saw: a
    client that sends its own ``X-Forwarded-For`` (a new one each time) is still one client.
    (nginx used to append to it, so a client on the proxy's own machine chose its address.)"""
    limits = limits_for_tests(requests_per_minute=6, trusted_proxies=("127.0.0.1",))
    with (
        running_server(str(tmp_path / "n.sqlite3"), limits=limits) as server,
        services.nginx([server.port]) as port,
    ):
        balancer = f"http://127.0.0.1:{port}"
        spoofed = [{"X-Forwarded-For": f"10.0.0.{n}"} for n in range(11)]
        assert _statuses(balancer, spoofed) == [200] * 10 + [429]
        # another client (another loopback address) is counted apart, under its own address
        assert _statuses(balancer, [{"X-Forwarded-For": "127.0.0.1"}] * 2, source="127.0.0.2") == [200, 200]


@pytest.mark.parametrize("value", ["*", "localhost", "10.0.0.0/33", ""])
def test_a_trusted_proxy_must_be_an_address_or_a_network(tmp_path: Path, value: str) -> None:
    """``--trusted-proxy '*'`` made uvicorn take every peer's ``X-Forwarded-For`` (any client chose
    its address); a name never matched anything.  Both are refused in one line, before serving."""
    database = str(tmp_path / "p.sqlite3")
    argv = [*SERVE, "--port", "0", "--database", database, "--trusted-proxy", value]
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"serve --trusted-proxy {value!r} was accepted (it served)")
    assert done.returncode != 0 and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "--trusted-proxy" in done.stderr, done.stderr
    assert not done.stdout


def test_a_trusted_proxy_network_is_not_capped_as_one_client(tmp_path: Path) -> None:
    """A proxy named by its network (``--trusted-proxy 127.0.0.0/8``) has its X-Forwarded-For taken
    by uvicorn, and its connections (carrying many clients) must not be capped per address either:
    they were (only exact addresses were matched), so a busy proxy was cut off for everyone."""
    limits = limits_for_tests(connections_per_address=2, trusted_proxies=("127.0.0.0/8",))
    with running_server(str(tmp_path / "c.sqlite3"), limits=limits) as server:
        idle = [socket.create_connection(("127.0.0.1", server.port), timeout=5) for _ in range(3)]
        try:
            answer = httpx.get(f"{server.url}/healthz", timeout=5)
            assert answer.status_code == 200
        finally:
            for sock in idle:
                sock.close()


def test_websocket_opens_count_against_the_rate_limit(tmp_path: Path) -> None:
    """Each websocket may load a room (and take its lease in a cluster); they were not rate limited
    at all, so one address could load rooms (finished games are listed) as fast as it could open
    sockets, filling the rooms bound.  Opens now count as API requests."""
    limits = limits_for_tests(requests_per_minute=6, trusted_proxies=())

    async def scenario(url: str) -> list[int]:
        statuses = []
        for _ in range(11):
            try:
                async with connect(f"{url}/ws/nosuchroom"):
                    statuses.append(101)
            except InvalidStatus as exc:
                statuses.append(exc.response.status_code)
        return statuses

    with running_server(str(tmp_path / "w.sqlite3"), limits=limits) as server:
        assert asyncio.run(scenario(server.ws_url)) == [101] * 10 + [403]
        # the API shares the bucket: the address is refused there too
        assert httpx.get(f"{server.url}/api/presets", timeout=5).status_code == 429


@pytest.mark.parametrize("seq", ["true", "1.0", "-1", '"3"', str(2**53), "9" * 4000])
def test_act_seq_must_be_a_plausible_whole_number(seq: str) -> None:
    """``act.seq`` of another type, negative or past any game's length is refused in one short line
    naming the field (a 4000-digit seq used to be taken, then echoed whole in the stale-act error)."""
    raw = '{"type": "act", "action": {"type": "take"}, "seq": ' + seq + ', "id": "s"}'
    with pytest.raises(ProtocolError) as refused:
        parse_client_message(raw)
    message = str(refused.value)
    assert "'seq'" in message and "whole number" in message and len(message) < 200, message
    assert "\n" not in message and refused.value.msg_id == "s"


def test_an_ipv6_client_is_counted_by_its_slash_64() -> None:
    """One subscriber gets a whole /64: counting IPv6 addresses one by one let a single client take
    a fresh address for each request (or websocket) and meet no per-address bound at all."""
    one = client_address({"client": ("2001:db8:1:2::1", 5000)})
    assert client_address({"client": ("2001:db8:1:2:ffff:1:2:3", 5001)}) == one
    assert client_address({"client": ("2001:db8:1:3::1", 5000)}) != one  # the next /64: another client
    assert client_address({"client": ("::ffff:192.0.2.7", 1)}) == client_address({"client": ("192.0.2.7", 1)})
    assert client_address({"client": ("192.0.2.7", 1)}) != client_address({"client": ("192.0.2.8", 1)})


def _left(cluster: Cluster) -> Cluster:
    """``cluster`` (never connected to Redis: its outbox is read by hand) once its relayed client
    ``c1`` of a room held by ``holder1`` went away."""
    cluster.bus.open_relay(Relayed("c1", "room1", "holder1", lambda m: None, lambda code, reason: None))
    cluster.bus.close_relayed("c1")
    return cluster


def _queued(cluster: Cluster) -> list[tuple[str, str]]:
    """What the member has queued to publish (taken from its outbox)."""
    queue = cluster.bus._outbox.queue
    return [queue.get_nowait() for _ in range(queue.qsize())]


def _one_bye(sent: list[tuple[str, str]]) -> bool:
    """Exactly one message, and it is ``c1``'s bye to ``holder1``."""
    return (
        len(sent) == 1
        and sent[0][0] == "holder1"
        and '"k":"bye"' in sent[0][1]
        and '"conn":"c1"' in sent[0][1]
    )


def test_a_lost_bye_is_said_again_when_the_holder_still_writes_to_the_client() -> None:
    """A relayed client left, but its ``bye`` was dropped (Redis away longer than the publish
    retries): the holder kept a ghost in the room for good (shown connected, the room never
    idle, its lease held).  The relay now says bye again when the holder writes to it."""

    async def scenario() -> list[tuple[str, str]]:
        cluster = _left(Cluster("redis://127.0.0.1:1/0"))
        assert _one_bye(_queued(cluster))  # then lost on the way
        await cluster.bus._receive('o c1 {"type":"state","seq":3}')
        again = _queued(cluster)
        await cluster.redis.aclose()
        return again

    assert _one_bye(asyncio.run(scenario()))


def test_a_bye_that_could_not_be_published_is_published_again(monkeypatch: pytest.MonkeyPatch) -> None:
    """A relayed client left while Redis was away longer than the publish retries: its bye was
    dropped, and in a quiet room nothing made the relay say it again (a ghost seated for good).
    The dropped bye is now queued again at the next renewal."""
    from roppyakken.server.cluster import bus as relaybus

    monkeypatch.setattr(relaybus, "PUBLISH_RETRIES", (0.0,))

    async def scenario() -> list[tuple[str, str]]:
        cluster = _left(Cluster("redis://127.0.0.1:1/0"))  # nothing listens there: publishing fails
        publishing = asyncio.create_task(cluster.bus._publish_loop())
        for _ in range(500):
            if cluster.bus._outbox.queue.empty() and cluster.bus._dropped_byes:
                break
            await asyncio.sleep(0.01)
        publishing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await publishing
        assert cluster.bus._outbox.queue.empty(), "the bye was not even tried"
        cluster.bus._repeat_dropped_byes()  # what each renewal does
        again = _queued(cluster)
        await cluster.redis.aclose()
        return again

    assert _one_bye(asyncio.run(scenario()))


def test_a_join_retried_through_the_cluster_takes_one_seat(tmp_path: Path) -> None:
    """A holder that answers a forwarded join after the asking member gave up (it was slow) is asked
    again: the second try must give the same seat and token, not take a second seat."""
    from roppyakken.server.cluster.link import ClusterUnavailable
    from roppyakken.server.cluster.visits import Visits
    from roppyakken.server.play.claims import HeldElsewhere
    from roppyakken.server.play.registry import Registry
    from roppyakken.server.wire.bodies import CreateRoom
    from roppyakken.server.wire.member import AttachCall, JoinCall, MemberAnswer, MemberCall

    async def scenario() -> tuple[list[object], list[str]]:
        db = Database(f"sqlite:///{tmp_path / 'r.sqlite3'}")
        db.open()
        await db.start()
        holder = Registry(db, limits=limits_for_tests())
        holder_visits = Visits(holder)
        room, _ = await holder.create(CreateRoom("host", 3, preset("classic"), None, {}))
        asker = Registry(db, limits=limits_for_tests())
        answers: list[object] = []

        class SlowHolder:
            """The relays' call to the holder: it does the join, but the first answer comes too late."""

            calls = 0

            async def call(self, member: str, call: MemberCall) -> MemberAnswer:
                self.calls += 1
                assert not isinstance(call, AttachCall)
                answer = await holder_visits.do(holder.rooms[call.room], call)
                answers.append(answer)
                if self.calls == 1:
                    raise ClusterUnavailable(member)
                return answer

        async def elsewhere(room_id: str) -> None:
            raise HeldElsewhere(room_id, "holder")

        asker.get = elsewhere  # type: ignore[method-assign]
        visits = Visits(asker, SimpleNamespace(bus=SlowHolder()))  # type: ignore[arg-type]
        joined = await visits.visit(JoinCall(room=room.id, name="guest"))
        assert joined is not None
        names = [seat.name or "" for seat in room.seats]
        await db.close()
        return [*answers, joined], names

    answers, names = asyncio.run(scenario())
    assert len(answers) == 3, "the visit asked the holder twice"
    assert answers[0] == answers[1] == answers[2], "the retried join took another seat"
    assert names.count("guest") == 1
