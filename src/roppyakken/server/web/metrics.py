"""Prometheus metrics at ``/metrics`` (prometheus-client), one registry per application.

Rooms in memory, open websockets, moves made and how long each took to store
and send, database work that failed, and requests refused by reason; in a
cluster, the leases held and the websockets relayed each way.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Final

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

CONTENT_TYPE: Final = "text/plain; version=0.0.4; charset=utf-8"

REFUSAL_REASONS: Final = (
    "rate_limited",
    "too_many_connections",
    "origin",
    "too_many_rooms",
    "body_too_large",
    "slow_client",
    "write_failed",
)


class _Live(Collector):
    """Values read when scraped: rooms, connections, failed database work."""

    def __init__(self, rooms: Callable[[], int], connections: Callable[[], int], failed: Callable[[], int]):
        self.rooms, self.connections, self.failed = rooms, connections, failed

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily("roppyakken_rooms", "Rooms held in memory", value=self.rooms())
        yield GaugeMetricFamily(
            "roppyakken_connections", "Open websocket connections", value=self.connections()
        )
        yield CounterMetricFamily(
            "roppyakken_db_writes_failed", "Pieces of database work that failed", value=self.failed()
        )


class _Reads(Collector):
    """The lag-tolerant reads by where they ran (a read replica's share)."""

    def __init__(self, reads: Callable[[], dict[str, int]]) -> None:
        self.reads = reads

    def collect(self) -> Iterator[Metric]:
        family = CounterMetricFamily(
            "roppyakken_db_reads",
            "Lag-tolerant reads, by where they ran (replica, or primary: none, failing or behind)",
            labels=["where"],
        )
        for where, count in sorted(self.reads().items()):
            family.add_metric([where], count)
        yield family


class _Cluster(Collector):
    """A cluster member's values: leases held, clients relayed out and in."""

    def __init__(
        self, leases: Callable[[], int], relayed: Callable[[], int], incoming: Callable[[], int]
    ) -> None:
        self.leases, self.relayed, self.incoming = leases, relayed, incoming

    def collect(self) -> Iterator[Metric]:
        yield GaugeMetricFamily(
            "roppyakken_cluster_leases", "Rooms whose lease this member holds", value=self.leases()
        )
        yield GaugeMetricFamily(
            "roppyakken_cluster_relayed",
            "Websockets here relayed to rooms other members hold",
            value=self.relayed(),
        )
        yield GaugeMetricFamily(
            "roppyakken_cluster_incoming",
            "Websockets on other members seated in rooms this member holds",
            value=self.incoming(),
        )


class Metrics:
    """The server's metrics; :meth:`render` is the ``/metrics`` body."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.moves = Counter("roppyakken_moves", "Moves made (stored and sent)", registry=self.registry)
        self.move_seconds = Histogram(
            "roppyakken_move_seconds",
            "Time from a move's arrival to its result sent (store included)",
            buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0),
            registry=self.registry,
        )
        self.move_stored_seconds = Histogram(
            "roppyakken_move_stored_seconds",
            "Of a move's time, from its write handed to the database's writer to it stored",
            buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0),
            registry=self.registry,
        )
        bot_buckets = (0.01, 0.05, 0.1, 0.2, 0.25, 0.3, 0.5, 0.75, 1.0, 2.0, 5.0, 10.0)
        self.bot_think = Histogram(
            "roppyakken_bot_think_seconds",
            "Seconds a bot spent choosing (its time budget, in its worker), by level",
            ["level"],
            buckets=bot_buckets,
            registry=self.registry,
        )
        self.clock_late = Histogram(
            "roppyakken_clock_late_seconds",
            "How late each clock deadline's timer fired",
            registry=self.registry,
            buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 5.0),
        )
        self.bot_wait = Histogram(
            "roppyakken_bot_wait_seconds",
            "Seconds a bot decision waited for a worker (and travelled to it and back), by level",
            ["level"],
            buckets=bot_buckets,
            registry=self.registry,
        )
        self.tournament_step = Histogram(
            "roppyakken_tournament_step_seconds",
            "A tournament director's step, by part: its transaction (wall), its CPU, the pairing alone",
            ["part"],
            buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0),
            registry=self.registry,
        )
        self.refused = Counter(
            "roppyakken_requests_refused", "Requests refused, by reason", ["reason"], registry=self.registry
        )
        for reason in REFUSAL_REASONS:
            self.refused.labels(reason)

    def watch(
        self, rooms: Callable[[], int], connections: Callable[[], int], failed: Callable[[], int]
    ) -> None:
        """Read these when scraped."""
        self.registry.register(_Live(rooms, connections, failed))

    def watch_reads(self, reads: Callable[[], dict[str, int]]) -> None:
        """The lag-tolerant reads by where they ran, read when scraped (with a read replica)."""
        self.registry.register(_Reads(reads))

    def watch_cluster(
        self, leases: Callable[[], int], relayed: Callable[[], int], incoming: Callable[[], int]
    ) -> None:
        """A cluster member's gauges, read when scraped."""
        self.registry.register(_Cluster(leases, relayed, incoming))

    def refuse(self, reason: str) -> None:
        """Count one refusal."""
        self.refused.labels(reason).inc()

    def move(self, seconds: float, stored: float) -> None:
        """Count one move, its latency and the part of it its write took to be stored."""
        self.moves.inc()
        self.move_seconds.observe(seconds)
        self.move_stored_seconds.observe(stored)

    def bot(self, level: str, thinking: float, waiting: float) -> None:
        """Count one bot decision."""
        self.bot_think.labels(level).observe(thinking)
        self.bot_wait.labels(level).observe(max(0.0, waiting))

    def clock_fired(self, late: float) -> None:
        """Count one clock deadline and how late its timer fired."""
        self.clock_late.observe(max(0.0, late))

    def tournament_stepped(self, part: str, seconds: float) -> None:
        """Count one part of a tournament director's step (server/club/tournaments/director.py)."""
        self.tournament_step.labels(part).observe(seconds)

    def render(self) -> bytes:
        """The text exposition format."""
        return bytes(generate_latest(self.registry))
