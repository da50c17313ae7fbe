"""Leaderboards and profiles (server/club/profiles.py) over stored games, on SQLite and PostgreSQL: the
seat summaries, a profile's totals, who sees which recent game, and the leaderboard's pages."""

from __future__ import annotations

import functools
import json
import statistics
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import create_engine, delete, func, select, text

from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import play_out
from roppyakken.engine import Game
from roppyakken.record import record_of
from roppyakken.rules import preset
from roppyakken.server.club import listings, profiles
from roppyakken.server.club.ratings import display
from roppyakken.server.people.players import COOKIE
from roppyakken.server.store.database import Database, migrate
from roppyakken.server.store.tables import game_seats
from roppyakken.server.wire.answers import BoardEntry, ProfileAnswer
from tests.harness.profile_seed import (
    NOW,
    SECRET,
    add_account,
    add_player,
    add_rating,
    record,
    score,
    seed_people,
)
from tests.harness.server_harness import running_server


@pytest.fixture
def db(database: str) -> Iterator[Database]:
    """A migrated, empty database of each kind."""
    opened = Database(database)
    opened.open()
    yield opened
    opened.engine.dispose()


# --- seat summaries -------------------------------------------------------------------------------


def test_places_put_leavers_last_then_the_winner_then_totals() -> None:
    assert profiles.places(0, [650, 300, 300], [False, False, False]) == [1, 2, 2]
    assert profiles.places(2, [700, 0, 610], [True, False, False]) == [3, 2, 1]
    assert profiles.places(1, [0, 600], [False, False]) == [2, 1]
    assert profiles.places(None, [10, 20], [False, False]) == [None, None]


def test_a_real_games_summary_adds_up_its_rounds() -> None:
    game = play_out(Game(preset("classic"), 3, seed=11), [make_bot("greedy", s) for s in range(3)])
    data = record_of(game, ["a", "b", "c"])
    summary = profiles.summarize(data)
    scored = [r for r in data["rounds"] if r["scores"]]
    assert len(summary) == 3 and scored
    for seat, s in enumerate(summary):
        finals = [r["scores"][seat]["final"] for r in scored]
        assert s.rounds == len(scored)
        assert s.points == sum(finals) == data["rounds"][-1]["totals"][seat]
        assert s.points_sq == sum(f * f for f in finals)
        made = [y["slug"] for r in scored for y in r["scores"][seat]["yaku"]]
        assert s.yaku == {slug: made.count(slug) for slug in set(made)}
        assert not s.abandoned
    assert summary[data["winner"]].place == 1
    assert sorted(s.place or 0 for s in summary)[0] == 1


# --- profiles -------------------------------------------------------------------------------------


def view(db: Database, player: str, viewer: str | None) -> ProfileAnswer:
    """``player``'s profile as ``viewer`` sees it (which must exist)."""
    got = db.run_now(lambda c: profiles.profile(c, player, viewer))
    assert got is not None
    return got


def test_a_profile_adds_up_every_game_of_the_account_and_its_guests(db: Database) -> None:
    seed_people(db)
    for asked in ("ann", "annguest"):  # an adopted guest's profile is its account's
        got = view(db, asked, None)
        assert got["player"] == "ann" and got["name"] == "Ann"
        assert got["games"] == 3
        assert got["places"] == {"1": 1, "2": 2, "3": 0}
        finals = [100, 0, 300, -20, 150]
        points = got["points"]
        assert points is not None
        mean, half = statistics.mean(finals), 1.96 * statistics.stdev(finals) / len(finals) ** 0.5
        assert points["rounds"] == 5 and points["mean"] == pytest.approx(mean, abs=0.05)
        assert points["low"] == pytest.approx(mean - half, abs=0.1)
        assert points["high"] == pytest.approx(mean + half, abs=0.1)
        assert got["yaku"] == [
            {"slug": "boar-deer-butterfly", "rounds": 3},
            {"slug": "red-ribbons", "rounds": 1},
        ]
        assert got["lucky_hands"] == [{"slug": "hand-three", "rounds": 1}]
        assert got["abandoned"] == 1
    assert db.run_now(lambda c: profiles.profile(c, "nobody", None)) is None


def test_recent_games_show_private_games_only_to_those_who_sat_in_them(db: Database) -> None:
    seed_people(db)

    def recent(player: str, viewer: str | None) -> list[str]:
        got = db.run_now(lambda c: profiles.profile(c, player, viewer))
        assert got is not None
        return [g["room"] for g in got["recent"]]

    assert recent("ann", None) == ["g3", "g1"]  # newest first, public only
    assert recent("ann", "cy") == ["g3", "g1"]  # Cy did not sit in g2
    assert recent("ann", "bob") == ["g3", "g2", "g1"]
    assert recent("ann", "ann") == ["g3", "g2", "g1"]
    assert recent("ann", "annguest") == ["g3", "g2", "g1"]  # the guest's account sat in g2
    assert recent("bob", None) == ["g1"]
    assert recent("bob", "ann") == ["g2", "g1"]  # g4 is Bob and Cy's alone
    assert recent("bob", "cy") == ["g4", "g1"]
    line = view(db, "ann", None)["recent"][0]
    assert line["players"] == ["Cy", "Ann", "bot:greedy"]
    assert line["player_ids"] == ["cy", "ann", None]
    assert line["seat"] == 1 and line["place"] == 2 and line["points"] == 150
    assert line["replay"] == "/#/replay?room=g3"


def test_ratings_and_their_history_in_a_profile(db: Database) -> None:
    seed_people(db)

    def rated(c: Any) -> None:
        add_rating(
            c, "ann", "classic-2", 30.0, 2.0, 12, history=[(25.0, 8.0, 2), (28.0, 5.0, 1), (30.0, 2.0, 1)]
        )
        add_rating(c, "annguest", "classic-2", 40.0, 2.0, 3)  # the account's own rating wins
        add_rating(c, "annguest", "korean-3", 24.0, 7.0, 3, history=[(24.0, 7.0, 3)])

    db.run_now(rated)
    got = db.run_now(lambda c: profiles.profile(c, "ann", None))
    assert got is not None
    pools = {r["pool"]: r for r in got["ratings"]}
    assert list(pools) == ["classic-2", "korean-3"]
    classic = pools["classic-2"]
    assert classic["rating"] == display(30.0, 2.0) and classic["games"] == 12
    assert classic["uncertainty"] == 60 and classic["provisional"] is False
    assert [p["rating"] for p in classic["history"]] == [
        display(m, s) for m, s in [(25, 8), (28, 5), (30, 2)]
    ]
    assert [p["place"] for p in classic["history"]] == [2, 1, 1]
    assert pools["korean-3"]["provisional"] is True


def test_backfill_writes_the_summaries_of_older_games(db: Database) -> None:
    seed_people(db)
    before = db.run_now(lambda c: profiles.profile(c, "ann", "ann"))
    stored = db.run_now(lambda c: c.execute(select(func.count()).select_from(game_seats)).scalar())
    assert stored == 2 + 2 + 3 + 2
    db.run_now(lambda c: c.execute(delete(game_seats)))
    assert view(db, "ann", "ann")["games"] == 0
    assert db.run_now(lambda c: profiles.backfill(c, batch=2)) == 4
    assert db.run_now(lambda c: profiles.profile(c, "ann", "ann")) == before
    assert db.run_now(lambda c: profiles.backfill(c)) == 0


# --- leaderboards ---------------------------------------------------------------------------------


def seed_board(db: Database) -> dict[str, tuple[float, float]]:
    """Players of classic-2, some not on the board; the (mu, sigma) of those who are."""
    on_board: dict[str, tuple[float, float]] = {}

    def work(c: Any) -> None:
        add_player(c, "owner", "Owner")
        add_account(c, "acc9", "owner")
        add_rating(c, "owner", "classic-2", 30.0, 3.0, 40)
        on_board["owner"] = (30.0, 3.0)
        for i in range(23):
            pid = f"p{i:02d}"
            add_player(c, pid, f"Player {i}")
            mu, sigma = 20.0 + (i * 7) % 13, 2.0 + (i % 4) * 0.5
            add_rating(c, pid, "classic-2", mu, sigma, 10 + i)
            on_board[pid] = (mu, sigma)
        # equal ratings: ordered by player id
        for pid in ("tie-b", "tie-a"):
            add_player(c, pid, pid)
            add_rating(c, pid, "classic-2", 26.0, 2.0, 30)
            on_board[pid] = (26.0, 2.0)
        add_player(c, "few", "Too few games")
        add_rating(c, "few", "classic-2", 40.0, 2.0, 9)
        add_player(c, "unsure", "Too uncertain")
        add_rating(c, "unsure", "classic-2", 45.0, 6.5, 50)
        add_player(c, "gone", "Inactive")
        add_rating(c, "gone", "classic-2", 40.0, 2.0, 50, last_played=NOW - timedelta(days=91))
        add_player(c, "recent", "Just active")
        add_rating(c, "recent", "classic-2", 21.0, 2.0, 50, last_played=NOW - timedelta(days=89))
        on_board["recent"] = (21.0, 2.0)
        add_player(c, "adopted", "Adopted guest", account="acc9")
        add_rating(c, "adopted", "classic-2", 40.0, 2.0, 50)
        add_player(c, "other", "Other pool")
        add_rating(c, "other", "korean-2", 40.0, 2.0, 50)

    db.run_now(work)
    return on_board


def test_leaderboard_pages_are_disjoint_ordered_and_complete(db: Database) -> None:
    expected = seed_board(db)
    size = 4
    first = db.run_now(lambda c: profiles.leaderboard(c, "classic-2", 1, size, NOW))
    assert first["total"] == len(expected) == 27
    assert first["pages"] == 7
    seen: list[BoardEntry] = []
    for page in range(1, first["pages"] + 2):
        got = db.run_now(
            functools.partial(profiles.leaderboard, pool="classic-2", page=page, size=size, now=NOW)
        )
        assert got["total"] == first["total"]
        assert len(got["players"]) == (size if page < 7 else 3 if page == 7 else 0)
        seen.extend(got["players"])
    ids = [e["player"] for e in seen]
    assert len(ids) == len(set(ids)) and set(ids) == set(expected)
    assert ids == sorted(expected, key=lambda p: (-(expected[p][0] - 3 * expected[p][1]), p))
    assert [e["rank"] for e in seen] == list(range(1, len(seen) + 1))
    ratings = [e["rating"] for e in seen]
    assert ratings == sorted(ratings, reverse=True)
    assert ids.index("tie-a") + 1 == ids.index("tie-b")
    for entry in seen:
        mu, sigma = expected[entry["player"]]
        assert entry["rating"] == display(mu, sigma)
        assert entry["uncertainty"] == round(30 * sigma)
    assert seen[0]["player"] == "p20" and seen[0]["name"] == "Player 20"  # mu 30, sigma 2


def test_leaderboard_of_an_unknown_pool_is_refused(db: Database) -> None:
    with pytest.raises(ValueError, match="unknown rating pool 'chess'"):
        db.run_now(lambda c: profiles.leaderboard(c, "chess", 1, 10, NOW))
    assert db.run_now(lambda c: profiles.leaderboard(c, "match-3", 1, 10, NOW))["total"] == 0


# --- the HTTP API ---------------------------------------------------------------------------------


def test_the_api_answers_pages_and_profiles_and_refuses_bad_input_in_one_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'api.sqlite3'}"
    database = Database(url)
    database.open()
    seed_people(database)
    seed_board(database)
    database.engine.dispose()
    with running_server(url) as server:
        board = server.get("/api/leaderboard/classic-2?page=2&size=10")
        assert board.status_code == 200 and board.headers["cache-control"] == "public, max-age=60"
        assert board.json()["page"] == 2 and board.json()["size"] == 10
        assert server.get("/api/leaderboard/classic-2").json()["size"] == profiles.PAGE_SIZE
        for query, field in (
            ("page=0", "page"),
            ("page=x", "page"),
            ("size=101", "size"),
            ("page=-1", "page"),
        ):
            bad = server.get(f"/api/leaderboard/classic-2?{query}")
            assert bad.status_code == 400
            assert bad.json()["error"] == (
                f"'{field}' must be a number from 1 to "
                f"{profiles.MAX_PAGE if field == 'page' else profiles.MAX_PAGE_SIZE}"
            )
        unknown = server.get("/api/leaderboard/chess-2")
        assert unknown.status_code == 404 and "\n" not in unknown.json()["error"]
        assert unknown.json()["error"].startswith("there is no rating pool 'chess-2' (pools: classic-2,")

        ann = server.get("/api/players/annguest")
        assert ann.status_code == 200 and ann.headers["cache-control"] == "private, no-cache"
        assert ann.json()["player"] == "ann" and [g["room"] for g in ann.json()["recent"]] == ["g3", "g1"]
        as_bob = httpx.get(f"{server.url}/api/players/ann", cookies={COOKIE: f"bob.{SECRET}"}, timeout=10)
        assert [g["room"] for g in as_bob.json()["recent"]] == ["g3", "g2", "g1"]
        wrong = httpx.get(f"{server.url}/api/players/ann", cookies={COOKIE: "bob.wrong"}, timeout=10)
        assert [g["room"] for g in wrong.json()["recent"]] == ["g3", "g1"]
        for missing in ("nobody", "bad!id", "x" * 40):
            answer = server.get(f"/api/players/{missing}")
            assert answer.status_code == 404 and answer.json()["error"].startswith("there is no player ")


def test_the_finished_games_lists_name_each_seats_player(db: Database) -> None:
    seed_people(db)
    listed = {g["room"]: g for g in db.run_now(lambda c: listings.finished_games(c, 10))}
    assert set(listed) == {"g1", "g3"}  # private games are not listed
    assert listed["g3"]["player_ids"] == ["cy", "ann", None]
    assert listed["g1"]["player_ids"] == ["annguest", "bob"]


def test_the_migration_writes_the_summaries_of_games_finished_before_it(tmp_path: Path) -> None:
    engine = create_engine(f"sqlite:///{tmp_path / 'old.sqlite3'}")
    config = Config()
    config.set_main_option("script_location", str(Path(migrate.__code__.co_filename).parent / "migrations"))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0005_players")
    game = record(["Ann", "Bob"], [[score(100, ["red-ribbons"]), score(0)], [score(0), score(700)]], winner=1)
    with engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO rooms (id, created_at, players, preset, options, seed, status, finished_at,"
                " winner, record, epoch, public) VALUES ('old', :at, 2, 'classic', '{}', 1, 'over', :at, 1,"
                " :record, 1, 1)"
            ),
            {"at": NOW.replace(tzinfo=None), "record": json.dumps(game)},
        )
    migrate(engine)
    with engine.connect() as conn:
        rows = conn.execute(
            select(game_seats.c.seat, game_seats.c.place, game_seats.c.points, game_seats.c.yaku).order_by(
                game_seats.c.seat
            )
        ).all()
    assert [tuple(r) for r in rows] == [(0, 2, 100, '{"red-ribbons":1}'), (1, 1, 700, "{}")]
    engine.dispose()
