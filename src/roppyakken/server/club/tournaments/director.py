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
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Final, TypeVar

from sqlalchemy import Connection, select

from roppyakken.rules import preset
from roppyakken.server.club.ticking import Ticker
from roppyakken.server.club.tournaments import model, schedules, store
from roppyakken.server.club.tournaments.known import Known, refresh
from roppyakken.server.club.tournaments.store import Entry, TableRow, Tournament
from roppyakken.server.club.tournaments.tally import Tally
from roppyakken.server.people import blocks
from roppyakken.server.people.players import link_seat
from roppyakken.server.play.seats import WAITING
from roppyakken.server.store.database import StaleRoom, StorageError
from roppyakken.server.store.tables import rooms
from roppyakken.server.wire.bodies import CreateRoom

if TYPE_CHECKING:
    from roppyakken.server.play.registry import Registry

log = logging.getLogger("roppyakken.server")
T = TypeVar("T")

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
GAP: Final = 0.25
"""Seconds at least between two rounds of a director (it is woken by every game's end)."""
MAKING: Final = 8
"""Rooms a director makes at once (a wave's rooms are made together, a few at a time, so that the
moves' messages are read between them)."""
STUCK_AFTER: Final = 10.0
"""Seconds after which a tournament room still waiting for its players (its director died between
making it and seating them) is seated and started by the director now holding the tournament."""


def standings(
    tournament: Tournament,
    entries: Sequence[Entry],
    tables: Sequence[TableRow],
    byes: Sequence[tuple[int, str]],
    tally: Tally | None = None,
) -> list[model.Standing]:
    """The tournament's standings now (model.py's rules over its finished tables, in the order they
    ended; ``tally``: those tables' standings kept game by game, known.py's, then not counted again)."""
    entrants = [model.Entrant(e.player_id, e.rating) for e in entries]
    withdrawn = [e.player_id for e in entries if e.withdrawn]
    if tally is not None:
        return tally.standings(entrants, withdrawn)
    done = sorted((t for t in tables if t.places is not None), key=lambda t: (t.finished_at or 0.0, t.number))
    results = [r for t in done if (r := t.result()) is not None]
    byes_had = [p for _, p in byes]
    return model.standings(tournament.format, entrants, results, byes=byes_had, withdrawn=withdrawn)


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
    stuck: list[tuple[str, Unmade]] = field(default_factory=list)
    over: bool = False
    changed: bool = False
    again: bool = False
    """A player withdrew or paused between the step's read and its write: nothing written, step again."""
    pairing: float | None = None
    """Seconds the rules' pairing call took, when the step paired (model.arena_pairing or swiss_pairing)."""
    seconds: float = 0.0
    """Seconds the step took in its transaction (the director's: the fenced write only)."""
    cpu: float = 0.0
    """CPU seconds the step used (its read and decision, and its transaction)."""
    read: float | None = None
    """Seconds the director's read and decision took beside the database's writer."""


def _round_robin(tournament: Tournament, entries: Sequence[Entry]) -> list[model.SwissRound]:
    return model.round_robin_schedule(
        sorted(e.player_id for e in entries), tournament.players, store.seed_of(tournament.id, 0)
    )


@dataclass(slots=True)
class Plan:
    """What a step decided from what it read: the writes of its fenced transaction (:func:`apply`)."""

    status: str | None = None
    """The tournament's new status, if it changes."""
    rounds: int | None = None
    """Its number of rounds, set at its start."""
    started: tuple[str, ...] = ()
    """At the start: the players who become free to be paired now."""
    leave: tuple[str, ...] = ()
    """At a round robin's start: the players who withdrew before it (they leave)."""
    tables: list[tuple[str, ...]] = field(default_factory=list)
    """New tables, of round :attr:`round` (0 in an arena)."""
    round: int = 0
    byes: list[str] = field(default_factory=list)
    """Byes of round :attr:`round` (Swiss and round robins)."""
    pairing: float | None = None
    """Seconds the rules' pairing call took, when it paired."""

    @property
    def writes(self) -> bool:
        """Whether there is anything to write."""
        return bool(self.status or self.tables or self.byes or self.round)


@dataclass(slots=True)
class Held:
    """A tournament this director holds: the epoch it took it at and what it knows of it."""

    epoch: int
    known: Known | None = None


def _start(t: Tournament, entries: list[Entry], now: float) -> Plan | None:
    """The plan of a tournament due to start (None: not yet)."""
    if now < t.starts_at:
        return None
    active = [e for e in entries if not e.withdrawn]
    if len(active) < t.players:
        return Plan(status=store.CANCELLED)
    rounds = t.rounds
    leave: tuple[str, ...] = ()
    if t.format == "round_robin":
        try:
            rounds = len(_round_robin(t, active))
        except ValueError as exc:
            log.warning("tournament %s cannot be scheduled (%s): cancelled", t.id, exc)
            return Plan(status=store.CANCELLED)
        leave = tuple(e.player_id for e in entries if e.withdrawn)  # not in the schedule
    return Plan(status=store.RUNNING, rounds=rounds, started=tuple(e.player_id for e in active), leave=leave)


def plan(conn: Connection, held: Held, tournament_id: str, now: float, scale: float) -> Plan | None:
    """Read what changed of the tournament into ``held`` and decide its next writes (a read only:
    the director runs it beside the database's writer).  None: there is no such tournament.
    ``scale``: the server's ``--clock-scale``, which scales an arena player's longest wait for a
    table without last opponents (model.ARENA_MAX_WAIT) as it scales the clocks."""
    known, _ = refresh(conn, tournament_id, held.known)
    held.known = known
    if known is None:
        return None
    t, entries = known.tournament, known.entries
    decided = Plan()
    if t.status == store.SCHEDULED:
        started = _start(t, entries, now)
        if started is None or started.status == store.CANCELLED:
            return started or decided
        decided = started
        t = replace(t, status=store.RUNNING, rounds=started.rounds)
        entries = [e for e in entries if e.player_id not in started.leave]
    open_tables = known.open_tables()
    if t.format == "arena":
        ends_at = t.ends_at or t.starts_at
        if now >= ends_at:
            if not open_tables:
                decided.status = store.FINISHED
            return decided
        busy = {p for x in open_tables for p in x.players}
        free_since = dict.fromkeys(decided.started, now)
        waiting = [
            model.Waiting(
                e.player_id,
                known.tally.points(e.player_id),
                free_since.get(e.player_id, e.free_since),
                known.tally.last.get(e.player_id, frozenset()),
            )
            for e in entries
            if not e.withdrawn and not e.paused and e.player_id not in busy
        ]
        apart = blocks.pairs_among(conn, [w.player_id for w in waiting])
        began = time.perf_counter()
        decided.tables = model.arena_pairing(
            waiting, t.players, now=now, max_wait=model.ARENA_MAX_WAIT * scale, apart=apart
        )
        decided.pairing = time.perf_counter() - began
        return decided
    if open_tables:
        return decided
    if t.round >= (t.rounds or 0):
        decided.status = store.FINISHED
        return decided
    number = t.round + 1
    gone = {e.player_id for e in entries if e.withdrawn}
    if t.format == "round_robin":
        planned = _round_robin(t, entries)[number - 1]
        decided.tables = [tb for tb in planned.tables if not gone.intersection(tb)]
        decided.byes = [p for p in planned.byes if p not in gone]
    else:
        scores = {e.player_id: known.tally.points(e.player_id) for e in entries if e.player_id not in gone}
        had: dict[str, int] = {}
        for _, p in known.byes:
            had[p] = had.get(p, 0) + 1
        met = [tb.players for tb in known.tables.values()]
        blocked = [tuple(pair) for pair in blocks.pairs_among(conn, scores)]
        began = time.perf_counter()
        pairing = model.swiss_pairing(scores, met, had, t.players, store.seed_of(t.id, number), apart=blocked)
        decided.pairing = time.perf_counter() - began
        decided.tables, decided.byes = list(pairing.tables), list(pairing.byes)
    decided.round = number
    return decided


@dataclass(frozen=True, slots=True)
class Applied:
    """What :func:`apply` wrote."""

    tables: list[tuple[int, tuple[str, ...]]]
    """The new tables: (number, players)."""
    again: bool = False
    """A player of the plan withdrew or paused since it was read: plan again (an arena's other
    tables were written; any other plan was not written at all)."""
    written: bool = True


def apply(
    conn: Connection, tournament_id: str, epoch: int, decided: Plan, now: float, lease: float
) -> Applied:
    """Write a plan in the director's fenced transaction (:class:`store.Fenced` if it no longer holds
    the tournament).  Only the director writes tables, rounds and statuses, so what it read of them
    is still so; of what players change, a player who withdrew or paused since the read is not
    paired: an arena's tables without them are still made, any other plan is made again."""
    store.fence(conn, tournament_id, epoch, now, lease)
    paired = decided.tables
    gone = store.not_pairable(conn, tournament_id, [p for x in paired for p in x])
    if gone:
        if decided.round:
            return Applied([], again=True, written=False)
        paired = [x for x in paired if not gone.intersection(x)]
    for player_id in decided.leave:
        store.leave(conn, tournament_id, player_id)
    for player_id in decided.started:
        store.set_entry(conn, tournament_id, player_id, free_since=now)
    values: dict[str, object] = {}
    if decided.status is not None:
        values["status"] = decided.status
        if decided.status in (store.FINISHED, store.CANCELLED):
            values["finished_at"] = now
    if decided.rounds is not None:
        values["rounds"] = decided.rounds
    if decided.round:
        values["round"] = decided.round
    if values:
        store.set_status(conn, tournament_id, **values)
    numbers = store.add_tables(conn, tournament_id, paired, decided.round, now) if paired else []
    if decided.round:
        store.add_byes(conn, tournament_id, decided.round, decided.byes)
    return Applied(list(zip(numbers, paired, strict=True)), again=bool(gone))


People = Mapping[str, tuple[str, str]]
"""Players' names and seat-token hashes, by player id."""


def _people(known: Known) -> dict[str, tuple[str, str]]:
    """The entrants' names and seat-token hashes."""
    return {e.player_id: (e.name, e.token_hash) for e in known.entries}


def _described(people: People, tables: Sequence[tuple[int, tuple[str, ...]]]) -> list[Unmade]:
    """The tables (number, players) with their players' names and seat tokens (a table with a
    player not among ``people`` left out)."""
    described = []
    for number, players in tables:
        if set(players) <= people.keys():
            names, tokens = tuple(people[p][0] for p in players), tuple(people[p][1] for p in players)
            described.append(Unmade(number, players, names, tokens))
    return described


def _unmade(seen: Looked, new: list[tuple[int, tuple[str, ...]]]) -> list[Unmade]:
    """The tables whose room is still to be made: any whose making failed and the new ones."""
    return [*seen.earlier, *_described(seen.people, new)]


def stuck(conn: Connection, known: Known, now: float) -> list[tuple[str, Unmade]]:
    """The rooms still waiting for their players :data:`STUCK_AFTER` seconds after their table was
    paired (its director died between making the room and seating them), with their table."""
    late = [x for x in known.open_tables() if x.room_id is not None and x.paired_at < now - STUCK_AFTER]
    if not late:
        return []
    ids = [x.room_id for x in late]
    query = select(rooms.c.id).where(rooms.c.id.in_(ids), rooms.c.status == WAITING)
    still = {str(r[0]) for r in conn.execute(query)}
    return [
        (str(x.room_id), table)
        for x in late
        if x.room_id in still
        for table in _described(_people(known), [(x.number, x.players)])
    ]


def look(
    conn: Connection, held: Held, tournament_id: str, now: float, scale: float
) -> tuple[Plan | None, list[tuple[str, Unmade]]]:
    """:func:`plan`, and the rooms :func:`stuck` (a read only)."""
    decided = plan(conn, held, tournament_id, now, scale)
    return decided, [] if held.known is None else stuck(conn, held.known, now)


@dataclass(frozen=True, slots=True)
class Looked:
    """What a director's read found and decided: everything its fenced write and the rooms'
    making need (it crosses from the reading process: store/reading.py)."""

    decided: Plan | None
    """None: there is no such tournament."""
    tournament: Tournament | None
    earlier: list[Unmade]
    """The tables paired before whose room is still to be made."""
    people: dict[str, tuple[str, str]]
    """The name and seat-token hash of each player of the plan's new tables."""
    stuck: list[tuple[str, Unmade]]
    """:func:`stuck`."""
    seconds: float = 0.0
    """Seconds the read and decision took."""
    cpu: float = 0.0
    """CPU seconds they used."""


def looked(held: Held, decided: Plan | None, late: list[tuple[str, Unmade]]) -> Looked:
    """What :func:`look` read into ``held`` and decided, as its write needs it."""
    known = held.known
    if known is None:
        return Looked(decided, None, [], {}, late)
    everyone = _people(known)
    earlier = _described(everyone, [(x.number, x.players) for x in known.open_tables() if x.room_id is None])
    wanted = {p for table in (decided.tables if decided else ()) for p in table}
    people = {p: everyone[p] for p in wanted if p in everyone}
    return Looked(decided, known.tournament, earlier, people, late)


KEPT_MOST: Final = 64
"""Tournaments whose :class:`Held` the reading process keeps between a director's reads (the least
recently read forgotten first: a forgotten one is read whole again)."""
_kept: dict[str, Held] = {}


def look_kept(conn: Connection, key: str, tournament_id: str, epoch: int, now: float, scale: float) -> Looked:
    """:func:`look` with what was read of the tournament kept in this module between calls, under
    ``key`` and ``epoch`` (the reading process runs it: :meth:`Database.look_apart
    <roppyakken.server.store.database.Database.look_apart>`)."""
    held = _kept.pop(key, None)
    if held is None or held.epoch != epoch:
        held = Held(epoch)
    (decided, late), seconds, cpu = _costed(lambda: look(conn, held, tournament_id, now, scale))
    if decided is not None and decided.status not in (store.FINISHED, store.CANCELLED):
        _kept[key] = held
        while len(_kept) > KEPT_MOST:
            del _kept[next(iter(_kept))]
    return replace(looked(held, decided, late), seconds=seconds, cpu=cpu)


def _costed(op: Callable[[], T]) -> tuple[T, float, float]:
    """``op()``, the seconds it took and the CPU seconds its thread used."""
    began, cpu = time.perf_counter(), time.thread_time()
    value = op()
    return value, time.perf_counter() - began, time.thread_time() - cpu


def step(
    conn: Connection,
    tournament_id: str,
    epoch: int,
    now: float,
    lease: float = LEASE,
    scale: float = 1.0,
    held: Held | None = None,
) -> Step:
    """One step of a tournament this director holds at ``epoch`` in one transaction: read (into
    ``held``), decide, write fenced; and what is left to do outside the transaction (rooms to make or
    to start), with what it cost.  ``scale``: the server's ``--clock-scale``."""
    began, cpu = time.perf_counter(), time.thread_time()
    held = held or Held(epoch)
    store.fence(conn, tournament_id, epoch, now, lease)
    decided, late = look(conn, held, tournament_id, now, scale)
    done = written(conn, looked(held, decided, late), tournament_id, held.epoch, now, lease)
    done.stuck = late
    done.seconds, done.cpu = time.perf_counter() - began, time.thread_time() - cpu
    return done


def written(conn: Connection, seen: Looked, tournament_id: str, epoch: int, now: float, lease: float) -> Step:
    """The fenced transaction of a step: renew the lease, :func:`apply` what was decided; and what is
    left to do outside it."""
    decided, t = seen.decided, seen.tournament
    if decided is None or t is None:
        return Step(None, over=True)
    new: list[tuple[int, tuple[str, ...]]] = []
    again = False
    if not decided.writes:
        store.fence(conn, tournament_id, epoch, now, lease)
    else:
        applied = apply(conn, tournament_id, epoch, decided, now, lease)
        if not applied.written:
            return Step(t, again=True)
        new, again = applied.tables, applied.again
        t = replace(
            t,
            status=decided.status or t.status,
            rounds=decided.rounds if decided.rounds is not None else t.rounds,
            round=decided.round or t.round,
        )
    over = t.status in (store.FINISHED, store.CANCELLED)
    return Step(
        t,
        unmade=[] if over else _unmade(seen, new),
        over=over,
        changed=decided.writes,
        again=again,
        pairing=decided.pairing,
    )


Listener = Callable[[str], None]
"""Told the id of a tournament that changed (its page's live updates)."""
Timed = Callable[[str, float], None]
"""Told what a step cost: ``("read", seconds)`` (its read and decision beside the database's writer),
``("transaction", seconds)`` (its fenced write), ``("cpu", seconds)`` (both) and, when it paired,
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
        self.key = secrets.token_hex(8)
        """Names what the reading process keeps of this director's tournaments (:func:`look_kept`)."""
        self.lease = lease
        self.held: dict[str, Held] = {}
        """The tournaments this director holds, with the epoch it took each at (what it read of them
        is kept in the reading process: :func:`look_kept`)."""
        self.scheduled = list(scheduled)
        """The operator's recurring tournaments (``serve --tournaments FILE``)."""
        self._last_schedules = -math.inf
        self.listeners: set[Listener] = set()
        self.ticker = Ticker(self.round, tick, name="roppyakken-tournaments", what="tournament round")
        self._last_round = -math.inf
        self._making = asyncio.Semaphore(MAKING)

    def start(self) -> None:
        """Start the loop."""
        self.ticker.start()

    async def close(self) -> None:
        """Stop the loop and give the leases back (another member takes them at once)."""
        await self.ticker.close()
        for tournament_id, held in list(self.held.items()):
            with contextlib.suppress(StorageError):
                release = functools.partial(store.release, tournament_id=tournament_id, epoch=held.epoch)
                await self.db.run(release)
        self.held.clear()

    def wake_soon(self) -> None:
        """Look at the tournaments now (from any thread: a game's end is stored on the database's)."""
        self.ticker.wake()

    def changed(self, tournament_id: str) -> None:
        """Tell the listeners that a tournament changed."""
        for listener in list(self.listeners):
            listener(tournament_id)

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
        # the game ends within GAP of each other are paired in one wave
        await asyncio.sleep(max(0.0, self._last_round + GAP - time.monotonic()))
        self._last_round = time.monotonic()
        now = time.time()
        due: list[str] = await self.db.look(lambda c: store.due(c, now, SOON, AT_ONCE))
        for tournament_id in due:
            await self.direct(tournament_id)

    async def direct(self, tournament_id: str) -> None:
        """One step of one tournament, if this director holds it (or takes it now): read what
        changed and decide in the reading process (:meth:`Database.look_apart
        <roppyakken.server.store.database.Database.look_apart>`: its Python never holds the
        interpreter's lock away from the event loop), write in a short fenced transaction, then
        make the new tables' rooms together."""
        member, lease, scale = self.member, self.lease, self.registry.limits.clock_scale
        held = self.held.get(tournament_id)
        if held is None:
            taken: int | None = await self.db.run(
                lambda c: store.take(c, tournament_id, member, time.time(), lease)
            )
            if taken is None:
                return
            log.info("tournament %s: directed here (epoch %d)", tournament_id, taken)
            held = self.held[tournament_id] = Held(taken)
        mine, now = held, time.time()
        seen: Looked = await self.db.look_apart(
            look_kept, f"{self.key}/{tournament_id}", tournament_id, mine.epoch, now, scale
        )
        try:
            done, seconds, write_cpu = await self.db.run(
                lambda c: _costed(lambda: written(c, seen, tournament_id, mine.epoch, time.time(), lease))
            )
        except StaleRoom:
            log.warning("tournament %s: directed by another member now; let go here", tournament_id)
            self.held.pop(tournament_id, None)
            return
        done.stuck, done.read, done.seconds = seen.stuck, seen.seconds, seconds
        done.cpu = seen.cpu + write_cpu
        if self.timed is not None:
            self.timed("read", seen.seconds)
            self.timed("transaction", done.seconds)
            self.timed("cpu", done.cpu)
            if done.pairing is not None:
                self.timed("pairing", done.pairing)
        if done.over:
            self.held.pop(tournament_id, None)
        if done.again:
            self.wake_soon()
        if done.tournament is not None:
            t = done.tournament
            await asyncio.gather(*(self._make(t, table, mine.epoch) for table in done.unmade))
            await asyncio.gather(*(self._seat(room_id, table) for room_id, table in done.stuck))
        if done.changed or done.unmade:
            self.changed(tournament_id)

    async def _make(self, t: Tournament, table: Unmade, epoch: int) -> bool:
        """Make the table's room (seated, started); False if this director no longer holds ``t``."""
        async with self._making:
            return await self._make_now(t, table, epoch)

    async def _make_now(self, t: Tournament, table: Unmade, epoch: int) -> bool:
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
            seated=tuple(zip(table.names[1:], table.tokens[1:], strict=True)),
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
        if room.status == WAITING:  # (inserted with every seat taken, it started then)
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
