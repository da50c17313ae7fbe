"""The deployment files docs/DEPLOY.md ships, run as they are: the systemd units' command lines (the
members' and the Redis Cluster nodes') and the TLS nginx configuration (the cluster's nginx
configuration runs in tests/server/cluster/).

The package is installed as docs/DEPLOY.md says, with its web extra into a new virtual
environment (``pip install '.[web]'``; compiling skipped, which the wheel's test covers).
A unit's ``ExecStart`` is started with that environment's program and only the port
and the storage replaced (systemd itself does not run here); the single-machine nginx
configuration serves it over TLS with a throwaway certificate.
"""

from __future__ import annotations

import asyncio
import configparser
import contextlib
import json
import shlex
import shutil
import signal
import ssl
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
import redis
from websockets.asyncio.client import connect

from roppyakken.server.cluster.redislink import KeySpace
from tests.harness import installs, redis_cluster, services
from tests.harness.support import ROOT

pytestmark = pytest.mark.timeout(1200)  # the first test installs the package and its web extra

DEPLOY = ROOT / "docs" / "deploy"
PROGRAM = "/opt/roppyakken/.venv/bin/roppyakken"


@pytest.fixture(scope="module")
def program(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``roppyakken`` installed with its web extra into a new virtual environment, as docs/DEPLOY.md does."""
    tmp = tmp_path_factory.mktemp("deploy")
    project = installs.project_copy(tmp / "project")
    python = installs.new_venv(tmp / "venv")
    installs.pip_install(python, f"{project}[web]", extra={"ROPPYAKKEN_COMPILE": "0"})
    return python.parent / "roppyakken"


def exec_start(unit: str, replace: dict[str, str], program: Path, program_path: str = PROGRAM) -> list[str]:
    """A unit's ``ExecStart`` as argv, with ``replace``'s texts replaced and the program (``program_path``
    in the unit) made ``program``."""
    parser = configparser.ConfigParser(interpolation=None, strict=False)
    parser.read_string((DEPLOY / unit).read_text())
    line = parser["Service"]["ExecStart"]
    for old, new in replace.items():
        assert old in line, f"{unit}: {old} not in ExecStart"
        line = line.replace(old, new)
    argv = shlex.split(line)
    assert argv[0] == program_path
    return [str(program), *argv[1:]]


@contextmanager
def started(argv: list[str], port: int) -> Iterator[subprocess.Popen[bytes]]:
    """The command running (until it is stopped with SIGTERM, as systemd does)."""
    proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        services.wait_port(port, proc=proc)
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def _stop_like_systemd(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=20) == 0  # within TimeoutStopSec, and a clean exit (no restart)
    assert proc.stderr is not None
    assert b"Traceback" not in proc.stderr.read()


@contextmanager
def certificate(tmp: Path) -> Iterator[tuple[Path, Path]]:
    """A throwaway self-signed certificate for 127.0.0.1 and its key."""
    openssl = shutil.which("openssl")
    services.need("openssl", openssl, "apt-get install openssl")
    assert openssl is not None
    cert, key = tmp / "cert.pem", tmp / "key.pem"
    request = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1"]
    subprocess.run(
        [openssl, *request, "-keyout", str(key), "-out", str(cert)],
        check=True,
        capture_output=True,
        timeout=60,
    )
    yield cert, key


def test_one_machine_the_systemd_unit_behind_nginx_with_tls(tmp_path: Path, program: Path) -> None:
    port = services.free_port()
    argv = exec_start(
        "roppyakken.service",
        {"--port 8600": f"--port {port}", "/var/lib/roppyakken/": f"{tmp_path}/"},
        program,
    )
    template = (DEPLOY / "nginx-single.conf").read_text()
    with certificate(tmp_path) as (cert, key), started(argv, port) as proc:

        def site(listen: int) -> str:
            filled = template.replace("@LISTEN@", f"127.0.0.1:{listen}")
            filled = filled.replace("@SERVER@", f"127.0.0.1:{port}")
            return filled.replace("@CERTIFICATE@", str(cert)).replace("@KEY@", str(key))

        with services.nginx_site(site) as tls:
            base = f"https://127.0.0.1:{tls}"
            context = ssl.create_default_context(cafile=str(cert))
            context.check_hostname = False
            answer = httpx.get(base + "/api/presets", verify=context, timeout=10)
            assert answer.status_code == 200 and answer.headers["strict-transport-security"]
            body = {"name": "a", "bots": {"1": "random"}}
            created = httpx.post(base + "/api/rooms", json=body, verify=context, timeout=10).json()

            async def play() -> str:
                # a browser's websocket: wss, with the page's origin (checked against the Host nginx passes)
                url = f"wss://127.0.0.1:{tls}/ws/{created['room']}"
                async with connect(url, ssl=context, origin=base) as ws:  # type: ignore[arg-type]
                    await ws.send(json.dumps({"type": "hello", "v": 1, "token": created["token"]}))
                    while (message := json.loads(await ws.recv()))["type"] != "state":
                        pass
                    return str(message["view"]["phase"])

            assert asyncio.run(play())
        assert (tmp_path / "roppyakken.sqlite3").exists()  # the database is where the unit says
        _stop_like_systemd(proc)


def test_a_cluster_member_by_its_systemd_unit(program: Path) -> None:
    with services.postgres() as pg, services.redis_server() as rd:
        database = services.new_database(pg, "deploy")
        port = services.free_port()
        argv = exec_start(
            "roppyakken@.service",
            {"%i": str(port), "${ROPPYAKKEN_DATABASE}": database, "${ROPPYAKKEN_REDIS}": rd},
            program,
        )
        with started(argv, port) as proc:
            health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).json()
            assert health["status"] == "ok" and len(health["member"]) == 16
            _stop_like_systemd(proc)


def test_a_member_behind_pgbouncer_with_a_read_replica_by_its_systemd_unit(program: Path) -> None:
    """The larger cluster of docs/DEPLOY.md: writes through PgBouncer (the shipped pgbouncer.ini),
    lag-tolerant reads on a streaming replica."""
    from tests.harness.replica import pgbouncer, replica_of

    with services.postgres() as pg, services.redis_server() as rd:
        name = services.new_database(pg, "scaled").rsplit("/", 1)[1]
        with pgbouncer(pg) as pooler, replica_of(pg) as replica:
            replica.wait_caught_up(name)
            port = services.free_port()
            urls = {
                "${ROPPYAKKEN_DATABASE}": f"{pooler}/{name}?pooler=transaction",
                "${ROPPYAKKEN_DATABASE_REPLICA}": f"{replica.admin}/{name}",
                "${ROPPYAKKEN_REDIS}": rd,
            }
            argv = exec_start("roppyakken-replicated@.service", {"%i": str(port), **urls}, program)
            with started(argv, port) as proc:
                base = f"http://127.0.0.1:{port}"
                assert httpx.get(base + "/readyz", timeout=10).status_code == 200
                made = httpx.post(
                    base + "/api/me", json={"name": "Ann"}, headers={"X-CSRF-Token": "new"}, timeout=10
                )
                assert made.status_code == 201, made.text
                player = made.json()["player"]["id"]
                replica.wait_caught_up(name)
                assert httpx.get(f"{base}/api/players/{player}", timeout=10).json()["name"] == "Ann"
                assert httpx.get(base + "/api/leaderboard/classic-2", timeout=10).status_code == 200
                _stop_like_systemd(proc)


def test_a_redis_cluster_and_a_member_by_their_systemd_units(program: Path, tmp_path: Path) -> None:
    """Six Redis Cluster nodes started by their unit's ExecStart on the shipped configuration, joined
    as docs/DEPLOY.md does it, and a member by its unit pointed at them: it takes a room's lease."""
    server = shutil.which("redis-server") or shutil.which("redis-server", path="/usr/bin:/usr/sbin")
    cli = shutil.which("redis-cli") or shutil.which("redis-cli", path="/usr/bin")
    services.need("redis-server", server, "apt-get install redis-server")
    services.need("redis-cli", cli, "apt-get install redis-tools")
    assert server is not None and cli is not None
    with contextlib.ExitStack() as stack:
        ports = []
        for _ in range(6):
            port = services.free_port()
            conf = tmp_path / f"{port}.conf"
            conf.write_text(redis_cluster.render_node(port, tmp_path))
            argv = exec_start(
                "redis-cluster@.service",
                {"/etc/roppyakken/redis-cluster/%i.conf": str(conf)},
                Path(server),
                program_path="/usr/bin/redis-server",
            )
            stack.enter_context(started(argv, port))
            ports.append(port)
        redis_cluster.create_cluster(cli, ports)
        redis_cluster.wait_cluster_ok(ports)
        url = "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in ports[:2])
        pg = stack.enter_context(services.postgres())
        database = services.new_database(pg, "deploy_cluster")
        port = services.free_port()
        replace = {"%i": str(port), "${ROPPYAKKEN_DATABASE}": database, "${ROPPYAKKEN_REDIS}": url}
        with started(exec_start("roppyakken@.service", replace, program), port) as proc:
            health = httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=10).json()
            assert health["status"] == "ok"
            created = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json={"name": "a"}, timeout=10)
            assert created.status_code == 201, created.text
            client = redis.RedisCluster(host="127.0.0.1", port=ports[0], decode_responses=True)
            try:
                lease = KeySpace(sharded=True).lease(created.json()["room"])
                assert client.get(lease) == health["member"]
            finally:
                client.close()
            _stop_like_systemd(proc)


def test_the_documented_files_are_the_shipped_ones() -> None:
    """docs/DEPLOY.md shows the shipped files whole, so that what is read is what the tests run."""
    text = (ROOT / "docs" / "DEPLOY.md").read_text()
    shown = ("roppyakken.service", "roppyakken@.service", "nginx-single.conf", "nginx-cluster.conf")
    for name in (
        *shown,
        "roppyakken-replicated@.service",
        "pgbouncer.ini",
        "redis-cluster.conf",
        "redis-cluster@.service",
    ):
        shipped = (DEPLOY / name).read_text().strip()
        assert shipped in text, f"docs/DEPLOY.md does not show docs/deploy/{name} as it is"
