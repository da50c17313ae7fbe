"""How far behind a websocket's reader is (server/web/backlog.py), on a real loopback TCP connection:
a reader that has taken everything costs no system call until something new is sent to it, and
a reader that stops reading after a quiet spell is still found within ``send_timeout``."""

from __future__ import annotations

import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from roppyakken.server.web.backlog import Backlog


class _Transport:
    """What Backlog reads of an asyncio transport: its socket and its (empty) write buffer."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock

    def get_extra_info(self, name: str) -> Any:
        return self.sock if name == "socket" else None

    def get_write_buffer_size(self) -> int:
        return 0


@contextmanager
def _pair() -> Iterator[tuple[socket.socket, socket.socket]]:
    """(the server's end, the reader's end) of a loopback TCP connection with a small receive buffer."""
    listener = socket.create_server(("127.0.0.1", 0))
    reader = socket.socket()
    reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    reader.connect(listener.getsockname())
    server, _ = listener.accept()
    listener.close()
    server.setblocking(False)
    try:
        yield server, reader
    finally:
        server.close()
        reader.close()


def _sent_and_taken(server: socket.socket, reader: socket.socket, backlog: Backlog, size: int) -> None:
    """Send ``size`` bytes as one message, have the reader take them all, and wait until the kernel
    says so (the acknowledgements are quick); then a check at time 0 finds it not behind."""
    server.send(b"x" * size)
    backlog.sends += 1
    got = b""
    while len(got) < size:
        got += reader.recv(4096)
    deadline = time.monotonic() + 10
    while backlog.pending() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert not backlog.behind(0.0, 0.5)


def test_a_reader_that_took_everything_is_not_asked_about_until_something_is_sent() -> None:
    with _pair() as (server, reader):
        backlog = Backlog(_Transport(server), send_timeout=10.0)
        asked = []
        kernel = backlog._kernel
        backlog._kernel = lambda: asked.append(1) or kernel()  # type: ignore[method-assign, func-returns-value]
        _sent_and_taken(server, reader, backlog, 1000)
        before = len(asked)
        for tick in range(1, 50):  # the watchdog's checks while nothing is sent
            assert not backlog.behind(tick * 0.5, 0.5)
        assert len(asked) == before, "the kernel was asked about a reader with nothing waiting"
        server.send(b"y" * 10)
        backlog.sends += 1
        assert not backlog.behind(25.0, 0.5)
        assert len(asked) == before + 1, "a new message was not looked for in the kernel"


def test_a_reader_that_stops_after_a_quiet_spell_is_behind_within_the_send_timeout() -> None:
    with _pair() as (server, reader):
        backlog = Backlog(_Transport(server), send_timeout=10.0)
        _sent_and_taken(server, reader, backlog, 100)
        for tick in range(1, 100):  # a quiet spell of 50 s, checked every half second
            assert not backlog.behind(tick * 0.5, 0.5)
        sent = 0
        for _ in range(200):  # then the reader stops reading while messages go on coming
            try:
                sent += server.send(b"z" * 4096)
            except BlockingIOError:
                break
        backlog.sends += 1
        assert sent and backlog.pending() > 0, "nothing waits in the kernel: the test sends too little"
        began = 50.0
        now = began
        while not backlog.behind(now, 0.5):
            now += 0.5
            assert now - began <= 10.0, "the reader that stopped is not behind after send_timeout"
        assert now - began >= 9.0, f"behind after only {now - began} s"
