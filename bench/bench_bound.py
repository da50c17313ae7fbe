"""Upper bounds for the engine figures: the same round shape without the engine's objects.

Run by hand (not a test)::

    .venv/bin/python bench/bench_bound.py [--seconds 2]

Prints rounds per second (one core, CPU time) of

* ``C``: ``bench/bound/round.c`` (built with ``cc -O2`` in a temporary directory):
  a minimal 2-player round as 64-bit masks in a struct, xorshift random numbers;
  ``search`` copies a dealt round, plays it out at random and scores it, ``games``
  deals, plays and scores.  What the machine can do for this shape of work.
* ``mypyc``: ``bench/bound/minimal_round.py``, the same round as plain ints in
  locals, compiled with mypyc (in a temporary directory), random numbers from
  ``random.Random().random`` as the engine's playouts draw them.  What mypyc can do
  once the round is out of Python objects.
* ``python``: the same module, interpreted.
* ``engine``: the engine's search figure (``Game.clone()`` + ``playout()``, as
  ``bench/bench_engine.py`` measures it) with the kernel this process runs.

and the floor of the search figure as ``bench_engine.py`` measures it: ``Game.clone()``
alone plus the random draws a playout makes (``rand()`` calls per playout x cost per call,
called from the compiled minimal module when it is built, else from Python).  Whatever
the card play, scoring and end of the round cost comes on top.  See bench/RESULTS-engine.md.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent / "bound"


def load(path: Path, name: str) -> ModuleType:
    """Import ``path`` as module ``name``."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def c_rates(seconds: float) -> str:
    """The C bound's output line, or why there is none."""
    cc = shutil.which("cc")
    if cc is None:
        return "(no C compiler)"
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(tmp, "round")
        subprocess.run([cc, "-O2", "-o", exe, str(HERE / "round.c")], check=True)
        return subprocess.run([exe, str(seconds)], capture_output=True, text=True, check=True).stdout.strip()


def compiled_minimal(tmp: str) -> ModuleType | None:
    """``minimal_round.py`` compiled with mypyc in ``tmp`` (None without mypyc or a compiler)."""
    try:
        from mypyc.build import mypycify

        setup = importlib.import_module("setuptools").setup
    except ImportError:
        return None
    shutil.copy(HERE / "minimal_round.py", os.path.join(tmp, "minimal_round_c.py"))
    cwd = os.getcwd()
    try:
        os.chdir(tmp)
        setup(
            name="minimal-round",
            ext_modules=mypycify(["minimal_round_c.py"], opt_level="3"),
            script_args=["-q", "build_ext", "--inplace"],
        )
    finally:
        os.chdir(cwd)
    sys.path.insert(0, tmp)
    try:
        return importlib.import_module("minimal_round_c")
    finally:
        sys.path.remove(tmp)


def minimal_rate(module: ModuleType, seconds: float) -> float:
    """Rounds per second of ``module.playout`` from 64 dealt rounds."""
    rng = random.Random(1)
    dealt = []
    for _ in range(64):
        deck = list(range(48))
        rng.shuffle(deck)
        masks = [sum(1 << c for c in deck[i : i + 8]) for i in (0, 8, 16)]
        dealt.append((masks[0], masks[1], masks[2], deck[24:]))
    playout: Callable[[int, int, int, list[int], Callable[[], float]], int] = module.playout
    rand = rng.random
    rounds = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for h0, h1, table, pile in dealt:
            playout(h0, h1, table, pile, rand)
        rounds += len(dealt)
    return rounds / (time.process_time() - start)


def engine_rate(seconds: float) -> float:
    """The engine's search figure (clone + playout, scored), with the kernel in use."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_engine import search_rounds
    from roppyakken.rules import preset

    return search_rounds(preset("classic"), 2, seconds)


def rand_cost() -> tuple[float, float]:
    """``(rand() calls per engine playout, seconds per call)``."""
    from roppyakken.engine import Game
    from roppyakken.rules import preset

    calls = 0
    rng = random.Random(5)

    def counted() -> float:
        nonlocal calls
        calls += 1
        return rng.random()

    rounds = 0
    for seed in range(200):
        game = Game(preset("classic"), 2, seed, log=False)
        game.stop_at_round_end = True
        while game.phase not in ("play", "over"):
            game.apply(game.legal_actions()[0])
        if game.phase == "play":
            game.random_decision(counted)
            rounds += 1
    rand = rng.random
    n = 1_000_000
    start = time.process_time()
    for _ in range(n):
        rand()
    return calls / rounds, (time.process_time() - start) / n


def clone_cost(seconds: float) -> float:
    """Seconds per ``Game.clone()`` of a dealt 2-player classic position (the kernel in use)."""
    from roppyakken.engine import Game
    from roppyakken.rules import preset

    positions = []
    for seed in range(64):
        game = Game(preset("classic"), 2, seed, log=False)
        game.stop_at_round_end = True
        positions.append(game)
    copies = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        for base in positions:
            base.clone()
        copies += len(positions)
    return (time.process_time() - start) / copies


def draw_cost(module: ModuleType, seconds: float) -> float:
    """Seconds per ``random.Random().random`` call made by ``module.draws`` (compiled or not)."""
    rand = random.Random(7).random
    calls = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        module.draws(rand, 10_000)
        calls += 10_000
    return (time.process_time() - start) / calls


def main() -> None:
    """Print the bounds."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="length of each run")
    args = parser.parse_args()
    from roppyakken.kernel import COMPILED

    print(f"C (cc -O2)              {c_rates(args.seconds)}")
    pure = load(HERE / "minimal_round.py", "minimal_round")
    with tempfile.TemporaryDirectory() as tmp:
        fast = compiled_minimal(tmp)
        if fast is not None:
            print(f"mypyc, minimal round    search {minimal_rate(fast, args.seconds):,.0f}")
            draw = draw_cost(fast, args.seconds / 2)
        else:
            draw = draw_cost(pure, args.seconds / 2)
    print(f"python, minimal round   search {minimal_rate(pure, args.seconds):,.0f}")
    kernel = "compiled" if COMPILED else "pure"
    print(f"engine ({kernel} kernel)  search {engine_rate(args.seconds):,.0f}")
    calls, cost = rand_cost()
    total = calls * draw * 1e6
    print(f"rand(): {calls:.1f} calls a playout x {draw * 1e9:.1f} ns = {total:.2f} us a playout", end="")
    where = "compiled" if fast is not None else "interpreted"
    print(f" (from {where} code; {cost * 1e9:.1f} ns from a Python loop)")
    clone = clone_cost(args.seconds / 2)
    floor = clone + calls * draw
    print(f"Game.clone(): {clone * 1e6:.2f} us ({kernel} kernel)")
    print(f"floor of the search figure: {floor * 1e6:.2f} us a playout = {1 / floor:,.0f} playouts/s at most")


if __name__ == "__main__":
    main()
