"""What every part of a cluster member shares: its Redis client (one Redis, or a Redis Cluster), the
names of its keys and channels, the error when Redis or another member does not answer, and the
check of a Redis URL.

**Keys on a Redis Cluster.**  Every script and every multi-key command keeps its keys in one slot
(a hash tag, the part between braces, decides the slot).  The names, one Redis / a Redis Cluster:

=============================  ==================================  ===============================
what                           one Redis                           Redis Cluster (slot)
=============================  ==================================  ===============================
a room's lease                 ``roppyakken:lease:<room>``         ``roppyakken:{leases}:lease:<room>``
the rooms held (sorted set)    ``roppyakken:rooms``                ``roppyakken:{leases}:rooms``
the renewal stamps (hash)      ``roppyakken:renewed``              ``roppyakken:{leases}:renewed``
a member's channel             ``roppyakken:member:<id>``          ``roppyakken:{member:<id>}`` (sharded)
a rate-limit bucket            ``roppyakken:bucket:<key>``         the same (its own slot)
an address's websockets        ``roppyakken:conns:<address>``      the same (its own slot)
the members (sorted set)       ``roppyakken:members``              the same (its own slot)
=============================  ==================================  ===============================

The leases, the set of rooms held and the stamps share the slot ``{leases}``: a claim checks the
bound on rooms held by the whole cluster (``--max-rooms``) and takes the lease in one script, and a
member renews all its rooms in one script, which only one slot allows.  That is a few commands a
second per member, on one shard; the traffic that grows with play (the relays' messages, the rate
limits, the websocket counts) is spread over the shards by member and by key.  A member's channel is
a sharded channel (``SSUBSCRIBE``/``SPUBLISH``, Redis 7): its messages go to the one shard that
serves it, not to every node.
"""

from __future__ import annotations

import asyncio
import contextlib
from dataclasses import dataclass
from typing import Final
from urllib.parse import unquote

import redis.asyncio as aioredis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import RedisClusterException, RedisError

from roppyakken.server.store.database import StorageError

PREFIX: Final = "roppyakken:"
CLUSTER_SCHEMES: Final = ("redis+cluster://", "rediss+cluster://")
"""The schemes of a Redis Cluster's URL: ``redis+cluster://HOST:PORT[,HOST:PORT…]``."""
CLUSTER_RETRIES: Final = 3
"""How often a command to a Redis Cluster is tried again (a moved slot, a node gone, a failover)."""
REDIS_CONNECTIONS: Final = 64
"""The most connections a member holds to one Redis (to each node of a Redis Cluster: the most
commands under way to it at once).  On one Redis a command finding them all busy waits for one (at
most a command's timeout); a Redis Cluster's client cannot wait, so a member holds up to
:data:`CLUSTER_NODE_CONNECTIONS` to each node there."""
CLUSTER_NODE_CONNECTIONS: Final = 1024
"""The most connections a member holds to one node of a Redis Cluster: a command beyond them fails
at once (its client has no waiting pool), so this is well above any burst of a member."""

REDIS_ERRORS: Final = (RedisError, RedisClusterException, OSError)
"""What a command may raise when Redis does not answer (a cluster's own errors included)."""

Link = aioredis.Redis | RedisCluster
"""A member's client: one Redis, or a Redis Cluster."""


class ClusterUnavailable(StorageError):
    """Redis or the member holding a room did not answer in time."""


@dataclass(frozen=True, slots=True)
class KeySpace:
    """The names of the keys and channels in Redis (the module docstring's table)."""

    sharded: bool = False
    """A Redis Cluster: hash tags, sharded channels."""

    def lease(self, room: str) -> str:
        """A room's lease key."""
        return f"{PREFIX}{{leases}}:lease:{room}" if self.sharded else f"{PREFIX}lease:{room}"

    @property
    def rooms(self) -> str:
        """The sorted set of rooms held, by their lease's end."""
        return f"{PREFIX}{{leases}}:rooms" if self.sharded else f"{PREFIX}rooms"

    @property
    def stamps(self) -> str:
        """The hash of the rooms' last renewals."""
        return f"{PREFIX}{{leases}}:renewed" if self.sharded else f"{PREFIX}renewed"

    @property
    def members(self) -> str:
        """The sorted set of the members, by when their entry lapses."""
        return f"{PREFIX}members"

    def channel(self, member: str) -> str:
        """A member's channel."""
        return f"{PREFIX}{{member:{member}}}" if self.sharded else f"{PREFIX}member:{member}"


ONE_REDIS: Final = KeySpace()
"""The keys' names on one Redis."""


def is_cluster(url: str) -> bool:
    """Whether ``url`` names a Redis Cluster (``redis+cluster://…``)."""
    return url.startswith(CLUSTER_SCHEMES)


@dataclass(frozen=True, slots=True)
class ClusterAddress:
    """A Redis Cluster URL taken apart: its starting nodes, credentials and TLS."""

    nodes: list[tuple[str, int]]
    username: str | None
    password: str | None
    ssl: bool


def cluster_address(url: str) -> ClusterAddress:
    """``redis+cluster://[[USER]:PASSWORD@]HOST:PORT[,HOST:PORT…]`` taken apart (``rediss+cluster``:
    TLS); ValueError in one line if it is not such a URL."""
    scheme, _, rest = url.partition("://")
    if scheme not in ("redis+cluster", "rediss+cluster"):
        raise ValueError(f"not a Redis Cluster URL: {url}")
    credentials, _, hosts = rest.rpartition("@")
    hosts, _, path = hosts.partition("/")
    if path not in ("", "0"):
        raise ValueError("a Redis Cluster has only database 0")
    nodes = []
    for item in hosts.split(","):
        host, _, port = item.strip().rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"not HOST:PORT: {item!r}")
        nodes.append((host.strip("[]"), int(port)))
    user, _, password = credentials.partition(":") if credentials else ("", "", "")
    return ClusterAddress(nodes, unquote(user) or None, unquote(password) or None, scheme == "rediss+cluster")


def open_redis(url: str, timeout: float) -> Link:
    """A client for ``url`` (one Redis, or a Redis Cluster) whose every command gives up after
    ``timeout`` seconds.

    A frozen Redis (SIGSTOP, a stalled VM) keeps its connections open and answers
    nothing: a command waiting for good would hold up whatever waits on it (a claim,
    a publish, a renewal) with no error ever said.  A cluster's client follows moved slots and
    tries a command again after a node's failure (:data:`CLUSTER_RETRIES`, the topology asked
    for anew): a replica promoted in place of a dead master is found by the next command."""
    if not is_cluster(url):
        # a burst of commands (a wave's sockets opening, or closing) waits for a free connection
        # rather than fail: the client's plain pool refuses a command past its size at once
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=REDIS_CONNECTIONS,
            timeout=timeout,
            decode_responses=True,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
        )
        return aioredis.Redis.from_pool(pool)
    address = cluster_address(url)
    return RedisCluster(
        startup_nodes=[ClusterNode(host, port) for host, port in address.nodes],
        username=address.username,
        password=address.password,
        ssl=address.ssl,
        decode_responses=True,
        socket_timeout=timeout,
        socket_connect_timeout=timeout,
        retry=Retry(ExponentialBackoff(cap=timeout / 4, base=0.05), CLUSTER_RETRIES),
        topology_refresh_min_interval=0.25,
        max_connections=CLUSTER_NODE_CONNECTIONS,
    )


def check_url(url: str) -> str:
    """``url`` if it is a Redis URL, else :class:`~roppyakken.errors.RoppyakkenError` in one line."""
    from roppyakken.errors import RoppyakkenError
    from roppyakken.server.wire import text

    if is_cluster(url):
        try:
            cluster_address(url)
        except ValueError:
            raise RoppyakkenError(text.BAD_REDIS_URL, url=url) from None
    elif not url.startswith(("redis://", "rediss://", "unix://")):
        raise RoppyakkenError(text.BAD_REDIS_URL, url=url)
    return url


async def stop_task(task: asyncio.Task[object]) -> None:
    """Cancel ``task`` and wait until it has ended, whatever it was doing.

    Python 3.11's ``asyncio.wait_for`` can swallow a cancellation that arrives as the awaited
    thing completes, and a loop around it then goes on; so the cancellation is repeated until
    the task is done, and its end (an error included) is collected here."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=0.1)
    with contextlib.suppress(asyncio.CancelledError, Exception):
        task.result()
