"""Ratings in the database: each rated game's update, in the transaction that ends the game, and the
replay of every stored game that rebuilds them.

**Order.**  ``rating_games.seq`` is the order the updates were applied in: each update
first takes the one ratings lock (PostgreSQL: a transaction-scoped advisory lock;
SQLite has one writer at a time anyway), then reads the players' ratings, takes its
``seq`` and writes, all in the game's ending transaction; the lock is held until that
commits.  Two games ending at once on two members of a cluster therefore update one
after the other, the second from the first's result, and the stored ``seq`` order is
that order.  (The lock is taken after the room's own row lock, the fence, while the
database writer's batch holds the locks of its earlier work: work that writes rows other
members write too runs in a transaction of its own, outside the batches
(server/store/database.py), and a deadlock PostgreSQL still breaks has the writer run
the broken-off transaction again.)
Replaying the stored results in ``seq`` order (:func:`replay`) gives
exactly the stored numbers: ``roppyakken ratings --recompute`` rewrites them from it,
``--check`` compares.

**Which games.**  A room is rated when it is made (``rooms.rated``: quick-paired
rooms, and public clocked rooms whose creator asked for it, on a preset's own rules).
At its end the game counts only if every seat was a person from the start, each a
different player known to the server (``seat_players``), no two of them seated from one
address or browser (the hashes ``seat_players`` keeps for rated rooms unless the server
runs with ``--rated-same-address``); its finishing order is
:func:`~.order.finishing_order`'s.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

from sqlalchemy import Connection, delete, insert, select, text, update

from roppyakken.server.club.ratings.model import Rating, new_rating, rate
from roppyakken.server.club.ratings.order import finishing_order
from roppyakken.server.club.ratings.pools import POOLS
from roppyakken.server.club.ratings.scale import MU0, display, nearest_bot, provisional, uncertainty
from roppyakken.server.store.room_store import utc
from roppyakken.server.store.tables import rating_games, rating_history, ratings, seat_players
from roppyakken.server.wire.lobby import LobbyRating

LOCK_KEY: Final = 0x5249_4E47  # "RING": the PostgreSQL advisory lock of rating updates
"""The advisory lock every rating update takes on PostgreSQL (see the module docstring)."""


def lock(conn: Connection) -> None:
    """Take the ratings lock until the transaction ends (PostgreSQL; SQLite writes one at a time)."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": LOCK_KEY})


def seat_owners(conn: Connection, room_id: str, players: int) -> list[str] | None:
    """The player of each seat of a room, in seat order; None unless every seat has its own player,
    and no two seats were taken from one address or browser (the hashes kept for rated rooms)."""
    found = conn.execute(
        select(
            seat_players.c.seat,
            seat_players.c.player_id,
            seat_players.c.address_hash,
            seat_players.c.browser_hash,
        ).where(seat_players.c.room_id == room_id)
    ).all()
    rows = {r[0]: r[1] for r in found}
    owners = [rows.get(seat) for seat in range(players)]
    if any(o is None for o in owners) or len(set(owners)) != players:
        return None
    for column in (2, 3):  # joined at once, two puppets could both pass the join's check: not rated
        marks = [r[column] for r in found if r[column] is not None]
        if len(set(marks)) != len(marks):
            return None
    return [str(o) for o in owners]


def _current(conn: Connection, pool: str, player_ids: Sequence[str]) -> dict[str, tuple[float, float, int]]:
    rows = conn.execute(
        select(ratings.c.player_id, ratings.c.mu, ratings.c.sigma, ratings.c.games).where(
            ratings.c.pool == pool, ratings.c.player_id.in_(list(player_ids))
        )
    )
    return {str(r[0]): (float(r[1]), float(r[2]), int(r[3])) for r in rows}


def record_game(
    conn: Connection,
    room_id: str,
    pool: str,
    at: datetime,
    *,
    winner: int | None,
    totals: Sequence[int],
    legs: Sequence[int],
    left: Sequence[bool],
) -> int | None:
    """Update the ratings for a rated room's game that ends in this transaction; its ``seq``, or None
    if it does not count (a seat without its own player, every seat abandoned, already counted)."""
    owners = seat_owners(conn, room_id, len(totals))
    # where the seats were taken from served this check only: not kept with the finished game
    conn.execute(
        update(seat_players)
        .where(seat_players.c.room_id == room_id)
        .values(address_hash=None, browser_hash=None)
    )
    places = finishing_order(winner, totals, legs, left)
    if places is None or owners is None:
        return None
    lock(conn)
    if conn.execute(select(rating_games.c.seq).where(rating_games.c.room_id == room_id)).first():
        return None
    result = {
        "players": owners,
        "places": places,
        "left": [bool(x) for x in left],
        "winner": winner,
        "totals": list(totals),
        "legs": list(legs),
    }
    inserted = conn.execute(
        insert(rating_games).values(
            room_id=room_id, pool=pool, finished_at=at, result=json.dumps(result, separators=(",", ":"))
        )
    ).inserted_primary_key
    assert inserted is not None
    seq = int(inserted[0])
    apply_result(conn, seq, pool, at, owners, places)
    return seq


def apply_result(
    conn: Connection, seq: int, pool: str, at: datetime, owners: Sequence[str], places: Sequence[int]
) -> list[Rating]:
    """Move the ratings of ``owners`` (seat order) in ``pool`` by one game (``places``) as game ``seq``."""
    known = _current(conn, pool, owners)
    fresh = new_rating()
    before = [known[p][:2] if p in known else fresh for p in owners]
    after = rate(before, list(places))
    for player_id, (mu, sigma), place in zip(owners, after, places, strict=True):
        if player_id in known:
            conn.execute(
                update(ratings)
                .where(ratings.c.player_id == player_id, ratings.c.pool == pool)
                .values(mu=mu, sigma=sigma, games=known[player_id][2] + 1, last_seq=seq, last_played=at)
            )
        else:
            conn.execute(
                insert(ratings).values(
                    player_id=player_id, pool=pool, mu=mu, sigma=sigma, games=1, last_seq=seq, last_played=at
                )
            )
        conn.execute(
            insert(rating_history).values(
                player_id=player_id, pool=pool, seq=seq, mu=mu, sigma=sigma, place=place
            )
        )
    return after


@dataclass(slots=True)
class Replayed:
    """Every rating as the stored games give it: ``ratings[(player, pool)] = (mu, sigma, games,
    last_seq, last_played)`` and each game's ``history`` rows."""

    ratings: dict[tuple[str, str], tuple[float, float, int, int, datetime]] = field(default_factory=dict)
    history: list[dict[str, Any]] = field(default_factory=list)
    games: int = 0


def stored_games(conn: Connection) -> Iterable[tuple[int, str, datetime, list[str], list[int]]]:
    """Every stored rated game in ``seq`` order: (seq, pool, finished at, players, places)."""
    rows = conn.execute(
        select(rating_games.c.seq, rating_games.c.pool, rating_games.c.finished_at, rating_games.c.result)
        .order_by(rating_games.c.seq)
        .execution_options(yield_per=2000)
    )
    for seq, pool, at, raw in rows:
        result = json.loads(raw)
        moment = utc(at)
        assert moment is not None
        yield (
            int(seq),
            str(pool),
            moment,
            [str(p) for p in result["players"]],
            [int(p) for p in result["places"]],
        )


def replay(games: Iterable[tuple[int, str, datetime, list[str], list[int]]]) -> Replayed:
    """The ratings that ``games`` (in order) give, from nothing: exactly what the updates stored."""
    out = Replayed()
    fresh = new_rating()
    for seq, pool, at, owners, places in games:
        before = []
        for player_id in owners:
            known = out.ratings.get((player_id, pool))
            before.append(fresh if known is None else known[:2])
        after = rate(before, places)
        for player_id, (mu, sigma), place in zip(owners, after, places, strict=True):
            known = out.ratings.get((player_id, pool))
            out.ratings[(player_id, pool)] = (mu, sigma, 1 if known is None else known[2] + 1, seq, at)
            out.history.append(
                {"player_id": player_id, "pool": pool, "seq": seq, "mu": mu, "sigma": sigma, "place": place}
            )
        out.games += 1
    return out


def stored_ratings(conn: Connection) -> dict[tuple[str, str], tuple[float, float, int, int, datetime]]:
    """Every stored rating, as :class:`Replayed` keeps them."""
    out = {}
    for r in conn.execute(select(ratings)).mappings():
        at = utc(r["last_played"])
        assert at is not None
        out[(str(r["player_id"]), str(r["pool"]))] = (
            float(r["mu"]),
            float(r["sigma"]),
            int(r["games"]),
            int(r["last_seq"]),
            at,
        )
    return out


def stored_history(conn: Connection) -> dict[tuple[str, str, int], tuple[float, float, int]]:
    """Every stored history row: (player, pool, seq) to (mu, sigma, place)."""
    return {
        (str(r[0]), str(r[1]), int(r[2])): (float(r[3]), float(r[4]), int(r[5]))
        for r in conn.execute(
            select(
                rating_history.c.player_id,
                rating_history.c.pool,
                rating_history.c.seq,
                rating_history.c.mu,
                rating_history.c.sigma,
                rating_history.c.place,
            )
        )
    }


def differences(conn: Connection, replayed: Replayed, limit: int = 20) -> list[str]:
    """Where the stored ratings and history differ from ``replayed`` (exact comparison), at most
    ``limit`` lines."""
    out: list[str] = []
    stored = stored_ratings(conn)
    for key in sorted(set(stored) | set(replayed.ratings)):
        if stored.get(key) != replayed.ratings.get(key):
            out.append(
                f"rating {key[0]} {key[1]}: stored {stored.get(key)}, recomputed {replayed.ratings.get(key)}"
            )
    history = stored_history(conn)
    again: dict[tuple[str, str, int], tuple[float, float, int]] = {
        (h["player_id"], h["pool"], h["seq"]): (h["mu"], h["sigma"], h["place"]) for h in replayed.history
    }
    for step in sorted(set(history) | set(again)):
        if history.get(step) != again.get(step):
            out.append(
                f"history {step[0]} {step[1]} #{step[2]}: stored {history.get(step)},"
                f" recomputed {again.get(step)}"
            )
    return out[:limit]


def rewrite(conn: Connection, replayed: Replayed) -> None:
    """Replace every stored rating and history row with ``replayed``'s (under the ratings lock)."""
    conn.execute(delete(rating_history))
    conn.execute(delete(ratings))
    rows = [
        {
            "player_id": p,
            "pool": pool,
            "mu": mu,
            "sigma": sigma,
            "games": games,
            "last_seq": seq,
            "last_played": at,
        }
        for (p, pool), (mu, sigma, games, seq, at) in replayed.ratings.items()
    ]
    for start in range(0, len(rows), 5000):
        conn.execute(insert(ratings), rows[start : start + 5000])
    for start in range(0, len(replayed.history), 5000):
        conn.execute(insert(rating_history), replayed.history[start : start + 5000])


def recompute(conn: Connection) -> Replayed:
    """Rebuild every rating from the stored games, in ``seq`` order, and store them (one transaction)."""
    lock(conn)
    replayed = replay(list(stored_games(conn)))
    rewrite(conn, replayed)
    return replayed


def shown(pool: str, mu: float, sigma: float, games: int) -> LobbyRating:
    """A rating as the API and the lobby show it."""
    return {
        "pool": pool,
        "rating": display(mu, sigma),
        "uncertainty": uncertainty(sigma),
        "provisional": provisional(sigma, games),
        "games": games,
        "bot": nearest_bot(pool, mu),
    }


def player_ratings(conn: Connection, player_id: str) -> dict[str, LobbyRating]:
    """A player's ratings by pool, as :func:`shown` (pools the player never played are absent)."""
    rows = conn.execute(
        select(ratings.c.pool, ratings.c.mu, ratings.c.sigma, ratings.c.games)
        .where(ratings.c.player_id == player_id)
        .order_by(ratings.c.pool)
    )
    return {str(r[0]): shown(str(r[0]), float(r[1]), float(r[2]), int(r[3])) for r in rows}


def standing(conn: Connection, player_id: str | None) -> dict[str, LobbyRating]:
    """A player's rating in every pool (:func:`shown`; ``rating`` None in a pool never played, with
    the bot a newcomer is taken to play like): what the lobby and ``/api/me/ratings`` give."""
    known = {} if player_id is None else player_ratings(conn, player_id)
    out = {}
    for pool in POOLS:
        out[pool] = known.get(pool) or {
            "pool": pool,
            "rating": None,
            "uncertainty": None,
            "provisional": True,
            "games": 0,
            "bot": nearest_bot(pool, MU0),
        }
    return out


def skills(conn: Connection, pool: str, player_ids: Sequence[str]) -> dict[str, float]:
    """The ``mu`` of each player in ``pool`` (a new player's for those never rated there)."""
    known = _current(conn, pool, player_ids)
    return {p: known[p][0] if p in known else MU0 for p in player_ids}
