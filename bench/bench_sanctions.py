"""What the moderation checks cost each request: the address check every HTTP request and websocket
passes (server/people/enforcement.py ``AddressBans``), against the sanctions' cache
(server/people/moderation.py),
with 0, 10, 100 and 1,000 sanctions in effect.

    .venv/bin/python bench/bench_sanctions.py [--calls 20000]

Prints microseconds per check, for one address asked again and again and for a new address each
time, and the ratio of the latter to an empty cache. The cache is warm (read from the
database at most every ``REFRESH`` seconds, a cost that does not grow with the traffic).
"""

from __future__ import annotations

import argparse
import asyncio
import time
from typing import Any

from roppyakken.server.people import moderation
from roppyakken.server.people.moderation import Sanction, SanctionCache


class _Unused:
    async def run(self, op: Any) -> Any:
        raise AssertionError("a warm cache does not read the database")


def _cache(count: int, addresses: bool) -> SanctionCache:
    cache = SanctionCache(_Unused(), refresh=1e9)  # type: ignore[arg-type]
    cache.loaded = time.monotonic()
    made = []
    for i in range(count):
        if addresses:
            made.append(
                Sanction(
                    i, moderation.SUSPEND, None, None, f"10.{i // 256}.{i % 256}.0/24", None, 0.0, "b", None
                )
            )
        else:
            made.append(Sanction(i, moderation.MUTE, f"p{i}", None, None, None, 0.0, "b", None))
    cache.use(made)
    return cache


async def _measure(cache: SanctionCache, calls: int, distinct: bool) -> float:
    """Microseconds a check: one address again and again (remembered), or a new one each time."""
    addresses = (
        [f"192.{i // 65536 % 256}.{i // 256 % 256}.{i % 256}" for i in range(calls)] if distinct else []
    )
    started = time.perf_counter()
    for i in range(calls):
        await cache.find(moderation.SUSPEND, address=addresses[i] if distinct else "192.0.2.7")
    return (time.perf_counter() - started) / calls * 1e6


def main() -> None:
    """Print the cost of one address check for each size of the sanctions in effect."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--calls", type=int, default=20_000)
    args = parser.parse_args()
    base = asyncio.run(_measure(_cache(0, True), args.calls, False))
    print(f"{'sanctions in effect':>24} {'same address µs':>16} {'new addresses µs':>17} {'ratio (new)':>12}")
    print(f"{'none':>24} {base:>16.2f} {'':>17} {'1.00':>12}")
    for count in (10, 100, 1000):
        for addresses in (False, True):
            label = f"{count} {'addresses' if addresses else 'player mutes'}"
            same = asyncio.run(_measure(_cache(count, addresses), args.calls, False))
            new = asyncio.run(_measure(_cache(count, addresses), args.calls, True))
            print(f"{label:>24} {same:>16.2f} {new:>17.2f} {new / base:>12.2f}")


if __name__ == "__main__":
    main()
