"""Stored games, players, accounts and ratings for the tests of leaderboards and profiles.

Games are stored as the server stores them (``room_store.insert_room``, ``players.link_seat``,
``room_store.finish_room`` and the club's work at a game's end, ``ClubRecords.ended``), so their
seat summaries come from the real hook; ratings rows are
written as the ratings module writes them.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Connection, insert

from roppyakken.record import FORMAT
from roppyakken.server.club.game_end import ClubRecords
from roppyakken.server.people.players import hash_secret, link_seat
from roppyakken.server.play.effects import Ending
from roppyakken.server.store import room_store
from roppyakken.server.store.database import Database
from roppyakken.server.store.room_store import RoomRow, SeatRow
from roppyakken.server.store.tables import accounts, players, rating_history, ratings, rooms

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


SECRET = "profile-test-secret"
"""Every seeded player's cookie secret: the cookie ``<player id>.SECRET`` acts as that player."""


def add_player(conn: Connection, player_id: str, name: str, account: str | None = None) -> None:
    """A player row (``account``: the account that adopted it)."""
    conn.execute(
        insert(players).values(
            id=player_id, secret_hash=hash_secret(SECRET), name=name, created_at=NOW, account_id=account
        )
    )


def add_account(conn: Connection, account_id: str, player_id: str) -> None:
    """An account playing as ``player_id``."""
    conn.execute(insert(accounts).values(id=account_id, player_id=player_id, created_at=NOW))


def score(final: int, yaku: Sequence[str] = (), lucky: Sequence[str] = ()) -> dict[str, Any]:
    """One seat's score object of a round (FORMATS.md §1)."""
    return {
        "card_points": 0,
        "yaku": [{"slug": s, "points": 100} for s in yaku],
        "lucky_hands": [{"slug": s, "points": 100} for s in lucky],
        "round_score": final,
        "counted": final,
        "final": final,
    }


def record(
    names: Sequence[str],
    rounds: Sequence[Sequence[dict[str, Any]]],
    winner: int | None,
    abandoned: Sequence[int] = (),
) -> dict[str, Any]:
    """A finished game's record: ``rounds`` gives each round's score per seat; totals accumulate."""
    totals = [0] * len(names)
    out = []
    for scores in rounds:
        totals = [t + s["final"] for t, s in zip(totals, scores, strict=True)]
        out.append({"dealer": 0, "scores": list(scores), "totals": list(totals), "events": []})
    data: dict[str, Any] = {
        "format": FORMAT,
        "rules": {"preset": "classic", "options": {}},
        "seed": 1,
        "players": list(names),
        "rounds": out,
        "winner": winner,
    }
    if abandoned:
        data["online"] = {"clock": "5m", "by_clock": [], "abandoned": list(abandoned), "ended": "finished"}
    return data


def add_game(
    conn: Connection,
    room_id: str,
    seats: Sequence[tuple[str, str | None]],
    game: dict[str, Any],
    *,
    public: bool = True,
    rated: bool = False,
    at: datetime = NOW,
) -> None:
    """A finished game: ``seats`` are (name, player id or None for a bot) in seat order."""
    room = RoomRow(
        room_id, at - timedelta(minutes=30), len(seats), "classic", {}, 1, "playing", public=public
    )
    rows = [
        SeatRow(i, "human" if pid else "bot", name if pid else None, None if pid else "greedy")
        for i, (name, pid) in enumerate(seats)
    ]
    room_store.insert_room(conn, room, rows)
    if rated:
        conn.execute(rooms.update().where(rooms.c.id == room_id).values(rated=True))
    for i, (_, pid) in enumerate(seats):
        if pid is not None:
            link_seat(conn, room_id, i, pid)
    record = json.dumps(game)
    room_store.finish_room(conn, room_id, game.get("winner"), record, at)
    ended = ClubRecords().ended(Ending(room_id, record, "classic", len(seats), at, None))
    assert ended is not None
    ended(conn)


def add_rating(
    conn: Connection,
    player_id: str,
    pool: str,
    mu: float,
    sigma: float,
    games: int,
    last_played: datetime = NOW,
    history: Sequence[tuple[float, float, int]] = (),
) -> None:
    """A ``ratings`` row and its history points (mu, sigma, place), oldest first."""
    conn.execute(
        insert(ratings).values(
            player_id=player_id,
            pool=pool,
            mu=mu,
            sigma=sigma,
            games=games,
            last_seq=len(history),
            last_played=last_played,
        )
    )
    if history:
        conn.execute(
            insert(rating_history),
            [
                {"player_id": player_id, "pool": pool, "seq": i + 1, "mu": m, "sigma": s, "place": p}
                for i, (m, s, p) in enumerate(history)
            ],
        )


def seed_people(db: Database) -> None:
    """Ann (an account adopting her guest 'annguest'), Bob, Cy; games public and private."""

    def work(c: Any) -> None:
        add_player(c, "ann", "Ann")
        add_account(c, "acc1", "ann")
        add_player(c, "annguest", "Ann (guest)", account="acc1")
        add_player(c, "bob", "Bob")
        add_player(c, "cy", "Cy")
        # g1: public, Ann's guest beats Bob: rounds 100/0, 0/50, 300/0
        add_game(
            c,
            "g1",
            [("Ann", "annguest"), ("Bob", "bob")],
            record(
                ["Ann", "Bob"],
                [
                    [score(100, ["boar-deer-butterfly"]), score(0)],
                    [score(0), score(50, ["red-ribbons"])],
                    [score(300, ["boar-deer-butterfly", "red-ribbons"], ["hand-three"]), score(0)],
                ],
                winner=0,
            ),
            at=NOW - timedelta(hours=3),
        )
        # g2: private, Bob beats Ann (the account's own player); Ann abandoned
        add_game(
            c,
            "g2",
            [("Bob", "bob"), ("Ann", "ann")],
            record(["Bob", "Ann"], [[score(200, ["red-ribbons"]), score(-20)]], winner=0, abandoned=[1]),
            public=False,
            at=NOW - timedelta(hours=2),
        )
        # g3: public, 3 players with a bot: Ann second
        add_game(
            c,
            "g3",
            [("Cy", "cy"), ("Ann", "ann"), ("bot", None)],
            record(
                ["Cy", "Ann", "bot:greedy"], [[score(400), score(150, ["boar-deer-butterfly"]), score(0)]], 0
            ),
            at=NOW - timedelta(hours=1),
        )
        # g4: private, Bob and Cy only (never in Ann's profile)
        add_game(
            c,
            "g4",
            [("Bob", "bob"), ("Cy", "cy")],
            record(["Bob", "Cy"], [[score(10), score(0)]], 0),
            public=False,
        )

    db.run_now(work)
