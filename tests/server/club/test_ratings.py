"""Ratings on SQLite: pools, finishing orders, a seeded season against openskill's own computation,
the replay that rebuilds every rating exactly (``roppyakken ratings``), what is rated, the upgrade
from the previous schema."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import select, update

from roppyakken.errors import RoppyakkenError
from roppyakken.rules import PRESETS, preset
from roppyakken.server.club.ratings import FAMILIES, POOLS, display, nearest_bot, pool_of, provisional, store
from roppyakken.server.club.ratings.order import finishing_order
from roppyakken.server.club.ratings.scale import SIGMA0, bot_table, skill_points
from roppyakken.server.people import players
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import rating_games, ratings
from roppyakken.server.wire import bodies
from tests.harness.ratings_season import (
    START,
    Game,
    Reference,
    as_reference,
    expected_places,
    make_people,
    play_season,
    record,
    result_json,
    sqlite_database,
    store_room,
    stored,
    stored_history,
    upgrade_with_games,
)
from tests.harness.support import ROOT

RATINGS = [sys.executable, "-c", "from roppyakken.cli import main; raise SystemExit(main())", "ratings"]


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


def check_season(db: Database, ref: Reference) -> None:
    assert db.run_now(stored) == as_reference(ref)  # exact: the same floats
    assert db.run_now(stored_history) == ref.history


def test_a_seeded_season_equals_openskill_and_recomputes_exactly(tmp_path: Path) -> None:
    db = sqlite_database(tmp_path)
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
    db = sqlite_database(tmp_path)
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
    db = sqlite_database(tmp_path)
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


def test_upgrading_from_0005_with_games_in_it(tmp_path: Path) -> None:
    upgrade_with_games(f"sqlite:///{tmp_path / 'old.sqlite3'}")


# ------------------------------------------------------------------ a room's end


def test_a_rated_rooms_end_counts_its_leavers_and_only_people() -> None:
    from datetime import UTC, datetime
    from types import SimpleNamespace
    from typing import cast

    from roppyakken.engine import Game as EngineGame
    from roppyakken.server.club.game_end import rated_pool
    from roppyakken.server.play.bots import BotRunner
    from roppyakken.server.play.clocks import Clock
    from roppyakken.server.play.effects import Ending
    from roppyakken.server.play.moves import rated_result
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

    def rated_end(room: Room) -> tuple[str, dict[str, object]] | None:
        """The pool and the outcome the game's end stores for the ratings (None: it does not count)."""
        result = rated_result(room, ended, clock)
        pool = rated_pool(Ending(room.id, "{}", room.rules.preset, room.players, datetime.now(UTC), result))
        return None if pool is None or result is None else (pool, result.fields())

    end = rated_end(room([HUMAN] * 3))
    assert end == (
        "classic-3",
        {"winner": 1, "totals": [300, 650, 0], "legs": [0, 0, 0], "left": [False, True, False]},
    )
    assert finishing_order(1, [300, 650, 0], [0, 0, 0], [False, True, False]) == [1, 3, 2]
    assert rated_end(room([HUMAN, HUMAN, BOT])) is None
    assert rated_end(room([HUMAN] * 3, rated=False)) is None


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
