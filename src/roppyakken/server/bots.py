"""Bot thinking off the event loop: in worker processes (the default) or threads (tests).

Each decision is one job ``think(level, seed, view)``: a fresh bot built from
its level and a seed derived from the room, the seat and the move, so a bot's
choices do not depend on which worker runs it.  A room has at most one
decision waiting, and the pool serves jobs in order, so rooms take turns
fairly however many bots one client starts; a bot's time budget (the master's)
runs only while it is actually thinking in its own process, not while waiting.
"""

from __future__ import annotations

import multiprocessing
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor

from roppyakken.actions import Action
from roppyakken.ai.base import make_bot
from roppyakken.view import SeatView


def think(level: str, seed: int, view: SeatView) -> tuple[Action, float]:
    """One bot decision (runs in a worker): the action and the seconds spent choosing it."""
    began = time.perf_counter()
    action = make_bot(level, seed).choose(view)
    return action, time.perf_counter() - began


def decision_seed(room_seed: int, seat: int, move: int) -> int:
    """The seed of one decision of the bot in ``seat`` at move ``move`` of a room."""
    return (room_seed + 7919 * (seat + 1) + 104_729 * move) % 2**63


def _warm() -> None:
    """Import the bots in a new worker before the first real decision."""
    from roppyakken.ai import base  # noqa: F401


def bot_executor(workers: int, threads: int = 4) -> Executor:
    """``workers`` processes (forkserver: no threads of the server are copied), or threads if 0."""
    if workers <= 0:
        return ThreadPoolExecutor(max_workers=threads, thread_name_prefix="roppyakken-bot")
    context = multiprocessing.get_context("forkserver")
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=context, initializer=_warm)
    return pool
