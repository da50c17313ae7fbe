"""A burst of Redis commands from one member: a wave of a big arena opens (and later closes) hundreds
of websockets at once, each counted in Redis, and claims its rooms' leases at once.  The client's
plain pool refused every command past its hundredth under way with "Too many connections": sockets
went uncounted (the per-address bound undercounted) and claims failed.  Now they wait their turn."""

from __future__ import annotations

import asyncio

import redis

from roppyakken.server.cluster.connections import ClusterConnections
from roppyakken.server.cluster.leases import Leases
from roppyakken.server.cluster.redislink import REDIS_CONNECTIONS, open_redis
from tests.harness import services

BURST = 300
"""Commands under way at once: well past the client's old pool and :data:`REDIS_CONNECTIONS`."""


def test_a_burst_of_websockets_and_claims_is_counted_and_taken_whole() -> None:
    assert BURST > 2 * REDIS_CONNECTIONS

    async def scenario(url: str) -> None:
        plain = redis.Redis.from_url(url, decode_responses=True)
        client = open_redis(url, 3.0)
        try:
            counted = ClusterConnections(client, "m1", 3000)
            admitted = await asyncio.gather(*(counted.acquire("10.0.0.1", 10_000) for _ in range(BURST)))
            assert all(admitted) and counted.total() == BURST
            assert plain.zcard("roppyakken:conns:10.0.0.1") == BURST  # every one counted in Redis
            leases = Leases(client, "m1")
            holders = await asyncio.gather(*(leases.claim(f"room{i}") for i in range(BURST)))
            assert holders == [None] * BURST and all(leases.holds(f"room{i}") for i in range(BURST))
            await asyncio.gather(*(counted.release("10.0.0.1") for _ in range(BURST)))
            assert counted.total() == 0 and plain.exists("roppyakken:conns:10.0.0.1") == 0
            # the bursts waited for the pool's connections rather than open more (+1: this test's)
            assert int(plain.info("clients")["connected_clients"]) <= REDIS_CONNECTIONS + 1
        finally:
            await client.aclose()
            plain.close()

    with services.redis_process() as rd:
        asyncio.run(scenario(rd.url))
