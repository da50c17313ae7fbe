"""What keeping a cluster's websockets counted costs Redis: each member pushes its entries forward
once a lease, not at every renewal, and a push that failed is made at the next one.

On a real redis-server (tests/harness/services.py; without it the test is skipped on a
developer's machine but fails in CI)."""

from __future__ import annotations

import asyncio

import redis

from roppyakken.server.cluster.connections import LIFE_LEASES, ClusterConnections
from roppyakken.server.cluster.redislink import open_redis
from tests.harness import services

LEASE_MS = 3000


def _zadds(url: str) -> int:
    stats = redis.Redis.from_url(url).info("commandstats")
    return int(stats.get("cmdstat_zadd", {}).get("calls", 0))


def test_connections_are_pushed_forward_once_a_lease_whatever_the_renewals() -> None:
    with services.redis_server() as url:
        now = [100.0]

        async def scenario() -> None:
            client = open_redis(url, 3)
            counted = ClusterConnections(client, "m1", LEASE_MS, clock=lambda: now[0])
            addresses = [f"10.0.0.{n}" for n in range(10)]
            for address in addresses:
                assert await counted.acquire(address, 32)
            before = _zadds(url)
            for _ in range(3):  # three renewals within one lease: one push
                await counted.refresh()
                now[0] += LEASE_MS / 3000
            assert _zadds(url) - before == len(addresses), "one ZADD per address, once"
            await counted.refresh()  # a lease after the push: the next one
            assert _zadds(url) - before == 2 * len(addresses)
            life = redis.Redis.from_url(url).pttl(f"roppyakken:conns:{addresses[0]}")
            assert (LIFE_LEASES - 1) * LEASE_MS < life <= LIFE_LEASES * LEASE_MS
            await client.aclose()

        asyncio.run(scenario())


def test_a_failed_push_is_made_at_the_next_renewal() -> None:
    with services.redis_process() as server:
        now = [100.0]

        async def scenario() -> None:
            client = open_redis(server.url, 1)
            counted = ClusterConnections(client, "m1", LEASE_MS, clock=lambda: now[0])
            assert await counted.acquire("10.0.0.1", 32)
            server.stop()  # Redis gone: the push fails (and says so)
            await counted.refresh()
            server.start()  # back, empty: the entry is gone, and the push re-adds nothing (XX)
            assert await counted.acquire("10.0.0.2", 32)
            now[0] += 0.1  # the next renewal, well within a lease: pushed, since the last one failed
            before = _zadds(server.url)
            await counted.refresh()
            assert _zadds(server.url) - before == 2
            await client.aclose()

        asyncio.run(scenario())
