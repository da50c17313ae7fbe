"""Quick pairing: a pool of waiting players in the database, paired oldest first into clocked public games.

The pool is the ``pairing`` table, so every member of a cluster sees the same
pool (SQLite on one process, PostgreSQL on a cluster).  A row is one player
waiting in one pool (``preset:players:clock``); the player's member refreshes its
``seen_at`` every :data:`TICK` while the player's lobby page is open, and a row
not refreshed for :data:`POOL_TTL` seconds (the page closed, the member died) is
dropped.  One player has one row (the primary key), so nobody is paired with
themselves.

**Ratings.**  Players are paired with players of about their strength, as in
lichess's pools: each waiting player accepts opponents whose skill (their rating's
``mu`` in the game's rating pool, on the display scale: server/club/ratings/scale.py
``skill_points``) is within a window around theirs that widens with their waiting
time — :data:`WINDOW_START` points at first, :data:`WINDOW_GROWTH` more each second,
and any opponent once they waited :data:`WINDOW_OPEN_AFTER` seconds.  A group is
formed only if every two of its players accept each other (the difference is within
both windows).  Groups are formed oldest first: the oldest waiting player with the
next oldest players who fit (:func:`groups`); a newcomer's rating is the new-player
rating, so players never rated are all alike.

**Puppets.**  Rows of one address (as the per-address bounds count it: an IPv6 client's
/64, server/web/guard.py) or of one browser (its ``rp_browser`` cookie, server/people/players.py) are
never grouped together: one person's guests cannot feed one another rated wins.  Each row
keeps the SHA-256 of both (server/people/players.py ``origin``); ``serve --rated-same-address``
(``Limits.rated_same_address``, off by default) lets them be paired, for a club on one
network.  Every pool is rated.

**Blocks.**  Two players one of whom blocks the other (server/people/blocks.py) are never
grouped: the claim reads the blocks among a pool's waiting players in one query.

**Time.**  The window's seconds are the server's ``--clock-scale`` times these (like the
time controls and the playban's durations); the heartbeat, :data:`POOL_TTL` and
:data:`CLAIM_TTL` are not scaled.

Pairing is a claim in one transaction: the free rows of a pool are read
(``FOR UPDATE SKIP LOCKED`` on PostgreSQL), grouped as above, and each group is taken
with an ``UPDATE … WHERE room_id IS NULL`` that must change exactly as many rows as
the game has seats;
if another member took one meanwhile (PostgreSQL re-checks the condition on a
row another transaction changed), the rows this claim took are given back in the
same transaction, so no row is ever paired twice.  On SQLite the claim's first
statement is a write (the expiry), so its transaction holds the database's
write lock from its start, as ``BEGIN IMMEDIATE`` would: claims never overlap.  The claiming member then
makes the room (each seat's token is the one its player was given on entering
the pool: only its hash was ever stored), starts it and marks the rows ready;
each player's member hands the room to its player and deletes the row.  A claim
whose member died before the room was made is released after
:data:`CLAIM_TTL` seconds.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from sqlalchemy import ColumnElement, Connection, delete, func, insert, select, update

from roppyakken.rules import PRESETS, preset
from roppyakken.server.club import open_tables as listing
from roppyakken.server.club.ratings import store as rating_store
from roppyakken.server.club.ratings.pools import FAMILIES, pool_of
from roppyakken.server.club.ratings.scale import skill_points
from roppyakken.server.club.ticking import Ticker
from roppyakken.server.people import blocks
from roppyakken.server.people.players import NOWHERE, Origin, Player, link_seat, origin
from roppyakken.server.play.clocks import CONTROLS
from roppyakken.server.store.database import Database, StorageError
from roppyakken.server.store.tables import pairing, rooms, seats
from roppyakken.server.wire.bodies import CreateRoom
from roppyakken.server.wire.lobby import LobbyGame, LobbyOverview, LobbyTable

if TYPE_CHECKING:
    from roppyakken.server.play.registry import Registry

log = logging.getLogger("roppyakken.server")

TICK: Final = 0.25
"""Seconds between two rounds of a member's pairing work (heartbeats, claims, hand-outs)."""
POOL_TTL: Final = 8.0
"""Seconds a waiting row lives without its member's heartbeat."""
CLAIM_TTL: Final = 20.0
"""Seconds a claim may wait for its room before its rows go back to the pool."""
LISTED_TABLES: Final = 50
"""Open public tables the lobby shows (the newest)."""
LISTED_GAMES: Final = 20
"""Public games being played that the lobby offers to watch (the newest)."""
WINDOW_START: Final = 150.0
"""Display points (either way) a player just entered accepts between their skill and an opponent's."""
WINDOW_GROWTH: Final = 10.0
"""Display points the window widens by each second a player waits."""
WINDOW_OPEN_AFTER: Final = 30.0
"""Seconds of waiting after which a player accepts any opponent."""


def window(waited: float, scale: float = 1.0) -> float:
    """The skill difference (display points) a player who waited ``waited`` seconds accepts (the
    window's seconds times ``scale``, the server's ``--clock-scale``)."""
    waited /= scale
    if waited >= WINDOW_OPEN_AFTER:
        return math.inf
    return WINDOW_START + WINDOW_GROWTH * max(0.0, waited)


Marks = frozenset[str]
"""Where a row came from: the hashes of its address and browser (those it has)."""


def groups(
    waiting: list[tuple[float, float]],
    size: int,
    now: float,
    *,
    origins: list[Marks] | None = None,
    scale: float = 1.0,
    apart: set[frozenset[int]] | None = None,
) -> list[list[int]]:
    """Games to make from ``waiting`` ((joined at, skill points) oldest first): lists of ``size``
    indexes, each in age order, every two within each other's window, (with ``origins``, each
    row's :data:`Marks`) of no common address or browser (see the module docstring), and no two
    a pair of ``apart`` (one blocks the other: server/people/blocks.py)."""
    free = list(range(len(waiting)))
    reach = [window(now - joined, scale) for joined, _ in waiting]

    def fits(a: int, b: int) -> bool:
        if origins is not None and origins[a] & origins[b]:
            return False
        if apart and frozenset((a, b)) in apart:
            return False
        return abs(waiting[a][1] - waiting[b][1]) <= min(reach[a], reach[b])

    sharing: dict[str, set[int]] = {}
    for index, marks in enumerate(origins or ()):
        for mark in marks:
            sharing.setdefault(mark, set()).add(index)
    stuck: set[int] = set()  # found no group: with fewer rows free it finds none either (this round)
    out: list[list[int]] = []
    while len(free) >= size:
        for at, first in enumerate(free):
            if first in stuck:
                continue
            later = free[at + 1 :]
            clash: set[int] = set()
            if origins is not None and origins[first]:
                # rows of one address or browser (puppets) are set aside in bulk, not pair by pair
                clash = clash.union(*(sharing[m] for m in origins[first]))
                if len(later) - len(clash.intersection(later)) < size - 1:
                    stuck.add(first)
                    continue
            group = [first]
            for other in later:
                if other not in clash and all(fits(other, member) for member in group):
                    group.append(other)
                    if len(group) == size:
                        break
            if len(group) == size:
                out.append(group)
                free = [i for i in free if i not in group]
                break
            stuck.add(first)
        else:
            break
    return out


@dataclass(frozen=True, slots=True)
class Pool:
    """What a player asks to be paired for: a preset, 2 or 3 players and a time control."""

    preset: str
    players: int
    clock: str

    @property
    def key(self) -> str:
        """The pool's name in the table."""
        return f"{self.preset}:{self.players}:{self.clock}"

    @property
    def rating_pool(self) -> str:
        """The rating pool its games move (server/club/ratings/pools.py)."""
        return pool_of(self.preset, self.players)

    @classmethod
    def parse(cls, key: str) -> Pool | None:
        """The pool named ``key``, or None if it is not one."""
        parts = key.split(":")
        if (
            len(parts) != 3
            or parts[0] not in PRESETS
            or parts[1] not in ("2", "3")
            or parts[2] not in CONTROLS
        ):
            return None
        if parts[0] not in FAMILIES:
            return None
        return cls(parts[0], int(parts[1]), parts[2])


@dataclass(frozen=True, slots=True)
class Claimed:
    """Rows claimed together for one game, oldest first (seat 0 the oldest)."""

    claim: str
    pool: Pool
    players: list[tuple[str, str, str]]
    """(player id, name, seat token hash) in seat order."""


def enter(
    conn: Connection,
    player_id: str,
    name: str,
    pool: Pool,
    token_hash: str,
    now: float,
    came_from: Origin = NOWHERE,
) -> None:
    """The player waits in ``pool`` (a row it had in any pool, not yet claimed, is replaced);
    ``came_from``: the hashes of its address and browser (:func:`origin`)."""
    conn.execute(delete(pairing).where(pairing.c.player_id == player_id, pairing.c.room_id.is_(None)))
    conn.execute(
        insert(pairing).values(
            player_id=player_id,
            pool=pool.key,
            name=name,
            token_hash=token_hash,
            joined_at=now,
            seen_at=now,
            address_hash=came_from[0],
            browser_hash=came_from[1],
        )
    )


def leave(conn: Connection, player_id: str, token_hash: str) -> bool:
    """The player leaves the pool (unless already claimed into a game); whether it was waiting."""
    result = conn.execute(
        delete(pairing).where(
            pairing.c.player_id == player_id, pairing.c.token_hash == token_hash, pairing.c.room_id.is_(None)
        )
    )
    return bool(result.rowcount)


def expire(conn: Connection, now: float) -> None:
    """Drop rows whose member stopped refreshing them; release claims whose room never came."""
    conn.execute(delete(pairing).where(pairing.c.seen_at < now - POOL_TTL, ~pairing.c.ready))
    conn.execute(delete(pairing).where(pairing.c.seen_at < now - 4 * POOL_TTL))
    conn.execute(
        update(pairing)
        .where(~pairing.c.ready, pairing.c.claimed_at < now - CLAIM_TTL)
        .values(room_id=None, seat=None, claimed_at=None)
    )


def claim(
    conn: Connection, now: float, postgres: bool, *, apart: bool = True, scale: float = 1.0
) -> list[Claimed]:
    """Claim, for each pool with enough free rows, its oldest rows as one game (see the module doc);
    ``apart``: rows of one address or browser are never grouped together; ``scale``: the window's
    seconds are times this.

    A row another member took meanwhile is not changed here: this claim's rows are given
    back in the same transaction, and the pool is tried again next round."""
    expire(conn, now)
    free = pairing.c.room_id.is_(None)
    counts = conn.execute(select(pairing.c.pool, func.count()).where(free).group_by(pairing.c.pool)).all()
    out: list[Claimed] = []
    for key, waiting in counts:
        pool = Pool.parse(str(key))
        if pool is None or int(waiting) < pool.players:
            continue
        query = (
            select(
                pairing.c.player_id,
                pairing.c.name,
                pairing.c.token_hash,
                pairing.c.joined_at,
                pairing.c.address_hash,
                pairing.c.browser_hash,
            )
            .where(free, pairing.c.pool == pool.key)
            .order_by(pairing.c.joined_at, pairing.c.player_id)
        )
        if postgres:
            query = query.with_for_update(skip_locked=True)
        read = conn.execute(query).all()
        rows = [(str(r[0]), str(r[1]), str(r[2]), float(r[3])) for r in read]
        origins = [Marks(m for m in (r[4], r[5]) if m) for r in read] if apart else None
        skill = rating_store.skills(conn, pool.rating_pool, [r[0] for r in rows])
        waiting = [(r[3], skill_points(skill[r[0]])) for r in rows]
        at = {r[0]: i for i, r in enumerate(rows)}  # players who block one another: never grouped
        blocked = {frozenset(at[p] for p in pair) for pair in blocks.pairs_among(conn, at)}
        found = groups(waiting, pool.players, now, origins=origins, scale=scale, apart=blocked)
        if not found and apart and rows:
            _one_address_hint(pool, [r[4] for r in read], now - rows[0][3])
        for group in found:
            chosen = [rows[i][:3] for i in group]
            mark = "claim-" + secrets.token_hex(8)
            taken = 0
            for seat, (player_id, _, _) in enumerate(chosen):
                result = conn.execute(
                    update(pairing)
                    .where(pairing.c.player_id == player_id, free)
                    .values(room_id=mark, seat=seat, claimed_at=now)
                )
                taken += result.rowcount
                if result.rowcount != 1:
                    break
            if taken != len(chosen):  # another member took one meanwhile: give back this claim's rows
                conn.execute(
                    update(pairing)
                    .where(pairing.c.room_id == mark)
                    .values(room_id=None, seat=None, claimed_at=None)
                )
                break
            out.append(Claimed(mark, pool, chosen))
    return out


ONE_ADDRESS_HINT_AFTER: Final = 60.0
"""Seconds a pool of several players all of one address waits before the log says why."""
_hinted: dict[str, float] = {}


def _one_address_hint(pool: Pool, addresses: list[str | None], waited: float) -> None:
    """Say once an hour in the log when several players wait in a pool, all of one address (the
    oldest for ``waited`` seconds): a proxy that is not a ``--trusted-proxy`` makes every player its
    address, and nobody is ever paired."""
    one = len(set(addresses)) == 1 and addresses[0] is not None
    if len(addresses) < 2 * pool.players or not one or waited < ONE_ADDRESS_HINT_AFTER:
        return
    if time.monotonic() - _hinted.get(pool.key, -math.inf) < 3600:
        return
    _hinted[pool.key] = time.monotonic()
    log.warning(
        "%d players wait in pool %s, all from one address: players of one address are never paired "
        "together; behind a proxy, name it with --trusted-proxy (or --rated-same-address for a club)",
        len(addresses),
        pool.key,
    )


def _lock(conn: Connection, where: ColumnElement[bool]) -> None:
    """Lock the pool's rows ``where`` holds in player order (PostgreSQL; SQLite writes one at a time):
    every member's transactions take them in one order, so two never wait for each other."""
    if conn.dialect.name == "postgresql":
        conn.execute(select(pairing.c.player_id).where(where).order_by(pairing.c.player_id).with_for_update())


def made(conn: Connection, claimed: Claimed, room_id: str) -> None:
    """The claimed game's room exists: its rows are ready, its seats remember their players."""
    _lock(conn, pairing.c.room_id == claimed.claim)
    conn.execute(
        update(pairing).where(pairing.c.room_id == claimed.claim).values(room_id=room_id, ready=True)
    )
    for seat, (player_id, _, _) in enumerate(claimed.players):
        link_seat(conn, room_id, seat, player_id)


def release(conn: Connection, claimed: Claimed) -> None:
    """The claimed game could not be made: its rows wait again (keeping their age)."""
    _lock(conn, pairing.c.room_id == claimed.claim)
    conn.execute(
        update(pairing)
        .where(pairing.c.room_id == claimed.claim)
        .values(room_id=None, seat=None, claimed_at=None)
    )


def refresh(conn: Connection, waiting: list[tuple[str, str]], now: float) -> list[tuple[str, str, str, int]]:
    """Heartbeat the rows of this member's waiting players ((player id, token hash)); hand out (and
    delete) those made ready: (player id, token hash, room, seat)."""
    if not waiting:
        return []
    ids = sorted({p for p, _ in waiting})
    mine = set(waiting)
    _lock(conn, pairing.c.player_id.in_(ids))
    conn.execute(update(pairing).where(pairing.c.player_id.in_(ids)).values(seen_at=now))
    ready = [
        (str(r[0]), str(r[1]), str(r[2]), int(r[3]))
        for r in conn.execute(
            select(pairing.c.player_id, pairing.c.token_hash, pairing.c.room_id, pairing.c.seat).where(
                pairing.c.player_id.in_(ids), pairing.c.ready
            )
        )
        if (str(r[0]), str(r[1])) in mine
    ]
    for player_id, token_hash, _, _ in sorted(ready):
        conn.execute(
            delete(pairing).where(pairing.c.player_id == player_id, pairing.c.token_hash == token_hash)
        )
    return ready


def _seat_names(conn: Connection, ids: list[str]) -> dict[str, list[tuple[str, str | None]]]:
    out: dict[str, list[tuple[str, str | None]]] = {i: [] for i in ids}
    if ids:
        for r in conn.execute(
            select(seats.c.room_id, seats.c.kind, seats.c.name, seats.c.level)
            .where(seats.c.room_id.in_(ids))
            .order_by(seats.c.room_id, seats.c.seat)
        ):
            out[r[0]].append((str(r[1]), r[2] if r[1] != "bot" else f"bot:{r[3]}"))
    return out


def overview(conn: Connection, now: float) -> LobbyOverview:
    """What the lobby shows: open public tables, public games being played, waiting and playing counts."""
    here = listing.listed_since(now)  # tables whose host is still there (server/club/open_tables.py)
    open_rows = conn.execute(
        select(rooms.c.id, rooms.c.preset, rooms.c.players, rooms.c.clock, rooms.c.rated)
        .where(rooms.c.status == "waiting", rooms.c.public.is_(True), rooms.c.host_seen_at > here)
        .order_by(rooms.c.created_at.desc(), rooms.c.id)
        .limit(LISTED_TABLES)
    ).all()
    live_rows = conn.execute(
        select(rooms.c.id, rooms.c.preset, rooms.c.players, rooms.c.clock)
        .where(rooms.c.status == "playing", rooms.c.public.is_(True))
        .order_by(rooms.c.created_at.desc(), rooms.c.id)
        .limit(LISTED_GAMES)
    ).all()
    names = _seat_names(conn, [r[0] for r in open_rows] + [r[0] for r in live_rows])

    def control(raw: str | None) -> str:
        return "none" if raw is None else str(json.loads(raw).get("control", "none"))

    tables: list[LobbyTable] = []
    for room_id, preset_name, players, clock, rated in open_rows:
        taken = [n for kind, n in names[room_id] if kind != "empty"]
        host = names[room_id][0][1] if names[room_id] else None
        if len(taken) >= int(players):
            continue
        tables.append(
            LobbyTable(
                room=room_id,
                preset=preset_name,
                players=int(players),
                clock=control(clock),
                rated=bool(rated),
                taken=len(taken),
                host=host,
            )
        )
    games = [
        LobbyGame(
            room=room_id,
            preset=preset_name,
            players=[n or "" for _, n in names[room_id]],
            clock=control(clock),
        )
        for room_id, preset_name, _players, clock in live_rows
    ]
    pools = {
        str(k): int(n)
        for k, n in conn.execute(
            select(pairing.c.pool, func.count()).where(pairing.c.room_id.is_(None)).group_by(pairing.c.pool)
        )
    }
    playing = int(
        conn.execute(select(func.count()).select_from(rooms).where(rooms.c.status == "playing")).scalar() or 0
    )
    return LobbyOverview(
        tables=tables, games=games, pools=pools, waiting=sum(pools.values()), playing=playing
    )


Deliver = Callable[[str, int], None]
"""What a waiting player's connection is told when paired: (room, seat)."""


@dataclass(slots=True)
class Seeker:
    """A player of this member waiting in the pool, and how to tell its connection."""

    player: Player
    pool: Pool
    token_hash: str
    deliver: Deliver


async def heartbeat(db: Database, waiting: list[tuple[str, str]]) -> list[tuple[str, str, str, int]]:
    """:func:`refresh` now, in a transaction of its own: the pool's rows are every member's (the
    claiming member marks them made), and a batch holds its locks while it waits for others."""
    return await db.run(lambda c: refresh(c, waiting, time.time()), alone=True)


async def mark_made(db: Database, claimed: Claimed, room_id: str) -> None:
    """:func:`made`, in a transaction of its own (the rows are other members' seekers', as in
    :func:`heartbeat`)."""
    await db.run(lambda c: made(c, claimed, room_id), alone=True)


class Pairing:
    """This member's share of the pairing work: its seekers' heartbeats and hand-outs, and claims."""

    def __init__(self, registry: Registry, *, tick: float = TICK) -> None:
        self.registry = registry
        self.db: Database = registry.db
        self.ticker = Ticker(self.round, tick, name="roppyakken-pairing", what="pairing round")
        """The loop that runs :meth:`round`."""
        self.seekers: dict[tuple[str, str], Seeker] = {}
        """This member's waiting players by (player id, token hash)."""
        self.snapshot = LobbyOverview(tables=[], games=[], pools={}, waiting=0, playing=0)
        """The lobby's latest overview (refreshed about every :data:`OVERVIEW_EVERY` seconds)."""
        self.seated: dict[str, frozenset[str]] = {}
        """The players seated at each of the overview's tables (a socket hides those of its blocks)."""
        self.listeners: set[Callable[[LobbyOverview], None]] = set()
        self._last_overview = -1e9
        self._last_hosts = -1e9

    def start(self) -> None:
        """Start the loop."""
        self.ticker.start()

    async def close(self) -> None:
        """Stop the loop (the seekers' rows expire: their pages reconnect elsewhere)."""
        await self.ticker.close()

    async def seek(
        self,
        player: Player,
        pool: Pool,
        token_hash: str,
        deliver: Deliver,
        *,
        address: str | None = None,
        browser: str | None = None,
    ) -> None:
        """Put the player in ``pool`` (its page holds the token whose hash this is); ``address``: the
        seek's address as the bounds count it, ``browser``: its browser cookie (server/people/players.py)."""
        now = time.time()
        came_from = origin(address, browser)
        await self.db.run(
            lambda c: enter(c, player.id, player.name, pool, token_hash, now, came_from), alone=True
        )
        for key in [k for k in self.seekers if k[0] == player.id]:
            del self.seekers[key]
        self.seekers[(player.id, token_hash)] = Seeker(player, pool, token_hash, deliver)
        self.ticker.wake()

    async def cancel(self, player_id: str, token_hash: str) -> bool:
        """Take the player out of the pool; False if it was claimed into a game already."""
        self.seekers.pop((player_id, token_hash), None)
        left: bool = await self.db.run(lambda c: leave(c, player_id, token_hash), alone=True)
        return left

    async def round(self) -> None:
        """One round: claim and make the games due, heartbeat and hand out, refresh the overview."""
        now = time.time()
        postgres = self.db.dialect == "postgresql"
        waiting = list(self.seekers)
        if waiting:  # only members with players waiting claim: an idle server writes nothing
            limits = self.registry.limits
            apart, scale = not limits.rated_same_address, limits.clock_scale
            claims: list[Claimed] = await self.db.run(
                lambda c: claim(c, now, postgres, apart=apart, scale=scale), alone=True
            )
            for claimed in claims:
                await self._make(claimed)
            ready = await heartbeat(self.db, waiting)
            for player_id, token_hash, room_id, seat in ready:
                seeker = self.seekers.pop((player_id, token_hash), None)
                if seeker is not None:
                    seeker.deliver(room_id, seat)
        if time.monotonic() - self._last_hosts >= listing.HOST_REFRESH:
            self._last_hosts = time.monotonic()
            hosted = listing.hosted(self.registry.rooms.values())
            if hosted:
                await self.db.run(lambda c: listing.stamp(c, hosted, time.time()))
        if self.listeners and time.monotonic() - self._last_overview >= OVERVIEW_EVERY:
            self._last_overview = time.monotonic()
            snapshot = await self.db.run(lambda c: overview(c, time.time()))
            if snapshot != self.snapshot:
                listed = [t["room"] for t in snapshot["tables"]]
                self.seated = await self.db.run(lambda c: listing.seated(c, listed))
                self.snapshot = snapshot
                for listener in list(self.listeners):
                    listener(snapshot)

    async def _make(self, claimed: Claimed) -> None:
        pool = claimed.pool
        first = claimed.players[0]
        request = CreateRoom(
            first[1],
            pool.players,
            preset(pool.preset),
            None,
            {},
            False,
            pool.clock,
            True,
            first[2],
            rated=True,
        )
        try:
            room, _ = await self.registry.create(request)
            for _, name, token_hash in claimed.players[1:]:
                if await room.join(name, token_hash) is None:
                    raise RuntimeError("a new paired room refused a seat")
            await room.start(None)
            await mark_made(self.db, claimed, room.id)
        except Exception as exc:
            log.warning("a paired game could not be made (%s): its players wait again", exc)
            with contextlib.suppress(StorageError):
                await self.db.run(lambda c: release(c, claimed), alone=True)
            return
        self.ticker.wake()


OVERVIEW_EVERY: Final = 1.0
"""Seconds between two reads of the lobby's overview by one member (only while someone watches)."""
