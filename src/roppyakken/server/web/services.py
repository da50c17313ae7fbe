"""The server's services, built once per application and kept on ``app.state.services``.

Routes and sockets reach what they need here (``request.app.state.services.db``,
``.registry``, ``.pairing``, ``.limits``...) rather than through any one service.
:meth:`Services.start` and :meth:`Services.close` start and stop them in order;
:meth:`Services.begin_shutdown` tells every client the server is going.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from roppyakken.server.club.game_end import ClubRecords
from roppyakken.server.club.pairing import Pairing
from roppyakken.server.club.presence import Presence
from roppyakken.server.club.tournaments.director import Director
from roppyakken.server.club.tournaments.schedules import Schedule
from roppyakken.server.cluster.link import Cluster
from roppyakken.server.cluster.members import Members
from roppyakken.server.cluster.visits import Visits
from roppyakken.server.config import Limits
from roppyakken.server.limits import ConnectionCounter, MemoryConnectionCounter
from roppyakken.server.play.downtime import Recovery
from roppyakken.server.play.registry import Registry
from roppyakken.server.play.sweeper import Sweeper
from roppyakken.server.play.watchdog import SendWatchdog
from roppyakken.server.store.database import Database
from roppyakken.server.web.metrics import Metrics


@dataclass(eq=False)
class Services:
    """Everything the routes and sockets use, over one database."""

    db: Database
    limits: Limits
    metrics: Metrics
    registry: Registry
    """The rooms held here (server/play/registry.py)."""
    visits: Visits
    """Calls about rooms wherever they are held (server/cluster/visits.py)."""
    pairing: Pairing
    connections: ConnectionCounter
    """Open websockets by address (counted in Redis in a cluster)."""
    sweeper: Sweeper
    watchdog: SendWatchdog
    director: Director | None = None
    """This member's tournament director (server/club/tournaments/director.py)."""
    cluster: Cluster | None = None
    """The cluster this server is a member of (None: a single server)."""
    members: Members | None = None
    recovery: Recovery | None = None
    """A single server's clock recovery across its stops (None in a cluster)."""
    presence: Presence | None = None
    """Friends: presence, challenges and followed players online for this member's sockets."""

    @classmethod
    def build(
        cls,
        db: Database,
        limits: Limits,
        metrics: Metrics,
        *,
        cluster: Cluster | None = None,
        bot_delay: float = 0.6,
        bot_threads: int = 4,
        draw_seed: Callable[[], int] | None = None,
        tournaments: Sequence[Schedule] = (),
    ) -> Services:
        """The services over ``db`` (started by :meth:`start`)."""
        records = ClubRecords()
        registry = Registry(
            db,
            bot_delay=bot_delay,
            bot_threads=bot_threads,
            draw_seed=draw_seed,
            limits=limits,
            metrics=metrics,
            claims=cluster,
            records=records,
        )
        member = None if cluster is None else cluster.member
        director = Director(registry, member=member, scheduled=tournaments, timed=metrics.tournament_stepped)
        records.tournament_ended = director.wake_soon
        if cluster is not None:
            _tournaments_told(records, director, cluster)
        recovery = None if cluster is not None else Recovery(db)
        if recovery is not None:
            registry.ready = recovery.ready
        visits = Visits(registry, cluster)
        return cls(
            db=db,
            limits=limits,
            metrics=metrics,
            registry=registry,
            visits=visits,
            pairing=Pairing(registry),
            director=director,
            connections=MemoryConnectionCounter() if cluster is None else cluster.connections,
            sweeper=Sweeper(registry, None if recovery is None else recovery.ready),
            watchdog=SendWatchdog(registry),
            cluster=cluster,
            members=None if cluster is None else Members(registry, cluster, visits),
            recovery=recovery,
            presence=Presence(registry),
        )

    async def start(self) -> None:
        """Join the cluster (if any), make a single server's clocks good, start every timer."""
        registry, metrics = self.registry, self.metrics
        if self.cluster is not None and self.members is not None:
            await self.cluster.start(self.members.handlers())
            self.members.start()
            held, incoming = self.cluster.leases.held, self.cluster.bus.incoming
            metrics.watch_cluster(lambda: len(held), lambda: len(registry.relayed), lambda: len(incoming))
        db = self.db
        metrics.watch(lambda: len(registry.rooms), registry.connected, lambda: db.failed)
        if db.replica is not None:
            metrics.watch_reads(lambda: dict(db.reads))
        if self.recovery is not None:
            self.recovery.start()
        self.sweeper.start()
        self.watchdog.start()
        self.pairing.start()
        if self.director is not None:
            self.director.start()
        if self.presence is not None:
            self.presence.start()

    async def begin_shutdown(self) -> None:
        """Stop taking rooms and tell every client the server is restarting (server/web/serving.py)."""
        await self.registry.begin_shutdown()

    async def close(self) -> None:
        """Stop everything (the rooms are all stored); the database is the caller's to close."""
        await self.pairing.close()
        if self.director is not None:
            await self.director.close()
        if self.presence is not None:
            await self.presence.close()
        self.registry.stopping = True
        await self.sweeper.stop()
        await self.watchdog.stop()
        await self.registry.close()
        if self.recovery is not None:
            await self.recovery.stop()
        if self.members is not None and self.cluster is not None:
            await self.members.close()
            await self.cluster.close()


def _tournaments_told(records: ClubRecords, director: Director, cluster: Cluster) -> None:
    """In a cluster a tournament's game may end on one member, its director run on another and its
    watchers be on any: a game's end here and a change by this member's director are told to the
    other members (server/cluster/bus.py), whose director pairs at once if it directs tournaments,
    and whose watchers read at once."""
    bus = cluster.bus

    def ended() -> None:
        director.wake_soon()
        bus.tournament_changed(None)

    def heard(tournament_id: str | None) -> None:
        if tournament_id is None:
            if director.held:
                director.wake_soon()
            return
        for listener in list(director.listeners):
            if listener != bus.tournament_changed:  # (what others said is not said again)
                listener(tournament_id)

    records.tournament_ended = ended
    director.listeners.add(bus.tournament_changed)
    bus.tournaments = heard
