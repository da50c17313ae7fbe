"""Bounds on what one client may take: rate limits, connections per address, and the HTTP hardening.

The limits sit behind two small interfaces, :class:`RateLimiter` and
:class:`ConnectionCounter`, with in-memory implementations; a cluster of servers
can slot in shared ones (e.g. Redis) without touching the rest.
:class:`Guard` is the ASGI middleware that applies them to every request and
adds the security headers.
"""

from __future__ import annotations

import inspect
import ipaddress
import json
import math
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final, Protocol
from urllib.parse import urlsplit

from roppyakken.server import text, wording
from roppyakken.server.backlog import CONNECTION_KEY
from roppyakken.server.config import Limits

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class RateLimiter(Protocol):
    """Token buckets by key: ``take`` answers 0 (allowed) or the seconds to wait before trying again."""

    def take(self, key: str, per_minute: float, burst: float) -> float | Awaitable[float]:
        """Take one token from ``key``'s bucket (refilled at ``per_minute``, holding at most ``burst``).

        A shared limiter (Redis, for a cluster) answers with an awaitable.
        """
        ...


def app_limiter(app: Any, name: str) -> RateLimiter:
    """The buckets a limit of ``app`` counts in: the cluster's shared ones (Redis) when the server
    is a cluster member, else this process's own, kept on ``app.state`` as ``name`` (one per limit)."""
    cluster = getattr(app.state.hub, "cluster", None)
    if cluster is not None:
        shared: RateLimiter = cluster
        return shared
    found: RateLimiter | None = getattr(app.state, name, None)
    if found is None:
        found = MemoryRateLimiter()
        setattr(app.state, name, found)
    return found


async def take_token(limiter: RateLimiter, key: str, per_minute: float, burst: float) -> float:
    """:meth:`RateLimiter.take`, awaited when the limiter is shared: 0, or the seconds to wait."""
    wait = limiter.take(key, per_minute, burst)
    return float(await wait) if inspect.isawaitable(wait) else float(wait)


class MemoryRateLimiter:
    """:class:`RateLimiter` in this process's memory (the least recently used keys past ``max_keys`` go)."""

    def __init__(self, max_keys: int = 100_000, clock: Callable[[], float] = time.monotonic) -> None:
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()
        self._max_keys = max_keys
        self._clock = clock

    def take(self, key: str, per_minute: float, burst: float) -> float:
        """See :meth:`RateLimiter.take`."""
        now = self._clock()
        rate = per_minute / 60.0
        tokens, last = self._buckets.pop(key, (burst, now))
        tokens = min(burst, tokens + (now - last) * rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            wait = 0.0
        else:
            self._buckets[key] = (tokens, now)
            wait = (1.0 - tokens) / rate if rate > 0 else math.inf
        while len(self._buckets) > self._max_keys:
            self._buckets.popitem(last=False)
        return wait


class ConnectionCounter(Protocol):
    """Open connections by address."""

    def acquire(self, address: str, most: int) -> bool | Awaitable[bool]:
        """Count one more connection from ``address`` unless it already has ``most`` (may be awaitable)."""
        ...

    def release(self, address: str) -> Awaitable[None] | None:
        """One connection from ``address`` ended (may be awaitable)."""
        ...

    def total(self) -> int:
        """Open connections counted, all addresses."""
        ...


class MemoryConnectionCounter:
    """:class:`ConnectionCounter` in this process's memory."""

    def __init__(self) -> None:
        self._open: dict[str, int] = {}

    def acquire(self, address: str, most: int) -> bool:
        """See :meth:`ConnectionCounter.acquire`."""
        count = self._open.get(address, 0)
        if count >= most:
            return False
        self._open[address] = count + 1
        return True

    def release(self, address: str) -> None:
        """See :meth:`ConnectionCounter.release`."""
        count = self._open.get(address, 0) - 1
        if count > 0:
            self._open[address] = count
        else:
            self._open.pop(address, None)

    def total(self) -> int:
        """See :meth:`ConnectionCounter.total`."""
        return sum(self._open.values())


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def proxy_networks(values: tuple[str, ...]) -> tuple[Network, ...]:
    """``--trusted-proxy`` values as networks (an address is a network of one).

    Anything else (``*``, a host name) is refused in one line
    (:class:`~roppyakken.errors.RoppyakkenError`): uvicorn would trust ``*`` from every
    peer, so that any client could choose its address, and a name never matches.
    """
    from roppyakken.errors import RoppyakkenError

    out = []
    for value in values:
        try:
            out.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise RoppyakkenError(text.BAD_TRUSTED_PROXY, value=value) from None
    return tuple(out)


def is_proxy(address: str, networks: tuple[Network, ...]) -> bool:
    """Whether a peer's ``address`` is in one of the trusted proxies' ``networks``."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    return any(ip in network for network in networks)


def address_key(host: str) -> str:
    """What the per-address bounds count ``host`` as: an IPv4 address, or an IPv6 address's /64.

    One subscriber usually gets a whole /64 of IPv6 addresses: counted one by one, a single
    client could take a fresh address for each request and never meet a bound.
    """
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


def client_address(scope: Scope) -> str:
    """The client's address as the bounds count it (see :func:`address_key`; proxy headers are
    taken, by uvicorn, only from ``--trusted-proxy`` peers)."""
    client = scope.get("client")
    return address_key(str(client[0])) if client else "unknown"


def header(scope: Scope, name: bytes) -> str | None:
    """A request header's value (latin-1), or None."""
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def origin_allowed(scope: Scope, allowed: tuple[str, ...]) -> bool:
    """A websocket's ``Origin``: absent (not a browser), the server's own address, or one allowed."""
    origin = header(scope, b"origin")
    if origin is None:
        return True
    if origin in allowed or "*" in allowed:
        return True
    host = header(scope, b"host")
    parts = urlsplit(origin)
    return host is not None and parts.scheme in ("http", "https") and parts.netloc == host


CSP: Final = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' {ws}; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)


def security_headers(scope: Scope) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP answer carries."""
    host = header(scope, b"host") or ""
    ws = f"ws://{host} wss://{host}" if host and all(c not in host for c in " ;,'\"") else ""
    return [
        (b"content-security-policy", CSP.format(ws=ws).encode("latin-1")),
        (b"x-content-type-options", b"nosniff"),
        (b"x-frame-options", b"DENY"),
        (b"referrer-policy", b"no-referrer"),
        (b"cross-origin-opener-policy", b"same-origin"),
    ]


RefusalHook = Callable[[str], None]


async def _taken(wait: float | Awaitable[float]) -> float:
    return await wait if inspect.isawaitable(wait) else wait


class Guard:
    """ASGI middleware: per-address rate limits (429 with ``Retry-After``) and security headers."""

    def __init__(
        self,
        app: ASGIApp,
        limits: Limits,
        limiter: RateLimiter | None = None,
        on_refusal: RefusalHook | None = None,
    ) -> None:
        self.app = app
        self.limits = limits
        self.limiter = limiter or MemoryRateLimiter()
        self.on_refusal = on_refusal

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Apply the bounds, then the application."""
        address = client_address(scope)
        path = str(scope.get("path", ""))
        limits = self.limits
        if scope["type"] == "websocket" and path.startswith("/ws/"):
            # opening a websocket counts as an API request: each one may load a room (and, in a
            # cluster, take its lease), so one address must not open them as fast as it can
            per_minute = limits.requests_per_minute
            wait = await _taken(self.limiter.take(f"req:{address}", per_minute, max(10.0, per_minute / 6)))
            if wait:
                if self.on_refusal is not None:
                    self.on_refusal("rate_limited")
                await send({"type": "websocket.close", "code": 1008, "reason": text.RATE_LIMITED})
                return
        if scope["type"] != "http":
            if scope["type"] == "websocket":
                # the server's own connection object (uvicorn's protocol, whose ``send`` this is),
                # before anything wraps ``send``: the endpoint measures what its reader has taken
                scope[CONNECTION_KEY] = getattr(send, "__self__", None)
                try:
                    await self.app(scope, receive, send)
                finally:
                    # the connection object holds this scope: left here, the two would keep each
                    # other (and the connection's buffers) until a full garbage collection
                    scope.pop(CONNECTION_KEY, None)
                return
            await self.app(scope, receive, send)
            return
        wait = 0.0
        if path.startswith("/api/"):
            per_minute = limits.requests_per_minute
            wait = await _taken(self.limiter.take(f"req:{address}", per_minute, max(10.0, per_minute / 6)))
            if not wait and scope.get("method") == "POST" and path == "/api/rooms":
                per_minute = limits.rooms_per_minute
                wait = await _taken(
                    self.limiter.take(f"room:{address}", per_minute, max(3.0, per_minute / 3))
                )
        extra = security_headers(scope)
        if wait:
            if self.on_refusal is not None:
                self.on_refusal("rate_limited")
            body = json.dumps(wording.answer(text.RATE_LIMITED)).encode()
            headers = [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"retry-after", str(max(1, math.ceil(wait))).encode()),
                *extra,
            ]
            await send({"type": "http.response.start", "status": 429, "headers": headers})
            await send({"type": "http.response.body", "body": body})
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        await self.app(scope, receive, send_with_headers)
