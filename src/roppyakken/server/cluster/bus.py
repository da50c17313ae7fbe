"""Messages between cluster members through Redis: relayed clients, calls, byes.

* **Relays.**  A member asked for a room that another member holds becomes a
  relay: the client's messages go to the holder on the holder's Redis channel,
  and the holder's messages for that one connection come back on the relay's
  channel (``roppyakken:member:<id>``, one channel per member; on a Redis Cluster the sharded
  channel ``roppyakken:{member:<id>}``, served by one shard).  The holder
  builds every message for the connection's own seat, exactly as for a socket
  of its own, so a relay never holds anything but what its client may see.
* **Losing a member.**  Redis answers each ``PUBLISH`` (``SPUBLISH``) with the number of
  subscribers that got it: a member whose channel has nobody is gone, and the
  connections it relayed are let go at once.  A relay checks the leases of the
  rooms it relays about twice a second; when the holder changed or vanished it
  tells its clients that the server is restarting and closes them, and they
  reconnect through the balancer to whichever member now holds the room.
* **Tournaments.**  Every member keeps its entry in the sorted set ``roppyakken:members`` (pushed
  forward at each renewal of its leases, lapsing :data:`ROSTER_LEASES` leases later) and so knows the
  others.  A tournament game that ends here, and a change this member's director made to a
  tournament, are told to every other member (:meth:`RelayBus.tournament_changed`): the director
  holding the tournament pairs at once, and every member's watchers read it at once, wherever the
  game's room and the director are.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final, Protocol

from redis.asyncio.cluster import RedisCluster

from roppyakken.server.cluster.redislink import (
    ONE_REDIS,
    REDIS_ERRORS,
    ClusterUnavailable,
    KeySpace,
    Link,
    stop_task,
)
from roppyakken.server.wire.member import MemberAnswer, MemberCall, Refused, parse_answer, parse_call

log = logging.getLogger("roppyakken.server")

CALL_TIMEOUT: Final = 3.0
"""Seconds a member waits for another member's answer before asking again (or taking the room)."""
PUBLISH_RETRIES: Final = (0.1, 0.3, 1.0)
"""Seconds waited after each failed attempt to publish a batch (then it is dropped)."""
PUBLISH_BATCH: Final = 500
"""The most messages published in one round trip to Redis."""
WATCH_PERIOD: Final = 0.5
"""Seconds between a relay's checks that the rooms it relays are still held where they were."""
GONE_KEPT: Final = 10_000
"""Connections of this member that went away, remembered (with their holder) to say bye again."""
ROSTER_LEASES: Final = 3
"""Leases after which a member's entry in ``roppyakken:members`` lapses unless pushed forward."""
_BYE: Final = 'j {"k":"bye",'
_ENVELOPE: Final = ("k", "id", "from")
"""The bus's own fields around a call or its answer (server/wire/member.py)."""
"""How a published bye begins (:meth:`RelayBus.send` writes ``k`` first)."""


@dataclass(slots=True)
class Relayed:
    """A connection of this member to a room held by another: where its messages go and come from."""

    conn: str
    room: str
    holder: str
    deliver: Callable[[str], None]
    """Hand a message from the holder to the local websocket."""
    close: Callable[[int, str], None]
    """Close the local websocket (the holder said so, or it is gone)."""
    attached: bool = False
    """Whether the holder took it (before that, a lost holder only fails the call, and it is asked again)."""


@dataclass(slots=True)
class _Incoming:
    """What the holder side keeps of a connection relayed from another member."""

    member: str
    conn: str
    room: str


@dataclass(slots=True)
class Handlers:
    """What a member does with requests from other members (server/cluster/members.py)."""

    call: Callable[[str, MemberCall], Awaitable[MemberAnswer]]
    """Answer a call (server/wire/member.py) from a member about a room held here."""
    message: Callable[[str, str, str], Awaitable[None]]
    """A relayed client's message: (member, connection, raw text)."""
    gone: Callable[[str, str], None]
    """A relayed client went away: (member, connection)."""
    lost: Callable[[list[str]], None]
    """Leases this member no longer holds (renewal failed): let those rooms go."""


@dataclass(slots=True)
class _Outbox:
    """Messages to publish, in order, by one task (so that a connection's messages keep their order)."""

    queue: asyncio.Queue[tuple[str, str]] = field(default_factory=asyncio.Queue)


# KEYS[1] the members; ARGV[1] this member, ARGV[2] its entry's life (ms).  Answers every member
# whose entry has not lapsed
_ROSTER: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
return redis.call('ZRANGE', KEYS[1], 0, -1)
"""


class LeaseView(Protocol):
    """What the relays need of the leases: who holds rooms, and saying the link to Redis broke."""

    async def holders(self, rooms: list[str]) -> list[str | None]:
        """The members holding ``rooms`` now, in order."""
        ...

    def unsure(self) -> None:
        """The link to Redis broke: the leases may be gone."""
        ...


class RelayBus:
    """One member's messages to and from the others (its Redis channel); see the module docstring."""

    def __init__(
        self,
        redis: Link,
        member: str,
        leases: LeaseView,
        keys: KeySpace = ONE_REDIS,
        *,
        roster_ms: int = 9000,
    ) -> None:
        self.redis = redis
        self.keys = keys
        """The channels' names; sharded channels on a Redis Cluster (server/cluster/redislink.py)."""
        self._serving: str | None = None
        """On a Redis Cluster: the node serving this member's channel when it subscribed."""
        self.member = member
        self.leases = leases
        self.handlers: Handlers | None = None
        self.relayed: dict[str, Relayed] = {}
        """Connections here to rooms held elsewhere, by connection id."""
        self.incoming: dict[tuple[str, str], _Incoming] = {}
        """Connections elsewhere to rooms held here, by (member, connection)."""
        self._calls: dict[str, tuple[str, asyncio.Future[dict[str, Any]]]] = {}
        self._outbox = _Outbox()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self._answering: set[asyncio.Task[None]] = set()
        self._early_byes: deque[tuple[str, str]] = deque(maxlen=1000)
        self._gone: OrderedDict[str, str] = OrderedDict()
        """Relayed connections that went away here: their holder, by connection id (the latest)."""
        self._dropped_byes: deque[tuple[str, str]] = deque(maxlen=GONE_KEPT)
        """Byes that could not be published (Redis away): published again at each renewal."""
        self.roster_ms = roster_ms
        """A member's entry's life in ``roppyakken:members`` (ms)."""
        self.others: set[str] = set()
        """The other members, as this member last read them (:meth:`refresh_roster`)."""
        self.tournaments: Callable[[str | None], None] | None = None
        """Told what another member said of the tournaments: a tournament's id it changed, or None
        (a tournament game ended there)."""
        self._roster = redis.register_script(_ROSTER)
        self._loop: asyncio.AbstractEventLoop | None = None

    def channel(self, member: str) -> str:
        """A member's Redis channel."""
        return self.keys.channel(member)

    async def start(self, handlers: Handlers) -> None:
        """Subscribe to this member's channel; start listening, publishing and watching the relays."""
        self.handlers = handlers
        self._loop = asyncio.get_running_loop()
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._subscribe()
        await self.refresh_roster()
        loops = (self._listen(), self._publish_loop(), self._watch_loop())
        self._tasks = [asyncio.create_task(c, name=f"roppyakken-relays-{i}") for i, c in enumerate(loops)]

    async def close(self) -> None:
        """Let the last messages (closes for relayed clients) go out, then stop."""
        deadline = time.monotonic() + 1.0
        while not self._outbox.queue.empty() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        for task in self._tasks:
            await stop_task(task)
        with contextlib.suppress(*REDIS_ERRORS):
            await self.redis.zrem(self.keys.members, self.member)
        if self._pubsub is not None:
            with contextlib.suppress(*REDIS_ERRORS):
                await self._pubsub.aclose()

    async def _subscribe(self) -> None:
        """Subscribe to this member's channel (sharded, at the node serving it, on a Redis Cluster)."""
        if not self.keys.sharded:
            await self._pubsub.subscribe(self.channel(self.member))
            return
        await self._pubsub.ssubscribe(self.channel(self.member))
        self._serving = self._channel_node()

    def _channel_node(self) -> str | None:
        """The Redis Cluster node serving this member's channel, as the client knows it now."""
        assert isinstance(self.redis, RedisCluster)
        node = self.redis.get_node_from_key(self.channel(self.member))
        return None if node is None else str(node.name)

    async def refresh_roster(self) -> None:
        """Push this member's entry in ``roppyakken:members`` forward and read the others (after each
        renewal)."""
        try:
            found = await self._roster(keys=[self.keys.members], args=[self.member, self.roster_ms])
        except REDIS_ERRORS as exc:
            log.error("cluster: the other members not read: %s", exc)
            return
        self.others = {str(m) for m in found} - {self.member}

    def tournament_changed(self, tournament_id: str | None) -> None:
        """Tell every other member that this member's director changed ``tournament_id``, or (None)
        that a tournament game ended here.  From any thread (a game's end is stored on the
        database's)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._tell_tournament, tournament_id)

    def _tell_tournament(self, tournament_id: str | None) -> None:
        for member in sorted(self.others):
            self.send(member, {"k": "tournament", "t": tournament_id})

    async def repeat_dropped_byes(self) -> None:
        """Queue again the byes that could not be published (after each renewal)."""
        self._repeat_dropped_byes()

    def _repeat_dropped_byes(self) -> None:
        """Queue again the byes that could not be published."""
        while self._dropped_byes:
            self._outbox.queue.put_nowait(self._dropped_byes.popleft())

    async def check_relays(self) -> None:
        """Let go of the clients relayed by members that are gone (nobody on their channel).

        Usually a publish finds that out first; this is for rooms where nothing happens."""
        members = sorted({member for member, _ in self.incoming})
        if not members:
            return
        try:
            counts = await self._subscribers([self.channel(m) for m in members])
        except REDIS_ERRORS as exc:
            log.error("cluster: could not check the other members: %s", exc)
            return
        for member, (_, count) in zip(members, counts, strict=True):
            if int(count) == 0:
                self._member_gone(member)

    async def _subscribers(self, channels: list[str]) -> list[tuple[str, int]]:
        """How many listen on each of ``channels`` (a sharded channel: asked of the node serving it)."""
        if not isinstance(self.redis, RedisCluster):
            return [(str(c), int(n)) for c, n in await self.redis.pubsub_numsub(*channels)]
        counts: list[tuple[str, int]] = []
        for channel in channels:
            node = self.redis.get_node_from_key(channel)
            got = await self.redis.execute_command("PUBSUB SHARDNUMSUB", channel, target_nodes=node)
            counts.extend((str(c), int(n)) for c, n in got)
        return counts

    # ----------------------------------------------------------------- messages

    def send(self, member: str, message: dict[str, Any]) -> None:
        """Publish ``message`` to ``member`` (queued: messages keep their order)."""
        self._outbox.queue.put_nowait((member, "j " + json.dumps(message, separators=(",", ":"))))

    async def _publish_loop(self) -> None:
        """Publish the queued messages in order, as many as are waiting in one round trip."""
        queue = self._outbox.queue
        while True:
            batch = [await queue.get()]
            while not queue.empty() and len(batch) < PUBLISH_BATCH:
                batch.append(queue.get_nowait())
            got = None
            for delay in PUBLISH_RETRIES:
                try:
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for member, data in batch:
                            if self.keys.sharded:
                                pipe.spublish(self.channel(member), data)
                            else:
                                pipe.publish(self.channel(member), data)
                        got = await pipe.execute()
                    break
                except REDIS_ERRORS as exc:
                    # a lost message could leave a client waiting for good; one sent twice carries
                    # the seq it had, so try again (the connection to Redis is made anew)
                    log.error("cluster: could not publish %d messages: %s", len(batch), exc)
                    await asyncio.sleep(delay)
            if got is None:
                # a bye dropped here would leave a ghost in a quiet room (nothing written to the
                # client, so nothing makes this member say it again): keep it for the next renewal
                self._dropped_byes.extend((m, d) for m, d in batch if d.startswith(_BYE))
                continue
            gone = {member for (member, _), count in zip(batch, got, strict=True) if count == 0}
            for member in gone:
                self._member_gone(member)

    def _member_gone(self, member: str) -> None:
        """Nobody listens on ``member``'s channel: it is dead; let go of what it relayed or held."""
        self.others.discard(member)
        for key in [k for k in self.incoming if k[0] == member]:
            self.incoming.pop(key, None)
            if self.handlers is not None:
                self.handlers.gone(*key)
        for relayed in [r for r in self.relayed.values() if r.holder == member]:
            self._holder_lost(relayed)
        for to, future in list(self._calls.values()):
            if to == member and not future.done():
                future.set_exception(ClusterUnavailable(member))

    async def _listen(self) -> None:
        kind = "smessage" if self.keys.sharded else "message"
        while True:
            try:
                if self.keys.sharded:
                    message = await self._pubsub.get_sharded_message(timeout=1.0)
                    if self._channel_node() != self._serving:
                        # a failover or a moved slot: the client follows the channel to its new
                        # node, but what was published meanwhile is gone
                        raise ClusterUnavailable("this member's channel moved to another node")
                else:
                    message = await self._pubsub.get_message(timeout=1.0)
            except (*REDIS_ERRORS, ClusterUnavailable) as exc:
                log.error("cluster: lost the Redis subscription: %s", exc)
                self.leases.unsure()
                # messages for the relayed clients may have been lost meanwhile: they reconnect
                # (and get the whole state again) rather than wait for what will not come
                for relayed in list(self.relayed.values()):
                    self._holder_lost(relayed)
                await asyncio.sleep(0.5)
                with contextlib.suppress(*REDIS_ERRORS):
                    await self._subscribe()
                continue
            if message is None or message.get("type") != kind:
                continue
            try:
                await self._receive(str(message["data"]))
            except Exception:
                log.exception("cluster: a message from another member could not be handled")

    async def _receive(self, text: str) -> None:
        """One message from another member: ``o CONN DATA`` (to a relayed client), ``i MEMBER CONN
        DATA`` (from one), or ``j JSON`` (the rest): the frequent two without a second JSON layer."""
        if text.startswith("o "):
            _, conn, data = text.split(" ", 2)
            relayed = self.relayed.get(conn)
            if relayed is not None:
                relayed.deliver(data)
            elif (holder := self._gone.get(conn)) is not None:
                # the holder still serves a client that left here: its bye was lost (a
                # publish dropped while Redis was away); say it again, or the holder keeps a
                # ghost in the room (seen as connected, its lease held) for good
                self.send(holder, {"k": "bye", "from": self.member, "conn": conn})
        elif text.startswith("i "):
            _, member, conn, data = text.split(" ", 3)
            if (member, conn) in self.incoming and self.handlers is not None:
                await self.handlers.message(member, conn, data)
        elif text.startswith("j "):
            await self._dispatch(json.loads(text[2:]))

    async def _dispatch(self, data: dict[str, Any]) -> None:
        kind = data.get("k")
        if kind == "close":
            relayed = self.relayed.pop(str(data["conn"]), None)
            if relayed is not None:
                relayed.close(int(data["code"]), str(data["reason"]))
        elif kind == "reply":
            waiting = self._calls.pop(str(data["id"]), None)
            if waiting is not None and not waiting[1].done():
                waiting[1].set_result(data)
        elif kind == "call":
            task = asyncio.create_task(self._answer(data))
            self._answering.add(task)
            task.add_done_callback(self._answering.discard)
        elif kind == "tournament":
            said = data.get("t")
            if self.tournaments is not None and (said is None or isinstance(said, str)):
                self.tournaments(said)
        elif kind == "bye":
            key = (str(data["from"]), str(data["conn"]))
            if self.incoming.pop(key, None) is not None and self.handlers is not None:
                self.handlers.gone(*key)
            elif key not in self.incoming:
                self._early_byes.append(key)  # before its attach was answered: refuse that attach

    async def _answer(self, data: dict[str, Any]) -> None:
        assert self.handlers is not None
        member = str(data["from"])
        answer: MemberAnswer
        try:
            call = parse_call({k: v for k, v in data.items() if k not in _ENVELOPE})
            answer = await self.handlers.call(member, call)
        except Exception as exc:
            log.exception("cluster: a call from %s failed", member)
            answer = Refused(error=str(exc) or type(exc).__name__, status=500)
        self.send(member, {"k": "reply", "id": data["id"], **answer.to_json()})

    async def call(self, member: str, call: MemberCall) -> MemberAnswer:
        """Ask ``member`` (holding the room of ``call``) to do it; its answer (ClusterUnavailable after
        a while, or if the answer is not understood)."""
        call_id = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = (member, future)
        self.send(member, {"k": "call", "id": call_id, "from": self.member, **call.to_json()})
        try:
            async with asyncio.timeout(CALL_TIMEOUT):
                data = await future
        except TimeoutError:
            raise ClusterUnavailable(member) from None
        finally:
            self._calls.pop(call_id, None)
        try:
            return parse_answer({k: v for k, v in data.items() if k not in _ENVELOPE})
        except ValueError:
            raise ClusterUnavailable(member) from None

    def accept_incoming(self, member: str, conn: str, room: str) -> bool:
        """Count a connection relayed from ``member`` (being attached); False if it already said bye
        (its relay stopped waiting for the answer)."""
        if (member, conn) in self._early_byes:
            self._early_byes.remove((member, conn))
            return False
        self.incoming[(member, conn)] = _Incoming(member, conn, room)
        return True

    def to_relay(self, member: str, conn: str, message: str) -> None:
        """Send one message to a relayed connection."""
        self._outbox.queue.put_nowait((member, f"o {conn} {message}"))

    def close_relay(self, member: str, conn: str, code: int, reason: str) -> None:
        """Close a relayed connection."""
        self.incoming.pop((member, conn), None)
        self.send(member, {"k": "close", "conn": conn, "code": code, "reason": reason})

    # ----------------------------------------------------------------- the relay's side

    def open_relay(self, relayed: Relayed) -> None:
        """Route the holder's messages for ``relayed.conn`` to it (before asking the holder to attach)."""
        self.relayed[relayed.conn] = relayed

    def forward(self, conn: str, raw: str) -> None:
        """A local client's message for the holder."""
        relayed = self.relayed.get(conn)
        if relayed is not None:
            self._outbox.queue.put_nowait((relayed.holder, f"i {self.member} {conn} {raw}"))

    def close_relayed(self, conn: str) -> None:
        """The local client went away: tell the holder."""
        relayed = self.relayed.pop(conn, None)
        if relayed is not None:
            self.send(relayed.holder, {"k": "bye", "from": self.member, "conn": conn})
            self._gone[conn] = relayed.holder
            while len(self._gone) > GONE_KEPT:
                self._gone.popitem(last=False)

    def _holder_lost(self, relayed: Relayed) -> None:
        if relayed.attached and self.relayed.pop(relayed.conn, None) is not None:
            relayed.close(0, "")

    async def _watch_loop(self) -> None:
        while True:
            await asyncio.sleep(WATCH_PERIOD)
            rooms = sorted({r.room for r in self.relayed.values()})
            if not rooms:
                continue
            try:
                holders = await self.leases.holders(rooms)
            except REDIS_ERRORS as exc:
                log.error("cluster: could not check the leases: %s", exc)
                continue
            now_held = dict(zip(rooms, holders, strict=True))
            for relayed in list(self.relayed.values()):
                if now_held.get(relayed.room) != relayed.holder:
                    self._holder_lost(relayed)
