"""Which rooms a cluster member holds: one Redis lease per room, taken, renewed and given back.

A running room is held by exactly one member: the one whose id is in the Redis key
``roppyakken:lease:<room>``.  The key is taken with ``SET NX PX`` (only if nobody
holds it) and renewed by its holder every third of its lifetime with a
compare-and-set script (only while it is still its own).  A member that dies stops
renewing; the key expires and a survivor takes the room and restores the game
from the database, whether or not anyone asks for it (below).  A holder whose
renewal failed, or whose link to Redis broke (Redis may come back empty, every
lease forgotten), stops making moves at once and renews at once: the rooms whose
leases are gone are let go.

The lease is for liveness only (who should serve a room, and where relays find
it): what stops a member that lost a room from writing in it is the holder epoch
every write checks in its own transaction (fencing, server/store/room_store.py).

Every take and renewal also stamps the room in the hash ``roppyakken:renewed``
(Redis's own clock, milliseconds), and a clean give-back removes the stamp.  A
claim that finds a stamp on a free lease therefore takes the room from a holder
that died (or stopped renewing): the stamp is that holder's last sign of life,
and the time since is time the room had no living holder, which the room's
clock gives back to the player (:meth:`Leases.orphaned_since`).

Every take and renewal also puts the room in the sorted set ``roppyakken:rooms``
scored by its lease's end (Redis's clock), and a clean give-back removes it: the
live scores count the rooms the cluster holds (``max_rooms``), and a score in the
past is a room whose holder stopped renewing and that nobody took since, or one
a stopping member handed over (:meth:`Leases.hand_over`: score 0, no stamp).
Every member asks for those twice a second (:meth:`Leases.lapsed`) and takes
them (server/cluster/members.py), so a dead member's rooms move within about a lease's
life plus half a second, and a stopping member's at once, with nobody connected
and whatever their clocks' deadlines.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Final

from roppyakken.server.cluster.redislink import (
    ONE_REDIS,
    PREFIX,
    REDIS_ERRORS,
    ClusterUnavailable,
    KeySpace,
    Link,
)
from roppyakken.server.play.claims import RoomsFull
from roppyakken.waiting import woken

log = logging.getLogger("roppyakken.server")

LEASE_MS: Final = 3000
"""A room lease's lifetime; renewed every third of it, so a dead holder's rooms move within about this."""

# KEYS[1] lease, KEYS[2] the set of held rooms, KEYS[3] the renewal stamps; ARGV: member, lease ms,
# room, most rooms (0: no bound).  Answers {status, ms}: status 'mine', the holder's id, or '' (full);
# ms: on taking a free lease with a stamp left, the milliseconds since that stamp (else -1)
_CLAIM: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local holder = redis.call('GET', KEYS[1])
if holder == ARGV[1] then
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
  redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[3])
  redis.call('HSET', KEYS[3], ARGV[3], now)
  return {'mine', -1}
end
if holder then return {holder, -1} end
local most = tonumber(ARGV[4])
if most > 0 and redis.call('ZCOUNT', KEYS[2], '(' .. now, '+inf') >= most then return {'', -1} end
local stamp = redis.call('HGET', KEYS[3], ARGV[3])
local since = -1
if stamp then since = math.max(0, now - tonumber(stamp)) end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], now + tonumber(ARGV[2]), ARGV[3])
redis.call('HSET', KEYS[3], ARGV[3], now)
return {'mine', since}
"""

# KEYS: leases; ARGV[1] member, ARGV[2] lease ms, ARGV[3] the set of held rooms, ARGV[4] the renewal
# stamps, ARGV[5..] rooms
_RENEW: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local lost = {}
for i, key in ipairs(KEYS) do
  if redis.call('GET', key) == ARGV[1] then
    redis.call('PEXPIRE', key, ARGV[2])
    redis.call('ZADD', ARGV[3], now + tonumber(ARGV[2]), ARGV[4 + i])
    redis.call('HSET', ARGV[4], ARGV[4 + i], now)
  else
    table.insert(lost, ARGV[4 + i])
  end
end
return lost
"""

# KEYS[1] the set of held rooms; ARGV[1] most rooms.  The rooms whose lease lapsed unrenewed, the
# longest lapsed first
_LAPSED: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
return redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', now, 'LIMIT', 0, tonumber(ARGV[1]))
"""

# KEYS[1] lease, KEYS[2] the set of held rooms, KEYS[3] the renewal stamps; ARGV[1] member, ARGV[2] room
_RELEASE: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[2])
  redis.call('HDEL', KEYS[3], ARGV[2])
  return 1
end
return 0
"""

# KEYS[1] lease, KEYS[2] the set of held rooms, KEYS[3] the renewal stamps; ARGV[1] member, ARGV[2] room
_HAND_OVER: Final = """
if redis.call('GET', KEYS[1]) == ARGV[1] then
  redis.call('DEL', KEYS[1])
  redis.call('ZADD', KEYS[2], 0, ARGV[2])
  redis.call('HDEL', KEYS[3], ARGV[2])
  return 1
end
return 0
"""


class Leases:
    """This member's room leases (a :class:`~roppyakken.server.play.claims.RoomClaims`): the module
    docstring."""

    ROOMS_KEY: Final = PREFIX + "rooms"
    """The set of rooms held, on one Redis (:attr:`KeySpace.rooms` names it on either)."""
    STAMPS_KEY: Final = PREFIX + "renewed"
    """The renewal stamps, on one Redis (:attr:`KeySpace.stamps` names it on either)."""

    def __init__(
        self,
        redis: Link,
        member: str,
        *,
        lease_ms: int = LEASE_MS,
        max_rooms: int = 0,
        keys: KeySpace = ONE_REDIS,
    ) -> None:
        self.redis = redis
        self.keys = keys
        """The keys' names (one Redis, or a Redis Cluster: server/cluster/redislink.py)."""
        self.member = member
        self.lease_ms = lease_ms
        self.max_rooms = max_rooms
        self.held: dict[str, float] = {}
        """Rooms whose lease this member holds: the monotonic time until which it surely does."""
        self.orphans: dict[str, float] = {}
        """Rooms taken from a holder that died, and the wall-clock time of its last renewal."""
        self.lost: Callable[[list[str]], None] | None = None
        """Told the rooms whose leases this member found it no longer holds (let them go)."""
        self.chores: list[Callable[[], Awaitable[None]]] = []
        """Work started after each renewal, one round at a time, apart from the renewals (each
        bounded by a lease's life)."""
        self._claim = redis.register_script(_CLAIM)
        self._renew = redis.register_script(_RENEW)
        self._release = redis.register_script(_RELEASE)
        self._lapsed = redis.register_script(_LAPSED)
        self._hand_over = redis.register_script(_HAND_OVER)
        self._releasing: dict[str, asyncio.Task[None]] = {}
        self._renewed_at = time.monotonic()
        """When the last renewal began."""
        self._renew_now = asyncio.Event()
        """Set to renew the leases at once (the link to Redis broke: they may be gone)."""

    @staticmethod
    def lease_key(room: str) -> str:
        """A room's lease key on one Redis (:meth:`KeySpace.lease` names it on either)."""
        return f"{PREFIX}lease:{room}"

    async def claim(self, room: str) -> str | None:
        """Take ``room``'s lease: None if this member holds it now, else the holder's id.

        Raises :class:`RoomsFull` if the cluster holds as many rooms as it may.
        """
        pending = self._releasing.pop(room, None)
        if pending is not None:
            await pending
        began, wall = time.monotonic(), time.time()
        try:
            answer, since = await self._claim(
                keys=[self.keys.lease(room), self.keys.rooms, self.keys.stamps],
                args=[self.member, self.lease_ms, room, self.max_rooms],
            )
        except REDIS_ERRORS as exc:
            raise ClusterUnavailable(str(exc)) from None
        if answer == "mine":
            self.held[room] = began + self.lease_ms / 1000 * 0.8
            if int(since) >= 0:
                # measured on Redis's clock, from before the claim was sent: never later than the
                # dead holder's last renewal as this member's clock sees it
                self.orphans[room] = wall - int(since) / 1000
            return None
        if answer == "":
            if self._releasing:  # rooms this member just let go: once their leases are back, try again
                await asyncio.gather(*self._releasing.values(), return_exceptions=True)
                return await self.claim(room)
            raise RoomsFull(room)
        return str(answer)

    async def lapsed(self, most: int) -> list[str]:
        """At most ``most`` rooms whose holder stopped renewing their leases (it died, or is paused or
        cut off from Redis) and that nobody took or gave back since, the longest lapsed first."""
        try:
            rooms = await self._lapsed(keys=[self.keys.rooms], args=[most])
        except REDIS_ERRORS as exc:
            raise ClusterUnavailable(str(exc)) from None
        return [str(r) for r in rooms]

    def orphaned_since(self, room: str) -> float | None:
        """If this member's last claim of ``room`` took it from a holder that never gave it back (it
        died, or stopped renewing), that holder's last renewal (epoch seconds): the room had no
        living holder since then at most.  None otherwise.  Told once."""
        return self.orphans.pop(room, None)

    def holds(self, room: str) -> bool:
        """Whether this member surely still holds ``room`` (its last renewal is recent enough)."""
        until = self.held.get(room)
        return until is not None and time.monotonic() < until

    async def confirm(self, room: str) -> bool:
        """Whether ``room`` is still this member's, asked now: its lease renewed at once (a renewal
        that came late under load leaves :meth:`holds` unsure while the lease is still this
        member's).  A lease that lapsed with nobody taking it is taken again: if another member
        loaded the room meanwhile, the holder epoch every write checks refuses this one's.  False
        if another member holds it, this member let it go, or Redis does not answer in time."""
        if room not in self.held:
            return False
        orphaned = self.orphans.get(room)
        try:
            async with asyncio.timeout(self.lease_ms / 1000):
                holder = await self.claim(room)
        except (ClusterUnavailable, RoomsFull, TimeoutError):
            return False
        if orphaned is None:
            self.orphans.pop(room, None)  # (its own lapse: no dead holder's time to give back)
        return holder is None

    async def release(self, room: str) -> None:
        """Give ``room``'s lease back (if still this member's)."""
        self.held.pop(room, None)
        self.orphans.pop(room, None)
        with contextlib.suppress(*REDIS_ERRORS):
            await self._release(
                keys=[self.keys.lease(room), self.keys.rooms, self.keys.stamps], args=[self.member, room]
            )

    async def hand_over(self, room: str) -> None:
        """Give ``room``'s lease back (if still this member's) for another member to take at once:
        listed as lapsed, with no stamp (nothing to give back to its clock: this member paused it)."""
        self.held.pop(room, None)
        self.orphans.pop(room, None)
        with contextlib.suppress(*REDIS_ERRORS):
            await self._hand_over(
                keys=[self.keys.lease(room), self.keys.rooms, self.keys.stamps], args=[self.member, room]
            )

    def release_soon(self, room: str) -> None:
        """Give ``room``'s lease back in the background (a claim of it waits for that first)."""
        self.held.pop(room, None)
        self.orphans.pop(room, None)
        task = asyncio.create_task(self.release(room))
        self._releasing[room] = task
        task.add_done_callback(lambda t: self._forget_release(room, t))

    def _forget_release(self, room: str, task: asyncio.Task[None]) -> None:
        if self._releasing.get(room) is task:
            del self._releasing[room]

    async def release_all(self) -> None:
        """Hand every lease over (others take the rooms at once)."""
        for room in list(self.held):
            await self.hand_over(room)

    async def holder(self, room: str) -> str | None:
        """The member holding ``room`` now, or None."""
        try:
            value = await self.redis.get(self.keys.lease(room))
        except REDIS_ERRORS as exc:
            raise ClusterUnavailable(str(exc)) from None
        return None if value is None else str(value)

    async def holders(self, rooms: list[str]) -> list[str | None]:
        """The members holding ``rooms`` now (None: nobody), in order; one of REDIS_ERRORS if unknown."""
        values = await self.redis.mget([self.keys.lease(r) for r in rooms])
        return [None if v is None else str(v) for v in values]

    def unsure(self) -> None:
        """The link to Redis broke: Redis may have restarted empty, forgetting every lease at once,
        and another member may take these rooms as soon as it is back.  Make no move in them until
        a renewal says they are still this member's (else they are let go), and renew at once."""
        now = time.monotonic()
        for room, until in self.held.items():
            self.held[room] = min(until, now)
        self._renew_now.set()

    async def renew_loop(self) -> None:
        """Renew the leases every third of their life (at once after :meth:`unsure`), and after each
        renewal start the chores, which never hold up the next renewal: a loaded member whose chores
        came late would otherwise renew late, past its leases' life, and lose its rooms."""
        period = self.lease_ms / 3000
        chores: asyncio.Task[None] | None = None
        try:
            while True:
                began = time.monotonic()
                if not await self._renew_once():
                    began = time.monotonic()  # (the next try after a period, not at once)
                if self.chores and (chores is None or chores.done()):
                    chores = asyncio.create_task(self._do_chores(), name="roppyakken-lease-chores")
                await woken(self._renew_now, max(0.0, began + period - time.monotonic()))
                self._renew_now.clear()
        finally:
            if chores is not None:
                chores.cancel()

    async def _renew_once(self) -> bool:
        """Renew every lease held in one script; False if Redis did not answer in time."""
        rooms = list(self.held)
        began = time.monotonic()
        late, self._renewed_at = began - self._renewed_at, began
        if not rooms:
            return True
        if late > self.lease_ms / 1000 * 0.6:  # due every third of the life: a loaded member's loop
            log.warning(
                "cluster: leases renewed %.1f s after the last (they last %.1f s)", late, self.lease_ms / 1000
            )
        try:
            # bounded: an answer later than a lease's life renews nothing, and a round
            # that never ends would leave every room here refusing moves, unexplained
            async with asyncio.timeout(self.lease_ms / 1000):  # (wait_for may drop a cancellation)
                lost = await self._renew(
                    keys=[self.keys.lease(r) for r in rooms],
                    args=[self.member, self.lease_ms, self.keys.rooms, self.keys.stamps, *rooms],
                )
        except (*REDIS_ERRORS, TimeoutError) as exc:
            log.error("cluster: leases not renewed: %s", str(exc) or "no answer in time")
            self.unsure()  # moves stop until renewed
            self._renew_now.clear()
            return False
        lost_set = {str(r) for r in lost}
        for room in rooms:
            if room in self.held and room not in lost_set:
                self.held[room] = began + self.lease_ms / 1000 * 0.8
        gone = [r for r in lost_set if r in self.held]
        for room in gone:
            del self.held[room]
        if gone and self.lost is not None:
            log.warning("cluster: lost the leases of %d rooms", len(gone))
            self.lost(gone)
        return True

    async def _do_chores(self) -> None:
        for chore in self.chores:
            try:
                async with asyncio.timeout(self.lease_ms / 1000):
                    await chore()
            except TimeoutError:
                log.error("cluster: %s: no answer from Redis in time", chore.__name__.strip("_"))
