"""A real Redis Cluster on loopback for the server tests: six ``redis-server --cluster-enabled yes``
(three masters, three replicas; the configuration docs/DEPLOY.md ships) joined by ``redis-cli
--cluster create``.

Nothing is saved to disk and the node timeout is short (:data:`NODE_TIMEOUT_MS`), so a master killed
with ``kill -9`` is replaced by its replica within a few seconds.  Without redis-server or redis-cli a
test is skipped on a developer's machine but fails under ``CI=true`` (tests.harness.services.need).
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import redis
from redis.cluster import ClusterNode, RedisCluster

from tests.harness.services import free_port, need, wait_port
from tests.harness.support import ROOT

NODE_TIMEOUT_MS = 1500
"""``cluster-node-timeout``: how long a master may be silent before its replica takes over."""
NODE_TEMPLATE = ROOT / "docs" / "deploy" / "redis-cluster.conf"
"""The node configuration docs/DEPLOY.md ships; the tests run it as it is, placeholders filled."""


def render_node(port: int, folder: Path) -> str:
    """The shipped node configuration with its placeholders filled (a node on loopback)."""
    text = NODE_TEMPLATE.read_text()
    return text.replace("@PORT@", str(port)).replace("@BIND@", "127.0.0.1").replace("@DIR@", str(folder))


def create_cluster(cli: str, ports: list[int]) -> None:
    """``redis-cli --cluster create`` of the nodes on ``ports`` (one replica per master), as
    docs/DEPLOY.md does it."""
    create = [cli, "--cluster", "create", *(f"127.0.0.1:{port}" for port in ports)]
    create += ["--cluster-replicas", "1", "--cluster-yes"]
    done = subprocess.run(create, capture_output=True, timeout=120)
    said = done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace")
    assert done.returncode == 0, f"redis-cli --cluster create failed: {said}"


def cluster_ok(port: int) -> bool:
    """Whether the node on ``port`` says ``cluster_state:ok``."""
    try:
        info = redis.Redis(port=port, socket_timeout=2, decode_responses=True).cluster("INFO")
    except (redis.RedisError, OSError):
        return False
    return str(info.get("cluster_state")) == "ok"


def replicas_synced(ports: list[int]) -> int:
    """How many of the nodes on ``ports`` are replicas whose link to their master is up (synced): a
    replica takes over only from a master it has synchronised with."""
    synced = 0
    for port in ports:
        try:
            info = redis.Redis(port=port, socket_timeout=2, decode_responses=True).info("replication")
        except (redis.RedisError, OSError):
            continue
        synced += info.get("role") == "slave" and info.get("master_link_status") == "up"
    return synced


def wait_cluster_ok(ports: list[int], timeout: float = 60.0) -> None:
    """Wait until every node on ``ports`` says ``cluster_state:ok`` (every slot served)."""
    deadline = time.monotonic() + timeout
    while not all(cluster_ok(port) for port in ports):
        assert time.monotonic() < deadline, "the Redis Cluster did not reach cluster_state:ok"
        time.sleep(0.1)


@dataclass
class Node:
    """One ``redis-server`` of the cluster."""

    port: int
    proc: subprocess.Popen[bytes]

    def kill(self) -> None:
        """``kill -9``."""
        if self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)
            self.proc.wait(timeout=30)


@dataclass
class RedisClusterNodes:
    """Six nodes on loopback ports; the cluster's ``redis+cluster://`` URL."""

    base: Path
    nodes: list[Node] = field(default_factory=list)

    @property
    def url(self) -> str:
        """``redis+cluster://127.0.0.1:P1,127.0.0.1:P2,…`` (every node a starting point)."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{n.port}" for n in self.nodes)

    def client(self) -> RedisCluster:
        """A synchronous cluster client (strings decoded)."""
        alive = [n.port for n in self.nodes if n.proc.poll() is None]
        starts = [ClusterNode("127.0.0.1", port) for port in alive]  # type: ignore[no-untyped-call]
        return RedisCluster(startup_nodes=starts, decode_responses=True, socket_timeout=5)

    def master_of(self, key: str) -> Node:
        """The node that serves ``key``'s slot now (a master)."""
        client = self.client()
        try:
            node = client.get_node_from_key(key)  # type: ignore[no-untyped-call]
            assert node is not None
            return next(n for n in self.nodes if n.port == int(node.port))
        finally:
            client.close()

    def wait_ok(self, timeout: float = 60.0) -> None:
        """Wait until every living node says ``cluster_state:ok`` (every slot served)."""
        wait_cluster_ok([n.port for n in self.nodes if n.proc.poll() is None], timeout)


@contextmanager
def redis_cluster(size: int = 6) -> Iterator[RedisClusterNodes]:
    """A started cluster of ``size`` nodes (one replica per master, each synchronised with its master),
    stopped and removed at the end."""
    server = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin:/usr/sbin")
    cli = shutil.which("redis-cli") or shutil.which("redis-cli", path="/usr/bin")
    need("redis-server", server, "apt-get install redis-server")
    need("redis-cli", cli, "apt-get install redis-tools")
    assert server is not None and cli is not None
    cluster = RedisClusterNodes(Path(tempfile.mkdtemp(prefix="roppyakken-rediscluster-")))
    try:
        for _ in range(size):
            port = free_port()
            conf = cluster.base / f"{port}.conf"
            conf.write_text(render_node(port, cluster.base))
            cmd = [server, str(conf), "--cluster-node-timeout", str(NODE_TIMEOUT_MS)]
            proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            cluster.nodes.append(Node(port, proc))
            wait_port(port, proc=proc)
        ports = [n.port for n in cluster.nodes]
        create_cluster(cli, ports)
        cluster.wait_ok()
        deadline = time.monotonic() + 60
        while replicas_synced(ports) < size // 2:
            assert time.monotonic() < deadline, "the Redis Cluster's replicas did not synchronise"
            time.sleep(0.1)
        yield cluster
    finally:
        for node in cluster.nodes:
            node.kill()
        shutil.rmtree(cluster.base, ignore_errors=True)
