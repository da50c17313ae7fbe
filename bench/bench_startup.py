"""Start-up time of the ``roppyakken`` command: wall time of whole processes, each a new interpreter.

Each command runs ``--runs`` times, in turns (so that a burst of load on the machine
spreads over all of them); the figures are the wall time's minimum and median and the
CPU time's median (user + system, which the load of a shared machine disturbs less), in
ms, with the bare interpreter (``python -c pass``) as the floor no command can go
under, and the target of 150 ms of wall time for ``--help`` and ``score``.
``--instructions`` also counts the instructions of each command under valgrind, which
the load does not change; ``--importtime`` prints the slowest imports of each
(``python -X importtime``, cumulative).  The bytecode cache is written and used, as in
an installed package.

    .venv/bin/python bench/bench_startup.py [--runs 20] [--importtime] [--instructions]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_MS = 150.0
"""The start-up the core commands aim at on the development machine (wall time)."""

MAIN = "import sys; from roppyakken.cli import main; sys.exit(main())"
"""What the ``roppyakken`` console script runs."""

SCORE_INPUT = json.dumps(
    {"players": [{"captures": ["pine-crane", "cherry-curtain", "pampas-moon"]}, {"captures": []}]}
)

CASES: list[tuple[str, list[str], str]] = [
    ("python -c pass", ["-c", "pass"], ""),
    ("import roppyakken.cli", ["-c", "import roppyakken.cli"], ""),
    ("roppyakken --help", ["-c", MAIN, "--help"], ""),
    ("roppyakken score", ["-c", MAIN, "score"], SCORE_INPUT),
    ("roppyakken cards", ["-c", MAIN, "cards"], ""),
    ("roppyakken --version", ["-c", MAIN, "--version"], ""),
]
"""Name, interpreter arguments and standard input of each measured command."""


ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
"""The children's environment: with the bytecode cache written and read, as an installed package has it."""


def once(args: list[str], stdin: str) -> tuple[float, float]:
    """Wall time and CPU time (user + system) of one process, in ms."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True, check=True, env=ENV)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime) * 1000
    return wall, cpu


def instructions(args: list[str], stdin: str) -> int:
    """Instructions one process executes (valgrind's callgrind): a figure the machine's load leaves alone."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "callgrind.out"
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, *args],
            input=stdin,
            capture_output=True,
            text=True,
            check=True,
            env=ENV,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    assert found is not None, done.stderr
    return int(found.group(1))


def slowest_imports(args: list[str], stdin: str, count: int = 8) -> list[tuple[int, str]]:
    """The ``count`` imports with the largest cumulative time (µs) in one run."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", *args],
        input=stdin,
        capture_output=True,
        text=True,
        check=True,
        env=ENV,
    )
    rows = []
    for line in done.stderr.splitlines():
        if line.startswith("import time:") and "|" in line and "cumulative" not in line:
            _, cumulative, name = line.split("|")
            rows.append((int(cumulative), name.strip()))
    return sorted(rows, reverse=True)[:count]


def main() -> None:
    """Measure and print the start-up of each command."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="runs of each command (20)")
    parser.add_argument("--importtime", action="store_true", help="also print each command's slowest imports")
    parser.add_argument(
        "--instructions", action="store_true", help="also count each command's instructions (valgrind)"
    )
    args = parser.parse_args()
    from roppyakken.compiled import status

    walls: dict[str, list[float]] = {name: [] for name, _, _ in CASES}
    cpus: dict[str, list[float]] = {name: [] for name, _, _ in CASES}
    for _name, argv, stdin in CASES:  # warm the file cache and the bytecode
        once(argv, stdin)
    for _ in range(args.runs):
        for name, argv, stdin in CASES:
            wall, cpu = once(argv, stdin)
            walls[name].append(wall)
            cpus[name].append(cpu)
    load = os.getloadavg()[0]
    machine = f"{os.cpu_count()} cores (load {load:.1f})"
    print(f"python {sys.version.split()[0]}, {machine}, {status()}, {args.runs} runs each")
    floor = min(walls["python -c pass"])
    heads = f"{'wall min':>9} {'wall median':>12} {'cpu median':>11} {'wall min - python':>18}"
    print(f"{'command':<24} {heads}  target")
    for name, _, _ in CASES:
        best, median, cpu = min(walls[name]), statistics.median(walls[name]), statistics.median(cpus[name])
        target = ""
        if name in ("roppyakken --help", "roppyakken score"):
            target = f"<= {TARGET_MS:.0f} ms: {'met' if median <= TARGET_MS else 'missed'} (wall median)"
        print(f"{name:<24} {best:>9.1f} {median:>12.1f} {cpu:>11.1f} {best - floor:>18.1f}  {target}")
    if args.instructions:
        print("\ninstructions (valgrind --tool=callgrind), and as a multiple of python -c pass:")
        counts = {name: instructions(argv, stdin) for name, argv, stdin in CASES}
        for name, count in counts.items():
            print(f"  {name:<24} {count / 1e6:>8.1f} M  {count / counts['python -c pass']:>5.1f} x")
    if args.importtime:
        for name, argv, stdin in CASES[1:]:
            print(f"\nslowest imports of {name} (cumulative ms):")
            for micros, module in slowest_imports(argv, stdin):
                print(f"  {micros / 1000:>7.1f}  {module}")


if __name__ == "__main__":
    main()
