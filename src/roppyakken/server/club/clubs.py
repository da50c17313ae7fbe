"""Clubs: players with accounts who gather, their roles, admission, leaderboard and chat.

A club has a name (unique after NFKC, case folding and UTS #39's skeleton, like a
sign-in name: server/people/logins.py), a description, a language, an admission
(``open``: anyone with an account joins; ``request``: a leader accepts each request;
``invitation``: only those invited join) and a private flag (a private club is shown
to its members and the players it invited only; to anyone else it does not exist).

Roles: one ``owner``, ``leader``\\ s and ``member``\\ s.  The owner and the leaders accept
and decline requests, invite, remove members (the owner alone removes leaders; nobody
removes the owner) and hide chat lines (a hidden line is gone for everyone).  The owner
alone promotes and demotes leaders and hands the club over (becoming a leader).
Members leave; an owner who leaves (or whose account is erased: :func:`forget`) hands
the club to the longest-standing leader, else the longest-standing member; a club whose
last member leaves is deleted.

Every bound is :class:`~roppyakken.server.config.Limits`'s: clubs a player owns and
belongs to, members a club has, its open requests and invitations, its chat's rate and
the lines kept.  The chat's rate is counted in the database, so it is the same on every
member of a cluster, and every reader asks the database for the newest lines: a line
posted on one member is read on every other.

Each changing function checks everything before it writes and returns its refusal
(:class:`ClubRefused`) rather than raising it: a raise would fail the database batch it
shares (server/store/database.py).  Each change of a club's members first
locks the club's row (a write that changes nothing), so that two changes at once, from two
members of a cluster or two connections to one SQLite file, never both take its last place.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import wraps
from typing import Final, Literal, ParamSpec, TypeVar

from sqlalchemy import Connection, and_, delete, func, insert, select, update

from roppyakken.errors import RoppyakkenError
from roppyakken.server.club.ratings.scale import display, provisional, uncertainty
from roppyakken.server.config import Limits
from roppyakken.server.people import moderation
from roppyakken.server.people.logins import normalize, skeleton
from roppyakken.server.store.tables import (
    accounts,
    blocks,
    club_chat,
    club_members,
    club_pending,
    clubs,
    players,
    ratings,
)
from roppyakken.server.wire import text as said
from roppyakken.server.wire.answers import (
    ClubAnswer,
    ClubBoard,
    ClubBoardEntry,
    ClubChanged,
    ClubChatLine,
    ClubMember,
    ClubPendingEntry,
    ClubsAnswer,
    ClubSummary,
    TournamentSummary,
)

P = ParamSpec("P")
T = TypeVar("T")

Role = Literal["owner", "leader", "member"]
LEADING: Final = ("owner", "leader")
CHAT_SHOWN: Final = 50
"""Lines of a club's chat a reader is given (the newest)."""
LISTED: Final = 50
"""Clubs a search lists (the most members first)."""
BOARD_TOP: Final = 50
"""Members a pool's club leaderboard shows."""
CHAT_CHANNEL: Final = "club"
"""The ``reports.channel`` of a reported club chat line (its ``room_id`` is ``club:<id>``)."""
CLUB_ID: Final = 12
"""Hex digits of a club's id."""


class ClubRefused(RoppyakkenError):
    """A change a club refuses: the HTTP status, and one line as a template and its fields."""

    def __init__(self, status: int, message: object, /, **fields: object) -> None:
        super().__init__(message, **fields)
        self.status = status


def refusing(op: Callable[P, T]) -> Callable[P, T | ClubRefused]:
    """``op`` returning its :class:`ClubRefused` instead of raising it (it must refuse before it
    writes)."""

    @wraps(op)
    def run(*args: P.args, **kwargs: P.kwargs) -> T | ClubRefused:
        try:
            return op(*args, **kwargs)
        except ClubRefused as refused:
            return refused

    return run


@dataclass(frozen=True, slots=True)
class Club:
    """A club's row."""

    id: str
    name: str
    description: str
    language: str
    admission: str
    private: bool
    created_at: float


def name_key(name: str) -> str:
    """The form two club names are compared in: the skeleton of the NFKC, case-folded name."""
    return skeleton(normalize(name))


def _iso(at: float) -> str:
    return datetime.fromtimestamp(at, UTC).isoformat().replace("+00:00", "Z")


_CLUB_COLUMNS: Final = (
    clubs.c.id,
    clubs.c.name,
    clubs.c.description,
    clubs.c.language,
    clubs.c.admission,
    clubs.c.private,
    clubs.c.created_at,
)


def _club(row: Sequence[object]) -> Club:
    return Club(
        str(row[0]), str(row[1]), str(row[2]), str(row[3]), str(row[4]), bool(row[5]), float(str(row[6]))
    )


def find(conn: Connection, club_id: str) -> Club | None:
    """The club of this id, or None."""
    row = conn.execute(select(*_CLUB_COLUMNS).where(clubs.c.id == club_id)).first()
    return None if row is None else _club(row)


def role_of(conn: Connection, club_id: str, player_id: str | None) -> Role | None:
    """The player's role in the club, or None if it is not a member."""
    if player_id is None:
        return None
    found = conn.execute(
        select(club_members.c.role).where(
            club_members.c.club_id == club_id, club_members.c.player_id == player_id
        )
    ).scalar()
    return None if found is None else _role(str(found))


def _role(value: str) -> Role:
    if value == "owner":
        return "owner"
    return "leader" if value == "leader" else "member"


def is_member(conn: Connection, club_id: str, player_id: str) -> bool:
    """Whether the player belongs to the club (in any role): what a club-only tournament asks."""
    return role_of(conn, club_id, player_id) is not None


def _pending_of(
    conn: Connection, club_id: str, player_id: str | None
) -> Literal["request", "invitation"] | None:
    if player_id is None:
        return None
    found = conn.execute(
        select(club_pending.c.kind).where(
            club_pending.c.club_id == club_id, club_pending.c.player_id == player_id
        )
    ).scalar()
    if found is None:
        return None
    return "invitation" if found == "invitation" else "request"


def _visible(conn: Connection, club: Club, viewer: str | None) -> bool:
    """Whether ``viewer`` may know the club exists: any club but a private one, which its members and
    the players it invited see."""
    if not club.private:
        return True
    return role_of(conn, club.id, viewer) is not None or _pending_of(conn, club.id, viewer) == "invitation"


def _seen(conn: Connection, club_id: str, viewer: str | None) -> Club:
    """The club as ``viewer`` may see it (ClubRefused 404 if it does not exist for it)."""
    club = find(conn, club_id)
    if club is None or not _visible(conn, club, viewer):
        raise ClubRefused(404, said.CLUB_NONE, club=club_id[:40])
    return club


def _lock(conn: Connection, club_id: str) -> None:
    """Hold the club's row until the transaction ends: a write that changes nothing (PostgreSQL locks
    the row; SQLite takes its write lock, so what follows reads and writes as one)."""
    conn.execute(update(clubs).where(clubs.c.id == club_id).values(name=clubs.c.name))


def _lock_player(conn: Connection, player_id: str) -> None:
    """Hold the player's row until the transaction ends (as :func:`_lock`), so that two changes never
    both let it make or take its last club."""
    conn.execute(update(players).where(players.c.id == player_id).values(name=players.c.name))


def _count(conn: Connection, *where: object) -> int:
    return int(conn.execute(select(func.count()).select_from(club_members).where(*where)).scalar_one())  # type: ignore[arg-type]


def _has_account(conn: Connection, player_id: str) -> bool:
    found = conn.execute(select(accounts.c.id).where(accounts.c.player_id == player_id).limit(1)).first()
    return found is not None


# --- making and finding clubs ---------------------------------------------------------------------


@refusing
def create(
    conn: Connection,
    owner: str,
    name: str,
    description: str,
    language: str,
    admission: str,
    private: bool,
    now: float,
    limits: Limits,
) -> str:
    """A new club owned by ``owner`` (an account's player); its id.  Refused if the name (or one that
    looks like it) is taken, or the owner owns or belongs to as many clubs as it may."""
    _lock_player(conn, owner)
    key = name_key(name)
    if conn.execute(select(clubs.c.id).where(clubs.c.name_key == key)).first() is not None:
        raise ClubRefused(409, said.CLUB_NAME_TAKEN)
    if (
        _count(conn, club_members.c.player_id == owner, club_members.c.role == "owner")
        >= limits.clubs_per_owner
    ):
        raise ClubRefused(409, said.CLUB_OWNS_TOO_MANY, max=limits.clubs_per_owner)
    if _count(conn, club_members.c.player_id == owner) >= limits.clubs_per_player:
        raise ClubRefused(409, said.CLUB_JOINED_TOO_MANY, max=limits.clubs_per_player)
    club_id = secrets.token_hex(CLUB_ID // 2)
    conn.execute(
        insert(clubs).values(
            id=club_id,
            name=name,
            name_key=key,
            description=description,
            language=language,
            admission=admission,
            private=private,
            created_at=now,
        )
    )
    conn.execute(insert(club_members).values(club_id=club_id, player_id=owner, role="owner", joined_at=now))
    return club_id


def _member_counts(conn: Connection, club_ids: list[str]) -> dict[str, int]:
    if not club_ids:
        return {}
    rows = conn.execute(
        select(club_members.c.club_id, func.count())
        .where(club_members.c.club_id.in_(club_ids))
        .group_by(club_members.c.club_id)
    )
    return {str(r[0]): int(r[1]) for r in rows}


def _summaries(conn: Connection, found: list[Club], viewer: str | None) -> list[ClubSummary]:
    counts = _member_counts(conn, [c.id for c in found])
    roles: dict[str, Role] = {}
    pending: dict[str, Literal["request", "invitation"]] = {}
    if viewer is not None and found:
        ids = [c.id for c in found]
        for club_id, role in conn.execute(
            select(club_members.c.club_id, club_members.c.role).where(
                club_members.c.player_id == viewer, club_members.c.club_id.in_(ids)
            )
        ):
            roles[str(club_id)] = _role(str(role))
        for club_id, kind in conn.execute(
            select(club_pending.c.club_id, club_pending.c.kind).where(
                club_pending.c.player_id == viewer, club_pending.c.club_id.in_(ids)
            )
        ):
            pending[str(club_id)] = "invitation" if kind == "invitation" else "request"
    return [
        ClubSummary(
            id=c.id,
            name=c.name,
            description=c.description,
            language=c.language,
            admission=_admission(c.admission),
            private=c.private,
            members=counts.get(c.id, 0),
            created_at=_iso(c.created_at),
            role=roles.get(c.id),
            pending=pending.get(c.id),
        )
        for c in found
    ]


def _admission(value: str) -> Literal["open", "request", "invitation"]:
    if value == "request":
        return "request"
    return "invitation" if value == "invitation" else "open"


def listing(conn: Connection, viewer: str | None, query: str = "") -> ClubsAnswer:
    """Public clubs whose name contains ``query`` (compared as names are; all if empty), the most
    members first; the viewer's own clubs and its invitations."""
    members = (
        select(club_members.c.club_id, func.count().label("n")).group_by(club_members.c.club_id).subquery()
    )
    search = (
        select(*_CLUB_COLUMNS)
        .join(members, members.c.club_id == clubs.c.id)
        .where(clubs.c.private.is_(False))
        .order_by(members.c.n.desc(), clubs.c.created_at)
        .limit(LISTED)
    )
    key = name_key(query) if query.strip() else ""
    if key:
        search = search.where(clubs.c.name_key.contains(key, autoescape=True))
    found = [_club(r) for r in conn.execute(search)]
    mine: list[Club] = []
    invited: list[Club] = []
    if viewer is not None:
        mine = [
            _club(r)
            for r in conn.execute(
                select(*_CLUB_COLUMNS)
                .join(club_members, club_members.c.club_id == clubs.c.id)
                .where(club_members.c.player_id == viewer)
                .order_by(club_members.c.joined_at)
            )
        ]
        invited = [
            _club(r)
            for r in conn.execute(
                select(*_CLUB_COLUMNS)
                .join(club_pending, club_pending.c.club_id == clubs.c.id)
                .where(club_pending.c.player_id == viewer, club_pending.c.kind == "invitation")
                .order_by(club_pending.c.at)
            )
        ]
    return ClubsAnswer(
        clubs=_summaries(conn, found, viewer),
        mine=_summaries(conn, mine, viewer),
        invitations=_summaries(conn, invited, viewer),
    )


# --- the club's page ------------------------------------------------------------------------------


def _names(conn: Connection, ids: Sequence[str]) -> dict[str, str]:
    if not ids:
        return {}
    return {
        str(r[0]): str(r[1])
        for r in conn.execute(select(players.c.id, players.c.name).where(players.c.id.in_(ids)))
    }


_ROLE_ORDER: Final = {"owner": 0, "leader": 1, "member": 2}


@refusing
def page(
    conn: Connection,
    club_id: str,
    viewer: str | None,
    tournaments: Callable[[Connection, str], list[TournamentSummary]] = lambda _c, _id: [],
) -> ClubAnswer:
    """The club's page as ``viewer`` sees it: the club, its members with their ratings, the open
    requests and invitations (for its owner and leaders), its leaderboard in each pool some member
    is rated in (read from the ratings, never recomputed), and its tournaments as ``tournaments``
    lists them (server/club/tournaments/view.py ``of_club``, which reads this module)."""
    club = _seen(conn, club_id, viewer)
    rows = conn.execute(
        select(club_members.c.player_id, club_members.c.role, club_members.c.joined_at, players.c.name)
        .join(players, players.c.id == club_members.c.player_id)
        .where(club_members.c.club_id == club_id)
    ).all()
    ids = [str(r[0]) for r in rows]
    names = {str(r[0]): str(r[3]) for r in rows}
    rated: dict[str, list[tuple[str, float, float, int]]] = {}
    mine: dict[str, dict[str, int]] = {}
    if ids:
        for player_id, pool, mu, sigma, games in conn.execute(
            select(ratings.c.player_id, ratings.c.pool, ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
                ratings.c.player_id.in_(ids)
            )
        ):
            rated.setdefault(str(pool), []).append((str(player_id), float(mu), float(sigma), int(games)))
            mine.setdefault(str(player_id), {})[str(pool)] = display(float(mu), float(sigma))
    members = [
        ClubMember(
            player=str(r[0]),
            name=str(r[3]),
            role=_role(str(r[1])),
            joined_at=_iso(float(r[2])),
            ratings=mine.get(str(r[0]), {}),
        )
        for r in sorted(rows, key=lambda r: (_ROLE_ORDER.get(str(r[1]), 3), float(r[2]), str(r[0])))
    ]
    boards: list[ClubBoard] = []
    for pool in sorted(rated):
        best = sorted(rated[pool], key=lambda e: (-display(e[1], e[2]), e[0]))[:BOARD_TOP]
        entries = [
            ClubBoardEntry(
                rank=i + 1,
                player=player_id,
                name=names.get(player_id, ""),
                rating=display(mu, sigma),
                uncertainty=uncertainty(sigma),
                provisional=provisional(sigma, games),
                games=games,
            )
            for i, (player_id, mu, sigma, games) in enumerate(best)
        ]
        boards.append(ClubBoard(pool=pool, players=entries))
    pending: list[ClubPendingEntry] = []
    if role_of(conn, club_id, viewer) in LEADING:
        waiting = conn.execute(
            select(club_pending.c.player_id, club_pending.c.kind, club_pending.c.at)
            .where(club_pending.c.club_id == club_id)
            .order_by(club_pending.c.at)
        ).all()
        waiting_names = _names(conn, [str(r[0]) for r in waiting])
        pending = [
            ClubPendingEntry(
                player=str(r[0]),
                name=waiting_names.get(str(r[0]), ""),
                kind="invitation" if r[1] == "invitation" else "request",
                at=_iso(float(r[2])),
            )
            for r in waiting
        ]
    return ClubAnswer(
        club=_summaries(conn, [club], viewer)[0],
        members=members,
        pending=pending,
        leaderboards=boards,
        tournaments=tournaments(conn, club_id),
    )


# --- membership -----------------------------------------------------------------------------------


def _changed(club_id: str, player_id: str, status: str) -> ClubChanged:
    return ClubChanged(club=club_id, player=player_id, status=status)  # type: ignore[typeddict-item]


def _check_room(conn: Connection, club_id: str, player_id: str, limits: Limits) -> None:
    """Refuse if the club is full or the player belongs to as many clubs as it may."""
    _lock_player(conn, player_id)
    if _count(conn, club_members.c.club_id == club_id) >= limits.club_members:
        raise ClubRefused(409, said.CLUB_FULL, max=limits.club_members)
    if _count(conn, club_members.c.player_id == player_id) >= limits.clubs_per_player:
        raise ClubRefused(409, said.CLUB_JOINED_TOO_MANY, max=limits.clubs_per_player)


def _admit(conn: Connection, club_id: str, player_id: str, now: float) -> ClubChanged:
    conn.execute(
        delete(club_pending).where(club_pending.c.club_id == club_id, club_pending.c.player_id == player_id)
    )
    conn.execute(
        insert(club_members).values(club_id=club_id, player_id=player_id, role="member", joined_at=now)
    )
    return _changed(club_id, player_id, "member")


def _check_pending_room(conn: Connection, club_id: str, limits: Limits) -> None:
    waiting = int(
        conn.execute(
            select(func.count()).select_from(club_pending).where(club_pending.c.club_id == club_id)
        ).scalar_one()
    )
    if waiting >= limits.club_pending:
        raise ClubRefused(409, said.CLUB_TOO_MANY_PENDING, max=limits.club_pending)


@refusing
def join(conn: Connection, club_id: str, player_id: str, now: float, limits: Limits) -> ClubChanged:
    """The player (an account's) joins the club: at once if it is open or the player was invited; a
    request the leaders answer if it admits by request; refused if by invitation only."""
    _lock(conn, club_id)
    club = _seen(conn, club_id, player_id)
    if role_of(conn, club_id, player_id) is not None:
        raise ClubRefused(409, said.CLUB_ALREADY_MEMBER)
    pending = _pending_of(conn, club_id, player_id)
    if pending == "invitation" or club.admission == "open":
        _check_room(conn, club_id, player_id, limits)
        return _admit(conn, club_id, player_id, now)
    if club.admission == "invitation":
        raise ClubRefused(403, said.CLUB_BY_INVITATION)
    if pending == "request":
        raise ClubRefused(409, said.CLUB_ALREADY_PENDING)
    _check_pending_room(conn, club_id, limits)
    conn.execute(insert(club_pending).values(club_id=club_id, player_id=player_id, kind="request", at=now))
    return _changed(club_id, player_id, "requested")


def _successor(conn: Connection, club_id: str, leaving: str) -> str | None:
    """The member who takes the club over from its owner: the longest-standing leader, else member."""
    found = conn.execute(
        select(club_members.c.player_id)
        .where(club_members.c.club_id == club_id, club_members.c.player_id != leaving)
        .order_by((club_members.c.role != "leader"), club_members.c.joined_at, club_members.c.player_id)
        .limit(1)
    ).scalar()
    return None if found is None else str(found)


def _delete_club(conn: Connection, club_id: str) -> None:
    for table in (club_chat, club_pending, club_members):
        conn.execute(delete(table).where(table.c.club_id == club_id))
    conn.execute(delete(clubs).where(clubs.c.id == club_id))


def _leave(conn: Connection, club_id: str, player_id: str) -> ClubChanged:
    """The member leaves (see the module docstring for an owner); what became of it."""
    if role_of(conn, club_id, player_id) == "owner":
        heir = _successor(conn, club_id, player_id)
        if heir is None:
            _delete_club(conn, club_id)
            return _changed(club_id, player_id, "deleted")
        conn.execute(
            update(club_members)
            .where(club_members.c.club_id == club_id, club_members.c.player_id == heir)
            .values(role="owner")
        )
    conn.execute(
        delete(club_members).where(club_members.c.club_id == club_id, club_members.c.player_id == player_id)
    )
    return _changed(club_id, player_id, "none")


@refusing
def leave(conn: Connection, club_id: str, player_id: str) -> ClubChanged:
    """The player leaves the club (an owner hands it over first, to the longest-standing leader or
    member; the last member's leaving deletes it)."""
    _lock(conn, club_id)
    _seen(conn, club_id, player_id)
    if role_of(conn, club_id, player_id) is None:
        raise ClubRefused(409, said.CLUB_NOT_MEMBER)
    return _leave(conn, club_id, player_id)


def _leader(conn: Connection, club_id: str, actor: str) -> Role:
    """The actor's role, refused unless it leads the club (404 for whoever may not see it)."""
    _seen(conn, club_id, actor)
    role = role_of(conn, club_id, actor)
    if role is None:
        raise ClubRefused(403, said.CLUB_MEMBERS_ONLY)
    if role not in LEADING:
        raise ClubRefused(403, said.CLUB_LEADERS_ONLY)
    return role


@refusing
def invite(
    conn: Connection, club_id: str, actor: str, player_id: str, now: float, limits: Limits
) -> ClubChanged:
    """A leader invites a player (an account's): it joins when it accepts (``join``); a player who had
    asked to join is admitted at once."""
    _lock(conn, club_id)
    _leader(conn, club_id, actor)
    if not _has_account(conn, player_id):
        raise ClubRefused(404, said.CLUB_NO_ACCOUNT, player=player_id[:40])
    if role_of(conn, club_id, player_id) is not None:
        raise ClubRefused(409, said.CLUB_ALREADY_MEMBER)
    pending = _pending_of(conn, club_id, player_id)
    if pending == "request":
        _check_room(conn, club_id, player_id, limits)
        return _admit(conn, club_id, player_id, now)
    if pending == "invitation":
        raise ClubRefused(409, said.CLUB_ALREADY_PENDING)
    _check_pending_room(conn, club_id, limits)
    conn.execute(
        insert(club_pending).values(
            club_id=club_id, player_id=player_id, kind="invitation", by_player=actor, at=now
        )
    )
    return _changed(club_id, player_id, "invited")


@refusing
def accept(
    conn: Connection, club_id: str, actor: str, player_id: str, now: float, limits: Limits
) -> ClubChanged:
    """A leader accepts a player's request to join."""
    _lock(conn, club_id)
    _leader(conn, club_id, actor)
    if _pending_of(conn, club_id, player_id) != "request":
        raise ClubRefused(404, said.CLUB_NOT_PENDING)
    _check_room(conn, club_id, player_id, limits)
    return _admit(conn, club_id, player_id, now)


@refusing
def decline(conn: Connection, club_id: str, actor: str, player_id: str) -> ClubChanged:
    """A leader declines a request or takes an invitation back; a player withdraws its own request or
    declines its own invitation."""
    _lock(conn, club_id)
    if actor == player_id:
        _seen(conn, club_id, actor)
    else:
        _leader(conn, club_id, actor)
    if _pending_of(conn, club_id, player_id) is None:
        raise ClubRefused(404, said.CLUB_NOT_PENDING)
    conn.execute(
        delete(club_pending).where(club_pending.c.club_id == club_id, club_pending.c.player_id == player_id)
    )
    return _changed(club_id, player_id, "none")


@refusing
def remove(conn: Connection, club_id: str, actor: str, player_id: str) -> ClubChanged:
    """A leader removes a member (the owner alone a leader; nobody the owner)."""
    _lock(conn, club_id)
    role = _leader(conn, club_id, actor)
    target = role_of(conn, club_id, player_id)
    if target is None:
        raise ClubRefused(404, said.CLUB_NOT_MEMBER)
    if target == "owner":
        raise ClubRefused(403, said.CLUB_OWNER_STAYS)
    if target == "leader" and role != "owner":
        raise ClubRefused(403, said.CLUB_OWNER_ONLY)
    return _leave(conn, club_id, player_id)


@refusing
def set_role(
    conn: Connection, club_id: str, actor: str, player_id: str, role: str, limits: Limits
) -> ClubChanged:
    """The owner makes a member a leader or a leader a member, or hands the club over (``owner``: the
    former owner becomes a leader)."""
    _lock(conn, club_id)
    if _leader(conn, club_id, actor) != "owner":
        raise ClubRefused(403, said.CLUB_OWNER_ONLY)
    target = role_of(conn, club_id, player_id)
    if target is None:
        raise ClubRefused(404, said.CLUB_NOT_MEMBER)
    if target == "owner":
        raise ClubRefused(403, said.CLUB_OWNER_STAYS)
    where = and_(club_members.c.club_id == club_id, club_members.c.player_id == player_id)
    if role == "owner":
        _lock_player(conn, player_id)
        owned = _count(conn, club_members.c.player_id == player_id, club_members.c.role == "owner")
        if owned >= limits.clubs_per_owner:
            raise ClubRefused(409, said.CLUB_OWNS_TOO_MANY, max=limits.clubs_per_owner)
        conn.execute(
            update(club_members)
            .where(club_members.c.club_id == club_id, club_members.c.player_id == actor)
            .values(role="leader")
        )
    conn.execute(update(club_members).where(where).values(role=role))
    return _changed(club_id, player_id, role)


@refusing
def settle(
    conn: Connection,
    club_id: str,
    actor: str,
    description: str | None,
    language: str | None,
    admission: str | None,
    private: bool | None,
) -> ClubSummary:
    """The owner or a leader changes the club's description, language, admission or privacy (those
    given); the club as the actor now sees it.  Its name stays."""
    _lock(conn, club_id)
    _leader(conn, club_id, actor)
    changes: dict[str, object] = {}
    for column, value in (
        ("description", description),
        ("language", language),
        ("admission", admission),
        ("private", private),
    ):
        if value is not None:
            changes[column] = value
    if changes:
        conn.execute(update(clubs).where(clubs.c.id == club_id).values(**changes))
    club = find(conn, club_id)
    assert club is not None
    return _summaries(conn, [club], actor)[0]


# --- chat -----------------------------------------------------------------------------------------


def _member(conn: Connection, club_id: str, player_id: str | None) -> Role:
    _seen(conn, club_id, player_id)
    role = role_of(conn, club_id, player_id)
    if role is None:
        raise ClubRefused(403, said.CLUB_MEMBERS_ONLY)
    return role


@refusing
def chat(conn: Connection, club_id: str, viewer: str | None, limit: int = CHAT_SHOWN) -> list[ClubChatLine]:
    """The newest ``limit`` lines of the club's chat not hidden, oldest first (its members only);
    the lines of a player the viewer blocks never reach them."""
    _member(conn, club_id, viewer)
    blocked_author = (
        select(blocks.c.blocked)
        .where(blocks.c.blocker == viewer, blocks.c.blocked == club_chat.c.player_id)
        .exists()
    )
    rows = conn.execute(
        select(club_chat.c.id, club_chat.c.player_id, players.c.name, club_chat.c.text, club_chat.c.at)
        .join(players, players.c.id == club_chat.c.player_id, isouter=True)
        .where(club_chat.c.club_id == club_id, club_chat.c.hidden_by.is_(None), ~blocked_author)
        .order_by(club_chat.c.id.desc())
        .limit(limit)
    ).all()
    return [
        ClubChatLine(id=int(r[0]), player=str(r[1]), name=str(r[2] or ""), text=str(r[3]), at=float(r[4]))
        for r in reversed(rows)
    ]


@refusing
def post(
    conn: Connection, club_id: str, player_id: str, line: str, now: float, limits: Limits
) -> ClubChatLine:
    """A member posts a line (already checked: server/wire/bodies.py ``club_line``), within the rate
    of :attr:`~roppyakken.server.config.Limits.club_chat_per_minute`; the oldest lines past
    :attr:`~roppyakken.server.config.Limits.club_chat_kept` go."""
    _lock(conn, club_id)
    _member(conn, club_id, player_id)
    since = now - 60.0
    mine = conn.execute(
        select(func.count())
        .select_from(club_chat)
        .where(club_chat.c.player_id == player_id, club_chat.c.at > since)
    ).scalar_one()
    if int(mine) >= limits.club_chat_per_minute:
        raise ClubRefused(429, said.CHAT_TOO_FAST)
    everyone = conn.execute(
        select(func.count())
        .select_from(club_chat)
        .where(club_chat.c.club_id == club_id, club_chat.c.at > since)
    ).scalar_one()
    if int(everyone) >= 6 * limits.club_chat_per_minute:
        raise ClubRefused(429, said.CHAT_TOO_FAST)
    inserted = conn.execute(insert(club_chat).values(club_id=club_id, player_id=player_id, text=line, at=now))
    key = inserted.inserted_primary_key
    assert key is not None
    made = key[0]
    oldest_kept = conn.execute(
        select(club_chat.c.id)
        .where(club_chat.c.club_id == club_id)
        .order_by(club_chat.c.id.desc())
        .offset(limits.club_chat_kept - 1)
        .limit(1)
    ).scalar()
    if oldest_kept is not None:
        conn.execute(delete(club_chat).where(club_chat.c.club_id == club_id, club_chat.c.id < oldest_kept))
    name = conn.execute(select(players.c.name).where(players.c.id == player_id)).scalar()
    return ClubChatLine(id=int(made), player=player_id, name=str(name or ""), text=line, at=now)


def _line(conn: Connection, club_id: str, line_id: int) -> tuple[str, str]:
    """A visible line's author and text (ClubRefused 404 if the club has no such line, or it is hidden)."""
    row = conn.execute(
        select(club_chat.c.player_id, club_chat.c.text).where(
            club_chat.c.id == line_id, club_chat.c.club_id == club_id, club_chat.c.hidden_by.is_(None)
        )
    ).first()
    if row is None:
        raise ClubRefused(404, said.CLUB_NO_LINE, line=line_id)
    return str(row[0]), str(row[1])


@refusing
def hide(conn: Connection, club_id: str, actor: str, line_id: int) -> int:
    """A leader hides a line: nobody reads it any more; its id."""
    _leader(conn, club_id, actor)
    _line(conn, club_id, line_id)
    conn.execute(update(club_chat).where(club_chat.c.id == line_id).values(hidden_by=actor))
    return line_id


@refusing
def report(
    conn: Connection, club_id: str, reporter: str, address: str | None, line_id: int, reason: str, now: float
) -> int:
    """A member reports a line of the club's chat to the moderators (the rules of a room's reports:
    server/people/reporting.py); the report's id."""
    _member(conn, club_id, reporter)
    author, line = _line(conn, club_id, line_id)
    if author == reporter:
        raise ClubRefused(400, said.REPORT_SELF)
    if moderation.reports_since(conn, reporter, now - 3600) >= moderation.REPORTS_PER_HOUR:
        raise ClubRefused(429, said.REPORT_TOO_MANY)
    name = conn.execute(select(players.c.name).where(players.c.id == author)).scalar()
    filed = moderation.Report(
        f"club:{club_id}",
        "message",
        reason,
        CHAT_CHANNEL,
        line_id,
        None,
        author,
        None if name is None else str(name),
        line,
    )
    if moderation.already_reported(conn, reporter, filed):
        raise ClubRefused(409, said.REPORT_AGAIN)
    return moderation.store_report(conn, reporter, address, filed, now)


# --- an erased account ----------------------------------------------------------------------------


def forget(conn: Connection, player_ids: Sequence[str]) -> None:
    """The players of an erased account leave their clubs (an owner's pass on, a last member's are
    deleted: :func:`leave`), their requests and invitations go, and so do their chat lines."""
    if not player_ids:
        return
    ids = list(player_ids)
    for club_id, player_id in conn.execute(
        select(club_members.c.club_id, club_members.c.player_id).where(club_members.c.player_id.in_(ids))
    ).all():
        _lock(conn, str(club_id))
        _leave(conn, str(club_id), str(player_id))
    conn.execute(delete(club_pending).where(club_pending.c.player_id.in_(ids)))
    conn.execute(delete(club_chat).where(club_chat.c.player_id.in_(ids)))
