"""What every part of a cluster member shares: its Redis client, the key prefix, the error when
Redis or another member does not answer, and the check of a Redis URL."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Final

import redis.asyncio as aioredis

from roppyakken.server.store.database import StorageError

PREFIX: Final = "roppyakken:"


class ClusterUnavailable(StorageError):
    """Redis or the member holding a room did not answer in time."""


def open_redis(url: str, timeout: float) -> aioredis.Redis:
    """A client for ``url`` whose every command gives up after ``timeout`` seconds.

    A frozen Redis (SIGSTOP, a stalled VM) keeps its connections open and answers
    nothing: a command waiting for good would hold up whatever waits on it (a claim,
    a publish, a renewal) with no error ever said."""
    return aioredis.from_url(
        url, decode_responses=True, socket_timeout=timeout, socket_connect_timeout=timeout
    )


def check_url(url: str) -> str:
    """``url`` if it is a Redis URL, else :class:`~roppyakken.errors.RoppyakkenError` in one line."""
    from roppyakken.errors import RoppyakkenError
    from roppyakken.server.wire import text

    if not url.startswith(("redis://", "rediss://", "unix://")):
        raise RoppyakkenError(text.BAD_REDIS_URL, url=url)
    return url


async def stop_task(task: asyncio.Task[object]) -> None:
    """Cancel ``task`` and wait until it has ended, whatever it was doing.

    Python 3.11's ``asyncio.wait_for`` can swallow a cancellation that arrives as the awaited
    thing completes, and a loop around it then goes on; so the cancellation is repeated until
    the task is done, and its end (an error included) is collected here."""
    while not task.done():
        task.cancel()
        await asyncio.wait({task}, timeout=0.1)
    with contextlib.suppress(asyncio.CancelledError, Exception):
        task.result()
