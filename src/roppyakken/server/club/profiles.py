"""Leaderboards and player profiles: what they show and the queries behind them.

**Per-seat summaries.**  When a game ends, :func:`store_game` (called by
:func:`~roppyakken.server.store.room_store.finish_room`, in the same transaction) writes one
``game_seats`` row per seat from the game's record: the seat's place, the rounds it
scored, the sum of their final points and of their squares, whether the clock gave the
seat to a bot, and how often it made each yaku and lucky hand.  A profile adds these
rows up and never parses a record; :func:`backfill` writes them for games stored before
the table existed (the migration runs it).  Each row names the seat's player
(``seat_players``, linked when the seat was taken); an account adopting a guest changes
nothing stored here, as a profile gathers the games of every player id of the account
when it is asked for.  The index ``ix_game_seats_player`` holds each player's rows with
every column the totals add up, so a profile's totals read a few pages of one index.

**Leaderboards.**  One per rating pool: the players who played in the pool within the
last :data:`ACTIVE_DAYS` days and whose rating is no longer provisional, ordered by the
conservative rating ``mu - 3 sigma`` (the display rating grows with it), ties by player
id.  A page is read by walking the index ``ix_ratings_board`` in that order, and the
count reads only that index, so a deep page costs about what the first does.  Guests an
account adopted are left out (the account plays as its own player).

**Profiles.**  A player's profile covers every game of that player and, for an
account, of each guest player the account adopted.  Its totals (games, places, points,
yaku, lucky hands, abandonments) count every finished game, private ones included: they
show no game.  Its list of recent games shows only the games the viewer may see: public
games, and games the viewer (or the viewer's account) sat in.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from sqlalchemy import Connection, Integer, and_, bindparam, case, delete, func, insert, or_, select
from sqlalchemy.sql.elements import BindParameter

from roppyakken.server.club.ratings.pools import POOLS
from roppyakken.server.club.ratings.scale import (
    PROVISIONAL_GAMES,
    PROVISIONAL_SIGMA,
    display,
    provisional,
    uncertainty,
)
from roppyakken.server.store.tables import (
    BOARD_ORDINAL,
    accounts,
    game_seats,
    players,
    rating_history,
    ratings,
    rooms,
    seat_players,
    seats,
)
from roppyakken.server.wire.answers import (
    BoardEntry,
    LeaderboardAnswer,
    PointsInterval,
    ProfileAnswer,
    ProfileRating,
    RecentGame,
    SlugCount,
)

ACTIVE_DAYS: Final = 90
"""A player is on a pool's leaderboard if they played a rated game in it within this many days."""
PAGE_SIZE: Final = 50
"""Players on a leaderboard page unless asked otherwise."""
MAX_PAGE_SIZE: Final = 100
MAX_PAGE: Final = 100_000
RECENT_GAMES: Final = 20
"""Games in a profile's list of recent games."""
TOP_YAKU: Final = 10
"""Yaku in a profile's list of the yaku made most."""
HISTORY_POINTS: Final = 200
"""Rating history points a profile gives for each pool (the newest)."""
BACKFILL_BATCH: Final = 500
Z95: Final = 1.959963984540054
"""The normal quantile of a two-sided 95% interval."""

# --- per-seat summaries -------------------------------------------------------------------------


@dataclass(slots=True)
class SeatSummary:
    """What one seat did in one finished game (a ``game_seats`` row)."""

    seat: int
    place: int | None
    rounds: int
    points: int
    points_sq: float
    abandoned: bool
    yaku: dict[str, int]
    lucky: dict[str, int]


def places(winner: int | None, totals: Sequence[int], left: Sequence[bool]) -> list[int | None]:
    """Each seat's place: a seat the clock gave to a bot last, then the winner, then by final total;
    ties share a place (1, 2, 2).  No places (all None) for a game that ended without a winner."""
    if winner is None or all(left):
        return [None] * len(totals)

    def key(seat: int) -> tuple[int, int, int]:
        if left[seat]:
            return (1, 0, 0)
        return (0, 0 if seat == winner else 1, -totals[seat])

    keys = [key(seat) for seat in range(len(totals))]
    return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def summarize(record: dict[str, Any]) -> list[SeatSummary]:
    """The seats' summaries of a finished game's record (FORMATS.md §3, with the ``online`` extension)."""
    names = record.get("players") or []
    count = len(names)
    online = record.get("online") or {}
    left = [False] * count
    for seat in online.get("abandoned") or []:
        if isinstance(seat, int) and 0 <= seat < count:
            left[seat] = True
    out = [SeatSummary(seat, None, 0, 0, 0.0, left[seat], {}, {}) for seat in range(count)]
    totals = [0] * count
    for round_ in record.get("rounds") or []:
        scores = round_.get("scores")
        if round_.get("totals"):
            totals = [int(t) for t in round_["totals"]][:count] + [0] * max(0, count - len(round_["totals"]))
        if not scores:
            continue
        for seat, score in enumerate(scores[:count]):
            final = int(score.get("final", 0))
            summary = out[seat]
            summary.rounds += 1
            summary.points += final
            summary.points_sq += float(final) * final
            for made in score.get("yaku") or []:
                summary.yaku[made["slug"]] = summary.yaku.get(made["slug"], 0) + 1
            for made in score.get("lucky_hands") or []:
                summary.lucky[made["slug"]] = summary.lucky.get(made["slug"], 0) + 1
    winner = record.get("winner")
    for seat, place in enumerate(places(winner if isinstance(winner, int) else None, totals, left)):
        out[seat].place = place
    return out


def summary_rows(
    room_id: str,
    record: dict[str, Any],
    owners: dict[int, str],
    *,
    finished_at: datetime,
    preset: str,
    public: bool,
    rated: bool,
) -> list[dict[str, Any]]:
    """The ``game_seats`` rows of a finished game: its record, each seat's player (``owners``: seat to
    player id), and what its room says."""
    return [
        {
            "room_id": room_id,
            "seat": s.seat,
            "player_id": owners.get(s.seat),
            "finished_at": finished_at,
            "preset": preset,
            "public": public,
            "rated": rated,
            "place": s.place,
            "rounds": s.rounds,
            "points": s.points,
            "points_sq": s.points_sq,
            "abandoned": s.abandoned,
            "yaku": json.dumps(s.yaku, separators=(",", ":"), sort_keys=True),
            "lucky": json.dumps(s.lucky, separators=(",", ":"), sort_keys=True),
        }
        for s in summarize(record)
    ]


def store_game(conn: Connection, room_id: str, record: str | dict[str, Any]) -> None:
    """Write (or write again) the seat summaries of the finished game ``room_id`` (its room row must
    say it is finished: its finish time is copied from there)."""
    room = conn.execute(
        select(rooms.c.finished_at, rooms.c.preset, rooms.c.public, rooms.c.rated).where(
            rooms.c.id == room_id
        )
    ).first()
    if room is None or room[0] is None:
        return
    data = json.loads(record) if isinstance(record, str) else record
    owners = {seat: player for (_, seat), player in seat_owners(conn, [room_id]).items()}
    rows = summary_rows(
        room_id, data, owners, finished_at=room[0], preset=room[1], public=bool(room[2]), rated=bool(room[3])
    )
    conn.execute(delete(game_seats).where(game_seats.c.room_id == room_id))
    if rows:
        conn.execute(insert(game_seats), rows)


def backfill(conn: Connection, batch: int = BACKFILL_BATCH) -> int:
    """Write the summaries of every finished game that has none yet; the number of games written.

    A record that cannot be read is skipped (its game shows in no profile's totals)."""
    done = 0
    last = ""
    while True:
        summarized = select(game_seats.c.room_id).where(game_seats.c.room_id == rooms.c.id).exists()
        found = conn.execute(
            select(rooms.c.id, rooms.c.record)
            .where(
                rooms.c.status == "over",
                rooms.c.record.is_not(None),
                rooms.c.finished_at.is_not(None),
                rooms.c.id > last,
                ~summarized,
            )
            .order_by(rooms.c.id)
            .limit(batch)
        ).all()
        if not found:
            return done
        for room_id, record in found:
            try:
                store_game(conn, room_id, record)
            except (ValueError, TypeError, KeyError, AttributeError):
                continue
            done += 1
        last = found[-1][0]


# --- leaderboards -------------------------------------------------------------------------------


_ADOPTED_GUESTS: Final = select(players.c.id).where(
    players.c.account_id > "",  # every account id: a range the index serves (IS NOT NULL may scan)
    players.c.id.not_in(select(accounts.c.player_id)),
)
"""The ids of guest players an account adopted, its own player aside (their games count as the account's
player's); found through ``ix_players_account``, not by reading every player."""

_ON_BOARD: Final = and_(
    ratings.c.pool == bindparam("pool"),
    ratings.c.last_played >= bindparam("since"),
    ratings.c.games >= PROVISIONAL_GAMES,
    ratings.c.sigma <= PROVISIONAL_SIGMA,
    ratings.c.player_id.not_in(_ADOPTED_GUESTS),
)
# The statements are built once (with parameters) so that a request spends its time in the database.
_BOARD_COUNT: Final = select(func.count()).select_from(ratings).where(_ON_BOARD)
_BOARD_PAGE: Final = (
    select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.games, ratings.c.last_played)
    .where(_ON_BOARD)
    .order_by(BOARD_ORDINAL.desc(), ratings.c.player_id)
    .offset(bindparam("skip", type_=Integer))
    .limit(bindparam("take", type_=Integer))
)
_NAMES: Final = select(players.c.id, players.c.name).where(players.c.id.in_(bindparam("ids", expanding=True)))


def _iso(moment: datetime | None) -> str | None:
    if moment is None:
        return None
    text = moment.isoformat() if moment.tzinfo is not None else moment.isoformat() + "+00:00"
    return text.replace("+00:00", "Z")


def leaderboard(conn: Connection, pool: str, page: int, size: int, now: datetime) -> LeaderboardAnswer:
    """Page ``page`` (from 1) of ``pool``'s leaderboard, ``size`` players a page, as of ``now``
    (see the module docstring); with the number of players on the board and of pages.

    ``pool`` must be one of :data:`POOLS` (ValueError otherwise)."""
    if pool not in POOLS:
        raise ValueError(f"unknown rating pool {pool!r}")
    where = {"pool": pool, "since": now - timedelta(days=ACTIVE_DAYS)}
    total = int(conn.execute(_BOARD_COUNT, where).scalar_one())
    rows = conn.execute(_BOARD_PAGE, {**where, "skip": (page - 1) * size, "take": size}).all()
    names = _names(conn, [r[0] for r in rows])
    entries: list[BoardEntry] = [
        {
            "rank": (page - 1) * size + i + 1,
            "player": player_id,
            "name": names.get(player_id, ""),
            "rating": display(mu, sigma),
            "uncertainty": uncertainty(sigma),
            "games": games,
            "last_played": _iso(last_played),
        }
        for i, (player_id, mu, sigma, games, last_played) in enumerate(rows)
    ]
    return {
        "pool": pool,
        "page": page,
        "size": size,
        "total": total,
        "pages": max(1, math.ceil(total / size)),
        "active_days": ACTIVE_DAYS,
        "players": entries,
    }


def _names(conn: Connection, ids: Sequence[str]) -> dict[str, str]:
    if not ids:
        return {}
    return {str(r[0]): str(r[1]) for r in conn.execute(_NAMES, {"ids": list(ids)})}


# --- profiles -----------------------------------------------------------------------------------

_IDS: Final[BindParameter[Any]] = bindparam("ids", expanding=True)
_PLAYER = select(players.c.id, players.c.name, players.c.account_id).where(
    players.c.id == bindparam("player")
)
_ACCOUNT = (
    select(accounts.c.id, accounts.c.player_id)
    .where(or_(accounts.c.player_id == bindparam("player"), accounts.c.id == bindparam("account")))
    .limit(1)
)
_ADOPTED = select(players.c.id).where(players.c.account_id == bindparam("account"))
_NAME = select(players.c.name).where(players.c.id == bindparam("player"))
_MINE = game_seats.c.player_id.in_(_IDS)


def _count_of(condition: Any) -> Any:
    return func.coalesce(func.sum(case((condition, 1), else_=0)), 0)


# The totals are added up by the database: a busy player's thousands of games never reach Python.
_TOTALS = select(
    func.count(),
    func.coalesce(func.sum(game_seats.c.rounds), 0),
    func.coalesce(func.sum(game_seats.c.points), 0),
    func.coalesce(func.sum(game_seats.c.points_sq), 0.0),
    _count_of(game_seats.c.abandoned),
    _count_of(game_seats.c.place == 1),
    _count_of(game_seats.c.place == 2),
    _count_of(game_seats.c.place == 3),
).where(_MINE)
_MADE = (
    select(game_seats.c.yaku, game_seats.c.lucky, func.count())
    .where(_MINE)
    .group_by(game_seats.c.yaku, game_seats.c.lucky)
)
"""Each distinct (yaku, lucky hands) summary and how many games had it (far fewer than games)."""
_RECENT_COLUMNS = (
    game_seats.c.room_id,
    game_seats.c.seat,
    game_seats.c.place,
    game_seats.c.points,
    game_seats.c.finished_at,
    game_seats.c.public,
    game_seats.c.rated,
    game_seats.c.preset,
)
_RECENT_ORDER = (game_seats.c.finished_at.desc(), game_seats.c.room_id.desc())
_RECENT_PUBLIC = (
    select(*_RECENT_COLUMNS)
    .where(_MINE, game_seats.c.public.is_(True))
    .order_by(*_RECENT_ORDER)
    .limit(RECENT_GAMES)
)
_VIEWERS_ROOMS = select(game_seats.c.room_id).where(
    game_seats.c.player_id.in_(bindparam("viewers", expanding=True))
)
_RECENT_SEEN = (
    select(*_RECENT_COLUMNS)
    .where(_MINE, or_(game_seats.c.public.is_(True), game_seats.c.room_id.in_(_VIEWERS_ROOMS)))
    .order_by(*_RECENT_ORDER)
    .limit(RECENT_GAMES)
)
_RATINGS = select(
    ratings.c.pool, ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.games, ratings.c.last_played
).where(ratings.c.player_id.in_(_IDS))
_HISTORY = (
    select(rating_history.c.seq, rating_history.c.mu, rating_history.c.sigma, rating_history.c.place)
    .where(rating_history.c.player_id == bindparam("player"), rating_history.c.pool == bindparam("pool"))
    .order_by(rating_history.c.seq.desc())
    .limit(HISTORY_POINTS)
)
_SEAT_NAMES = (
    select(seats.c.room_id, seats.c.name, seats.c.level)
    .where(seats.c.room_id.in_(bindparam("rooms", expanding=True)))
    .order_by(seats.c.room_id, seats.c.seat)
)
_OWNERS = select(seat_players.c.room_id, seat_players.c.seat, seat_players.c.player_id).where(
    seat_players.c.room_id.in_(bindparam("rooms", expanding=True))
)


@dataclass(frozen=True, slots=True)
class Identity:
    """Whose profile: the player shown (an account's own player) and every player id whose games are
    theirs (an account's adopted guests too)."""

    player: str
    name: str
    ids: tuple[str, ...]


def identity(conn: Connection, player_id: str) -> Identity | None:
    """The identity of ``player_id`` (an adopted guest's is its account's), or None if unknown."""
    row = conn.execute(_PLAYER, {"player": player_id}).first()
    if row is None:
        return None
    account = conn.execute(_ACCOUNT, {"player": player_id, "account": row[2]}).first()
    if account is None:
        return Identity(str(row[0]), str(row[1]), (str(row[0]),))
    own = str(account[1])
    adopted = [str(r[0]) for r in conn.execute(_ADOPTED, {"account": account[0]})]
    name = row[1] if own == row[0] else conn.execute(_NAME, {"player": own}).scalar()
    return Identity(own, str(name or ""), tuple(sorted({own, *adopted})))


def _interval(rounds: int, points: int, squares: float) -> PointsInterval | None:
    """The mean points a round with its 95% interval (normal approximation; none under two rounds)."""
    if rounds == 0:
        return None
    mean = points / rounds
    if rounds < 2:
        return {"rounds": rounds, "mean": round(mean, 1), "low": None, "high": None}
    variance = max(0.0, (squares - points * points / rounds) / (rounds - 1))
    half = Z95 * math.sqrt(variance / rounds)
    return {
        "rounds": rounds,
        "mean": round(mean, 1),
        "low": round(mean - half, 1),
        "high": round(mean + half, 1),
    }


def _ratings(conn: Connection, who: Identity) -> list[ProfileRating]:
    """The player's rating in each pool they played, with its history (oldest point first)."""
    chosen: dict[str, tuple[Any, ...]] = {}
    for r in conn.execute(_RATINGS, {"ids": list(who.ids)}):
        known = chosen.get(r[0])
        # several of an account's players rated in one pool: the account's own, else the most played
        if known is None or (r[1] == who.player) or (known[1] != who.player and r[4] > known[4]):
            chosen[r[0]] = tuple(r)
    out: list[ProfileRating] = []
    for pool in sorted(chosen, key=lambda p: POOLS.index(p) if p in POOLS else len(POOLS)):
        _, owner, mu, sigma, games, last_played = chosen[pool]
        points = conn.execute(_HISTORY, {"player": owner, "pool": pool}).all()
        out.append(
            {
                "pool": pool,
                "rating": display(mu, sigma),
                "uncertainty": uncertainty(sigma),
                "provisional": provisional(sigma, games),
                "games": games,
                "last_played": _iso(last_played),
                "history": [
                    {"seq": seq, "rating": display(m, s), "uncertainty": uncertainty(s), "place": place}
                    for seq, m, s, place in reversed(points)
                ],
            }
        )
    return out


def profile(conn: Connection, player_id: str, viewer: str | None) -> ProfileAnswer | None:
    """The profile of ``player_id`` as ``viewer`` (a player id, or None: nobody known) may see it; None if
    there is no such player.  See the module docstring for what it covers."""
    who = identity(conn, player_id)
    if who is None:
        return None
    ids = {"ids": list(who.ids)}
    games, rounds, points, squares, abandoned, *places = conn.execute(_TOTALS, ids).one()
    yaku: Counter[str] = Counter()
    lucky: Counter[str] = Counter()
    for made, hands, count in conn.execute(_MADE, ids):
        for slug, n in json.loads(made).items():
            yaku[slug] += n * count
        for slug, n in json.loads(hands).items():
            lucky[slug] += n * count
    mine = None if viewer is None else identity(conn, viewer)
    if mine is None:
        recent = conn.execute(_RECENT_PUBLIC, ids).all()
    else:
        recent = conn.execute(_RECENT_SEEN, {**ids, "viewers": list(mine.ids)}).all()
    return {
        "player": who.player,
        "name": who.name,
        "ratings": _ratings(conn, who),
        "games": int(games),
        "places": {str(p): int(n) for p, n in zip((1, 2, 3), places, strict=True)},
        "points": _interval(int(rounds), int(points), float(squares)),
        "yaku": [SlugCount(slug=s, rounds=n) for s, n in sorted(yaku.items(), key=lambda i: (-i[1], i[0]))][
            :TOP_YAKU
        ],
        "lucky_hands": [
            SlugCount(slug=s, rounds=n) for s, n in sorted(lucky.items(), key=lambda i: (-i[1], i[0]))
        ],
        "abandoned": int(abandoned),
        "recent": _recent(conn, recent),
    }


def seat_owners(conn: Connection, room_ids: Sequence[str]) -> dict[tuple[str, int], str]:
    """The player of each seat of these rooms that a known player took: (room, seat) to player id
    (their profiles' addresses; bots' seats and seats taken without a player cookie have none)."""
    if not room_ids:
        return {}
    return {(str(r[0]), int(r[1])): str(r[2]) for r in conn.execute(_OWNERS, {"rooms": list(room_ids)})}


def _recent(conn: Connection, rows: Sequence[Any]) -> list[RecentGame]:
    """The recent games' lines: the room, when, the rules, every seat's name and player, the place."""
    ids = [r.room_id for r in rows]
    names: dict[str, list[str]] = {i: [] for i in ids}
    if ids:
        for s in conn.execute(_SEAT_NAMES, {"rooms": ids}):
            names[s[0]].append(s[1] or (f"bot:{s[2]}" if s[2] else ""))
    owners = seat_owners(conn, ids)
    return [
        {
            "room": r.room_id,
            "finished_at": _iso(r.finished_at),
            "preset": r.preset,
            "seat": r.seat,
            "players": names[r.room_id],
            "player_ids": [owners.get((r.room_id, seat)) for seat in range(len(names[r.room_id]))],
            "place": r.place,
            "points": r.points,
            "rated": bool(r.rated),
            "public": bool(r.public),
            "replay": f"/#/replay?room={r.room_id}",
        }
        for r in rows
    ]
