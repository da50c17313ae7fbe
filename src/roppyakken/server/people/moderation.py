"""Moderation: players' reports, moderators' sanctions (mutes, suspensions) and the log of every action.

A *sanction* is a row of ``sanctions``: a ``mute`` of a player (their chat is refused)
or a ``suspend`` of a player, an account (every player of it) or an address (an IP
address or network: refused at admission, HTTP and websockets).  It lasts until its
``expires_at`` (None: until cleared) or until a moderator clears it.  Sanctions are
set with ``roppyakken admin`` (cli/admin_cmd.py) on the server's database; every
action is written to ``moderation_log`` with its actor, in the same transaction.

Each server (each member of a cluster) reads the sanctions in effect from the
database at most every :data:`REFRESH` seconds (:class:`SanctionCache`): a new
sanction or a cleared one takes effect everywhere within that bound.  Sign-in code
asks the database directly with :func:`suspended`.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import time
import weakref
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Connection, and_, func, insert, or_, select, update

from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import N_
from roppyakken.server.store.database import Database, StorageError
from roppyakken.server.store.tables import abandonments, accounts, moderation_log, players, reports, sanctions

log = logging.getLogger("roppyakken.server")

MUTE: Final = "mute"
SUSPEND: Final = "suspend"
OPEN: Final = "open"
CLOSED: Final = "closed"
REFRESH: Final = 5.0
"""Seconds a server may use its copy of the sanctions in effect before reading them again."""
REASONS: Final = ("abuse", "spam", "cheating", "other")
"""The reasons a report may give."""
REPORTS_PER_HOUR: Final = 10
"""Reports one player may make in an hour (every member counts them in the database)."""

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


class ModerationError(RoppyakkenError):
    """A moderation request that cannot be done (one line)."""


@dataclass(frozen=True, slots=True)
class Sanction:
    """A sanction as stored (see the module docstring)."""

    id: int
    kind: str
    player_id: str | None
    account_id: str | None
    address: str | None
    reason: str | None
    created_at: float
    created_by: str
    expires_at: float | None
    cleared_at: float | None = None
    cleared_by: str | None = None

    def active(self, now: float) -> bool:
        """Whether it is in effect at ``now``."""
        return self.cleared_at is None and (self.expires_at is None or self.expires_at > now)

    @property
    def target(self) -> str:
        """``player:ID``, ``account:ID`` or ``address:IP``."""
        if self.player_id is not None:
            return f"player:{self.player_id}"
        if self.account_id is not None:
            return f"account:{self.account_id}"
        return f"address:{self.address}"

    def to_json(self) -> dict[str, Any]:
        """The sanction as ``roppyakken admin`` prints it with ``--json``."""
        return {
            "id": self.id,
            "kind": self.kind,
            "target": self.target,
            "reason": self.reason,
            "created_at": self.created_at,
            "created_by": self.created_by,
            "expires_at": self.expires_at,
            "cleared_at": self.cleared_at,
            "cleared_by": self.cleared_by,
        }


def _sanction(row: Any) -> Sanction:
    return Sanction(
        int(row.id),
        str(row.kind),
        row.player_id,
        row.account_id,
        row.address,
        row.reason,
        float(row.created_at),
        str(row.created_by),
        None if row.expires_at is None else float(row.expires_at),
        None if row.cleared_at is None else float(row.cleared_at),
        row.cleared_by,
    )


def worded(sanction: Sanction, plain: str, until: str) -> tuple[str, dict[str, object]]:
    """The refusal a sanction causes, as a template and its fields: ``until`` (with ``{when}``, the
    end in UTC) for a sanction with an end, else ``plain``."""
    if sanction.expires_at is None:
        return plain, {}
    return until, {"when": datetime.fromtimestamp(sanction.expires_at, UTC).strftime("%Y-%m-%d %H:%M")}


def address_network(value: str) -> Network:
    """An IP address or network (``203.0.113.7``, ``2001:db8::/64``); ValueError if it is not one."""
    return ipaddress.ip_network(value.strip(), strict=False)


def address_matches(address: str, value: str) -> bool:
    """Whether the client ``address`` (as the bounds count it: an IPv6 address's /64) is in ``value``."""
    try:
        network = address_network(value)
        client = address_network(address)
    except ValueError:
        return address == value
    if client.version != network.version:
        return False
    return client.subnet_of(network) or network.subnet_of(client)  # type: ignore[arg-type]


# ------------------------------------------------------------------------------------- the log


def log_action(
    conn: Connection, actor: str, action: str, target: str, detail: str | None, now: float
) -> None:
    """Write one line of the moderation log (in the action's transaction)."""
    conn.execute(
        insert(moderation_log).values(
            at=now, actor=actor[:64], action=action, target=target[:128], detail=detail
        )
    )


def log_lines(conn: Connection, limit: int = 100) -> list[dict[str, Any]]:
    """The newest lines of the moderation log, newest first."""
    rows = conn.execute(select(moderation_log).order_by(moderation_log.c.id.desc()).limit(limit)).all()
    return [
        {"id": r.id, "at": r.at, "actor": r.actor, "action": r.action, "target": r.target, "detail": r.detail}
        for r in rows
    ]


# ------------------------------------------------------------------------------------- sanctions


def add_sanction(
    conn: Connection,
    kind: str,
    *,
    actor: str,
    now: float,
    player_id: str | None = None,
    account_id: str | None = None,
    address: str | None = None,
    seconds: float | None = None,
    reason: str | None = None,
) -> Sanction:
    """Store a sanction of exactly one target, and log it; the stored sanction."""
    if sum(x is not None for x in (player_id, account_id, address)) != 1:
        raise ModerationError(N_("name exactly one of a player, an account or an address"))
    if address is not None:
        try:
            address = str(address_network(address))
        except ValueError:
            raise ModerationError(
                N_("'{address}' is not an IP address or network"), address=address
            ) from None
    expires = None if seconds is None else now + seconds
    result = conn.execute(
        insert(sanctions).values(
            kind=kind,
            player_id=player_id,
            account_id=account_id,
            address=address,
            reason=reason,
            created_at=now,
            created_by=actor[:64],
            expires_at=expires,
        )
    )
    key = result.inserted_primary_key
    assert key is not None
    made = Sanction(int(key[0]), kind, player_id, account_id, address, reason, now, actor[:64], expires)
    detail = (
        f"#{made.id}" + ("" if seconds is None else f" for {seconds:g} s") + (f": {reason}" if reason else "")
    )
    log_action(conn, actor, kind, made.target, detail, now)
    return made


def clear_sanction(conn: Connection, sanction_id: int, *, actor: str, now: float) -> Sanction:
    """Clear a sanction (ModerationError if there is none in effect with that id), and log it."""
    row = conn.execute(select(sanctions).where(sanctions.c.id == sanction_id)).first()
    if row is None:
        raise ModerationError(N_("there is no sanction #{id}"), id=sanction_id)
    found = _sanction(row)
    if not found.active(now):
        raise ModerationError(N_("sanction #{id} is not in effect"), id=sanction_id)
    conn.execute(
        update(sanctions).where(sanctions.c.id == sanction_id).values(cleared_at=now, cleared_by=actor[:64])
    )
    log_action(conn, actor, "clear", found.target, f"#{sanction_id} ({found.kind})", now)
    return Sanction(**{**_fields(found), "cleared_at": now, "cleared_by": actor[:64]})


def _fields(s: Sanction) -> dict[str, Any]:
    return {name: getattr(s, name) for name in Sanction.__slots__}


def sanctions_in_effect(conn: Connection, now: float) -> list[Sanction]:
    """Every sanction in effect at ``now``."""
    rows = conn.execute(
        select(sanctions)
        .where(
            sanctions.c.cleared_at.is_(None),
            or_(sanctions.c.expires_at.is_(None), sanctions.c.expires_at > now),
        )
        .order_by(sanctions.c.id)
    ).all()
    return [_sanction(r) for r in rows]


def all_sanctions(conn: Connection, limit: int = 100) -> list[Sanction]:
    """The newest sanctions, in effect or not, newest first."""
    rows = conn.execute(select(sanctions).order_by(sanctions.c.id.desc()).limit(limit)).all()
    return [_sanction(r) for r in rows]


def account_of(conn: Connection, player_id: str) -> str | None:
    """The account a player belongs to, if any."""
    found = conn.execute(select(players.c.account_id).where(players.c.id == player_id)).scalar()
    return None if found is None else str(found)


def suspended(
    conn: Connection,
    *,
    player_id: str | None = None,
    account_id: str | None = None,
    address: str | None = None,
    now: float | None = None,
) -> Sanction | None:
    """The suspension in effect of this player, its account, the given account (or any player of
    it) or the address, or None.

    Sign-in asks this (straight from the database) before it opens a session:
    ``suspended(conn, account_id=..., address=...)``."""
    now = time.time() if now is None else now
    if player_id is not None and account_id is None:
        account_id = account_of(conn, player_id)
    ids = {player_id}
    if account_id is not None:  # the account's own player, and every guest it adopted
        ids.add(conn.execute(select(accounts.c.player_id).where(accounts.c.id == account_id)).scalar())
        ids.update(conn.execute(select(players.c.id).where(players.c.account_id == account_id)).scalars())
    for found in sanctions_in_effect(conn, now):
        if found.kind != SUSPEND:
            continue
        if any(_hits(found, one, account_id, address) for one in ids):
            return found
    return None


def _hits(s: Sanction, player_id: str | None, account_id: str | None, address: str | None) -> bool:
    if s.player_id is not None:
        return s.player_id == player_id
    if s.account_id is not None:
        return s.account_id == account_id
    return address is not None and s.address is not None and address_matches(address, s.address)


MEMO_SIZE: Final = 50_000
"""Addresses whose matching sanctions a server remembers until its next read (then forgotten)."""


@dataclass(slots=True)
class SanctionCache:
    """This server's copy of the sanctions in effect, read again when older than :data:`REFRESH`,
    indexed so that a check costs about the same whatever their number: by player, by account,
    and by network (one dictionary a prefix length; an address's answer is remembered)."""

    db: Database
    refresh: float = REFRESH
    loaded: float = -1e18
    effective: list[Sanction] = field(default_factory=list)
    accounts: dict[str, str | None] = field(default_factory=dict)
    """Player id to account id, for players asked about since the last read."""
    by_player: dict[str, list[Sanction]] = field(default_factory=dict)
    by_account: dict[str, list[Sanction]] = field(default_factory=dict)
    networks: dict[tuple[int, int], dict[Network, list[Sanction]]] = field(default_factory=dict)
    """(IP version, prefix length) to network to its sanctions; an IPv6 network longer than /64 is
    filed under its /64 (what an IPv6 client's address is counted as)."""
    memo: dict[str, list[Sanction]] = field(default_factory=dict)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    def use(self, effective: list[Sanction]) -> None:
        """Take ``effective`` as the sanctions in effect, and index them."""
        self.effective = effective
        self.accounts.clear()
        self.memo.clear()
        self.by_player, self.by_account, self.networks = {}, {}, {}
        for s in effective:
            if s.player_id is not None:
                self.by_player.setdefault(s.player_id, []).append(s)
            elif s.account_id is not None:
                self.by_account.setdefault(s.account_id, []).append(s)
            elif s.address is not None:
                try:
                    network = address_network(s.address)
                except ValueError:
                    continue
                if network.version == 6 and network.prefixlen > 64:
                    network = network.supernet(new_prefix=64)
                table = self.networks.setdefault((network.version, network.prefixlen), {})
                table.setdefault(network, []).append(s)

    async def _fresh(self) -> None:
        if time.monotonic() - self.loaded < self.refresh:
            return
        async with self._lock:
            if time.monotonic() - self.loaded >= self.refresh:
                try:
                    self.use(await self.db.run(lambda c: sanctions_in_effect(c, time.time())))
                except StorageError as exc:  # the database is away: keep the last copy, try again later
                    log.warning("the sanctions in effect could not be read again: %s", exc)
                self.loaded = time.monotonic()

    async def _account(self, player_id: str) -> str | None:
        if player_id not in self.accounts:
            try:
                self.accounts[player_id] = await self.db.run(lambda c: account_of(c, player_id))
            except StorageError:
                return None
        return self.accounts[player_id]

    def _at_address(self, address: str) -> list[Sanction]:
        """The sanctions whose network holds ``address`` (as the bounds count it)."""
        if not self.networks:
            return []
        found = self.memo.get(address)
        if found is not None:
            return found
        found = []
        try:
            client = address_network(address)
        except ValueError:
            client = None
        if client is not None:
            for (version, prefix), table in self.networks.items():
                if version == client.version and prefix <= client.prefixlen:
                    key = client if prefix == client.prefixlen else client.supernet(new_prefix=prefix)
                    found.extend(table.get(key, ()))
        if len(self.memo) >= MEMO_SIZE:
            self.memo.clear()
        self.memo[address] = found
        return found

    async def find(
        self, kind: str, *, player_id: str | None = None, address: str | None = None
    ) -> Sanction | None:
        """The sanction of ``kind`` in effect on this player (or its account) or address, or None."""
        await self._fresh()
        now = time.time()
        candidates: list[Sanction] = []
        if player_id is not None:
            candidates.extend(self.by_player.get(player_id, ()))
            if self.by_account:
                account = await self._account(player_id)
                if account is not None:
                    candidates.extend(self.by_account.get(account, ()))
        if address is not None:
            candidates.extend(self._at_address(address))
        for s in candidates:
            if s.kind == kind and s.active(now):
                return s
        return None


_CACHES: weakref.WeakKeyDictionary[Database, SanctionCache] = weakref.WeakKeyDictionary()


def cache_for(db: Database) -> SanctionCache:
    """The server's sanction cache over ``db`` (made on first use, one per database object)."""
    found = _CACHES.get(db)
    if found is None:
        found = _CACHES[db] = SanctionCache(db)
    return found


# ------------------------------------------------------------------------------------- reports


@dataclass(frozen=True, slots=True)
class Report:
    """What a player reports: a chat line (its channel and number) or a seat of a room."""

    room_id: str
    kind: str
    reason: str
    channel: str | None = None
    chat_idx: int | None = None
    seat: int | None = None
    player_id: str | None = None
    name: str | None = None
    text: str | None = None
    phrase: str | None = None


def reports_since(conn: Connection, reporter_id: str, since: float) -> int:
    """Reports the player made since ``since``."""
    found = conn.execute(
        select(func.count())
        .select_from(reports)
        .where(reports.c.reporter_id == reporter_id, reports.c.at >= since)
    ).scalar()
    return int(found or 0)


def already_reported(conn: Connection, reporter_id: str, report: Report) -> bool:
    """Whether this player already reported the same line or seat of the room."""
    found = conn.execute(
        select(reports.c.id).where(
            and_(
                reports.c.reporter_id == reporter_id,
                reports.c.room_id == report.room_id,
                reports.c.kind == report.kind,
                reports.c.channel == report.channel
                if report.channel is not None
                else reports.c.channel.is_(None),
                reports.c.chat_idx == report.chat_idx
                if report.chat_idx is not None
                else reports.c.chat_idx.is_(None),
                reports.c.seat == report.seat if report.seat is not None else reports.c.seat.is_(None),
            )
        )
    ).first()
    return found is not None


def store_report(conn: Connection, reporter_id: str, address: str | None, report: Report, now: float) -> int:
    """Store a report (open); its id."""
    result = conn.execute(
        insert(reports).values(
            at=now,
            reporter_id=reporter_id,
            reporter_address=address,
            room_id=report.room_id,
            kind=report.kind,
            channel=report.channel,
            chat_idx=report.chat_idx,
            seat=report.seat,
            player_id=report.player_id,
            name=report.name,
            text=report.text,
            phrase=report.phrase,
            reason=report.reason,
            status=OPEN,
        )
    )
    key = result.inserted_primary_key
    assert key is not None
    return int(key[0])


def list_reports(conn: Connection, status: str | None = OPEN, limit: int = 100) -> list[dict[str, Any]]:
    """Reports (``status`` open or closed; None: both), newest first."""
    query = select(reports).order_by(reports.c.id.desc()).limit(limit)
    if status is not None:
        query = query.where(reports.c.status == status)
    return [dict(r._mapping) for r in conn.execute(query).all()]


def close_report(conn: Connection, report_id: int, *, actor: str, now: float) -> None:
    """Close an open report, and log it (ModerationError if there is no open report of that id)."""
    status = conn.execute(select(reports.c.status).where(reports.c.id == report_id)).scalar()
    if status is None:
        raise ModerationError(N_("there is no report #{id}"), id=report_id)
    if status != OPEN:
        raise ModerationError(N_("report #{id} is closed already"), id=report_id)
    conn.execute(
        update(reports)
        .where(reports.c.id == report_id)
        .values(status=CLOSED, closed_at=now, closed_by=actor[:64])
    )
    log_action(conn, actor, "close-report", f"report:{report_id}", None, now)


# ------------------------------------------------------------------------------------- players


def player_known(conn: Connection, player_id: str) -> bool:
    """Whether a player of that id exists."""
    return conn.execute(select(players.c.id).where(players.c.id == player_id)).first() is not None


def account_known(conn: Connection, account_id: str) -> bool:
    """Whether an account of that id exists."""
    return conn.execute(select(accounts.c.id).where(accounts.c.id == account_id)).first() is not None


def forgive(conn: Connection, player_id: str, *, actor: str, now: float) -> int:
    """Forgive every counted abandonment of the player (its playban ends), and log it; how many."""
    result = conn.execute(
        update(abandonments)
        .where(abandonments.c.player_id == player_id, abandonments.c.forgiven.is_(False))
        .values(forgiven=True)
    )
    count = int(result.rowcount or 0)
    log_action(conn, actor, "forgive", f"player:{player_id}", f"{count} abandoned games", now)
    return count


def abandoned_games(conn: Connection, player_id: str, limit: int = 50) -> list[dict[str, Any]]:
    """The player's abandoned rated games, newest first."""
    rows = conn.execute(
        select(abandonments)
        .where(abandonments.c.player_id == player_id)
        .order_by(abandonments.c.at.desc())
        .limit(limit)
    ).all()
    return [dict(r._mapping) for r in rows]
