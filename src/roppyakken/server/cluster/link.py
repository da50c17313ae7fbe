"""Several ``roppyakken serve`` processes as one service: one member's link to the cluster.

Every member of a cluster shares one PostgreSQL database (what must last) and
one Redis server or Redis Cluster (who holds which room, messages between members, shared bounds).
A :class:`Cluster` is four parts, each behind its own small interface:

* :class:`~roppyakken.server.cluster.leases.Leases` (server/cluster/leases.py): which rooms this
  member holds, as Redis leases (a :class:`~roppyakken.server.play.claims.RoomClaims`);
* :class:`~roppyakken.server.cluster.bus.RelayBus` (server/cluster/bus.py): messages to
  and from the other members (relayed clients, calls);
* :class:`~roppyakken.server.cluster.buckets.RedisBuckets` (server/cluster/buckets.py): the rate
  limits, token buckets in Redis (a :class:`~roppyakken.server.limits.RateLimiter`);
* :class:`~roppyakken.server.cluster.connections.ClusterConnections`
  (server/cluster/connections.py): the websockets per address, counted in Redis (a
  :class:`~roppyakken.server.limits.ConnectionCounter`).

The lease is for liveness only: what stops a member that lost a room from
writing in it is the holder epoch checked in each write's transaction (fencing,
server/store/room_store.py), which needs no clock.  See docs/DEPLOY.md for why a Redis
lease rather than a PostgreSQL advisory lock.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets

from roppyakken.server.cluster.buckets import RedisBuckets
from roppyakken.server.cluster.bus import ROSTER_LEASES, Handlers, RelayBus, Relayed
from roppyakken.server.cluster.connections import ClusterConnections
from roppyakken.server.cluster.leases import LEASE_MS, Leases
from roppyakken.server.cluster.redislink import (
    REDIS_ERRORS,
    ClusterUnavailable,
    KeySpace,
    check_url,
    is_cluster,
    open_redis,
    stop_task,
)

log = logging.getLogger("roppyakken.server")

CLOSE_PATIENCE = 10.0
"""How long a stopping member gives Redis to take back its leases and connections."""

__all__ = ["Cluster", "ClusterConnections", "ClusterUnavailable", "Handlers", "Relayed", "check_url"]


class Cluster:
    """One member's link to the cluster (a Redis URL, or a Redis Cluster's ``redis+cluster://`` URL):
    its leases, relays, buckets and counts."""

    def __init__(self, url: str, *, lease_ms: int = LEASE_MS, max_rooms: int = 0) -> None:
        self.url = url
        self.member = secrets.token_hex(8)
        """This member's id (fresh at each start: a restarted member is a new one)."""
        # every command gives up after a lease's life (a frozen Redis answers nothing)
        self.redis = open_redis(url, lease_ms / 1000)
        self.keys = KeySpace(sharded=is_cluster(url))
        """The keys' names: hash tags, sharded channels on a Redis Cluster (cluster/redislink.py)."""
        self.leases = Leases(self.redis, self.member, lease_ms=lease_ms, max_rooms=max_rooms, keys=self.keys)
        self.bus = RelayBus(
            self.redis, self.member, self.leases, self.keys, roster_ms=lease_ms * ROSTER_LEASES
        )
        self.buckets = RedisBuckets(self.redis)
        self.connections = ClusterConnections(self.redis, self.member, lease_ms)
        self.leases.chores = [
            self.connections.refresh,
            self.bus.check_relays,
            self.bus.repeat_dropped_byes,
            self.bus.refresh_roster,
        ]
        self._renewing: list[asyncio.Task[None]] = []

    async def start(self, handlers: Handlers) -> None:
        """Connect, subscribe to this member's channel, start renewing and relaying."""
        try:
            await self.redis.ping()
        except REDIS_ERRORS as exc:
            raise ClusterUnavailable(str(exc)) from None
        self.leases.lost = handlers.lost
        await self.bus.start(handlers)
        self._renewing = [asyncio.create_task(self.leases.renew_loop(), name="roppyakken-leases")]

    async def close(self) -> None:
        """Give back every lease (others take the rooms at once), stop, disconnect: within
        :data:`CLOSE_PATIENCE` seconds whatever Redis does (the leases then lapse by themselves)."""
        try:
            async with asyncio.timeout(CLOSE_PATIENCE):
                await self.leases.release_all()
                await self.bus.close()
        except TimeoutError:
            log.error("cluster: leases and relays not closed within %s s: stopping anyway", CLOSE_PATIENCE)
        for task in self._renewing:
            await stop_task(task)
        with contextlib.suppress(TimeoutError, *REDIS_ERRORS):
            async with asyncio.timeout(CLOSE_PATIENCE):
                await self.connections.close()
                await self.redis.aclose()

    # the parts' interfaces the server uses through the cluster

    shared = True
    """Every member holds rooms of the one database (:class:`~roppyakken.server.play.claims.RoomClaims`)."""

    async def give_back(self, room_id: str, *, busy: bool) -> None:
        """See :meth:`~roppyakken.server.play.claims.RoomClaims.give_back`: the lease released, or handed
        over (:meth:`Leases.hand_over`) if the room is busy."""
        if busy:
            await self.leases.hand_over(room_id)
        else:
            await self.leases.release(room_id)

    async def claim(self, room_id: str) -> str | None:
        """See :meth:`Leases.claim`."""
        return await self.leases.claim(room_id)

    def holds(self, room_id: str) -> bool:
        """See :meth:`Leases.holds`."""
        return self.leases.holds(room_id)

    async def confirm(self, room_id: str) -> bool:
        """See :meth:`Leases.confirm`."""
        return await self.leases.confirm(room_id)

    def orphaned_since(self, room_id: str) -> float | None:
        """See :meth:`Leases.orphaned_since`."""
        return self.leases.orphaned_since(room_id)

    def release_soon(self, room_id: str) -> None:
        """See :meth:`Leases.release_soon`."""
        self.leases.release_soon(room_id)

    async def take(self, key: str, per_minute: float, burst: float) -> float:
        """See :meth:`RedisBuckets.take`."""
        return await self.buckets.take(key, per_minute, burst)
