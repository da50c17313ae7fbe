"""A real Ray cluster on loopback for the tests: a head node and worker nodes, each its own ``ray start``.

Every node is ``ray start --block --node-ip-address=127.0.0.2`` in a session of its own,
on ports of its own and a temporary folder of its own, so that stopping it (by its process group, then any of
its processes left, found by that folder in their command line) touches nothing else
on the machine.  Without Ray a test is skipped on a developer's machine but fails
under ``CI=true``.  tests/ai/test_ray.py runs the suite that uses it in a network namespace with
loopback only.
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from roppyakken.ai.ray_backend import ray_module
from tests.harness.services import need

DECISION_TIMES = ("p50", "p99", "mean", "max")
"""The fields of ``decision_ms`` that are times (its ``decisions`` is a count, the same everywhere)."""
RUN_TIMES = ("seconds", "rounds_per_second")
"""The top-level fields of ``simulate`` that are times."""
RAY_BIN = Path(sys.executable).parent / "ray"
NODE_IP = "127.0.0.2"
"""The nodes' address: on loopback, but not 127.0.0.1, which Ray replaces by this machine's
network address (a cluster of several machines needs one), so the traffic would leave loopback."""
AUTH_MODE = "disabled"
"""No token for a cluster that lives and dies on loopback in a test: the nodes and the
driver must agree, and a token file would outlive the test (in ``~/.ray``)."""
PORT_BLOCKS = range(20000, 29000, 200)
"""Each node takes a block of 200 ports: 10 for its services, the rest for its workers."""


def ray_available() -> bool:
    """Whether Ray and its ``ray`` command are installed beside this Python."""
    return importlib.util.find_spec("ray") is not None and RAY_BIN.exists()


def _free_block() -> int:
    for base in random.sample(PORT_BLOCKS, len(PORT_BLOCKS)):
        ok = True
        for port in (base, base + 1, base + 2, base + 3):
            with socket.socket() as s:
                try:
                    s.bind(("127.0.0.1", port))
                except OSError:
                    ok = False
                    break
        if ok:
            return base
    raise RuntimeError("no free block of ports in 20000-28999")


@dataclass
class Node:
    """One ``ray start --block`` process (the leader of its own session)."""

    proc: subprocess.Popen[bytes]
    folder: Path
    log: Path

    def running(self, title: str) -> bool:
        """Whether a process of the node (of its session) has the title ``title`` (a Ray task's)."""
        return bool(self.pids(title))

    def pids(self, title: str) -> list[int]:
        """The processes of the node (of its session) whose title starts with ``title``."""
        found = []
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            session = int(stat.rsplit(")", 1)[1].split()[3])
            if session == self.proc.pid and cmdline.startswith(title):
                found.append(int(entry.name))
        return found

    def stop(self) -> None:
        """Kill every process of the node: its session, then any that left it."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(10)
        for pid in _pids_naming(str(self.folder)):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def _pids_naming(text: str) -> list[int]:
    """The processes whose command line holds ``text`` (this node's own folder)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if text in cmdline:
            found.append(int(entry.name))
    return found


@dataclass
class RayCluster:
    """A head node on loopback and the worker nodes added to it."""

    root: Path
    address: str = ""
    nodes: list[Node] = field(default_factory=list)

    def _start(self, name: str, cpus: int, head: bool) -> Node:
        base = _free_block()
        folder = self.root / name
        folder.mkdir()
        ports = {
            "--node-manager-port": base + 2,
            "--object-manager-port": base + 3,
            "--metrics-export-port": base + 4,
            "--dashboard-agent-listen-port": base + 5,
            "--dashboard-agent-grpc-port": base + 6,
            "--runtime-env-agent-port": base + 7,
            "--min-worker-port": base + 100,
            "--max-worker-port": base + 199,
        }
        args = [
            str(RAY_BIN),
            "start",
            "--block",
            f"--node-ip-address={NODE_IP}",
            f"--num-cpus={cpus}",
            "--object-store-memory=80000000",
            "--disable-usage-stats",
            f"--temp-dir={folder}",
            f"--plasma-directory={folder}",
            *(f"{k}={v}" for k, v in ports.items()),
        ]
        if head:
            self.address = f"{NODE_IP}:{base}"
            args += ["--head", f"--port={base}"]
            args += ["--include-dashboard=false"]
        else:
            args += [f"--address={self.address}"]
        log = folder / "start.log"
        env = dict(os.environ, RAY_USAGE_STATS_ENABLED="0", RAY_AUTH_MODE=AUTH_MODE)
        with log.open("wb") as out:
            proc = subprocess.Popen(
                args, stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True
            )
        node = Node(proc, folder, log)
        self.nodes.append(node)
        return node

    def start_head(self, cpus: int) -> Node:
        """Start the head node; wait until its GCS answers."""
        node = self._start("head", cpus, head=True)
        port = int(self.address.rsplit(":", 1)[1])
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            if node.proc.poll() is not None:
                raise RuntimeError(f"ray start --head exited:\n{node.log.read_text()[-2000:]}")
            with socket.socket() as s:
                if s.connect_ex((NODE_IP, port)) == 0:
                    return node
            time.sleep(0.2)
        raise RuntimeError(f"the Ray head did not start:\n{node.log.read_text()[-2000:]}")

    def add_worker(self, name: str, cpus: int) -> Node:
        """Start a worker node joining the head (call :meth:`wait_nodes` to know it joined)."""
        return self._start(name, cpus, head=False)

    def stop(self) -> None:
        """Stop every node, workers first, and remove the folder."""
        for node in reversed(self.nodes):
            node.stop()
        shutil.rmtree(self.root, ignore_errors=True)


def wait_nodes(alive: int, timeout: float = 120.0) -> None:
    """Wait until the connected cluster has ``alive`` live nodes."""
    ray = ray_module()
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if sum(1 for n in ray.nodes() if n["Alive"]) == alive:
            return
        time.sleep(0.3)
    raise TimeoutError(f"the Ray cluster never had {alive} live nodes: {ray.nodes()}")


def _pid() -> int:
    return os.getpid()


def warm_every_node(timeout: float = 120.0) -> None:
    """Wait until every CPU of the cluster is free (an actor killed by an earlier run gives its
    CPU back a moment later), then run a task on every live node, so that each has an idle
    worker process (a node without one takes seconds to start one, and a short run may end,
    its tasks all played elsewhere, before it does)."""
    ray = ray_module()
    deadline = time.monotonic() + timeout
    while ray.available_resources().get("CPU", 0) < ray.cluster_resources().get("CPU", 0):
        if time.monotonic() > deadline:
            raise TimeoutError(f"the Ray cluster's CPUs never came free: {ray.available_resources()}")
        time.sleep(0.1)
    affinity = importlib.import_module("ray.util.scheduling_strategies").NodeAffinitySchedulingStrategy
    task = ray.remote(num_cpus=1)(_pid)
    refs = [
        task.options(scheduling_strategy=affinity(node["NodeID"], soft=False)).remote()
        for node in ray.nodes()
        if node["Alive"]
    ]
    ray.get(refs, timeout=180)


def new_cluster() -> RayCluster:
    """An empty cluster in a fresh short folder (Ray's socket paths must stay short)."""
    need("Ray", ray_available(), "pip install 'roppyakken[ray]'")
    return RayCluster(Path(tempfile.mkdtemp(prefix="rpkray-", dir="/tmp")))
