"""``roppyakken serve`` with a stall watcher: what held the event loop; long collections and writes.

Run by hand, in place of ``roppyakken serve`` (same options), then load it with
``bench/bench_server.py --url``::

    PYTHONPATH=src .venv/bin/python bench/stall_watch.py serve --port 8611 --bot-delay 0 \\
        --clock-scale 0.5 --rooms-per-minute 100000 --requests-per-minute 1000000 \\
        --connections-per-address 5000

A thread samples the event loop's thread whenever the loop has not run its 50 ms
tick for ``STALL`` seconds (0.3), and writes the stall's length and its most
frequent stacks to ``STALL_LOG`` (``stalls.log``), with every thread's stack for
stalls over a second; every garbage collection over 50 ms and every database
batch over 200 ms (with the kinds of work in it) and every checkpoint of the SQLite log
over 100 ms are written there too.  (A stall whose samples show only the
loop's own C code is the process waiting for a core, for the GIL, or in a collection.)
With ``YOUNG=1`` each pass of the middle generation is preceded by a line of what it
is about to scan (its objects by type, its largest containers).
"""

from __future__ import annotations

import asyncio
import collections
import gc
import os
import sys
import threading
import time
import traceback
from typing import Any, TextIO

STALL = float(os.environ.get("STALL", "0.3"))
OUT: TextIO = open(os.environ.get("STALL_LOG", "stalls.log"), "a")  # noqa: SIM115 - for the process's life
_tick = [time.monotonic()]
_loop_thread: list[int] = []
_gc_began = [0.0]
YOUNG = os.environ.get("YOUNG") == "1"
"""Whether to write what each middle-generation pass is about to scan (costly: a diagnosis)."""


def _young(objects: list[Any]) -> None:
    kinds = collections.Counter(type(o).__name__ for o in objects)
    sized = (list, dict, set, tuple, collections.deque)
    sizes = sorted(((len(o), type(o).__name__) for o in objects if isinstance(o, sized)), reverse=True)[:5]
    OUT.write(f"young: {len(objects)} objects, {kinds.most_common(8)}, largest {sizes}\n")


def _ticking(loop: asyncio.AbstractEventLoop) -> None:
    _tick[0] = time.monotonic()
    loop.call_later(0.05, _ticking, loop)


def _watch() -> None:
    while not _loop_thread:
        time.sleep(0.05)
    target = _loop_thread[0]
    while True:
        time.sleep(0.05)
        began = _tick[0]
        if time.monotonic() - began < STALL:
            continue
        everyone = {t: "".join(traceback.format_stack(f)[-12:]) for t, f in sys._current_frames().items()}
        samples: collections.Counter[str] = collections.Counter()
        while _tick[0] == began:
            frame = sys._current_frames().get(target)
            if frame is not None:
                samples["".join(traceback.format_stack(frame)[-8:])] += 1
            time.sleep(0.02)
        length = time.monotonic() - began
        OUT.write(f"=== stall of {length:.2f} s at {time.time():.1f} ({len(samples)} distinct stacks)\n")
        for stack, count in samples.most_common(4):
            OUT.write(f"--- {count} samples:\n{stack}\n")
        if length > 1.0:
            names = {t.ident: t.name for t in threading.enumerate()}
            for ident, stack in everyone.items():
                OUT.write(f"### thread {names.get(ident, ident)} at the start:\n{stack}\n")
        OUT.flush()


def _collected(phase: str, info: dict[str, Any]) -> None:
    if phase == "start":
        if YOUNG and info["generation"] == 1:
            _young(gc.get_objects(0) + gc.get_objects(1))
        _gc_began[0] = time.perf_counter()
        return
    took = time.perf_counter() - _gc_began[0]
    if took > 0.05:
        tracked = len(gc.get_objects()) if took > 0.5 else "-"
        OUT.write(
            f"GC gen {info['generation']} took {took:.3f} s at {time.time():.1f}, "
            f"collected {info['collected']}, tracked {tracked}\n"
        )
        OUT.flush()


def main() -> int:
    """Install the watchers, then run the command line as ``roppyakken`` would."""
    from roppyakken.cli import main as cli
    from roppyakken.server.store import database as db
    from roppyakken.server.web import services

    gc.callbacks.append(_collected)
    run_batch = db.Database._run_batch

    def timed_batch(self: db.Database, works: list[Any]) -> list[tuple[bool, Any]]:
        began = time.perf_counter()
        try:
            return run_batch(self, works)
        finally:
            took = time.perf_counter() - began
            if took > 0.2:
                kinds = collections.Counter(getattr(w, "__qualname__", type(w).__name__) for w in works)
                OUT.write(
                    f"DB batch of {len(works)} took {took:.3f} s at {time.time():.1f}: "
                    f"{kinds.most_common(4)}\n"
                )
                OUT.flush()

    db.Database._run_batch = timed_batch  # type: ignore[method-assign]
    checkpoint = db.Checkpointer._checkpoint

    def timed_checkpoint(self: db.Checkpointer, conn: Any, mode: str) -> None:
        began = time.perf_counter()
        try:
            checkpoint(self, conn, mode)
        finally:
            took = time.perf_counter() - began
            if took > 0.1:
                OUT.write(f"checkpoint ({mode}) took {took:.3f} s at {time.time():.1f}\n")
                OUT.flush()

    db.Checkpointer._checkpoint = timed_checkpoint  # type: ignore[method-assign]
    start = services.Services.start

    async def started(self: services.Services) -> None:
        _loop_thread.append(threading.get_ident())
        _ticking(asyncio.get_running_loop())
        await start(self)

    services.Services.start = started  # type: ignore[method-assign]
    threading.Thread(target=_watch, name="stall-watch", daemon=True).start()
    code: int = cli()
    return code


if __name__ == "__main__":
    raise SystemExit(main())
