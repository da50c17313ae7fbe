"""How far behind a websocket's reader is, in bytes on its connection: what it has not taken yet.

A reader that never reads is not seen by counting messages handed to the
transport: the transport hands them on to the kernel, whose send buffer (and the
peer's receive buffer, or a proxy's) takes megabytes before anything waits.  So
the bytes are counted where they are: the transport's write buffer, the kernel's
send queue (``SIOCOUTQ``) and what the peer acknowledged (``TCP_INFO``'s
``tcpi_bytes_acked``), all in the bytes that cross the wire (compressed or not).
A connection is behind when bytes that were on it ``send_timeout`` ago are still
not taken, whatever the message rate.

The kernel's view ends at the peer's receive buffer, which takes a reader's
first hundred kilobytes or so whether it reads or not; so the server also pings
every websocket every quarter of ``send_timeout`` (uvicorn's keepalive, see
server/web/serving.py), and a ping unanswered for three quarters of it means the
reader has not read what came before the ping: a reader that stopped reading is
dropped within ``send_timeout``, however slowly messages come.
"""

from __future__ import annotations

import contextlib
import socket
import struct
import sys
from collections import deque
from typing import Any, Final

MAX_PENDING_BYTES: Final = 1 << 20
"""Bytes waiting for one client (queued, in the transport's buffer and the kernel's) before it
counts as too slow and is dropped at once, whatever the time: the memory one reader may hold."""

CONNECTION_KEY: Final = "roppyakken.connection"
"""Where the guard puts a websocket's server-side connection object in its ASGI scope."""
PING_SHARE: Final = 0.25
"""The share of ``send_timeout`` between two pings of a websocket (uvicorn's keepalive)."""
PONG_SHARE: Final = 0.75
"""The share of ``send_timeout`` a ping may wait for its pong (so a reader that stops reading is
dropped within a ping's interval and this: ``send_timeout``)."""

_TCP_INFO: Final = getattr(socket, "TCP_INFO", None)
_BYTES_ACKED: Final = struct.Struct("=Q")
_BYTES_ACKED_AT: Final = 120
"""Where ``tcpi_bytes_acked`` lies in Linux's ``struct tcp_info`` (since Linux 4.1)."""
_OUTQ: Final = 0x5411
"""``SIOCOUTQ`` (``TIOCOUTQ``): bytes in a TCP socket's send queue, not yet acknowledged."""


def _fcntl() -> Any:
    if not sys.platform.startswith("linux"):
        return None
    import fcntl

    return fcntl


class Backlog:
    """The bytes a connection's reader has not taken, over a transport (see the module docstring)."""

    def __init__(self, transport: Any, send_timeout: float, protocol: Any = None) -> None:
        self.transport = transport
        self.send_timeout = send_timeout
        self.protocol = protocol
        """uvicorn's websocket protocol object (its keepalive ping), or None."""
        self._marks: deque[tuple[float, int]] = deque()
        """(time, bytes put on the connection up to then), oldest first, back to ``send_timeout``."""
        self.sends = 0
        """Messages the owner has handed to the transport: it counts each once the write is done."""
        self._taken_at = -1
        """:attr:`sends` when the kernel last had nothing waiting (-1: not seen since); while no
        message goes out after that, nothing the owner sent can be waiting and the kernel is not
        asked again (its two system calls a connection were most of a check)."""
        sock = None
        with contextlib.suppress(AttributeError, TypeError):
            sock = transport.get_extra_info("socket")
        self._fd = -1
        self._sock: Any = None
        if sock is not None and _TCP_INFO is not None and _fcntl() is not None:
            with contextlib.suppress(OSError, AttributeError, ValueError):
                if sock.family in (socket.AF_INET, socket.AF_INET6) and sock.type == socket.SOCK_STREAM:
                    self._fd = sock.fileno()
                    self._sock = sock

    def buffered(self) -> int:
        """Bytes in the transport's write buffer (in this process's memory)."""
        try:
            return int(self.transport.get_write_buffer_size())
        except (AttributeError, TypeError, RuntimeError):
            return 0

    def _kernel(self) -> tuple[int, int] | None:
        """(bytes the peer acknowledged so far, bytes in the send queue), or None if unknown."""
        if self._fd < 0:
            return None
        try:
            info = self._sock.getsockopt(socket.IPPROTO_TCP, _TCP_INFO, 256)
            if len(info) < _BYTES_ACKED_AT + _BYTES_ACKED.size:
                return None
            (acked,) = _BYTES_ACKED.unpack_from(info, _BYTES_ACKED_AT)
            outq = struct.unpack("i", _fcntl().ioctl(self._fd, _OUTQ, b"\0\0\0\0"))[0]
        except (OSError, ValueError):
            return None
        return int(acked), int(outq)

    def pending(self) -> int:
        """Bytes on the connection not taken yet: the transport's buffer and the kernel's queue."""
        kernel = self._kernel()
        return self.buffered() + (kernel[1] if kernel is not None else 0)

    def unanswered(self, now: float) -> float:
        """Seconds the last ping has waited for its pong (0: none waiting, or unknown)."""
        protocol = self.protocol
        if getattr(protocol, "pending_ping_payload", None) is None:
            return 0.0
        sent = getattr(protocol, "ping_sent_at", None)
        return max(0.0, now - sent) if isinstance(sent, float) else 0.0

    def behind(self, now: float, period: float) -> bool:
        """Whether bytes put on the connection ``send_timeout`` ago (less one ``period`` of the
        caller's checks, so that it is seen within ``send_timeout``) are still not taken, a ping
        waits for its pong for over three quarters of ``send_timeout``, or more than
        :data:`MAX_PENDING_BYTES` wait; called every ``period`` seconds."""
        if self.unanswered(now) > self.send_timeout * PONG_SHARE:
            return True
        if self._taken_at == self.sends and self.buffered() == 0:
            return False
        kernel = self._kernel()
        if kernel is None:
            return self.buffered() > MAX_PENDING_BYTES
        acked, outq = kernel
        pending = self.buffered() + outq
        if pending > MAX_PENDING_BYTES:
            return True
        self._taken_at = self.sends if pending == 0 else -1
        marks = self._marks
        marks.append((now, acked + pending))
        cutoff = now - max(period, self.send_timeout - period)
        while len(marks) >= 2 and marks[1][0] <= cutoff:
            marks.popleft()
        oldest_at, put_by_then = marks[0]
        return oldest_at <= cutoff and acked < put_by_then
