"""What PgBouncer in transaction mode costs a member: the same games on PostgreSQL directly and through it.

Run by hand (not a test; the machine is shared and noisy)::

    nice -n 10 .venv/bin/python bench/bench_pooler.py [--games 20] [--seconds 15] [--think 0.05]

It starts a throwaway PostgreSQL and Debian's pgbouncer running docs/deploy/pgbouncer.ini
(tests/harness/replica.py), then one ``roppyakken serve`` member at a time, on the database
directly and through the pooler (``?pooler=transaction``), alternating (``--rounds``), and
runs bench/bench_cluster.py's load on it for ``--seconds``: ``--games`` 2-player games at once,
each seat a random player acting ``--think`` seconds after its state offers it a decision.  A
move's latency is from sending ``act`` to receiving the ``state`` that results (its write
committed in between).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench_cluster import _fixed, _load, _new_game, _start_all, _summary
from tests.harness import services
from tests.harness.replica import pgbouncer


def main() -> int:
    """Run the benchmark and print a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=15.0)
    parser.add_argument("--think", type=float, default=0.05)
    parser.add_argument("--rounds", type=int, default=2, help="runs of each way, in the order A B B A …")
    args = parser.parse_args()
    rows = []
    with services.postgres() as pg, pgbouncer(pg, pool_size=4) as pooler:
        ways = [("direct", pg), ("PgBouncer, transaction mode", pooler)]
        # A, B, B, A, …: a machine getting busier or quieter during the run weighs on both ways alike
        order = [way for n in range(args.rounds) for way in (ways if n % 2 == 0 else ways[::-1])]
        for name, base in order:
            database = services.fresh_database(pg, "bench").rsplit("/", 1)[1]
            url = f"{base}/{database}" + ("?pooler=transaction" if base == pooler else "")
            member = services.Member(url, None).start()
            try:
                games = [_new_game(member.url) for _ in range(args.games)]
                _start_all(games, member.url)
                pids = [member.proc.pid] if member.proc is not None else []
                cpu_before = services.cpu_seconds(pids)
                tally = asyncio.run(_load(games, _fixed(member.url), args.think, args.seconds))
                rows.append(_summary(name, tally, args.seconds, services.cpu_seconds(pids) - cpu_before))
                print(rows[-1], flush=True)
            finally:
                member.stop()
                member.log.unlink(missing_ok=True)
    print()
    print(
        f"{args.games} games of 2 at once on one member, think {args.think} s, {args.seconds:.0f} s each way"
    )
    print("| way | moves/s | p50 | p99 | member's CPU per move | errors |")
    print("| --- | ---: | ---: | ---: | ---: | ---: |")
    for row in rows:
        print(row)
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
