"""Bounds on what one client may take, as two small interfaces every concern of the server counts in.

:class:`RateLimiter` (token buckets by key) and :class:`ConnectionCounter` (open connections by
key), with this process's in-memory implementations; a cluster member slots in shared ones
(Redis, server/cluster/buckets.py and server/cluster/connections.py).
"""

from __future__ import annotations

import inspect
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from typing import Protocol


class RateLimiter(Protocol):
    """Token buckets by key: ``take`` answers 0 (allowed) or the seconds to wait before trying again."""

    def take(self, key: str, per_minute: float, burst: float) -> float | Awaitable[float]:
        """Take one token from ``key``'s bucket (refilled at ``per_minute``, holding at most ``burst``).

        A shared limiter (Redis, for a cluster) answers with an awaitable.
        """
        ...


async def take_token(limiter: RateLimiter, key: str, per_minute: float, burst: float) -> float:
    """:meth:`RateLimiter.take`, awaited when the limiter is shared: 0, or the seconds to wait."""
    wait = limiter.take(key, per_minute, burst)
    return float(await wait) if inspect.isawaitable(wait) else float(wait)


class MemoryRateLimiter:
    """:class:`RateLimiter` in this process's memory (the least recently used keys past ``max_keys`` go)."""

    def __init__(self, max_keys: int = 100_000, clock: Callable[[], float] = time.monotonic) -> None:
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._max_keys = max_keys
        self._clock = clock

    def take(self, key: str, per_minute: float, burst: float) -> float:
        """See :meth:`RateLimiter.take`."""
        now = self._clock()
        rate = per_minute / 60.0
        tokens, last = self._buckets.pop(key, (burst, now))
        tokens = min(burst, tokens + (now - last) * rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            wait = 0.0
        else:
            self._buckets[key] = (tokens, now)
            wait = (1.0 - tokens) / rate if rate > 0 else math.inf
        while len(self._buckets) > self._max_keys:
            self._buckets.popitem(last=False)
        return wait


class ConnectionCounter(Protocol):
    """Open connections by address."""

    def acquire(self, address: str, most: int) -> bool | Awaitable[bool]:
        """Count one more connection from ``address`` unless it already has ``most`` (may be awaitable)."""
        ...

    def release(self, address: str) -> Awaitable[None] | None:
        """One connection from ``address`` ended (may be awaitable)."""
        ...

    def total(self) -> int:
        """Open connections counted, all addresses."""
        ...


class MemoryConnectionCounter:
    """:class:`ConnectionCounter` in this process's memory."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}

    def acquire(self, address: str, most: int) -> bool:
        """See :meth:`ConnectionCounter.acquire`."""
        count = self._open.get(address, 0)
        if count >= most:
            return False
        self._open[address] = count + 1
        return True

    def release(self, address: str) -> None:
        """See :meth:`ConnectionCounter.release`."""
        count = self._open.get(address, 0) - 1
        if count > 0:
            self._open[address] = count
        else:
            self._open.pop(address, None)

    def total(self) -> int:
        """See :meth:`ConnectionCounter.total`."""
        return sum(self._open.values())
