"""``roppyakken serve``: starts, prints its address, serves the game, stops cleanly on Ctrl-C."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import httpx

SERVE = [sys.executable, "-c", "from roppyakken.cli import main; raise SystemExit(main())", "serve"]


def test_serve_prints_its_address_and_stops_on_ctrl_c(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "data")}
    process = subprocess.Popen(
        [*SERVE, "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
        assert found, line
        assert "roppyakken.sqlite3" in process.stdout.readline()
        url = found.group(0)
        answer = httpx.get(url + "api/bots", timeout=10)
        assert answer.status_code == 200 and answer.json()["bots"]
        created = httpx.post(url + "api/rooms", json={"name": "ann"}, timeout=10)
        assert created.status_code == 201
        assert (tmp_path / "data" / "roppyakken" / "roppyakken.sqlite3").is_file()
    finally:
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=30)
    assert process.returncode == 0, err
    assert "Traceback" not in err


def test_serve_refuses_a_port_in_use(tmp_path: Path) -> None:
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = subprocess.run(
            [*SERVE, "--port", str(port), "--database", str(tmp_path / "x.sqlite3")],
            capture_output=True,
            text=True,
            timeout=60,
        )
    assert done.returncode == 2 and "choose another --port" in done.stderr
    assert done.stderr.count("\n") == 1


def test_serve_refuses_a_replica_or_a_pooler_it_cannot_use(tmp_path: Path) -> None:
    cases = [
        (
            ["--database", str(tmp_path / "x.sqlite3"), "--database-replica", "postgresql://127.0.0.1:1/x"],
            "a read replica needs a PostgreSQL database",
        ),
        (["--database", "postgresql://127.0.0.1:1/x?pooler=statement"], "unsupported pooler 'statement'"),
    ]
    for options, said in cases:
        done = subprocess.run([*SERVE, "--port", "0", *options], capture_output=True, text=True, timeout=60)
        assert done.returncode == 2 and said in done.stderr, done.stderr
        assert done.stderr.count("\n") == 1
