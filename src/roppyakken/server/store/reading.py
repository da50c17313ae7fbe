"""Reads in a process of their own: a server's long reads that would otherwise run on a thread
beside its event loop (a tournament's director's read and decision, 12–15 ms of Python a step).

A thread holding the interpreter's lock makes the event loop wait for it: 14 ms of Python four
times a second on a thread beside the loop took the moves' p99 at 1,000 clocked games from 12 to
31 ms (bench/RESULTS-tournaments.md).  A process has its own interpreter.

The server starts the process (``python -m roppyakken.server.store.reading``) at its first read
and speaks to it over its standard input and output: the database's URL first (never on the
command line, where ``ps`` shows it), then one request at a time, each a length and a pickle of
``(function, arguments)``; the answer a length and a pickle of ``(True, value)`` or ``(False,
one-line error)``.  The function runs as ``function(connection, *arguments)`` in a transaction of
its own; it is named by module and name (pickle), so it is a module's top-level function, and
whatever it keeps between calls (the director's :class:`~roppyakken.server.club.tournaments.
director.Held`) it keeps in its module, in the process.

The process ends when its input ends: when the server closes it, and when the server dies, even
by ``kill -9`` (its end of the pipe closes with it); it ignores SIGINT and SIGTERM, which reach
it with the server's (a terminal's Ctrl+C, systemd's stop), so that the server ends it in order.
A request that fails to come back (the process died, :data:`READ_TIMEOUT` passed, the caller was
cancelled) ends the process: the next read starts another, which keeps nothing of the last.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import pickle
import signal
import struct
import sys
from collections.abc import Callable
from typing import Any, BinaryIO, Final

log = logging.getLogger(__name__)

READ_TIMEOUT: Final = 30.0
"""Seconds a read in the process may take before the process is ended (and the read fails)."""

_LENGTH: Final = struct.Struct(">I")


class ReadingError(Exception):
    """A read in the process failed (its one-line reason), or the process ended under it."""


class ReadingProcess:
    """The process that runs one server's reads, started at the first (:meth:`call`)."""

    def __init__(self, url: str, write_timeout: float, timeout: float = READ_TIMEOUT) -> None:
        self.url = url
        self.write_timeout = write_timeout
        self.timeout = timeout
        self._process: asyncio.subprocess.Process | None = None
        self._lock = asyncio.Lock()
        self.started = 0
        """How many processes were started (a second one: the first ended under a read)."""

    @property
    def pid(self) -> int | None:
        """The process's id (None: not started, or ended)."""
        return None if self._process is None else self._process.pid

    async def call(self, op: Callable[..., Any], *args: Any) -> Any:
        """``op(connection, *args)`` in the process; its answer (:class:`ReadingError` if it failed)."""
        request = pickle.dumps((op, args), protocol=pickle.HIGHEST_PROTOCOL)
        async with self._lock:
            try:
                process = self._process or await self._start()
            except OSError as exc:
                raise ReadingError(f"the reading process cannot start: {exc}") from None
            try:
                async with asyncio.timeout(self.timeout):
                    answer = await self._ask(process, request)
            except BaseException as exc:  # the answer may still come: the pipe is out of step
                await self._end()
                if isinstance(exc, TimeoutError):
                    raise ReadingError(
                        f"a read in the reading process took over {self.timeout:g} s"
                    ) from None
                if isinstance(exc, (OSError, EOFError, asyncio.IncompleteReadError)):
                    raise ReadingError("the reading process ended") from None
                raise
        done, value = pickle.loads(answer)
        if not done:
            raise ReadingError(str(value))
        return value

    async def _ask(self, process: asyncio.subprocess.Process, request: bytes) -> bytes:
        assert process.stdin is not None and process.stdout is not None
        process.stdin.write(_LENGTH.pack(len(request)) + request)
        await process.stdin.drain()
        (size,) = _LENGTH.unpack(await process.stdout.readexactly(_LENGTH.size))
        return await process.stdout.readexactly(size)

    async def _start(self) -> asyncio.subprocess.Process:
        process = await asyncio.create_subprocess_exec(
            sys.executable,
            "-m",
            __name__,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
        )
        assert process.stdin is not None
        opening = pickle.dumps((self.url, self.write_timeout))
        process.stdin.write(_LENGTH.pack(len(opening)) + opening)
        self._process = process
        self.started += 1
        log.info("reading process %d started", process.pid)
        return process

    async def _end(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            process.kill()
        await process.wait()

    async def close(self) -> None:
        """End the process (its input closed: it finishes the read under way, if any, and exits)."""
        async with self._lock:
            process, self._process = self._process, None
            if process is None:
                return
            assert process.stdin is not None
            process.stdin.close()
            try:
                async with asyncio.timeout(self.timeout):
                    await process.wait()
            except TimeoutError:
                process.kill()
                await process.wait()


def _frame(stream: BinaryIO) -> bytes | None:
    """The next request, None at the end of the input."""
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        return None
    (size,) = _LENGTH.unpack(head)
    body = stream.read(size)
    return body if len(body) == size else None


def serve(stdin: BinaryIO, stdout: BinaryIO) -> None:
    """The process's side: open the database named by the first frame, then answer each request."""
    from sqlalchemy.exc import SQLAlchemyError

    from roppyakken.server.store.engines import one_line, open_reading_engine

    opening = _frame(stdin)
    if opening is None:
        return
    url, write_timeout = pickle.loads(opening)
    engine = open_reading_engine(url, write_timeout)
    try:
        while (request := _frame(stdin)) is not None:
            try:
                op, args = pickle.loads(request)
                with engine.begin() as conn:
                    answer: tuple[bool, Any] = (True, op(conn, *args))
            except SQLAlchemyError as exc:
                answer = (False, one_line(exc))
            except Exception as exc:  # a bug: said in the server's log, the read fails
                log.exception("a read in the reading process failed")
                answer = (False, f"{type(exc).__name__}: {exc}"[:300])
            try:
                body = pickle.dumps(answer, protocol=pickle.HIGHEST_PROTOCOL)
            except Exception as exc:  # a bug: an answer that cannot be sent
                body = pickle.dumps((False, f"the answer cannot be sent: {exc}"[:300]))
            stdout.write(_LENGTH.pack(len(body)) + body)
            stdout.flush()
    finally:
        engine.dispose()


def main() -> None:
    """``python -m roppyakken.server.store.reading``: the reading process (started by the server)."""
    for sig in (signal.SIGINT, signal.SIGTERM):  # the server ends it (Ctrl+C and systemd reach both)
        signal.signal(sig, signal.SIG_IGN)
    logging.basicConfig(level=logging.WARNING, format="reading process: %(levelname)s %(message)s")
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # anything printed goes to the server's log
    serve(sys.stdin.buffer, answers)


if __name__ == "__main__":
    main()
