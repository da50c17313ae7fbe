"""A seeded season of rated games for the ratings tests, and the reference computation they are checked
against: ``openskill``'s own PlackettLuce, called here directly, on a finishing order worked out here
(not with server/club/ratings' functions)."""

from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from openskill.models import PlackettLuce, PlackettLuceRating
from sqlalchemy import Connection, select

from roppyakken.server.club.ratings.pools import POOLS
from roppyakken.server.club.ratings.store import record_game
from roppyakken.server.people import players
from roppyakken.server.store import room_store
from roppyakken.server.store.tables import rating_history, ratings

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
