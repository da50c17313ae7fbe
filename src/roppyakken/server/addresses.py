"""Who a request comes from: the client's address behind trusted proxies, its rate-limit key, its headers
and its origin."""

from __future__ import annotations

import ipaddress
from collections.abc import MutableMapping
from typing import Any
from urllib.parse import urlsplit

from roppyakken.errors import RoppyakkenError
from roppyakken.server.wire import text

Scope = MutableMapping[str, Any]


Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def proxy_networks(values: tuple[str, ...]) -> tuple[Network, ...]:
    """``--trusted-proxy`` values as networks (an address is a network of one).

    Anything else (``*``, a host name) is refused in one line
    (:class:`~roppyakken.errors.RoppyakkenError`): uvicorn would trust ``*`` from every
    peer, so that any client could choose its address, and a name never matches.
    """

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
