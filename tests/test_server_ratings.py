"""Ratings on SQLite: pools, finishing orders, a seeded season against openskill's own computation,
the replay that rebuilds every rating exactly (``roppyakken ratings``), what is rated, the upgrade
from the previous schema, and quick pairing by rating."""

from __future__ import annotations

import functools
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, Engine, insert, select, text, update

from roppyakken.errors import RoppyakkenError
from roppyakken.rules import PRESETS, preset
from roppyakken.server.club import pairing
from roppyakken.server.club.pairing import Pool
from roppyakken.server.club.ratings import FAMILIES, POOLS, display, nearest_bot, pool_of, provisional, store
from roppyakken.server.club.ratings.order import finishing_order
from roppyakken.server.club.ratings.scale import SIGMA0, bot_table, skill_points
from roppyakken.server.people import players
from roppyakken.server.store.database import Database
from roppyakken.server.store.room_store import load_room
from roppyakken.server.store.tables import pairing as pairing_table
from roppyakken.server.store.tables import rating_games, ratings, rooms
from roppyakken.server.wire import bodies
from tests.ratings_season import (
    START,
    Game,
    Reference,
    as_reference,
    expected_places,
    make_people,
    record,
    result_json,
    season,
    store_room,
    stored,
    stored_history,
)

ROOT = Path(__file__).resolve().parent.parent
RATINGS = [sys.executable, "-c", "from roppyakken.cli import main; raise SystemExit(main())", "ratings"]


def sqlite(tmp_path: Path, name: str = "r.sqlite3") -> Database:
    db = Database(f"sqlite:///{tmp_path / name}")
    db.open()
    return db


# ------------------------------------------------------------------ pools and orders


def test_every_preset_is_in_exactly_one_family_and_match_formats_are_matches() -> None:
    assert set(FAMILIES) == set(PRESETS)
    for name in PRESETS:
        is_match = preset(name).options()["match"] != "single"
        assert (FAMILIES[name] == "match") == is_match, name
    assert {FAMILIES[n] for n in ("yukbaek", "sambong", "korean-high")} == {"korean"}
    assert pool_of("online", 3) == "classic-3" and pool_of("changara", 2) == "match-2"
    assert set(POOLS) == {f"{f}-{n}" for f in ("classic", "korean", "match") for n in (2, 3)}
    with pytest.raises(ValueError):
        pool_of("nonesuch", 2)


@pytest.mark.parametrize(
    ("winner", "totals", "legs", "left", "places"),
    [
        (1, [100, 600, 300], [0, 0, 0], [False] * 3, [3, 1, 2]),
        (1, [100, 600, 100], [0, 0, 0], [False] * 3, [2, 1, 2]),  # a tie among the others
        (0, [0, 700], [0, 0], [False] * 2, [1, 2]),  # an instant win beats a higher total
        (0, [100, 600, 100], [3, 2, 2], [False] * 3, [1, 2, 3]),  # legs before totals
        (1, [100, 600, 100], [0, 0, 0], [False, True, False], [1, 3, 1]),  # the leaver's bot won: last
        (0, [100, 600, 100], [0, 0, 0], [False, True, True], [1, 2, 2]),  # two leavers tie for last
        (0, [100, 600], [0, 0], [True, True], None),  # everyone left: not rated
    ],
)
def test_finishing_order(
    winner: int, totals: list[int], legs: list[int], left: list[bool], places: list[int] | None
) -> None:
    assert finishing_order(winner, totals, legs, left) == places
    game = Game("r", "classic-3", ["a", "b", "c"][: len(totals)], winner, totals, legs, left, None)  # type: ignore[arg-type]
    assert expected_places(game) == places


def test_display_uncertainty_provisional_and_nearest_bot() -> None:
    assert display(25.0, SIGMA0) == 900  # a newcomer
    assert display(25.0, 5 / 3) == 1500  # an average player the system knows well
    assert display(35.0, 5 / 3) - display(25.0, 5 / 3) == 300
    assert display(-50.0, 8.0) == 0
    assert provisional(SIGMA0, 0) and provisional(5.0, 3) and provisional(6.5, 40)
    assert not provisional(5.0, 10)
    assert skill_points(20.0) == 1500
    table = bot_table()
    assert set(table) == set(POOLS)
    for pool, levels in table.items():
        lowest = min(levels, key=lambda lv: levels[lv]["mu"])
        highest = max(levels, key=lambda lv: levels[lv]["mu"])
        assert nearest_bot(pool, -100.0) == lowest and nearest_bot(pool, 100.0) == highest
        for level, rating in levels.items():
            if [r["mu"] for r in levels.values()].count(rating["mu"]) == 1:
                assert nearest_bot(pool, rating["mu"]) == level
    assert nearest_bot("nonesuch-2", 25.0) is None


# ------------------------------------------------------------------ a seeded season


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


def check_season(db: Database, ref: Reference) -> None:
    assert db.run_now(stored) == as_reference(ref)  # exact: the same floats
    assert db.run_now(stored_history) == ref.history


def test_a_seeded_season_equals_openskill_and_recomputes_exactly(tmp_path: Path) -> None:
    db = sqlite(tmp_path)
    try:
        ref = play_season(db, 7, 400, 14)
        check_season(db, ref)
        rows = db.run_now(lambda c: c.execute(select(rating_games.c.result)).all())
        kinds = [result_json(r[0]) for r in rows]
        assert any(len(set(k["places"])) < len(k["places"]) for k in kinds)  # ties were played
        assert any(any(k["left"]) for k in kinds)  # and leavers
        assert any(len(k["players"]) == 2 for k in kinds) and any(len(k["players"]) == 3 for k in kinds)
        # the replay gives exactly the stored numbers; recomputing rewrites the same
        assert db.run_now(lambda c: store.differences(c, store.replay(list(store.stored_games(c))))) == []
        replayed = db.run_now(store.recompute)
        assert replayed.games == len(rows)
        check_season(db, ref)
    finally:
        db.engine.dispose()


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "LANG": "C"}
    return subprocess.run([*RATINGS, *args], capture_output=True, text=True, env=env, timeout=120)


def test_the_ratings_command_checks_and_rebuilds(tmp_path: Path) -> None:
    db = sqlite(tmp_path)
    try:
        ref = play_season(db, 11, 120, 8)
        path = str(tmp_path / "r.sqlite3")
        same = run_cli("--check", "--database", path)
        assert same.returncode == 0 and "exactly the same" in same.stdout, same
        some = next(iter(ref.ratings))
        db.run_now(
            lambda c: c.execute(
                update(ratings)
                .where(ratings.c.player_id == some[0], ratings.c.pool == some[1])
                .values(mu=99.0)
            )
        )
        differs = run_cli("--check", "--database", path)
        assert differs.returncode == 1 and some[0] in differs.stdout, differs
        rebuilt = run_cli("--recompute", "--database", path)
        assert rebuilt.returncode == 0 and "replayed" in rebuilt.stdout, rebuilt
        check_season(db, ref)
        bad = run_cli("--database", path)
        assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "Traceback" not in bad.stderr
    finally:
        db.engine.dispose()


# ------------------------------------------------------------------ what is rated


def test_a_game_counts_only_with_a_different_known_player_in_every_seat(tmp_path: Path) -> None:
    db = sqlite(tmp_path)
    try:
        a, b = db.run_now(lambda c: make_people(c, 2))
        game = Game("solo", "classic-2", [a, b], 0, [600, 0], [0, 0], [False, False], START)
        db.run_now(lambda c: store_room(c, game))
        db.run_now(lambda c: players.link_seat(c, "solo", 1, a))  # one player in both seats
        assert db.run_now(lambda c: record(c, game)) is None
        db.run_now(lambda c: players.link_seat(c, "solo", 1, b))
        assert db.run_now(lambda c: record(c, game)) == 1
        assert db.run_now(lambda c: record(c, game)) is None  # never twice
        assert len(db.run_now(stored)) == 2
    finally:
        db.engine.dispose()


def rated_body(**changes: Any) -> dict[str, Any]:
    return {"name": "Ann", "players": 2, "clock": "15+60", "public": True, "rated": True, **changes}


def test_a_rated_room_must_be_public_clocked_people_only_on_a_preset() -> None:
    made = bodies.create_room(rated_body())
    assert made.rated and made.public and made.clock == "15+60"
    assert not bodies.create_room(rated_body(rated=False)).rated
    for bad, words in [
        (rated_body(public=False), "public"),
        (rated_body(clock="none"), "clock"),
        (rated_body(bots={"1": "expert"}), "bots"),
        (rated_body(rules={"toml": 'preset = "classic"\ntarget = 800\n'}), "preset"),
        (rated_body(rated="yes"), "rated"),
    ]:
        with pytest.raises(RoppyakkenError) as caught:
            bodies.create_room(bad)
        assert words in str(caught.value) and "\n" not in str(caught.value)


# ------------------------------------------------------------------ upgrading from 0005


def migrate_to(engine: Engine, revision: str) -> None:
    config = Config()
    location = ROOT / "src" / "roppyakken" / "server" / "store" / "migrations"
    config.set_main_option("script_location", str(location))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, revision)


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
            assert (
                conn.execute(text("select version_num from alembic_version")).scalar() == "0009_offline_games"
            )
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


def test_upgrading_from_0005_with_games_in_it(tmp_path: Path) -> None:
    upgrade_with_games(f"sqlite:///{tmp_path / 'old.sqlite3'}")


# ------------------------------------------------------------------ quick pairing by rating


def test_the_window_widens_with_waiting_and_opens() -> None:
    assert pairing.window(0.0) == pairing.WINDOW_START
    assert pairing.window(5.0) == pairing.WINDOW_START + 5 * pairing.WINDOW_GROWTH
    assert pairing.window(pairing.WINDOW_OPEN_AFTER) == math.inf
    now = 1000.0
    # a strong player waiting alone with two far weaker ones: the two weaker play together
    assert pairing.groups([(now - 1, 2000.0), (now - 1, 1500.0), (now, 1520.0)], 2, now) == [[1, 2]]
    # far apart: nobody is paired until the newer one's window reaches the gap too
    far = [(now - 2, 1500.0), (now - 1, 1500.0 + pairing.WINDOW_START + 60)]
    assert pairing.groups(far, 2, now) == []
    assert pairing.groups(far, 2, now + 5) == [[0, 1]]  # 150 + 10*6 s, 150 + 10*6 s
    # three players: every two must accept each other
    three = [(now, 1500.0), (now, 1640.0), (now, 1400.0), (now, 1560.0)]
    assert pairing.groups(three, 3, now) == [[0, 1, 3]]
    assert pairing.groups([(now - 40, 0.0), (now - 40, 3000.0)], 2, now) == [[0, 1]]


def test_the_claim_pairs_by_rating(tmp_path: Path) -> None:
    db = sqlite(tmp_path)
    pool = Pool("classic", 2, "15+60")
    try:
        ids = db.run_now(lambda c: make_people(c, 3))
        now = time.time()

        def rated(conn: Connection, player_id: str, mu: float) -> None:
            row = {"pool": "classic-2", "sigma": 2.0, "games": 30, "last_seq": 0, "last_played": START}
            conn.execute(insert(ratings).values(player_id=player_id, mu=mu, **row))

        def waiting(conn: Connection, player_id: str, joined: float) -> None:
            pairing.enter(conn, player_id, player_id, pool, "h" + player_id, joined)
            conn.execute(
                update(pairing_table).where(pairing_table.c.player_id == player_id).values(seen_at=now)
            )

        for player_id, mu in zip(ids, (40.0, 25.0, 24.0), strict=True):
            db.run_now(functools.partial(rated, player_id=player_id, mu=mu))
        for player_id, joined in zip(ids, (now - 3, now - 2, now - 1), strict=True):
            db.run_now(functools.partial(waiting, player_id=player_id, joined=joined))
        claims = db.run_now(lambda c: pairing.claim(c, now, postgres=False))
        # the oldest (mu 40, 450 points above) waits; the two of about the same rating play
        assert [[p[0] for p in c.players] for c in claims] == [[ids[1], ids[2]]]
        assert db.run_now(lambda c: pairing.claim(c, now, postgres=False)) == []
    finally:
        db.engine.dispose()


# ------------------------------------------------------------------ a room's end


def test_a_rated_rooms_end_counts_its_leavers_and_only_people() -> None:
    from types import SimpleNamespace
    from typing import cast

    from roppyakken.engine import Game as EngineGame
    from roppyakken.server.play.bots import BotRunner
    from roppyakken.server.play.clocks import Clock
    from roppyakken.server.play.room import BOT, HUMAN, Room, Seat

    def room(kinds: list[str], rated: bool = True) -> Room:
        seats = [Seat(kind, f"p{i}", "expert" if kind == BOT else None, "h") for i, kind in enumerate(kinds)]
        return Room(
            "r",
            len(kinds),
            preset("online"),
            1,
            seats,
            db=cast(Database, None),  # never used: only the end is asked for
            bots=cast(BotRunner, None),
            bot_delay=0.0,
            rated=rated,
        )

    ended = cast(EngineGame, SimpleNamespace(winner=1, totals=[300, 650, 0], legs=[0, 0, 0]))
    clock = Clock.new("15+60", 3)
    clock.abandoned[1] = True  # the winner's seat was left to a bot
    end = room([HUMAN] * 3)._rated_end(ended, clock)
    assert end == (
        "classic-3",
        {"winner": 1, "totals": [300, 650, 0], "legs": [0, 0, 0], "left": [False, True, False]},
    )
    assert finishing_order(1, [300, 650, 0], [0, 0, 0], [False, True, False]) == [1, 3, 2]
    assert room([HUMAN, HUMAN, BOT])._rated_end(ended, clock) is None
    assert room([HUMAN] * 3, rated=False)._rated_end(ended, clock) is None


def test_the_bot_ratings_bench_writes_a_table(tmp_path: Path) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "bench_bot_ratings", ROOT / "bench" / "bench_bot_ratings.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["bench_bot_ratings"] = bench  # its worker processes find its functions
    spec.loader.exec_module(bench)
    out = tmp_path / "bots.json"
    assert bench.main(["--quick", "--pools", "classic-2,match-3", "--out", str(out), "--write"]) == 0
    table = json.loads(out.read_text())
    assert set(table["pools"]) == {"classic-2", "match-3"}
    for levels in table["pools"].values():
        assert levels["greedy"]["mu"] == 25.0 and set(levels) == {"random", "greedy"}


def test_the_recompute_bench_runs_and_finds_no_difference(capsys: pytest.CaptureFixture[str]) -> None:
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_ratings", ROOT / "bench" / "bench_ratings.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--games", "300", "--players", "40", "--incremental", "60", "--batch", "20"]) == 0
    printed = capsys.readouterr().out
    assert "SQLite: 300 games" in printed and "differences: 0" in printed
