"""Arenas, ladders, simulations and self-play on a real Ray cluster give what one machine gives.

Run by tests/ai/test_ray.py inside a network namespace of its own, with loopback only (Ray
otherwise gives its nodes this machine's network address and asks cloud metadata services
what it runs on).  One cluster for the module (tests/harness/ray_cluster.py): a head node and a worker
node on loopback, one CPU each, started and stopped here.  Every comparison is of the JSON a
command prints, field by field: only the timing fields docs/RAY.md names may differ (as they
do between two local runs).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from roppyakken.ai.ray_backend import ray_module
from tests.harness.ray_cluster import (
    AUTH_MODE,
    DECISION_TIMES,
    RUN_TIMES,
    RayCluster,
    new_cluster,
    ray_available,
    wait_nodes,
    warm_every_node,
)
from tests.harness.support import ROOT, require_module, run_cli

PROGRAM = "import sys\nfrom roppyakken.cli import main\nsys.exit(main())\n"
"""The ``roppyakken`` command, run by a new interpreter on this checkout's sources."""


@pytest.fixture(scope="module")
def cluster() -> Iterator[RayCluster]:
    """A head and one worker node on loopback, this process connected as the driver."""
    c = new_cluster()
    try:
        c.start_head(cpus=1)
        c.add_worker("worker", cpus=1)
        os.environ["RAY_AUTH_MODE"] = AUTH_MODE  # read by the driver's ray.init
        ray = ray_module()
        ray.init(address=c.address, log_to_driver=False, configure_logging=False)
        wait_nodes(2)
        warm_every_node()
        yield c
    finally:
        if ray_available():
            ray_module().shutdown()
        c.stop()


def _document(args: list[str]) -> Any:
    code, out, err = run_cli([*args, "--json"])
    assert code == 0, err
    return json.loads(out)


FieldPath = tuple[str | int, ...]


def differing(a: Any, b: Any, at: FieldPath = ()) -> list[FieldPath]:
    """The paths of the fields whose values differ between the documents ``a`` and ``b``."""
    if isinstance(a, dict) and isinstance(b, dict):
        return [p for k in sorted(a.keys() | b.keys()) for p in differing(a.get(k), b.get(k), (*at, k))]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i, (x, y) in enumerate(zip(a, b, strict=True)) for p in differing(x, y, (*at, i))]
    return [] if a == b else [at]


def timing(path: FieldPath) -> bool:
    """Whether ``path`` is one of the fields docs/RAY.md says may differ from a local run: a
    decision time of a bot (``decision_ms``, in an arena or a ladder's pair), or ``simulate``'s
    ``seconds`` and ``rounds_per_second``."""
    if len(path) >= 3 and path[-3] == "decision_ms":
        return path[-1] in DECISION_TIMES
    return len(path) == 1 and path[0] in RUN_TIMES


def untimed_differences(local: Any, remote: Any) -> list[str]:
    """The fields of a Ray run's document that differ from the local run's, timing fields aside."""
    return [".".join(map(str, p)) for p in differing(local, remote) if not timing(p)]


def test_arena_on_ray_is_the_local_arena(cluster: RayCluster) -> None:
    args = ["arena", "--bots", "greedy,random,expert", "--games", "12", "--seed", "5"]
    local = _document(args)
    remote = _document([*args, "--ray", cluster.address])
    assert untimed_differences(local, remote) == []
    assert local["games"] == 12


def test_ladder_and_simulate_on_ray_are_the_local_ones(cluster: RayCluster, tmp_path: Path) -> None:
    ladder = ["ladder", "--levels", "random,greedy,expert", "--games", "8", "--seed", "3"]
    assert untimed_differences(_document(ladder), _document([*ladder, "--ray", cluster.address])) == []
    simulate = ["simulate", "--games", "30", "--players", "3", "--bots", "greedy", "--seed", "9"]
    here, there = tmp_path / "here", tmp_path / "there"
    local = _document([*simulate, "--records", str(here)])
    remote = _document([*simulate, "--records", str(there), "--ray", cluster.address])
    assert untimed_differences(local, remote) == []
    names = sorted(p.name for p in here.iterdir())
    assert len(names) == 30 and names == sorted(p.name for p in there.iterdir())
    for name in names:
        assert (here / name).read_bytes() == (there / name).read_bytes()


def test_results_come_back_in_order_whatever_order_tasks_finish(cluster: RayCluster) -> None:
    from roppyakken.ai.ray_backend import ordered_map

    def late_first(delay: float, i: int) -> int:
        time.sleep(delay * (5 - i))  # the first task finishes last
        return i * i

    seen = []
    for value in ordered_map(cluster.address, late_first, (0.4,), range(6)):
        seen.append(value)
    assert seen == [i * i for i in range(6)]


def test_self_play_with_one_actor_gives_the_local_weights(cluster: RayCluster, tmp_path: Path) -> None:
    pytest.importorskip("numpy")
    from roppyakken.env.learned import ValueNet
    from roppyakken.env.train import main as train_main

    common = ["--rounds", "48", "--batch-rounds", "16", "--updates", "2", "--minibatch", "32"]
    common += ["--hidden", "8", "--eval-every", "1000", "--eval-deals", "1", "--deals", "1", "--no-report"]
    here, there = tmp_path / "here.npz", tmp_path / "there.npz"
    assert train_main([*common, "--out", str(here)]) == 0
    assert train_main([*common, "--out", str(there), "--ray", cluster.address, "--actors", "1"]) == 0
    a, b = ValueNet.load(here), ValueNet.load(there)
    for key, value in a.params().items():
        assert value.tobytes() == b.params()[key].tobytes(), key


KILLED_RUNS = {
    "arena": (["arena", "--bots", "expert,greedy", "--games", "2400", "--seed", "21"], "ray::play_deals"),
    "ladder": (["ladder", "--levels", "greedy,expert", "--games", "2000", "--seed", "4"], "ray::play_deals"),
    "simulate": (["simulate", "--games", "3200", "--bots", "expert", "--seed", "8"], "ray::play_games"),
}
"""Runs whose games take seconds of a CPU (a deal is a millisecond or two): the worker node plays
for a second or more, far longer than the watch for its players takes to see one (a few hundred
deals are a tenth of a second of play, which a loaded machine's watch can miss)."""


def _run_killing(
    cluster: RayCluster, tmp_path: Path, argv: list[str], title: str, kill: Callable[[list[int]], None]
) -> tuple[int, str, str]:
    """Run ``python ARGV`` (from this checkout) and call ``kill`` with the worker node's processes
    titled ``title`` as soon as there are some; its exit code, stdout and stderr."""
    warm_every_node()  # every CPU free and every node with a worker: the run's tasks reach the worker node
    out, err = tmp_path / "out.txt", tmp_path / "err.txt"
    env = dict(os.environ, PYTHONPATH=str(ROOT / "src"), RAY_AUTH_MODE=AUTH_MODE)
    with out.open("wb") as stdout, err.open("wb") as stderr:
        run = subprocess.Popen([sys.executable, *argv], stdout=stdout, stderr=stderr, env=env)
    try:
        playing: list[int] = []
        deadline = time.monotonic() + 180
        while not playing and run.poll() is None and time.monotonic() < deadline:
            playing = cluster.nodes[-1].pids(title)
            time.sleep(0.02)
        assert playing, f"no {title} ran on the worker node before the run ended: {err.read_text()}"
        kill(playing)
        code = run.wait(300)
    finally:
        if run.poll() is None:
            run.kill()
            run.wait()
    return code, out.read_text(), err.read_text()


def _killed_run(
    cluster: RayCluster, tmp_path: Path, args: list[str], title: str, kill: Callable[[list[int]], None]
) -> tuple[Any, str]:
    """Run ``roppyakken ARGS --json --ray ADDRESS`` as a command, stdout into a file, killing as
    :func:`_run_killing` does: the document stdout holds (the test fails if it does not
    parse), and stderr."""
    argv = ["-c", PROGRAM, *args, "--json", "--ray", cluster.address]
    code, out, err = _run_killing(cluster, tmp_path, argv, title, kill)
    assert code == 0, err
    try:
        return json.loads(out), err
    except json.JSONDecodeError as exc:
        pytest.fail(f"stdout is not the JSON document ({exc}):\n{out[:600]}")


@pytest.mark.parametrize("command", KILLED_RUNS)
def test_a_worker_killed_mid_run_leaves_stdout_to_the_document(
    cluster: RayCluster, tmp_path: Path, command: str
) -> None:
    """``roppyakken COMMAND --ray ADDRESS --json > out.json`` while a worker process playing its
    games is killed: Ray says so (on stderr), and stdout is the document of a local run."""
    args, title = KILLED_RUNS[command]
    local = _document(args)
    document, err = _killed_run(cluster, tmp_path, args, title, lambda pids: os.kill(pids[0], signal.SIGKILL))
    assert untimed_differences(local, document) == []
    assert "A worker died" in err  # the failure happened, and Ray said so on stderr


def test_a_self_play_actor_lost_ends_the_training_in_one_line(cluster: RayCluster, tmp_path: Path) -> None:
    """An actor is not restarted (it would start its rounds over): the training stops with one
    line on stderr, and stdout holds only the training's log."""
    require_module("numpy", "pip install 'roppyakken[train]'")
    argv = ["-m", "roppyakken.env.train", "--ray", cluster.address, "--actors", "2", "--rounds", "3000"]
    argv += ["--batch-rounds", "16", "--updates", "1", "--minibatch", "16", "--hidden", "4"]
    argv += ["--eval-every", "100000", "--eval-deals", "1", "--deals", "1", "--no-report"]
    argv += ["--out", str(tmp_path / "weights.npz")]
    code, out, err = _run_killing(
        cluster, tmp_path, argv, "ray::SelfPlayer", lambda pids: os.kill(pids[0], signal.SIGKILL)
    )
    assert code == 1, err
    assert err.splitlines()[-1] == (
        "train: a self-play actor was lost (its worker process or its node died); "
        "the rounds it was playing cannot be played again: start the training again"
    )
    assert "Traceback" not in err
    assert out and all(re.fullmatch(r" *\d+ rounds .* rounds/s", line) for line in out.splitlines()), out


def test_a_node_killed_mid_run_changes_nothing(cluster: RayCluster, tmp_path: Path) -> None:
    """``roppyakken arena --ray ADDRESS --json`` while the worker node is killed: its tasks run
    again on the node left, and stdout is the document of a local run (this test runs last in
    the module: it kills the worker node)."""
    args = ["arena", "--bots", "expert,greedy", "--games", "300", "--seed", "21"]
    local = _document(args)
    victim = cluster.nodes[-1]  # the worker node: the head is left to run its tasks again
    ray = ray_module()
    warm_every_node()
    victim_id = next(n["NodeID"] for n in ray.nodes() if n["Alive"] and str(victim.folder) in _node_dirs(n))
    document, _ = _killed_run(cluster, tmp_path, args, "ray::play_deals", lambda _: victim.stop())
    deadline = time.monotonic() + 120
    while any(n["Alive"] for n in ray.nodes() if n["NodeID"] == victim_id) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert not any(n["Alive"] for n in ray.nodes() if n["NodeID"] == victim_id)
    assert untimed_differences(local, document) == []


def _node_dirs(node: dict[str, Any]) -> str:
    return " ".join(str(v) for v in node.values())
