"""The tournament director: starts the tournaments that are due, pairs them by the rules of
``model.py``, makes their rooms and finishes them.

Every member of a cluster runs a director; each tournament has **one** at a time.  A director
takes a tournament's lease in the database (:func:`~.store.take`: ``director_until`` lapsed, the
``director_epoch`` raised by one) and renews it in every transaction it writes, which first checks
that the stored epoch is still its own (:func:`~.store.fence`).  A member that died (or paused past
:data:`LEASE` seconds) is replaced by the next member whose director looks; any write its
director still had under way is refused.  On one process the lease is always this director's.

What makes the pairing exactly-once:

* a step (read the tournament, decide, write its new tables and byes) is one fenced transaction;
* a table's room is inserted in a transaction that also checks the fence and takes the table
  (``room_id`` set only where it was empty: :func:`~.store.link_room`): a room is made for a table
  once, or not at all, and a table whose room was not made is made by the next step;
* a game's result is written by the game's end itself (server/club/game_end.py), in the room's
  fenced transaction: it is stored exactly when the game's end is.

A director is woken when a tournament game ends (:meth:`Director.wake_soon`), and looks every
:data:`TICK` seconds anyway.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import math
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Final

from sqlalchemy import Connection, select

from roppyakken.rules import preset
from roppyakken.server.club.tournaments import model, schedules, store
from roppyakken.server.club.tournaments.store import Entry, TableRow, Tournament
from roppyakken.server.people import blocks
from roppyakken.server.people.players import link_seat
from roppyakken.server.play.seats import WAITING
from roppyakken.server.store.database import StaleRoom, StorageError
from roppyakken.server.store.tables import rooms
from roppyakken.server.wire.bodies import CreateRoom

if TYPE_CHECKING:
    from roppyakken.server.play.registry import Registry

log = logging.getLogger("roppyakken.server")

TICK: Final = 1.0
"""Seconds between two looks of a director at its tournaments (it is also woken by a game's end)."""
LEASE: Final = 5.0
"""Seconds a director's hold on a tournament lasts unrenewed: how soon another member takes over
from one that died."""
SOON: Final = 60.0
"""Seconds before its start from which a tournament is looked after."""
AT_ONCE: Final = 200
"""Tournaments one director looks at in one round (the soonest first)."""
SCHEDULES_EVERY: Final = 30.0
"""Seconds between two looks of a director at the operator's schedules (schedules.py)."""
STUCK_AFTER: Final = 10.0
"""Seconds after which a tournament room still waiting for its players (its director died between
making it and seating them) is seated and started by the director now holding the tournament."""


def standings(
    tournament: Tournament,
    entries: Sequence[Entry],
    tables: Sequence[TableRow],
    byes: Sequence[tuple[int, str]],
) -> list[model.Standing]:
    """The tournament's standings now (model.py's rules over its finished tables, in the order they ended)."""
    entrants = [model.Entrant(e.player_id, e.rating) for e in entries]
    done = sorted((t for t in tables if t.places is not None), key=lambda t: (t.finished_at or 0.0, t.number))
    results = [r for t in done if (r := t.result()) is not None]
    return model.standings(
        tournament.format,
        entrants,
        results,
        byes=[p for _, p in byes],
        withdrawn=[e.player_id for e in entries if e.withdrawn],
    )


@dataclass(frozen=True, slots=True)
class Unmade:
    """A paired table whose room is still to be made."""

    number: int
    players: tuple[str, ...]
    names: tuple[str, ...]
    tokens: tuple[str, ...]
    """Each player's seat-token hash (the token their tournament page holds)."""


@dataclass(slots=True)
class Step:
    """What one step of a tournament left to do outside its transaction."""

    tournament: Tournament | None
    unmade: list[Unmade] = field(default_factory=list)
    stuck: list[tuple[str, tuple[Unmade, ...]]] = field(default_factory=list)
    over: bool = False
    changed: bool = False
    pairing: float | None = None
    """Seconds the rules' pairing call took, when the step paired (model.arena_pairing or swiss_pairing)."""
    seconds: float = 0.0
    """Seconds the step took in its transaction."""
    cpu: float = 0.0
    """CPU seconds the step's thread used in it."""


def _arena_waiting(
    entries: Sequence[Entry], tables: Sequence[TableRow], scores: dict[str, float]
) -> list[model.Waiting]:
    busy = {p for t in tables if t.places is None for p in t.players}
    last: dict[str, frozenset[str]] = {}
    for table in sorted((t for t in tables if t.places is not None), key=lambda t: t.finished_at or 0.0):
        for p in table.players:
            last[p] = frozenset(o for o in table.players if o != p)
    return [
        model.Waiting(
            e.player_id, scores.get(e.player_id, 0.0), e.free_since, last.get(e.player_id, frozenset())
        )
        for e in entries
        if not e.withdrawn and not e.paused and e.player_id not in busy
    ]


def _round_robin(tournament: Tournament, entries: Sequence[Entry]) -> list[model.SwissRound]:
    return model.round_robin_schedule(
        sorted(e.player_id for e in entries), tournament.players, store.seed_of(tournament.id, 0)
    )


def _pair(
    conn: Connection, t: Tournament, entries: list[Entry], tables: list[TableRow], now: float, scale: float
) -> Step:
    """Start, pair or finish ``t`` (running or due) as its format says; the caller fenced the transaction.
    ``scale``: the server's ``--clock-scale``, which scales an arena player's longest wait for
    a table without last opponents (model.ARENA_MAX_WAIT) as it scales the clocks."""
    step = Step(t)
    active = [e for e in entries if not e.withdrawn]
    if t.status == store.SCHEDULED:
        if now < t.starts_at:
            return step
        if len(active) < t.players:
            store.set_status(conn, t.id, status=store.CANCELLED, finished_at=now)
            return Step(replace(t, status=store.CANCELLED), over=True, changed=True)
        rounds = t.rounds
        if t.format == "round_robin":
            try:
                rounds = len(_round_robin(t, active))
            except ValueError as exc:
                log.warning("tournament %s cannot be scheduled (%s): cancelled", t.id, exc)
                store.set_status(conn, t.id, status=store.CANCELLED, finished_at=now)
                return Step(replace(t, status=store.CANCELLED), over=True, changed=True)
            for entry in entries:
                if entry.withdrawn:  # left before the start: not in the schedule
                    store.leave(conn, t.id, entry.player_id)
            entries = active
        for entry in active:
            store.set_entry(conn, t.id, entry.player_id, free_since=now)
        store.set_status(conn, t.id, status=store.RUNNING, rounds=rounds)
        t = replace(t, status=store.RUNNING, rounds=rounds)
        step = Step(t, changed=True)
    open_tables = [x for x in tables if x.places is None]
    byes = store.byes(conn, t.id)
    if t.format == "arena":
        ends_at = t.ends_at or t.starts_at
        if now >= ends_at:
            if not open_tables:
                store.set_status(conn, t.id, status=store.FINISHED, finished_at=now)
                return Step(replace(t, status=store.FINISHED), over=True, changed=True)
            return step
        points = {s.player_id: s.points for s in standings(t, entries, tables, byes)}
        waiting = _arena_waiting(entries, tables, points)
        apart = blocks.pairs_among(conn, [w.player_id for w in waiting])
        began = time.perf_counter()
        paired = model.arena_pairing(
            waiting, t.players, now=now, max_wait=model.ARENA_MAX_WAIT * scale, apart=apart
        )
        step.pairing = time.perf_counter() - began
        if paired:
            store.add_tables(conn, t.id, paired, 0, now)
            step.changed = True
        return step
    if open_tables:
        return step
    rounds = t.rounds or 0
    if t.round >= rounds:
        store.set_status(conn, t.id, status=store.FINISHED, finished_at=now)
        return Step(replace(t, status=store.FINISHED), over=True, changed=True)
    number = t.round + 1
    gone = {e.player_id for e in entries if e.withdrawn}
    if t.format == "round_robin":
        planned = _round_robin(t, entries)[number - 1]
        round_tables = [tb for tb in planned.tables if not gone.intersection(tb)]
        round_byes = [p for p in planned.byes if p not in gone]
    else:
        lines = standings(t, entries, tables, byes)
        scores = {s.player_id: s.points for s in lines if s.player_id not in gone}
        had: dict[str, int] = {}
        for _, p in byes:
            had[p] = had.get(p, 0) + 1
        met = [tb.players for tb in tables]
        blocked = [tuple(pair) for pair in blocks.pairs_among(conn, scores)]
        began = time.perf_counter()
        pairing = model.swiss_pairing(scores, met, had, t.players, store.seed_of(t.id, number), apart=blocked)
        step.pairing = time.perf_counter() - began
        round_tables, round_byes = list(pairing.tables), list(pairing.byes)
    store.add_tables(conn, t.id, round_tables, number, now)
    store.add_byes(conn, t.id, number, round_byes)
    store.set_status(conn, t.id, round=number)
    step.tournament = replace(t, round=number)
    step.changed = True
    return step


def step(
    conn: Connection, tournament_id: str, epoch: int, now: float, lease: float = LEASE, scale: float = 1.0
) -> Step:
    """One fenced step of a tournament this director holds at ``epoch``: start it, pair it, finish it;
    and what is left to do outside the transaction (rooms to make or to start), with what it cost.
    ``scale``: the server's ``--clock-scale``."""
    began, cpu = time.perf_counter(), time.thread_time()
    done = _step(conn, tournament_id, epoch, now, lease, scale)
    done.seconds, done.cpu = time.perf_counter() - began, time.thread_time() - cpu
    return done


def _step(conn: Connection, tournament_id: str, epoch: int, now: float, lease: float, scale: float) -> Step:
    store.fence(conn, tournament_id, epoch, now, lease)
    t = store.get(conn, tournament_id)
    if t is None:
        return Step(None, over=True)
    entries = store.entries(conn, tournament_id)
    tables = store.tables(conn, tournament_id)
    done = _pair(conn, t, entries, tables, now, scale)
    if done.changed:
        tables = store.tables(conn, tournament_id)
    by_id = {e.player_id: e for e in entries}

    def unmade(table: TableRow) -> Unmade:
        people = [by_id[p] for p in table.players]
        return Unmade(
            table.number, table.players, tuple(e.name for e in people), tuple(e.token_hash for e in people)
        )

    done.unmade = [
        unmade(x) for x in tables if x.room_id is None and x.places is None and set(x.players) <= by_id.keys()
    ]
    waiting_rooms = [
        x for x in tables if x.room_id is not None and x.places is None and x.paired_at < now - STUCK_AFTER
    ]
    if waiting_rooms:
        ids = [x.room_id for x in waiting_rooms]
        still = {
            str(r[0])
            for r in conn.execute(select(rooms.c.id).where(rooms.c.id.in_(ids), rooms.c.status == WAITING))
        }
        done.stuck = [(str(x.room_id), (unmade(x),)) for x in waiting_rooms if x.room_id in still]
    return done


Listener = Callable[[str], None]
"""Told the id of a tournament that changed (its page's live updates)."""
Timed = Callable[[str, float], None]
"""Told what a step cost: ``("transaction", seconds)``, ``("cpu", seconds)`` and, when it paired,
``("pairing", seconds)`` (the server's metrics: ``roppyakken_tournament_step_seconds``)."""


class Director:
    """This member's director: the tournaments it holds and their rooms."""

    def __init__(
        self,
        registry: Registry,
        *,
        member: str | None = None,
        tick: float = TICK,
        lease: float = LEASE,
        scheduled: Sequence[schedules.Schedule] = (),
        timed: Timed | None = None,
    ) -> None:
        self.registry = registry
        self.timed = timed
        self.db = registry.db
        self.member = member or "member-" + secrets.token_hex(6)
        self.tick = tick
        self.lease = lease
        self.held: dict[str, int] = {}
        """The tournaments this director holds, with the epoch it took each at."""
        self.scheduled = list(scheduled)
        """The operator's recurring tournaments (``serve --tournaments FILE``)."""
        self._last_schedules = -math.inf
        self.listeners: set[Listener] = set()
        self._task: asyncio.Task[None] | None = None
        self._wake = asyncio.Event()
        self._loop: asyncio.AbstractEventLoop | None = None

    def start(self) -> None:
        """Start the loop."""
        self._loop = asyncio.get_running_loop()
        self._task = asyncio.create_task(self._run(), name="roppyakken-tournaments")

    async def close(self) -> None:
        """Stop the loop and give the leases back (another member takes them at once)."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        for tournament_id, epoch in list(self.held.items()):
            with contextlib.suppress(StorageError):
                await self.db.run(functools.partial(store.release, tournament_id=tournament_id, epoch=epoch))
        self.held.clear()

    def wake_soon(self) -> None:
        """Look at the tournaments now (from any thread: a game's end is stored on the database's)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self._wake.set)

    def changed(self, tournament_id: str) -> None:
        """Tell the listeners that a tournament changed."""
        for listener in list(self.listeners):
            listener(tournament_id)

    async def _run(self) -> None:
        while True:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), self.tick)
            self._wake.clear()
            try:
                await self.round()
            except StorageError as exc:
                log.warning("tournament round failed: %s", exc)
            except Exception:
                log.exception("tournament round failed")

    async def round(self) -> None:
        """Look at every tournament due: take those nobody holds, step those held here."""
        if self.registry.stopping:
            return
        if self.scheduled and time.monotonic() - self._last_schedules >= SCHEDULES_EVERY:
            self._last_schedules = time.monotonic()
            wanted = self.scheduled
            try:  # every member makes them; an id made twice at once fails the second transaction
                await self.db.run(lambda c: schedules.make_due(c, wanted, time.time()))
            except StorageError as exc:
                log.info("scheduled tournaments not made this time: %s", exc)
        now = time.time()
        due: list[str] = await self.db.run(lambda c: store.due(c, now, SOON, AT_ONCE))
        for tournament_id in due:
            await self.direct(tournament_id)

    async def direct(self, tournament_id: str) -> None:
        """One step of one tournament, if this director holds it (or takes it now)."""
        member, lease, scale = self.member, self.lease, self.registry.limits.clock_scale
        epoch = self.held.get(tournament_id)
        if epoch is None:
            taken: int | None = await self.db.run(
                lambda c: store.take(c, tournament_id, member, time.time(), lease)
            )
            if taken is None:
                return
            log.info("tournament %s: directed here (epoch %d)", tournament_id, taken)
            epoch = self.held[tournament_id] = taken
        held = epoch
        try:
            done: Step = await self.db.run(lambda c: step(c, tournament_id, held, time.time(), lease, scale))
        except StaleRoom:
            log.warning("tournament %s: directed by another member now; let go here", tournament_id)
            self.held.pop(tournament_id, None)
            return
        if self.timed is not None:
            self.timed("transaction", done.seconds)
            self.timed("cpu", done.cpu)
            if done.pairing is not None:
                self.timed("pairing", done.pairing)
        if done.over:
            self.held.pop(tournament_id, None)
        if done.tournament is not None:
            for table in done.unmade:
                if not await self._make(done.tournament, table, held):
                    break
            for room_id, (table,) in done.stuck:
                await self._seat(room_id, table)
        if done.changed or done.unmade:
            self.changed(tournament_id)

    async def _make(self, t: Tournament, table: Unmade, epoch: int) -> bool:
        """Make the table's room (seated, started); False if this director no longer holds ``t``."""
        lease = self.lease

        def linked(conn: Connection, room_id: str) -> None:
            store.fence(conn, t.id, epoch, time.time(), lease)
            store.link_room(conn, t.id, table.number, room_id)
            for seat, player_id in enumerate(table.players):
                link_seat(conn, room_id, seat, player_id)

        request = CreateRoom(
            table.names[0],
            t.players,
            preset(t.preset),
            None,
            {},
            False,
            t.clock,
            t.visibility != "private",
            table.tokens[0],
            rated=t.rated,
            linked=linked,
        )
        try:
            room, _ = await self.registry.create(request)
        except StaleRoom:
            self.held.pop(t.id, None)
            return False
        except Exception as exc:
            log.warning(
                "tournament %s: table %d's room could not be made (%s): tried again", t.id, table.number, exc
            )
            return False
        await self._seat(room.id, table)
        return True

    async def _seat(self, room_id: str, table: Unmade) -> None:
        """Seat the table's other players in its room and start it."""
        try:
            room = await self.registry.get(room_id)
            if room is None:
                return
            taken = {s.token_hash for s in room.seats}
            for name, token_hash in zip(table.names[1:], table.tokens[1:], strict=True):
                if token_hash not in taken and await room.join(name, token_hash) is None:
                    raise RuntimeError("a tournament room refused a seat")
            if room.status == WAITING:
                await room.start(None)
        except Exception as exc:
            log.warning("tournament room %s: not started yet (%s): tried again", room_id, exc)
