"""A seeded season of rated games for the ratings tests, and the reference computation they are checked
against: ``openskill``'s own PlackettLuce, called here directly, on a finishing order worked out here
(not with server/club/ratings' functions); the season played into a database, and a database of the
previous schema holding games, for the upgrade."""

from __future__ import annotations

import functools
import itertools
import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from alembic import command
from alembic.config import Config
from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import Connection, Engine, select, text

from roppyakken.server.club.ratings import store
from roppyakken.server.club.ratings.pools import POOLS
from roppyakken.server.club.ratings.store import record_game
from roppyakken.server.people import players
from roppyakken.server.store import room_store
from roppyakken.server.store.database import Database
from roppyakken.server.store.room_store import load_room
from roppyakken.server.store.tables import rating_history, ratings, rooms
from tests.harness.support import ROOT

START = datetime(2026, 1, 1, tzinfo=UTC)


@dataclass(slots=True)
class Game:
    """One rated game of the season: its room, pool, seat owners and how it ended."""

    room: str
    pool: str
    owners: list[str]
    winner: int
    totals: list[int]
    legs: list[int]
    left: list[bool]
    at: datetime


def expected_places(game: Game) -> list[int] | None:
    """The finishing order the issue asks for, written out independently: stayers by (won, legs,
    total), leavers tied last; competition ranks; None if everyone left."""
    n = len(game.totals)
    if all(game.left):
        return None
    stayers = [s for s in range(n) if not game.left[s]]
    ordered = sorted(stayers, key=lambda s: (s != game.winner, -game.legs[s], -game.totals[s]))
    places = [0] * n
    position = 1
    for _, group in itertools.groupby(
        ordered, key=lambda s: (s != game.winner, game.legs[s], game.totals[s])
    ):
        members = list(group)
        for s in members:
            places[s] = position
        position += len(members)
    for s in range(n):
        if game.left[s]:
            places[s] = len(stayers) + 1
    return places


def season(seed: int, games: int, people: list[str]) -> list[Game]:
    """``games`` random rated games among ``people``: 2 and 3 players, every pool, ties, leavers."""
    rng = random.Random(seed)
    out = []
    for index in range(games):
        pool = rng.choice(POOLS)
        n = int(pool[-1])
        owners = rng.sample(people, n)
        totals = [rng.choice((0, 100, 200, 300, 300, 600)) for _ in range(n)]
        legs = [rng.randint(0, 3) for _ in range(n)] if pool.startswith("match") else [0] * n
        winner = rng.randrange(n)
        left = [rng.random() < 0.08 for _ in range(n)]
        out.append(
            Game(
                f"room{seed}x{index}",
                pool,
                owners,
                winner,
                totals,
                legs,
                left,
                START + timedelta(minutes=index),
            )
        )
    return out


def make_people(conn: Connection, count: int) -> list[str]:
    """``count`` new players' ids."""
    return [players.create(conn, f"p{i}").id for i in range(count)]


def store_room(conn: Connection, game: Game) -> None:
    """The game's room with its seats, every seat a person linked to its player."""
    n = len(game.owners)
    row = room_store.RoomRow(game.room, game.at, n, "classic", {}, 1, "playing", rated=True)
    room_store.insert_room(conn, row, [room_store.SeatRow(i, "human", f"p{i}", None, "h") for i in range(n)])
    for seat, owner in enumerate(game.owners):
        players.link_seat(conn, game.room, seat, owner)


def record(conn: Connection, game: Game) -> int | None:
    """The server's update for this game (as rooms.py makes it at the game's end)."""
    return record_game(
        conn,
        game.room,
        game.pool,
        game.at,
        winner=game.winner,
        totals=game.totals,
        legs=game.legs,
        left=game.left,
    )


@dataclass(slots=True)
class Reference:
    """Every rating as openskill computes it, game after game, with its own objects."""

    model: PlackettLuce = field(default_factory=PlackettLuce)
    ratings: dict[tuple[str, str], PlackettLuceRating] = field(default_factory=dict)
    games: dict[tuple[str, str], int] = field(default_factory=dict)
    history: dict[tuple[str, str, int], tuple[float, float, int]] = field(default_factory=dict)

    def play(self, game: Game, seq: int) -> None:
        places = expected_places(game)
        assert places is not None
        teams = [[self.ratings.get((p, game.pool)) or self.model.rating()] for p in game.owners]
        after = self.model.rate(teams, ranks=[float(x) for x in places])
        for owner, team, place in zip(game.owners, after, places, strict=True):
            self.ratings[(owner, game.pool)] = team[0]
            self.games[(owner, game.pool)] = self.games.get((owner, game.pool), 0) + 1
            self.history[(owner, game.pool, seq)] = (team[0].mu, team[0].sigma, place)


def stored(conn: Connection) -> dict[tuple[str, str], tuple[float, float, int]]:
    """Every stored rating: (player, pool) to (mu, sigma, games)."""
    return {
        (r[0], r[1]): (r[2], r[3], r[4])
        for r in conn.execute(
            select(ratings.c.player_id, ratings.c.pool, ratings.c.mu, ratings.c.sigma, ratings.c.games)
        )
    }


def stored_history(conn: Connection) -> dict[tuple[str, str, int], tuple[float, float, int]]:
    """Every stored history row."""
    h = rating_history.c
    return {
        (r[0], r[1], r[2]): (r[3], r[4], r[5])
        for r in conn.execute(select(h.player_id, h.pool, h.seq, h.mu, h.sigma, h.place))
    }


def as_reference(ref: Reference) -> dict[tuple[str, str], tuple[float, float, int]]:
    """The reference ratings in :func:`stored`'s form."""
    return {k: (r.mu, r.sigma, ref.games[k]) for k, r in ref.ratings.items()}


def result_json(raw: str) -> dict[str, Any]:
    """A stored ``rating_games.result``."""
    data: dict[str, Any] = json.loads(raw)
    return data


def play_season(db: Database, seed: int, games: int, people: int) -> Reference:
    """The season through the server's update, each game in its own transaction, and the reference."""
    ids = db.run_now(lambda c: make_people(c, people))
    ref = Reference()
    counted = 0
    for game in season(seed, games, ids):
        db.run_now(functools.partial(store_room, game=game))
        seq = db.run_now(functools.partial(record, game=game))
        if expected_places(game) is None:
            assert seq is None
            continue
        assert seq is not None
        ref.play(game, seq)
        counted += 1
    assert counted > games * 0.9
    return ref


def upgrade_with_games(url: str) -> None:
    """A database at 0005 with players and finished games is upgraded to the head; the games are kept,
    nothing is rated, and rated games work from then on."""
    db = Database(url)
    try:
        migrate_to(db.engine, "0005_players")
        with db.engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO players (id, secret_hash, name, created_at) VALUES"
                    " ('p1', 'x', 'Ann', CURRENT_TIMESTAMP), ('p2', 'y', 'Bo', CURRENT_TIMESTAMP)"
                )
            )
            for room in ("old1", "old2"):
                conn.execute(
                    text(
                        "INSERT INTO rooms (id, created_at, players, preset, options, seed, status,"
                        " record, finished_at, winner, epoch, public) VALUES (:id, CURRENT_TIMESTAMP, 2,"
                        " 'classic', '{}', 5, 'over', '{}', CURRENT_TIMESTAMP, 0, 1, :public)"
                    ),
                    {"id": room, "public": True},
                )
                conn.execute(
                    text(
                        "INSERT INTO seats (room_id, seat, kind, name) VALUES (:r, 0, 'human', 'Ann'),"
                        " (:r, 1, 'human', 'Bo')"
                    ),
                    {"r": room},
                )
                conn.execute(
                    text(
                        "INSERT INTO seat_players (room_id, seat, player_id)"
                        " VALUES (:r, 0, 'p1'), (:r, 1, 'p2')"
                    ),
                    {"r": room},
                )
                conn.execute(
                    text("INSERT INTO actions (room_id, idx, seat, action) VALUES (:r, 0, 0, '{}')"),
                    {"r": room},
                )
        db.open()  # to the head
        with db.engine.connect() as conn:
            assert conn.execute(text("select version_num from alembic_version")).scalar() == "0014_audit36"
            assert conn.execute(select(rooms.c.id, rooms.c.rated).order_by(rooms.c.id)).all() == [
                ("old1", False),
                ("old2", False),
            ]
            assert conn.execute(select(ratings)).all() == []
        old = db.run_now(lambda c: load_room(c, "old1"))
        assert old is not None and old.room.status == "over" and old.actions == ["{}"] and not old.room.rated
        assert db.run_now(store.recompute).games == 0
        game = Game("new1", "classic-2", ["p1", "p2"], 1, [0, 600], [0, 0], [False, False], START)
        db.run_now(lambda c: store_room(c, game))
        assert db.run_now(lambda c: record(c, game)) is not None
        ref = Reference()
        ref.play(game, 1)
        assert db.run_now(stored) == as_reference(ref)
        assert db.run_now(lambda c: load_room(c, "new1")).room.rated  # type: ignore[union-attr]
    finally:
        db.engine.dispose()


def migrate_to(engine: Engine, revision: str) -> None:
    config = Config()
    location = ROOT / "src" / "roppyakken" / "server" / "store" / "migrations"
    config.set_main_option("script_location", str(location))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, revision)


def sqlite_database(tmp_path: Path, name: str = "r.sqlite3") -> Database:
    db = Database(f"sqlite:///{tmp_path / name}")
    db.open()
    return db
