"""The offline client in Chromium: the first visit's download, the time to an offline game, bot decisions.

Run by hand (not a test; these machines are shared and noisy)::

    .venv/bin/python bench/bench_offline.py [--runs 3] [--expert 300] [--master 30] [--hints 10]

It starts ``roppyakken serve`` (a fresh SQLite file) behind a small TCP proxy that counts the
bytes the server sends, and drives Debian's Chromium through Playwright with the browser
tests' launch flags (tests/test_web_e2e_browser.py):

* **first visit**: a fresh profile opens ``/``; once the service worker has precached the
  client (the page, the scripts, the card art, the catalogs, the tutorial, the Pyodide runtime
  and the core's zip), the bytes the server sent for it all, as sent (the runtime's large files
  gzipped, the rest as the app serves it: uncompressed), and how many files;
* **to the first offline game**: with the network off (``context.set_offline(True)``), from
  opening ``/#/offline`` in a new tab to the table showing the hand of a game against the
  expert (the worker starts Pyodide from the cache, unpacks the core, deals), and from the
  Start button once the engine has started (the page starts it as soon as it opens, while
  the player chooses); ``--runs`` times;
* **bot decisions**: in the page's worker (Pyodide) and here in CPython, the same decisions
  (:func:`roppyakken.ai.offline.decision_times`: bots in every seat of games seeded alike,
  decisions with a choice only): ``--expert`` expert decisions and ``--master`` master
  decisions with its default budget (230 ms, three times that on a close call).  CPython here
  runs the pure modules (``ROPPYAKKEN_PURE=1``), the browser's, and, if built, the compiled ones;
* **hints**: ``--hints`` hints (48 worlds, as the server's) at the person's card plays of seeded
  games, in the worker (timed around the call from the page) and in CPython.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from tests.harness.browser import CHROMIUM, CHROMIUM_ARGS, wait_js  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class CountingProxy:
    """A TCP proxy on loopback that counts the bytes going from the server to the browser."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.port = free_port()
        self.down = 0
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        server = self.loop.run_until_complete(asyncio.start_server(self._client, "127.0.0.1", self.port))
        with contextlib.suppress(Exception):
            self.loop.run_until_complete(server.serve_forever())

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, down: bool) -> None:
        try:
            while data := await reader.read(65536):
                if down:
                    self.down += len(data)
                writer.write(data)
                await writer.drain()
        except (ConnectionError, asyncio.CancelledError):
            pass
        finally:
            with contextlib.suppress(Exception):
                writer.close()

    async def _client(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.target)
        await asyncio.gather(self._pipe(reader, up_writer, False), self._pipe(up_reader, writer, True))

    def start(self) -> CountingProxy:
        self.thread.start()
        return self


@contextlib.contextmanager
def serve() -> Iterator[int]:
    """``roppyakken serve`` on a free port over a fresh SQLite file; its port."""
    port = free_port()
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
        cmd = [sys.executable, "-c", "from roppyakken.cli import main; raise SystemExit(main())"]
        args = ["serve", "--port", str(port), "--database", f"sqlite:///{tmp}/b.sqlite3", "--bot-delay", "0"]
        proc = subprocess.Popen([*cmd, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=1):
                        break
                except OSError:
                    if time.monotonic() > deadline:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.2)
            yield port
        finally:
            proc.terminate()
            proc.wait(10)


def precached(page: Page) -> int:
    """Wait until the service worker's cache holds its whole list; how many files."""
    wait_js(page, "!!navigator.serviceWorker.controller", 300)
    expected = int(
        page.evaluate(
            "fetch('/sw.js').then(r => r.text())"
            ".then(t => JSON.parse(t.split('const PRECACHE = ')[1].split(';')[0]).length)"
        )
    )
    count = (
        "caches.keys().then(ks => ks.length ? caches.open(ks[0]).then(c => c.keys()).then(r => r.length) : 0)"
    )
    deadline = time.monotonic() + 300
    while int(page.evaluate(count)) < expected:
        if time.monotonic() > deadline:
            raise SystemExit("the precache did not complete")
        page.wait_for_timeout(100)
    return expected


def worker_call(page: Page, request: dict[str, Any]) -> Any:
    """One call to the page's offline engine (the module the offline page uses)."""
    return page.evaluate("r => import('/static/js/offlineengine.js').then(m => m.engine().call(r))", request)


def summary(found: dict[str, list[float]]) -> dict[str, float]:
    """Median, p95 and max of the decisions' times (ms), and the median playouts of a search."""
    ordered = sorted(found["ms"])
    return {
        "n": len(ordered),
        "median": statistics.median(ordered),
        "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "max": ordered[-1],
        "rollouts_median": statistics.median(found["rollouts"]),
    }


HINT_TIMES = """async (count) => {
    const m = await import('/static/js/offlineengine.js');
    const engine = m.engine();
    const out = [];
    for (let seed = 1; out.length < count; seed++) {
        let msgs = (await engine.call({op: 'start', rules: {preset: 'classic'}, players: 2,
                                       bots: {'1': 'greedy'}, seed, review: false})).messages;
        for (;;) {
            const state = msgs.filter((x) => x.type === 'state').pop();
            if (state.view.phase === 'over') break;
            if (state.view.legal.some((a) => a.type === 'play')) {
                const began = performance.now();
                await engine.call({op: 'hint'});
                out.push(performance.now() - began);
                if (out.length >= count) break;
            }
            msgs = (await engine.call({op: 'act', action: state.view.legal[0]})).messages;
        }
    }
    return out;
}"""
"""Milliseconds of ``count`` hints in the page's worker, at the person's card plays of seeded games."""

CPYTHON_HINTS = """
import json, sys, time
from roppyakken.ai.offline import OfflineTable
from roppyakken.rules import preset
from roppyakken.view import view_of
count, out, seed = int(sys.argv[1]), [], 1
while len(out) < count:
    table = OfflineTable(preset("classic"), 2, 0, [None, "greedy"], seed, "you", review=False)
    table.opening()
    while not table.game.over and len(out) < count:
        view = view_of(table.game, 0)
        if any(a.to_json()["type"] == "play" for a in view.legal):
            began = time.perf_counter()
            table.hint()
            out.append((time.perf_counter() - began) * 1000)
        table.act(view.legal[0].to_json())
    seed += 1
print(json.dumps(out))
"""
"""The same hints in CPython."""


def cpython_hints(count: int) -> list[float]:
    """The same hints as :data:`HINT_TIMES`, in CPython on the pure modules."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "ROPPYAKKEN_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", CPYTHON_HINTS, str(count)], env=env, capture_output=True, text=True, check=True
    )
    found: list[float] = json.loads(out.stdout)
    return found


def cpython_times(level: str, decisions: int, pure: bool) -> dict[str, list[float]]:
    """The same decisions in CPython, in a fresh interpreter (pure or compiled modules)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    if pure:
        env["ROPPYAKKEN_PURE"] = "1"
    else:
        env.pop("ROPPYAKKEN_PURE", None)
    code = (
        "import json, sys; from roppyakken.ai.offline import decision_times; "
        f"print(json.dumps(decision_times({level!r}, decisions={decisions})))"
    )
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    found: dict[str, list[float]] = json.loads(out.stdout)
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--runs", type=int, default=3, help="times to the first offline game")
    parser.add_argument("--expert", type=int, default=300, help="expert decisions timed")
    parser.add_argument("--master", type=int, default=30, help="master decisions timed")
    parser.add_argument("--hints", type=int, default=10, help="hints timed")
    args = parser.parse_args(argv)
    results: dict[str, Any] = {"load": os.getloadavg()}
    with serve() as port, sync_playwright() as p:
        proxy = CountingProxy(port).start()
        base = f"http://127.0.0.1:{proxy.port}"
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        ctx = browser.new_context(service_workers="allow")
        page = ctx.new_page()
        began = time.monotonic()
        page.goto(base + "/")
        files = precached(page)
        page.wait_for_timeout(500)  # the page's own last requests
        results["first_visit"] = {"bytes": proxy.down, "files": files, "seconds": time.monotonic() - began}
        print(f"first visit: {proxy.down / 1e6:.2f} MB for {files} precached files", file=sys.stderr)

        ctx.set_offline(True)
        firsts: list[float] = []
        from_start: list[float] = []
        boots: list[dict[str, float]] = []
        for run in range(args.runs):
            tab = ctx.new_page()
            began = time.monotonic()
            tab.goto(base + "/#/offline")
            tab.wait_for_selector("#offline-form")
            tab.select_option("#offline-bot-1", "expert")
            # the page starts the engine when it opens; the player's choosing takes that long
            took = tab.evaluate(
                "import('/static/js/offlineengine.js')"
                ".then(m => m.engine().start().then(() => m.engine().took))"
            )
            boots.append(took)
            clicked = time.monotonic()
            tab.click("#offline-start")
            tab.wait_for_selector("#offline-table .hand button.card", timeout=300_000)
            firsts.append(time.monotonic() - began)
            from_start.append(time.monotonic() - clicked)
            print(f"first offline game, run {run + 1}: {firsts[-1]:.2f} s", file=sys.stderr)
            if run < args.runs - 1:
                tab.close()
        results["first_offline_game_s"] = firsts
        results["from_start_click_s"] = from_start
        results["worker_start_ms"] = boots

        browser_hints = tab.evaluate(HINT_TIMES, args.hints)
        browser_expert = worker_call(
            tab, {"op": "decision_times", "level": "expert", "decisions": args.expert}
        )
        browser_master = worker_call(
            tab, {"op": "decision_times", "level": "master", "decisions": args.master}
        )
        browser.close()
    results["expert"] = {
        "browser": summary(browser_expert),
        "cpython_pure": summary(cpython_times("expert", args.expert, pure=True)),
        "cpython": summary(cpython_times("expert", args.expert, pure=False)),
    }
    results["master"] = {
        "browser": summary(browser_master),
        "cpython_pure": summary(cpython_times("master", args.master, pure=True)),
        "cpython": summary(cpython_times("master", args.master, pure=False)),
    }
    results["hint"] = {
        "browser": summary({"ms": browser_hints, "rollouts": [0.0]}),
        "cpython_pure": summary({"ms": cpython_hints(args.hints), "rollouts": [0.0]}),
    }
    results["load_after"] = os.getloadavg()
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
