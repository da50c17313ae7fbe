"""Running the application with uvicorn, bounded: header and idle timeouts, a connection cap, a clean stop.

:func:`uvicorn_config` builds the uvicorn configuration from
:class:`~roppyakken.server.config.Limits`; :class:`Server` is uvicorn's server
that, when told to stop (Ctrl-C, SIGTERM), first stops accepting, tells every
player the server is restarting (they reconnect), then lets the pending writes
finish.
"""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from datetime import UTC, datetime
from typing import Any

import uvicorn
from starlette.applications import Starlette
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from roppyakken.server.addresses import Network, address_key, is_proxy, proxy_networks
from roppyakken.server.config import Limits
from roppyakken.server.web.backlog import PING_SHARE


class BoundedHttp(HttpToolsProtocol):
    """uvicorn's HTTP protocol with a header timeout: a request's headers must arrive within it.

    uvicorn bounds idle keep-alive connections but not a connection that sends
    nothing, or half a header, forever; this closes those.  It also counts the
    connections of each address still speaking HTTP (a websocket counts from its
    upgrade on, in the websocket endpoint) and closes at once those over
    ``address_limit``, so that one client cannot take every descriptor.
    """

    header_timeout = 10.0
    address_limit = 32
    open_by_address: dict[str, int] = {}  # noqa: RUF012  (replaced per server in uvicorn_config)
    trusted: tuple[Network, ...] = ()
    """Reverse proxies (``--trusted-proxy``): their connections carry many clients, so they are not capped."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        """Start the header clock; close at once a connection over its address's limit."""
        super().connection_made(transport)
        self._header_timer: asyncio.TimerHandle | None = None
        peer = str(self.client[0]) if self.client else "unknown"
        self._address: str | None = address_key(peer)
        if is_proxy(peer, self.trusted):
            self._address = None
            self._arm()
            return
        count = self.open_by_address.get(self._address, 0) + 1
        self.open_by_address[self._address] = count
        if count > self.address_limit:
            self.transport.close()
            return
        self._arm()

    def _uncount(self) -> None:
        address, self._address = self._address, None
        if address is not None:
            count = self.open_by_address.get(address, 1) - 1
            if count > 0:
                self.open_by_address[address] = count
            else:
                self.open_by_address.pop(address, None)

    def handle_websocket_upgrade(self) -> None:
        """From here on the connection is a websocket, counted by the websocket endpoint.

        The HTTP side is done with: its parser (which calls back into it) is let go, so that it
        is freed now rather than by a full garbage collection (uvicorn lets it go only when the
        connection is lost, which a websocket's HTTP side never hears of)."""
        self._uncount()
        super().handle_websocket_upgrade()
        self.parser = None  # type: ignore[assignment]

    def _arm(self) -> None:
        self._header_timer = self.loop.call_later(self.header_timeout, self._expired)

    def _disarm(self) -> None:
        if self._header_timer is not None:
            self._header_timer.cancel()
            self._header_timer = None

    def _expired(self) -> None:
        self._header_timer = None
        if not self.transport.is_closing():
            self.transport.close()

    def data_received(self, data: bytes) -> None:
        """A new request on a kept-alive connection starts the header clock again."""
        if self._header_timer is None and (self.cycle is None or self.cycle.response_complete):
            self._arm()
        super().data_received(data)

    def on_headers_complete(self) -> None:
        """The headers arrived in time."""
        self._disarm()
        super().on_headers_complete()

    def connection_lost(self, exc: Exception | None) -> None:
        """Stop the clock."""
        self._disarm()
        self._uncount()
        super().connection_lost(exc)


class FreedWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's websocket protocol, whose memory goes back as soon as the connection is lost.

    The websockets library's protocol object holds the generator that parses what comes in,
    and that generator holds the object: a cycle that only a full pass of the garbage collector
    frees, and the server makes those only every few minutes (server/web/collector.py).  Each closed
    websocket left its buffers and compression state (about 60 KiB) until then.  Once the
    connection is lost nothing reads from it again, so the generator is closed here.
    """

    def connection_lost(self, exc: Exception | None) -> None:
        """uvicorn's, then the parser let go (see the class docstring)."""
        super().connection_lost(exc)
        self.conn.parser.close()
        self.conn.parser_exc = None  # its traceback holds the parser's frames


class JsonFormatter(logging.Formatter):
    """One JSON object per log event: time, level, logger, message (and the traceback, if any)."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one line of JSON."""
        out: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat().replace("+00:00", "Z"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        if record.exc_info:
            out["exception"] = self.formatException(record.exc_info)
        return json.dumps(out, ensure_ascii=False)


def log_config(level: str, fmt: str) -> dict[str, Any]:
    """A ``logging.config.dictConfig`` for the server and uvicorn: ``text`` or ``json`` lines on stderr."""
    formatter: dict[str, Any] = (
        {"()": f"{__name__}.JsonFormatter"}
        if fmt == "json"
        else {"format": "%(asctime)s %(levelname)s %(name)s: %(message)s"}
    )
    handler = {"class": "logging.StreamHandler", "formatter": "main", "stream": "ext://sys.stderr"}
    loggers = {
        name: {"handlers": ["main"], "level": level.upper(), "propagate": False}
        for name in ("roppyakken", "uvicorn", "uvicorn.error", "uvicorn.access")
    }
    return {
        "version": 1,
        "disable_existing_loggers": False,
        "formatters": {"main": formatter},
        "handlers": {"main": handler},
        "loggers": loggers,
    }


def uvicorn_config(
    app: Starlette, limits: Limits, *, log_level: str = "warning", log_format: str = "text"
) -> uvicorn.Config:
    """uvicorn's configuration for ``app`` under ``limits`` (a bad ``trusted_proxies``: RoppyakkenError)."""
    proxies = proxy_networks(limits.trusted_proxies)
    bounds = {
        "header_timeout": limits.header_timeout,
        "address_limit": limits.connections_per_address,
        "open_by_address": {},
        "trusted": proxies,
    }
    http = type("BoundedHttp", (BoundedHttp,), bounds)
    return uvicorn.Config(
        app,
        http=http,
        ws=FreedWebSocket,
        log_level=log_level,
        log_config=log_config(log_level, log_format),
        access_log=log_level in ("info", "debug"),
        ws_max_size=65_536,
        # a ping every quarter of --send-timeout: a reader that stops reading stops answering, and
        # is dropped within --send-timeout (server/web/backlog.py); uvicorn's own close comes later
        ws_ping_interval=limits.send_timeout * PING_SHARE,
        ws_ping_timeout=limits.send_timeout,
        lifespan="on",
        timeout_graceful_shutdown=5,
        timeout_keep_alive=int(max(1, min(limits.header_timeout, 5))),
        limit_concurrency=limits.max_connections,
        # addresses for the limits are the peers' own, unless a peer is a trusted reverse proxy
        proxy_headers=bool(proxies),
        forwarded_allow_ips=[str(n) for n in proxies] or None,
        backlog=2048,
    )


class Server(uvicorn.Server):
    """uvicorn's server; on stop, players are told the server is restarting before it goes."""

    def __init__(self, config: uvicorn.Config, app: Starlette) -> None:
        super().__init__(config)
        self.app = app

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Stop accepting, say ``restarting`` to every player, then uvicorn's shutdown (writes finish)."""
        for server in self.servers:
            server.close()
        services = getattr(self.app.state, "services", None)
        if services is not None:
            await services.begin_shutdown()
        await super().shutdown(sockets)
