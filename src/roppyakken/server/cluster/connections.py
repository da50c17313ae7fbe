"""Websockets per address across a cluster: a sorted set per address in Redis, each member's
entries kept alive by it (a dead member's lapse).

An entry lives :data:`LIFE_LEASES` leases and its member pushes it forward once a lease (a
failed push is tried again at the member's next lease renewal): Redis then does two commands
per connected address per member every lease, not every renewal (docs/CAPACITY.md, "Presence")."""

from __future__ import annotations

import contextlib
import logging
import secrets
import time
from collections import defaultdict
from collections.abc import Callable
from typing import Final

from roppyakken.server.cluster.redislink import PREFIX, REDIS_ERRORS, Link

log = logging.getLogger("roppyakken.server")

LIFE_LEASES: Final = 3
"""An entry's life, in leases: a dead member's websockets stop counting within this many leases."""

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


class ClusterConnections:
    """A :class:`~roppyakken.server.limits.ConnectionCounter` over the whole cluster (Redis)."""

    def __init__(
        self,
        redis: Link,
        member: str,
        lease_ms: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.redis = redis
        self.member = member
        self.lease_ms = lease_ms
        self.life_ms = lease_ms * LIFE_LEASES
        """An entry's life in Redis (milliseconds)."""
        self.clock = clock
        self._refreshed = -float("inf")
        """When the entries were last pushed forward (:attr:`clock`)."""
        self._acquire = redis.register_script(_ACQUIRE)
        self._conns: dict[str, list[str]] = defaultdict(list)
        """This member's websockets counted in Redis, by address: their ids."""

    def _key(self, address: str) -> str:
        return f"{PREFIX}conns:{address}"

    async def acquire(self, address: str, most: int) -> bool:
        """Count one more websocket from ``address`` across the cluster unless it has ``most``."""
        conn = f"{self.member}:{secrets.token_hex(6)}"
        try:
            ok = await self._acquire(keys=[self._key(address)], args=[conn, most, self.life_ms])
        except REDIS_ERRORS as exc:
            log.error("cluster: connection not counted: %s", exc)
            return True
        if ok:
            self._conns[address].append(conn)
        return bool(ok)

    async def release(self, address: str) -> None:
        """One websocket from ``address`` ended."""
        conns = self._conns.get(address)
        if not conns:
            return
        conn = conns.pop()
        if not conns:
            del self._conns[address]
        with contextlib.suppress(*REDIS_ERRORS):
            await self.redis.zrem(self._key(address), conn)

    def total(self) -> int:
        """This member's counted websockets (see :meth:`ConnectionCounter.total`)."""
        return sum(len(c) for c in self._conns.values())

    async def refresh(self) -> None:
        """Push the expiry of this member's counted websockets forward (a dead member's lapse): at
        most once a lease, however often it is called; after a failure, at the next call."""
        if not self._conns or self.clock() - self._refreshed < self.lease_ms / 1000:
            return
        try:
            seconds, micros = await self.redis.time()
            expiry = int(seconds) * 1000 + int(micros) // 1000 + self.life_ms
            async with self.redis.pipeline(transaction=False) as pipe:
                for address, conns in self._conns.items():
                    pipe.zadd(self._key(address), dict.fromkeys(conns, expiry), xx=True)
                    pipe.pexpire(self._key(address), self.life_ms)
                await pipe.execute()
            self._refreshed = self.clock()
        except REDIS_ERRORS as exc:
            log.error("cluster: connections not refreshed: %s", exc)

    async def close(self) -> None:
        """Forget this member's websockets in Redis (it stops)."""
        with contextlib.suppress(*REDIS_ERRORS):
            for address, conns in self._conns.items():
                if conns:
                    await self.redis.zrem(self._key(address), *conns)
