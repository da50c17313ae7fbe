"""FORMATS.md §3 game records: save, load, replay (checking every score), resume."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest

from roppyakken.engine import Game
from roppyakken.errors import RecordError
from roppyakken.record import FORMAT, dumps, load, record_of, replay, save
from roppyakken.rules import preset


def played(name: str = "classic", players: int = 2, seed: int = 5, stop_after: int | None = None) -> Game:
    game = Game(preset(name), players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not game.over and (stop_after is None or steps < stop_after):
        game.apply(rng.choice(game.legal_actions()))
        steps += 1
    return game


def test_record_has_the_format_3_shape() -> None:
    game = played()
    rec = json.loads(dumps(record_of(game, ["alice", "bot:random"])))
    assert rec["format"] == FORMAT
    assert set(rec) == {"format", "rules", "seed", "players", "rounds", "winner"}
    assert rec["rules"]["preset"] == "classic" and rec["rules"]["options"]["target"] == 600
    assert rec["players"] == ["alice", "bot:random"] and rec["winner"] == game.winner
    rnd = rec["rounds"][0]
    assert set(rnd) == {"dealer", "hands", "table", "pile", "lucky_hands", "events", "scores", "totals"}
    assert len(rnd["hands"]) == 2 and all(len(h) == 8 for h in rnd["hands"])
    assert len(rnd["table"]) == 8 and len(rnd["pile"]) == 24
    event = rnd["events"][0]
    assert set(event) == {"seat", "source", "card", "captured"}
    assert set(rnd["scores"][0]) == {"card_points", "yaku", "lucky_hands", "round_score", "counted", "final"}


@pytest.mark.parametrize(
    "name", ["classic", "online", "marguerite", "changara", "yukbaek", "sambong", "korean-high"]
)
def test_r9_4_record_replays_to_the_same_scores(name: str, tmp_path: Path) -> None:
    for seed in range(3):
        players = 3 if 3 in preset(name).players and seed == 2 else 2
        game = played(name, players, seed)
        path = tmp_path / f"{name}-{seed}.json"
        save(path, game, [f"p{i}" for i in range(players)])
        again, names = replay(load(path))
        assert names == [f"p{i}" for i in range(players)]
        assert again.winner == game.winner and again.totals == game.totals and again.legs == game.legs
        assert [h.score for h in again.history] == [h.score for h in game.history]


def tampered(change: Any) -> dict[str, Any]:
    rec = record_of(played())
    rec = copy.deepcopy(rec)
    change(rec)
    return rec


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r["rounds"][0]["scores"][0].update(card_points=999), "round 1: seat 1 scores"),
        (lambda r: r["rounds"][0].update(totals=[1, 2]), "round 1: totals"),
        (lambda r: r.update(winner=1 - r["winner"]), "(seat "),
        (lambda r: r.update(winner=None), ", the replay says "),
        (lambda r: r.update(winner=7), "'winner' must be a seat number (0 to 1: records count seats from 0)"),
        (lambda r: r["rounds"][0]["events"][0].update(card="pine-dragon"), "unknown card 'pine-dragon'"),
        (lambda r: r["rounds"][0]["hands"][0].pop(), "does not hold each of the 48 cards"),
        (lambda r: r.update(format="other/1"), "not a roppyakken-record/1 record (format is 'other/1')"),
        (lambda r: r.pop("format"), "not a roppyakken-record/1 record: it has no 'format'"),
        (lambda r: r["rules"].update(preset="nope"), "unknown preset 'nope'"),
        (lambda r: r["rounds"][0]["events"].pop(0), "round 1 event 1"),
        (lambda r: r["rounds"][0].update(dealer=7), "'dealer' is 7, not a seat (0 to 1"),
        (lambda r: r.pop("seed"), "missing 'seed'"),
        (lambda r: r.update(seed=2**63), "record: the seed must be a whole number from 0 to 9223"),
    ],
)
def test_replay_fails_loudly_on_any_disagreement(change: Any, message: str) -> None:
    with pytest.raises(RecordError) as info:
        replay(tampered(change))
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert "None" not in str(info.value)


def test_replay_refuses_a_capture_that_the_rules_forbid() -> None:
    rec = record_of(played())
    rnd = rec["rounds"][0]
    for event in rnd["events"]:
        if event["captured"] and event["source"] == "hand":
            event["captured"] = []
            break
    with pytest.raises(RecordError, match=r"must capture|disagrees"):
        replay(rec)


@pytest.mark.parametrize(
    ("lang", "words"),
    [("fr", ("doit prendre", "il peut prendre")), ("ja", ("取らなければならない",)), ("ko", ("먹어야",))],
)
def test_a_tampered_records_rule_error_is_said_in_the_language(lang: str, words: tuple[str, ...]) -> None:
    """The engine's reason (an illegal capture) is translated inside the record's error, not left English."""
    from roppyakken import i18n

    rec = record_of(played())
    for event in rec["rounds"][0]["events"]:
        if event["captured"] and event["source"] == "hand":
            event["captured"] = []
            break
    with pytest.raises(RecordError) as info:
        replay(rec)
    assert "must capture: it can take" in str(info.value)
    before = i18n.language()
    try:
        i18n.set_language(lang)
        said = info.value.translated()
    finally:
        i18n.set_language(before)
    assert all(word in said for word in words), said
    assert "must capture" not in said and "it can take" not in said


@pytest.mark.parametrize("steps", [0, 1, 3, 10, 17, 40])
def test_unfinished_game_saves_and_resumes_exactly(steps: int, tmp_path: Path) -> None:
    full = played("classic", 2, seed=21)
    rng = random.Random(21)
    game = Game(preset("classic"), 2, seed=21)
    for _ in range(steps):
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
    path = tmp_path / "save.json"
    save(path, game)
    data = load(path)
    assert data["winner"] is None or game.over
    resumed, _ = replay(data)
    assert resumed.phase == game.phase and resumed.to_act == game.to_act
    assert resumed.hands == game.hands and resumed.table == game.table and resumed.turned == game.turned
    while not resumed.over:
        resumed.apply(rng.choice(resumed.legal_actions()))
    assert resumed.winner == full.winner and resumed.totals == full.totals


def test_load_errors_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="not found"):
        load(tmp_path / "missing.json")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(RecordError, match="is not JSON"):
        load(bad)
