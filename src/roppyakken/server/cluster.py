"""Several ``roppyakken serve`` processes as one service: room leases and relays through Redis.

Every member of a cluster shares one PostgreSQL database (what must last) and
one Redis server (who holds which room, and messages between members).

* **Leases.**  A running room is held by exactly one member: the one whose id is
  in the Redis key ``roppyakken:lease:<room>``.  The key is taken with
  ``SET NX PX`` (only if nobody holds it) and renewed by its holder every third
  of its lifetime with a compare-and-set script (only while it is still its own).
  A member that dies stops renewing; the key expires and the next member asked
  for the room takes it and restores the game from the database.  A holder whose
  renewal failed, or whose link to Redis broke (Redis may come back empty, every
  lease forgotten), stops making moves at once (it no longer knows it is the only
  one) and renews at once: the rooms whose leases are gone are let go.  A room
  refused a move for want of a sure lease is let go too (its clients reconnect and
  it is loaded again where it is held), never left refusing every move.  The
  lease is for liveness only: what stops a member that lost a room from writing
  in it is the holder epoch checked in each write's transaction (fencing,
  server/storage.py), which needs no clock.
* **Relays.**  A member asked for a room that another member holds becomes a
  relay: the client's messages go to the holder on the holder's Redis channel,
  and the holder's messages for that one connection come back on the relay's
  channel (``roppyakken:member:<id>``, one channel per member).  The holder
  builds every message for the connection's own seat, exactly as for a socket
  of its own, so a relay never holds anything but what its client may see.
* **Losing a member.**  Redis answers each ``PUBLISH`` with the number of
  subscribers that got it: a member whose channel has nobody is gone, and the
  connections it relayed are let go at once.  A relay checks the leases of the
  rooms it relays about twice a second; when the holder changed or vanished it
  tells its clients that the server is restarting and closes them, and they
  reconnect through the balancer to whichever member now holds the room.
* **Bounds across the cluster.**  The rooms held (a sorted set of leases by
  expiry), the rate limits (token buckets in Redis) and the websockets per
  address (a sorted set per address) are counted in Redis, not per member.

See docs/DEPLOY.md for why a Redis lease rather than a PostgreSQL advisory lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections import OrderedDict, defaultdict, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Final, cast

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from roppyakken.server.claims import RoomsFull
from roppyakken.server.db import StorageError

log = logging.getLogger("roppyakken.server")

PREFIX: Final = "roppyakken:"
LEASE_MS: Final = 3000
"""A room lease's lifetime; renewed every third of it, so a dead holder's rooms move within about this."""
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
_BYE: Final = 'j {"k":"bye",'
"""How a published bye begins (:meth:`Cluster.send` writes ``k`` first)."""

# KEYS[1] lease, KEYS[2] the set of held rooms; ARGV: member, lease ms, room, most rooms (0: no bound)
_CLAIM: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[3])
  return 'mine'
end
if holder then return holder end
local most = tonumber(ARGV[4])
if most > 0 then
  redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
  if redis.call('ZCARD', KEYS[2]) >= most then return '' end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[3])
return 'mine'
"""

# KEYS: leases; ARGV[1] member, ARGV[2] lease ms, ARGV[3] the set of held rooms, ARGV[4..] rooms
_RENEW: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    redis.call('ZADD', ARGV[3], now + tonumber(ARGV[2]), ARGV[3 + i])
  else
    table.insert(lost, ARGV[3 + i])
  end
end
return lost
"""

# KEYS[1] lease, KEYS[2] the set of held rooms; ARGV[1] member, ARGV[2] room
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[2])
  return 1
end
return 0
"""

# A token bucket: KEYS[1]; ARGV: rate per ms, burst, ttl ms.  Returns the ms to wait (0: taken).
_TAKE: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local b = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens, at = tonumber(b[1]), tonumber(b[2])
if tokens == nil then tokens, at = burst, now end
tokens = math.min(burst, tokens + (now - at) * rate)
local wait = 0
if tokens >= 1 then tokens = tokens - 1
elseif rate > 0 then wait = math.ceil((1 - tokens) / rate)
else wait = -1 end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return wait
"""

# KEYS[1] an address's connections; ARGV: connection, most, expiry ms
_ACQUIRE: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then return 0 end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""


class ClusterUnavailable(StorageError):
    """Redis or the member holding a room did not answer in time."""


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
    """What a member does with requests from other members (set by the hub)."""

    call: Callable[[str, dict[str, Any]], Awaitable[dict[str, Any]]]
    """Answer a call (``attach``, ``info``, ``join``) from member ``from`` about a room held here."""
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


class Cluster:
    """One member's link to the cluster (a Redis URL); see the module docstring."""

    def __init__(self, url: str, *, lease_ms: int = LEASE_MS, max_rooms: int = 0) -> None:
        self.url = url
        self.lease_ms = lease_ms
        self.max_rooms = max_rooms
        self.member = secrets.token_hex(8)
        """This member's id (fresh at each start: a restarted member is a new one)."""
        # Every command gives up after a lease's life: a frozen Redis (SIGSTOP, a stalled VM) keeps
        # its connections open and answers nothing, and a command waiting for good would hold up
        # whatever waits on it (a claim, a publish, a renewal) with no error ever said.
        seconds = lease_ms / 1000
        self.redis: aioredis.Redis = aioredis.from_url(
            url, decode_responses=True, socket_timeout=seconds, socket_connect_timeout=seconds
        )
        self.handlers: Handlers | None = None
        self.held: dict[str, float] = {}
        """Rooms whose lease this member holds: the monotonic time until which it surely does."""
        self.relayed: dict[str, Relayed] = {}
        """Connections here to rooms held elsewhere, by connection id."""
        self.incoming: dict[tuple[str, str], _Incoming] = {}
        """Connections elsewhere to rooms held here, by (member, connection)."""
        self._calls: dict[str, tuple[str, asyncio.Future[dict[str, Any]]]] = {}
        self._outbox = _Outbox()
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub: Any = None
        self._claim = self.redis.register_script(_CLAIM)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._take = self.redis.register_script(_TAKE)
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._conns: dict[str, list[str]] = defaultdict(list)
        """This member's websockets counted in Redis, by address: their ids."""
        self.closing = False
        self._releasing: dict[str, asyncio.Task[None]] = {}
        self._renew_now = asyncio.Event()
        """Set to renew the leases at once (the link to Redis broke: they may be gone)."""
        self._answering: set[asyncio.Task[None]] = set()
        self._early_byes: deque[tuple[str, str]] = deque(maxlen=1000)
        self._gone: OrderedDict[str, str] = OrderedDict()
        self._dropped_byes: deque[tuple[str, str]] = deque(maxlen=GONE_KEPT)
        """Byes that could not be published (Redis away): published again at each renewal."""
        """Relayed connections that went away here: their holder, by connection id (the latest)."""

    def channel(self, member: str) -> str:
        """A member's Redis channel."""
        return f"{PREFIX}member:{member}"

    @staticmethod
    def lease_key(room: str) -> str:
        """A room's lease key."""
        return f"{PREFIX}lease:{room}"

    ROOMS_KEY: Final = PREFIX + "rooms"

    # ----------------------------------------------------------------- life

    async def start(self, handlers: Handlers) -> None:
        """Connect, subscribe to this member's channel, start renewing and watching."""
        self.handlers = handlers
        try:
            await self.redis.ping()
        except (RedisError, OSError) as exc:
            raise ClusterUnavailable(str(exc)) from None
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        await self._pubsub.subscribe(self.channel(self.member))
        loops = (self._listen(), self._publish_loop(), self._renew_loop(), self._watch_loop())
        self._tasks = [asyncio.create_task(c, name=f"roppyakken-cluster-{i}") for i, c in enumerate(loops)]

    async def close(self) -> None:
        """Give back every lease (others take the rooms at once), stop, disconnect."""
        self.closing = True
        for room in list(self.held):
            await self.release(room)
        # let the last messages (closes for relayed clients) go out
        deadline = time.monotonic() + 1.0
        while not self._outbox.queue.empty() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
        for task in self._tasks:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, RedisError, OSError):
                await task
        with contextlib.suppress(RedisError, OSError):
            for address, conns in self._conns.items():
                if conns:
                    await self.redis.zrem(self._conns_key(address), *conns)
        if self._pubsub is not None:
            with contextlib.suppress(RedisError, OSError):
                await self._pubsub.aclose()
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()

    # ----------------------------------------------------------------- leases

    async def claim(self, room: str) -> str | None:
        """Take ``room``'s lease: None if this member holds it now, else the holder's id.

        Raises :class:`RoomsFull` if the cluster holds as many rooms as it may.
        """
        pending = self._releasing.pop(room, None)
        if pending is not None:
            await pending
        began = time.monotonic()
        try:
            answer = await self._claim(
                keys=[self.lease_key(room), self.ROOMS_KEY],
                args=[self.member, self.lease_ms, room, self.max_rooms],
            )
        except (RedisError, OSError) as exc:
            raise ClusterUnavailable(str(exc)) from None
        if answer == "mine":
            self.held[room] = began + self.lease_ms / 1000 * 0.8
            return None
        if answer == "":
            if self._releasing:  # rooms this member just let go: once their leases are back, try again
                await asyncio.gather(*self._releasing.values(), return_exceptions=True)
                return await self.claim(room)
            raise RoomsFull(room)
        return str(answer)

    def holds(self, room: str) -> bool:
        """Whether this member surely still holds ``room`` (its last renewal is recent enough)."""
        until = self.held.get(room)
        return until is not None and time.monotonic() < until

    async def release(self, room: str) -> None:
        """Give ``room``'s lease back (if still this member's)."""
        self.held.pop(room, None)
        with contextlib.suppress(RedisError, OSError):
            await self._release(keys=[self.lease_key(room), self.ROOMS_KEY], args=[self.member, room])

    def release_soon(self, room: str) -> None:
        """Give ``room``'s lease back in the background (a claim of it waits for that first)."""
        self.held.pop(room, None)
        task = asyncio.create_task(self.release(room))
        self._releasing[room] = task
        task.add_done_callback(lambda t: self._forget_release(room, t))

    def _forget_release(self, room: str, task: asyncio.Task[None]) -> None:
        if self._releasing.get(room) is task:
            del self._releasing[room]

    async def holder(self, room: str) -> str | None:
        """The member holding ``room`` now, or None."""
        try:
            value = await self.redis.get(self.lease_key(room))
        except (RedisError, OSError) as exc:
            raise ClusterUnavailable(str(exc)) from None
        return None if value is None else str(value)

    def _unsure(self) -> None:
        """The link to Redis broke: Redis may have restarted empty, forgetting every lease at once,
        and another member may take these rooms as soon as it is back.  Make no move in them until
        a renewal says they are still this member's (else they are let go), and renew at once."""
        now = time.monotonic()
        for room, until in self.held.items():
            self.held[room] = min(until, now)
        self._renew_now.set()

    async def _renew_loop(self) -> None:
        period = self.lease_ms / 3000
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._renew_now.wait(), period)
            self._renew_now.clear()
            rooms = list(self.held)
            if rooms:
                began = time.monotonic()
                try:
                    # bounded: an answer later than a lease's life renews nothing, and a round
                    # that never ends would leave every room here refusing moves, unexplained
                    lost = await asyncio.wait_for(
                        self._renew(
                            keys=[self.lease_key(r) for r in rooms],
                            args=[self.member, self.lease_ms, self.ROOMS_KEY, *rooms],
                        ),
                        self.lease_ms / 1000,
                    )
                except (RedisError, OSError, TimeoutError) as exc:
                    log.error("cluster: leases not renewed: %s", str(exc) or "no answer in time")
                    self._unsure()  # moves stop until renewed
                    self._renew_now.clear()  # (the next try after a period, not at once)
                    continue
                lost_set = {str(r) for r in lost}
                for room in rooms:
                    if room in self.held and room not in lost_set:
                        self.held[room] = began + self.lease_ms / 1000 * 0.8
                gone = [r for r in lost_set if r in self.held]
                for room in gone:
                    del self.held[room]
                if gone and self.handlers is not None:
                    log.warning("cluster: lost the leases of %d rooms", len(gone))
                    self.handlers.lost(gone)
            for chore in (self._refresh_conns, self._check_relays):
                try:
                    await asyncio.wait_for(chore(), self.lease_ms / 1000)
                except TimeoutError:  # (never hold up the next renewal)
                    log.error("cluster: %s: no answer from Redis in time", chore.__name__.strip("_"))
            self._repeat_dropped_byes()

    def _repeat_dropped_byes(self) -> None:
        """Queue again the byes that could not be published."""
        while self._dropped_byes:
            self._outbox.queue.put_nowait(self._dropped_byes.popleft())

    async def _check_relays(self) -> None:
        """Let go of the clients relayed by members that are gone (nobody on their channel).

        Usually a publish finds that out first; this is for rooms where nothing happens."""
        members = sorted({member for member, _ in self.incoming})
        if not members:
            return
        try:
            counts = await self.redis.pubsub_numsub(*(self.channel(m) for m in members))
        except (RedisError, OSError) as exc:
            log.error("cluster: could not check the other members: %s", exc)
            return
        for member, (_, count) in zip(members, counts, strict=True):
            if int(count) == 0:
                self._member_gone(member)

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
                            pipe.publish(self.channel(member), data)
                        got = await pipe.execute()
                    break
                except (RedisError, OSError) as exc:
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
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except (RedisError, OSError) as exc:
                log.error("cluster: lost the Redis subscription: %s", exc)
                self._unsure()
                # messages for the relayed clients may have been lost meanwhile: they reconnect
                # (and get the whole state again) rather than wait for what will not come
                for relayed in list(self.relayed.values()):
                    self._holder_lost(relayed)
                await asyncio.sleep(0.5)
                with contextlib.suppress(RedisError, OSError):
                    await self._pubsub.subscribe(self.channel(self.member))
                continue
            if message is None or message.get("type") != "message":
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
        elif kind == "bye":
            key = (str(data["from"]), str(data["conn"]))
            if self.incoming.pop(key, None) is not None and self.handlers is not None:
                self.handlers.gone(*key)
            elif key not in self.incoming:
                self._early_byes.append(key)  # before its attach was answered: refuse that attach

    async def _answer(self, data: dict[str, Any]) -> None:
        assert self.handlers is not None
        member = str(data["from"])
        try:
            answer = await self.handlers.call(member, data)
        except Exception as exc:
            log.exception("cluster: a call from %s failed", member)
            answer = {"error": str(exc) or type(exc).__name__, "status": 500}
        self.send(member, {"k": "reply", "id": data["id"], **answer})

    async def call(self, member: str, op: str, room: str, **args: Any) -> dict[str, Any]:
        """Ask ``member`` (holding ``room``) to do ``op``; its answer (ClusterUnavailable after a while)."""
        call_id = secrets.token_hex(8)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._calls[call_id] = (member, future)
        self.send(member, {"k": "call", "id": call_id, "from": self.member, "op": op, "room": room, **args})
        try:
            return await asyncio.wait_for(future, CALL_TIMEOUT)
        except TimeoutError:
            raise ClusterUnavailable(member) from None
        finally:
            self._calls.pop(call_id, None)

    # ----------------------------------------------------------------- the holder's side of a relay

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
                holders = await self.redis.mget([self.lease_key(r) for r in rooms])
            except (RedisError, OSError) as exc:
                log.error("cluster: could not check the leases: %s", exc)
                continue
            now_held = dict(zip(rooms, holders, strict=True))
            for relayed in list(self.relayed.values()):
                if now_held.get(relayed.room) != relayed.holder:
                    self._holder_lost(relayed)

    # ----------------------------------------------------------------- bounds across the cluster

    async def take(self, key: str, per_minute: float, burst: float) -> float:
        """A token from ``key``'s bucket in Redis: 0, or the seconds to wait (see RateLimiter)."""
        rate = per_minute / 60_000.0
        ttl = int(max(60_000.0, burst / rate if rate > 0 else 3_600_000.0)) + 1000
        try:
            wait = await self._take(keys=[f"{PREFIX}bucket:{key}"], args=[repr(rate), repr(burst), ttl])
        except (RedisError, OSError) as exc:
            log.error("cluster: rate limit not checked: %s", exc)
            return 0.0  # Redis gone: let the request through rather than refuse everyone
        wait = int(cast(int, wait))
        return float("inf") if wait < 0 else wait / 1000.0

    def _conns_key(self, address: str) -> str:
        return f"{PREFIX}conns:{address}"

    async def acquire(self, address: str, most: int) -> bool:
        """Count one more websocket from ``address`` across the cluster unless it has ``most``."""
        conn = f"{self.member}:{secrets.token_hex(6)}"
        try:
            ok = await self._acquire(keys=[self._conns_key(address)], args=[conn, most, self.lease_ms * 2])
        except (RedisError, OSError) as exc:
            log.error("cluster: connection not counted: %s", exc)
            return True
        if ok:
            self._conns[address].append(conn)
        return bool(ok)

    async def release_conn(self, address: str) -> None:
        """One websocket from ``address`` ended."""
        conns = self._conns.get(address)
        if not conns:
            return
        conn = conns.pop()
        if not conns:
            del self._conns[address]
        with contextlib.suppress(RedisError, OSError):
            await self.redis.zrem(self._conns_key(address), conn)

    async def _refresh_conns(self) -> None:
        """Push the expiry of this member's counted websockets forward (a dead member's lapse)."""
        if not self._conns:
            return
        try:
            seconds, micros = await self.redis.time()
            expiry = int(seconds) * 1000 + int(micros) // 1000 + self.lease_ms * 2
            async with self.redis.pipeline(transaction=False) as pipe:
                for address, conns in self._conns.items():
                    pipe.zadd(self._conns_key(address), dict.fromkeys(conns, expiry), xx=True)
                    pipe.pexpire(self._conns_key(address), self.lease_ms * 2)
                await pipe.execute()
        except (RedisError, OSError) as exc:
            log.error("cluster: connections not refreshed: %s", exc)

    def total_conns(self) -> int:
        """Websockets this member counted."""
        return sum(len(c) for c in self._conns.values())


class ClusterConnections:
    """A :class:`~roppyakken.server.guard.ConnectionCounter` over the whole cluster (Redis)."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster

    async def acquire(self, address: str, most: int) -> bool:
        """See :meth:`ConnectionCounter.acquire`."""
        return await self.cluster.acquire(address, most)

    async def release(self, address: str) -> None:
        """See :meth:`ConnectionCounter.release`."""
        await self.cluster.release_conn(address)

    def total(self) -> int:
        """This member's counted websockets (see :meth:`ConnectionCounter.total`)."""
        return self.cluster.total_conns()


def check_url(url: str) -> str:
    """``url`` if it is a Redis URL, else :class:`~roppyakken.errors.RoppyakkenError` in one line."""
    from roppyakken.errors import RoppyakkenError
    from roppyakken.server import text

    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise RoppyakkenError(text.BAD_REDIS_URL.format(url=url))
    return url
