"""Bot thinking off the event loop: in worker processes (the default) or threads (tests).

Each decision is one job ``think(level, seed, view)``: a fresh bot built from
its level and a seed derived from the room, the seat and the move, so a bot's
choices do not depend on which worker runs it.  Masters (which search for their
whole time budget) think in worker processes, so they never hold the server's
event loop or its GIL; a room has at most one decision waiting, and
:class:`FairPool` takes turns between the clients that made the rooms, so one
client's crowd of masters does not make anyone else's wait.  A master's budget
runs only while it is actually thinking in its own process, not while waiting.
The cheap levels choose in well under 10 ms, in a thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
import threading
import time
from asyncio import Future
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any, Final, TypeVar

from roppyakken.actions import Action
from roppyakken.ai.base import make_bot
from roppyakken.view import SeatView

T = TypeVar("T")


def think(level: str, seed: int, view: SeatView) -> tuple[Action, float]:
    """One bot decision (runs in a worker): the action and the seconds spent choosing it."""
    began = time.perf_counter()
    action = make_bot(level, seed).choose(view)
    return action, time.perf_counter() - began


def _warm(alive: Connection | None = None) -> None:
    """Start a new worker: watch the server (``alive``), import the bots before the first decision."""
    if alive is not None:
        threading.Thread(target=_exit_with_the_server, args=(alive,), daemon=True).start()
    from roppyakken.ai import base  # noqa: F401


def _exit_with_the_server(alive: Connection) -> None:
    """Block until the server's end of the ``alive`` pipe closes, then end this worker at once.

    Only the server holds the pipe's writing end, so it reads end of file however the server
    went, ``kill -9`` included.  Without it a worker outlives a killed server for good: it waits
    on its job queue, whose writing end it holds itself, and the forkserver waits for the workers.
    """
    with contextlib.suppress(EOFError, OSError):
        alive.recv_bytes()
    os._exit(0)


def bot_executor(workers: int) -> tuple[Executor, Connection]:
    """``workers`` processes (forkserver: no threads of the server are copied), and the writing end
    of the pipe they watch: they exit as soon as it closes (when this process ends, however)."""
    context = multiprocessing.get_context("forkserver")
    alive, keep = context.Pipe(duplex=False)
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_warm, initargs=(alive,))
    return pool, keep


HEAVY_LEVELS: Final = frozenset({"master"})
"""Levels that search for their whole time budget: they think in the worker processes.

The others choose in well under 10 ms and use a thread, so they never wait
behind anyone's masters."""


class FairPool:
    """Jobs on ``executor`` with at most ``slots`` running, taking turns between owners.

    An owner is whoever asked for the rooms (the creator's address): one client
    with 24 rooms of masters gets one turn in each round, as does a client with
    one, so nobody's bots wait behind another's crowd.
    """

    def __init__(self, executor: Executor, slots: int) -> None:
        self.executor = executor
        self.free = slots
        self._queues: OrderedDict[str, deque[tuple[Callable[..., Any], tuple[Any, ...], Future[Any]]]]
        self._queues = OrderedDict()

    async def run(self, owner: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the executor when ``owner``'s turn comes."""
        future: Future[T] = asyncio.get_running_loop().create_future()
        self._queues.setdefault(owner, deque()).append((fn, args, future))
        self._dispatch()
        return await future

    def waiting(self) -> int:
        """Jobs queued, all owners."""
        return sum(len(q) for q in self._queues.values())

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self.free > 0 and self._queues:
            owner, queue = next(iter(self._queues.items()))
            fn, args, future = queue.popleft()
            del self._queues[owner]
            if queue:
                self._queues[owner] = queue  # to the back of the line: round robin
            if future.cancelled():
                continue
            self.free -= 1
            job = loop.run_in_executor(self.executor, fn, *args)
            job.add_done_callback(functools.partial(self._done, future))

    def _done(self, future: Future[Any], job: Future[Any]) -> None:
        self.free += 1
        if not future.done():
            if job.cancelled():
                future.cancel()
            elif (error := job.exception()) is not None:
                future.set_exception(error)
            else:
                future.set_result(job.result())
        self._dispatch()


class BotRunner:
    """Where bot decisions run: heavy levels in the fair process pool, the rest in threads."""

    def __init__(self, workers: int, threads: int = 4) -> None:
        self.threads = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="roppyakken-bot")
        self.processes: Executor | None = None
        self._alive: Connection | None = None
        if workers > 0:
            self.processes, self._alive = bot_executor(workers)
        self.pool = FairPool(self.processes, workers) if self.processes is not None else None

    async def decide(self, owner: str, level: str, seed: int, view: SeatView) -> tuple[Action, float]:
        """One decision: the action and the seconds spent thinking."""
        if self.pool is not None and level in HEAVY_LEVELS:
            return await self.pool.run(owner, think, level, seed, view)
        return await asyncio.get_running_loop().run_in_executor(self.threads, think, level, seed, view)

    async def run_heavy(self, owner: str, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` where masters think (hints and reviews search as they do), taking turns."""
        if self.pool is not None:
            return await self.pool.run(owner, fn, *args)
        return await asyncio.get_running_loop().run_in_executor(self.threads, fn, *args)

    def shutdown(self) -> None:
        """Stop the workers (queued decisions are dropped; the rooms are stored)."""
        self.threads.shutdown(wait=False, cancel_futures=True)
        if self.processes is not None:
            self.processes.shutdown(wait=False, cancel_futures=True)
        if self._alive is not None:
            self._alive.close()  # the workers end now, even one still thinking
            self._alive = None
