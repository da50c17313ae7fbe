"""Run every core command of an installed roppyakken and check what each one imported.

The core commands (``--help``, ``score``, ``targets``, ``cards``, ``rules``,
``simulate``, ``replay``, ``arena``, ``ladder`` with the core bots) must run on the
standard library alone: each runs in a new interpreter, which reports the modules it
loaded that are neither the standard library's nor the package's.  With ``--bare``
(an install without extras) the commands of the extras must each refuse in one line
that names the extra to install.

Standard library only, so that it runs with the interpreter of a bare install::

    .ci/run:   /tmp/bare/bin/python tests/harness/core_commands.py --bare
    the tests: tests/tools/test_install.py (the development environment's interpreter)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from pathlib import Path

RUNNER = """
import json, sys
before = set(sys.modules)
from roppyakken.cli import main
try:
    code = main(sys.argv[2:])
except SystemExit as exc:
    code = exc.code if isinstance(exc.code, int) else 1
known = {*sys.stdlib_module_names, *sys.builtin_module_names, "roppyakken", "__main__", "__mp_main__"}
outside = sorted(m for m in set(sys.modules) - before if m.split(".")[0] not in known)
with open(sys.argv[1], "w", encoding="utf-8") as f:
    json.dump({"code": code, "outside": outside}, f)
"""
"""The program each command runs in: ``main`` of the command line, then what it imported."""

SCORE_INPUT = json.dumps(
    {"players": [{"captures": ["pine-crane", "cherry-curtain", "pampas-moon"]}, {"captures": []}]}
)
TARGETS_INPUT = json.dumps({"table": ["pine-chaff-1", "plum-chaff-1"], "card": "pine-crane"})

EXTRAS: list[tuple[list[str], str]] = [
    (["serve"], "in the roppyakken checkout, pip install '.[web]'"),
    (["admin", "reports"], "in the roppyakken checkout, pip install '.[web]'"),
    (["ratings", "--check"], "in the roppyakken checkout, pip install '.[web]'"),
    (["play"], "in the roppyakken checkout, pip install '.[tui]'"),
    (["simulate", "--games", "1", "--bots", "learned"], "in the roppyakken checkout, pip install '.[rl]'"),
]
"""Commands of the extras, and what each says when its extra is not installed."""


def core_commands(records: Path) -> list[tuple[list[str], str]]:
    """Each core command (argv after ``roppyakken``) and its standard input; ``simulate`` writes
    the records that ``replay`` then reads."""
    return [
        (["--help"], ""),
        (["--version"], ""),
        (["score"], SCORE_INPUT),
        (["score", "--explain", "--lang", "ja"], SCORE_INPUT),
        (["targets"], TARGETS_INPUT),
        (["cards"], ""),
        (["rules"], ""),
        (["rules", "classic"], ""),
        (["simulate", "--games", "4", "--records", str(records)], ""),
        (["replay", str(records / "game-000000.json")], ""),
        (["arena", "--bots", "random,greedy", "--games", "4"], ""),
        (["ladder", "--levels", "random,greedy,expert", "--games", "2"], ""),
    ]


def run(
    python: str, argv: list[str], stdin: str, work: Path, runner: str = RUNNER
) -> tuple[int, list[str], str]:
    """Run ``roppyakken argv`` with ``python`` in ``work`` (by ``runner``): its exit code, the
    modules it loaded from outside the standard library and the package, and its standard error."""
    report = work / "report.json"
    report.unlink(missing_ok=True)
    done = subprocess.run(
        [python, "-c", runner, str(report), *argv],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=work,
        timeout=600,
        check=False,
    )
    if not report.exists():
        return done.returncode, [], done.stderr
    result = json.loads(report.read_text(encoding="utf-8"))
    return int(result["code"]), list(result["outside"]), done.stderr


def check(python: str, bare: bool) -> list[str]:
    """What is wrong with the install of ``python`` (nothing: an empty list)."""
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        records = work / "records"
        for argv, stdin in core_commands(records):
            code, outside, err = run(python, argv, stdin, work)
            shown = "roppyakken " + " ".join(argv)
            if code != 0:
                problems.append(f"{shown}: exit {code}: {err.strip()[-2000:]}")
            if outside:
                problems.append(f"{shown}: imported {', '.join(outside)}")
        for argv, says in EXTRAS if bare else []:
            code, _, err = run(python, argv, "", work)
            shown = "roppyakken " + " ".join(argv)
            lines = err.strip().splitlines()
            if code == 0 or len(lines) != 1 or says not in err:
                problems.append(f"{shown}: expected one line naming {says!r}, exit {code}: {err.strip()}")
    return problems


def main() -> int:
    """Check the install whose interpreter runs this (or ``--python``); exit 1 on a problem."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--python", default=sys.executable, help="the install's interpreter")
    parser.add_argument("--bare", action="store_true", help="no extras: check their commands' messages")
    args = parser.parse_args()
    problems = check(args.python, args.bare)
    for problem in problems:
        print(f"core_commands: {problem}", file=sys.stderr)
    if not problems:
        print(f"core_commands: every core command runs on the standard library ({args.python})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
