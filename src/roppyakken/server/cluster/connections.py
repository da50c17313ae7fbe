"""Websockets per address across a cluster: a sorted set per address in Redis, each member's
entries kept alive by it (a dead member's lapse)."""

from __future__ import annotations

import contextlib
import logging
import secrets
from collections import defaultdict
from typing import Final

from roppyakken.server.cluster.redislink import PREFIX, REDIS_ERRORS, Link

log = logging.getLogger("roppyakken.server")

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

    def __init__(self, redis: Link, member: str, lease_ms: int) -> None:
        self.redis = redis
        self.member = member
        self.lease_ms = lease_ms
        self._acquire = redis.register_script(_ACQUIRE)
        self._conns: dict[str, list[str]] = defaultdict(list)
        """This member's websockets counted in Redis, by address: their ids."""

    def _key(self, address: str) -> str:
        return f"{PREFIX}conns:{address}"

    async def acquire(self, address: str, most: int) -> bool:
        """Count one more websocket from ``address`` across the cluster unless it has ``most``."""
        conn = f"{self.member}:{secrets.token_hex(6)}"
        try:
            ok = await self._acquire(keys=[self._key(address)], args=[conn, most, self.lease_ms * 2])
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
        """Push the expiry of this member's counted websockets forward (a dead member's lapse)."""
        if not self._conns:
            return
        try:
            seconds, micros = await self.redis.time()
            expiry = int(seconds) * 1000 + int(micros) // 1000 + self.lease_ms * 2
            async with self.redis.pipeline(transaction=False) as pipe:
                for address, conns in self._conns.items():
                    pipe.zadd(self._key(address), dict.fromkeys(conns, expiry), xx=True)
                    pipe.pexpire(self._key(address), self.lease_ms * 2)
                await pipe.execute()
        except REDIS_ERRORS as exc:
            log.error("cluster: connections not refreshed: %s", exc)

    async def close(self) -> None:
        """Forget this member's websockets in Redis (it stops)."""
        with contextlib.suppress(*REDIS_ERRORS):
            for address, conns in self._conns.items():
                if conns:
                    await self.redis.zrem(self._key(address), *conns)
