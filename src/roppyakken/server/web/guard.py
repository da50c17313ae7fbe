"""Bounds on what one client may take: rate limits, connections per address, and the HTTP hardening.

The limits sit behind two small interfaces, :class:`RateLimiter` and
:class:`ConnectionCounter`, with in-memory implementations; a cluster of servers
can slot in shared ones (e.g. Redis) without touching the rest.
:class:`Guard` is the ASGI middleware that applies them to every request and
adds the security headers.
"""

from __future__ import annotations

import inspect
import json
import math
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any, Final

from roppyakken.server.addresses import Scope, client_address, header
from roppyakken.server.config import Limits
from roppyakken.server.limits import MemoryRateLimiter, RateLimiter
from roppyakken.server.web.backlog import CONNECTION_KEY
from roppyakken.server.wire import text, wording

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


def app_limiter(app: Any, name: str) -> RateLimiter:
    """The buckets a limit of ``app`` counts in: the cluster's shared ones (Redis) when the server
    is a cluster member, else this process's own, kept on ``app.state`` as ``name`` (one per limit)."""
    cluster = getattr(app.state.services, "cluster", None)
    if cluster is not None:
        shared: RateLimiter = cluster
        return shared
    found: RateLimiter | None = getattr(app.state, name, None)
    if found is None:
        found = MemoryRateLimiter()
        setattr(app.state, name, found)
    return found


CSP: Final = (
    "default-src 'self'; script-src 'self'{wasm}; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' {ws}; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)


WASM_SCRIPTS: Final = "/static/js/offline/"
"""Where the offline worker's scripts are: it runs Pyodide, so its policy (a worker's is its
script's) lets it compile WebAssembly; no page's does."""


def security_headers(scope: Scope) -> list[tuple[bytes, bytes]]:
    """The headers every HTTP answer carries."""
    host = header(scope, b"host") or ""
    ws = f"ws://{host} wss://{host}" if host and all(c not in host for c in " ;,'\"") else ""
    wasm = " 'wasm-unsafe-eval'" if str(scope.get("path", "")).startswith(WASM_SCRIPTS) else ""
    return [
        (b"content-security-policy", CSP.format(ws=ws, wasm=wasm).encode("latin-1")),
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
