"""Batches of games on a Ray cluster (optional extra ``[ray]``; ``docs/RAY.md``).

The arena, the ladder and ``simulate`` hand their batches here when given ``--ray``:
each chunk of deals becomes one Ray task, spread over the cluster's nodes, and the
results come back in submission order whatever order the tasks finish in.  A game is a
pure function of its seed, so the totals are those of a local run.  A task whose worker
or node dies is run again elsewhere (Ray's retries of system failures); a task that
raises is not retried: the error is the bot's or the rules', and would only repeat.

Ray prints on the driver's standard output from threads of its own, whatever
``log_to_driver`` says (``(raylet) A worker died…`` when a worker is lost), and the
processes ``--ray local`` starts inherit it: a command runs its Ray part inside
:func:`document_stdout`, which keeps standard output for the command's own document.

Nothing in the core imports this module, and it imports Ray only when called, so the
engine and the commands run without Ray installed.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import socket
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, Final, TextIO, TypeVar

from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import N_

T = TypeVar("T")
R = TypeVar("R")

RETRIES: Final = 8
"""How many times a task is run again after its worker or node dies."""


def ray_module() -> Any:
    """Ray itself (imported here, by name: it is an optional extra), or a one-line error."""
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise RoppyakkenError(N_("--ray needs Ray: pip install 'roppyakken[ray]'")) from None


def connect(address: str) -> Any:
    """Join the Ray cluster at ``address`` (``auto``: the one started on this machine); the module.

    Connecting twice to the same cluster is a no-op; a cluster that cannot be reached is
    one line of error.
    """
    ray = ray_module()
    _check_reachable(address)
    if ray.is_initialized():
        return ray
    try:
        ray.init(
            address=address,
            logging_level=logging.WARNING,
            log_to_driver=False,
            configure_logging=False,
        )
    except Exception as exc:  # Ray raises ConnectionError, ValueError, RuntimeError...
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise RoppyakkenError(
            N_("--ray {address}: cannot join a Ray cluster ({reason})"), address=address, reason=first
        ) from None
    return ray


@contextlib.contextmanager
def document_stdout(address: str | None) -> Iterator[TextIO]:
    """Run a command's Ray part (``address``: its ``--ray``, None for no Ray) with Ray kept off stdout.

    Inside the block, file descriptor 1 and ``sys.stdout`` both point at standard error, so
    whatever Ray prints there (from its threads, from the processes it starts) goes to
    standard error; the stream yielded is the real standard output, for what the command
    prints while Ray runs.  On leaving the block, Ray is shut down if the block connected
    it (its threads stop, and print what they held back, still on standard error), then
    standard output is restored.  Without ``address`` the block changes nothing and
    yields ``sys.stdout``.
    """
    if address is None:
        yield sys.stdout
        return
    ray = ray_module()
    connected_before = ray.is_initialized()
    original = sys.stdout
    original.flush()
    sys.stderr.flush()
    try:
        saved: int | None = os.dup(1)
    except OSError:  # no descriptor 1 at all: nothing to keep clean at that level
        saved = None
    real: TextIO = original
    if saved is not None:
        os.dup2(2, 1)
        if _descriptor(original) == 1:
            real = open(  # noqa: SIM115 - closed when the block ends
                saved, "w", buffering=1, encoding=original.encoding, errors=original.errors, closefd=False
            )
    sys.stdout = sys.stderr
    try:
        yield real
    finally:
        try:
            if not connected_before and ray.is_initialized():
                ray.shutdown()
        finally:
            sys.stdout = original
            try:
                sys.stderr.flush()
                real.flush()
            finally:  # stdout comes back even when the flush fails (a reader gone: a broken pipe)
                if saved is not None:
                    if real is not original:
                        with contextlib.suppress(OSError):  # flushed above, or its error raised
                            real.close()
                    os.dup2(saved, 1)
                    os.close(saved)


def _descriptor(stream: TextIO) -> int | None:
    """The file descriptor ``stream`` writes to, or None (a StringIO, a test's capture)."""
    try:
        return stream.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        return None


def _check_reachable(address: str) -> None:
    """Refuse at once a ``host:port`` where nothing listens (Ray would retry for minutes)."""
    host, sep, port = address.rpartition(":")
    if not sep or not port.isdigit() or "://" in host:
        return  # auto, local, or a form Ray checks itself
    try:
        socket.create_connection((host.strip("[]") or "127.0.0.1", int(port)), timeout=10).close()
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise RoppyakkenError(
            N_("--ray {address}: no Ray cluster answers there ({reason})"), address=address, reason=reason
        ) from None


def _restated(cause: RoppyakkenError) -> RoppyakkenError:
    """A task's error as one line, still translatable when its template came back with it."""
    template = getattr(cause, "template", None)
    fields = getattr(cause, "fields", None)
    if isinstance(template, str) and isinstance(fields, dict):
        return RoppyakkenError(template, **fields)
    return RoppyakkenError(str(cause).splitlines()[0])


def cluster_cpus(address: str) -> int:
    """The CPUs of the cluster at ``address`` (at least 1)."""
    ray = connect(address)
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def ordered_map(
    address: str,
    fn: Callable[..., R],
    shared: Sequence[Any],
    items: Sequence[T],
) -> Iterator[R]:
    """``fn(*shared, item)`` for every item as Ray tasks; the results in the order of ``items``.

    ``shared`` (the rules, the levels) is put in the object store once, not sent with
    every task.  Tasks are spread over the nodes; each result is yielded as soon as it
    and every result before it are in.
    """
    ray = connect(address)
    options = {"num_cpus": 1, "max_retries": RETRIES, "retry_exceptions": False}
    remote = ray.remote(**options, scheduling_strategy="SPREAD")(fn)
    refs_shared = [ray.put(value) for value in shared]
    pending = [remote.remote(*refs_shared, item) for item in items]
    place = {ref: i for i, ref in enumerate(pending)}
    finished: dict[int, R] = {}
    following = 0
    while pending:
        ready, pending = ray.wait(pending, num_returns=1)
        for ref in ready:
            try:
                finished[place[ref]] = ray.get(ref)
            except ray.exceptions.RayTaskError as exc:
                cause = exc.as_instanceof_cause()
                if isinstance(cause, RoppyakkenError):
                    raise _restated(cause) from None
                raise
        while following in finished:
            yield finished.pop(following)
            following += 1
