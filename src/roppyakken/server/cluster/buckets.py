"""Rate limits across a cluster: token buckets in Redis (one script call per request)."""

from __future__ import annotations

import logging
from typing import Final, cast

from roppyakken.server.cluster.redislink import PREFIX, REDIS_ERRORS, Link

log = logging.getLogger("roppyakken.server")

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


class RedisBuckets:
    """A :class:`~roppyakken.server.limits.RateLimiter` whose buckets are in Redis, shared by every
    member."""

    def __init__(self, redis: Link) -> None:
        self.redis = redis
        self._take = redis.register_script(_TAKE)

    async def take(self, key: str, per_minute: float, burst: float) -> float:
        """A token from ``key``'s bucket in Redis: 0, or the seconds to wait (see RateLimiter)."""
        rate = per_minute / 60_000.0
        ttl = int(max(60_000.0, burst / rate if rate > 0 else 3_600_000.0)) + 1000
        try:
            wait = await self._take(keys=[f"{PREFIX}bucket:{key}"], args=[repr(rate), repr(burst), ttl])
        except REDIS_ERRORS as exc:
            log.error("cluster: rate limit not checked: %s", exc)
            return 0.0  # Redis gone: let the request through rather than refuse everyone
        wait = int(cast(int, wait))
        return float("inf") if wait < 0 else wait / 1000.0
