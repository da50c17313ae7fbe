"""Ray behind ``--ray``: the cluster suite (tests/ai/ray_suite.py) on a network of loopback only,
and the one-line errors of the options.

The suite starts a real Ray cluster (a head and a worker node) and compares what the commands
print on it with a local run.  It runs in a network namespace made for it (``unshare --net``,
loopback only): Ray would otherwise give its nodes this machine's network address and ask cloud
metadata services what machine it runs on, and a test's traffic stays on loopback.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time

import pytest

from roppyakken.errors import RoppyakkenError
from tests.harness.ray_cluster import DECISION_TIMES, RUN_TIMES, ray_available
from tests.harness.support import ROOT, require, run_cli


@pytest.mark.slow
@pytest.mark.timeout(1800)
def test_the_ray_suite_passes_on_a_loopback_only_network() -> None:
    require(ray_available(), "Ray is not installed (pip install 'roppyakken[ray]')")
    require(
        os.geteuid() == 0 and shutil.which("unshare") and shutil.which("ip"),
        "the Ray suite runs in a network namespace of its own: it needs root, unshare and ip",
    )
    inner = (
        f"ip link set lo up && exec {sys.executable} -m pytest -q -p no:cacheprovider tests/ai/ray_suite.py"
    )
    done = subprocess.run(
        ["unshare", "--net", "--", "sh", "-c", inner],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=1700,
        env=dict(os.environ, PYTHONPATH=f"{ROOT}{os.pathsep}{ROOT / 'src'}"),  # this checkout's code
    )
    assert done.returncode == 0, done.stdout[-6000:] + done.stderr[-3000:]
    assert " passed" in done.stdout and " failed" not in done.stdout, done.stdout[-3000:]


def test_without_ray_installed_the_option_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    from roppyakken.ai import ray_backend

    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(RoppyakkenError, match=r"^--ray needs Ray: pip install 'roppyakken\[ray\]'$"):
        ray_backend.connect("auto")
    code, out, err = run_cli(["arena", "--bots", "random,random", "--games", "2", "--ray"])
    assert code != 0 and out == ""
    assert err.strip().splitlines() == ["roppyakken: error: --ray needs Ray: pip install 'roppyakken[ray]'"]


def test_the_commands_import_ray_only_with_the_option() -> None:
    program = (
        "import sys\n"
        "from roppyakken.cli import main\n"
        "main(['arena', '--bots', 'random,random', '--games', '2', '--json'])\n"
        "main(['simulate', '--games', '2', '--json'])\n"
        "main(['ladder', '--levels', 'random,greedy', '--games', '2', '--json'])\n"
        "assert 'ray' not in sys.modules, 'ray was imported'\n"
    )
    done = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr


def test_an_address_where_no_cluster_listens_is_one_line_at_once() -> None:
    from tests.harness.services import free_port, need

    need("Ray", ray_available(), "pip install 'roppyakken[ray]'")
    address = f"127.0.0.1:{free_port()}"
    start = time.monotonic()
    code, out, err = run_cli(["arena", "--bots", "random,random", "--games", "2", "--ray", address])
    assert code != 0 and out == "" and time.monotonic() - start < 30
    assert err.strip().splitlines() == [
        f"roppyakken: error: --ray {address}: no Ray cluster answers there (Connection refused)"
    ]


def test_jobs_and_ray_together_are_refused_in_one_line() -> None:
    code, out, err = run_cli(["arena", "--bots", "random,random", "--games", "2", "--jobs", "2", "--ray"])
    assert code != 0 and out == ""
    assert err.strip().splitlines() == [
        "roppyakken: error: --jobs and --ray do not go together: --ray spreads the deals over the cluster"
    ]


STUB_RAY = """
import os, subprocess, sys, threading, types
ray = types.ModuleType("ray")
up = [False]
ray.is_initialized = lambda: up[0]
def shutdown():
    print("(raylet) held back until shutdown")
    up[0] = False
ray.shutdown = shutdown
sys.modules["ray"] = ray
from roppyakken.ai.ray_backend import document_stdout
print("before")
with document_stdout("auto") as out:
    up[0] = True  # as ray.init
    print("(raylet) printed by the driver")
    thread = threading.Thread(target=lambda: print("(raylet) A worker died", flush=True))
    thread.start()
    thread.join()
    os.write(1, b"(raylet) written on descriptor 1\\n")
    subprocess.run(["sh", "-c", "echo '(raylet) from a process Ray started'"], check=True)
    print('{"document": 1}', file=out)
print("after")
up[0] = True  # connected before the block: the block leaves the connection alone
with document_stdout("auto") as out:
    print("(raylet) again")
    print("second", file=out)
print("connected" if up[0] else "shut down")
"""


def test_ray_s_messages_go_to_stderr_and_stdout_keeps_the_document() -> None:
    """What Ray prints (from the driver, its threads, descriptor 1, the processes it starts,
    at shutdown) goes to stderr; stdout has only what the command prints."""
    done = subprocess.run(
        [sys.executable, "-c", STUB_RAY],
        capture_output=True,
        text=True,
        timeout=60,
        env=dict(os.environ, PYTHONPATH=str(ROOT / "src")),
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["before", '{"document": 1}', "after", "second", "connected"]
    assert done.stderr.splitlines() == [
        "(raylet) printed by the driver",
        "(raylet) A worker died",
        "(raylet) written on descriptor 1",
        "(raylet) from a process Ray started",
        "(raylet) held back until shutdown",
        "(raylet) again",
    ]


def test_ray_md_names_every_field_that_may_differ_from_a_local_run() -> None:
    """docs/RAY.md says which fields of a Ray run's document may differ from a local run's:
    those the cluster suite allows to differ (tests/ai/ray_suite.py), no fewer."""
    text = (ROOT / "docs" / "RAY.md").read_text(encoding="utf-8")
    paragraph = next(p for p in text.split("\n\n") if "Only the timing fields differ" in p)
    named = set(re.findall(r"`([a-z_0-9]+)`", paragraph))
    assert {"decision_ms", *DECISION_TIMES, *RUN_TIMES} <= named
    assert "decisions" in named  # named as the one field of decision_ms that does not differ
