"""The `roppyakken` command: score, targets, simulate, replay, rules (FORMATS.md §1, §2, §4)."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from roppyakken.cards import SLUGS, card_id
from tests.harness.support import require, run_cli

run = run_cli


BRIGHTS = {
    "players": [
        {
            "captures": ["pine-crane", "cherry-curtain", "pampas-moon", "paulownia-phoenix"],
            "lucky_hands": ["hand-three"],
        },
        {"captures": ["pine-chaff-1"]},
    ]
}


def test_score_prints_format_1() -> None:
    code, out, err = run(["score"], json.dumps(BRIGHTS))
    assert code == 0 and err == ""
    doc = json.loads(out)
    assert doc == {
        "players": [
            {
                "card_points": 200,
                "yaku": [{"slug": "four-brights", "points": 600}, {"slug": "matsu-kiri-bozu", "points": 150}],
                "lucky_hands": [{"slug": "hand-three", "points": 200}],
                "round_score": 1150,
                "counted": 1150,
                "final": 1150,
            },
            {"card_points": 0, "yaku": [], "lucky_hands": [], "round_score": 0, "counted": 0, "final": 0},
        ],
        "fuke": False,
        "instant_win": {"seat": 0, "yaku": "four-brights"},
    }


def test_score_explain_is_readable() -> None:
    code, out, _ = run(["score", "--explain", "--rules", "fuke"], json.dumps(BRIGHTS))
    assert code == 0
    assert "Four Brights" in out and "round score 1150" in out and "Instant win" in out
    assert "counted for fuke" in out


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ("{", "input is not valid JSON"),
        ('{"players": [{"captures": ["pine-dragon"]}, {}]}', "unknown card 'pine-dragon'"),
        (
            '{"players": [{"captures": ["pine-crane"]}, {"captures": ["pine-crane"]}]}',
            "player 2: card 'pine-crane' was also captured by player 1",
        ),
        ('{"players": [{"captures": ["pine-crane", "pine-crane"]}, {}]}', "appears twice"),
        ('{"players": [{"captures": [], "lucky_hands": ["hand-five"]}, {}]}', "lucky hand 'hand-five'"),
        (
            '{"players": [{}, {"lucky_hands": ["hand-five"]}]}',
            "error: player 2: unknown lucky hand 'hand-five' (did you mean hand-four?)",
        ),
        (
            '{"players": [{"lucky_hands": ["hand-thre"]}, {}]}',
            "error: player 1: unknown lucky hand 'hand-thre' (did you mean hand-three?)",
        ),
        (
            '{"players": [{}, {"lucky_hands": ["hand-four"]}]}',
            "error: player 2: lucky hand 'hand-four' does not score under these rules",
        ),
        ('{"players": [{"captures": [null]}, {}]}', "player 1 captures: expected a card slug, got null"),
        ('{"players": [{}]}', "2 or 3 players"),
        ('{"players": [{"capture": []}, {}]}', "unknown key 'capture'"),
        ("[]", "input must be a JSON object"),
        ("", "expected a JSON document"),
    ],
)
def test_score_bad_input_one_line_error(doc: str, message: str) -> None:
    code, out, err = run(["score"], doc)
    assert code != 0 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err and "None" not in err


def test_score_rules_file_and_unknown_preset(tmp_path: Path) -> None:
    house = tmp_path / "h.toml"
    house.write_text('preset = "classic"\n[yaku]\nmatsu-kiri-bozu = 500\n', encoding="utf-8")
    code, out, _ = run(["score", "--rules-file", str(house)], json.dumps(BRIGHTS))
    assert code == 0 and json.loads(out)["players"][0]["yaku"][1] == {
        "slug": "matsu-kiri-bozu",
        "points": 500,
    }
    code, _, err = run(["score", "--rules", "nope"], json.dumps(BRIGHTS))
    assert code == 2 and "unknown preset 'nope'" in err


def test_score_jsonl_one_answer_per_line_and_errors_in_place() -> None:
    lines = "\n".join([json.dumps(BRIGHTS), "{bad", json.dumps({"players": [{}, {}]})]) + "\n"
    code, out, err = run(["score", "--jsonl"], lines)
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 1 and len(answers) == 3
    assert answers[0]["instant_win"]["seat"] == 0
    assert "error" in answers[1] and "line 2: input is not valid JSON" in err
    assert "line 2: line 2" not in err
    # the place in the line is its column: "at line 1" would contradict "line 2"
    assert err.endswith(
        "line 2: input is not valid JSON: Expecting property name enclosed in double quotes at column 2\n"
    )
    assert "line 1" not in err and answers[1]["error"].endswith("at column 2")
    assert answers[2]["players"][0]["round_score"] == 0


def test_targets_format_2() -> None:
    doc = {"table": ["willow-swallow", "pampas-moon", "pine-chaff-1"], "card": "willow-rainman"}
    code, out, _ = run(["targets"], json.dumps(doc))
    assert code == 0 and json.loads(out) == {"targets": [["pampas-moon"], ["willow-swallow"]]}
    stack = {"table": ["pine-crane", "pine-chaff-1", "pine-chaff-2"], "card": "pine-ribbon", "source": "pile"}
    code, out, _ = run(["targets"], json.dumps(stack))
    assert json.loads(out) == {"targets": [["pine-crane", "pine-chaff-1", "pine-chaff-2"]]}
    code, out, _ = run(
        ["targets", "--rules", "marguerite"], json.dumps({"table": ["willow-rainman"], "card": "maple-deer"})
    )
    assert json.loads(out) == {"targets": []}
    code, out, _ = run(
        ["targets", "--rules", "marguerite"],
        json.dumps({"table": ["willow-rainman"], "card": "maple-deer", "source": "pile"}),
    )
    assert json.loads(out) == {"targets": [["willow-rainman"]]}


@pytest.mark.parametrize(
    ("doc", "message"),
    [
        ({"table": ["pine-crane"], "card": "pine-crane"}, "also on the table"),
        ({"table": [], "card": "x"}, "unknown card 'x'"),
        ({"table": [], "card": "pine-crane", "source": "deck"}, "'source' must be 'hand' or 'pile'"),
        ({"table": "pine-crane", "card": "pine-crane"}, "'table' must be a list"),
    ],
)
def test_targets_bad_input(doc: dict[str, Any], message: str) -> None:
    code, out, err = run(["targets"], json.dumps(doc))
    assert code != 0 and out == "" and message in err


def test_simulate_json_format_4_and_records(tmp_path: Path) -> None:
    args = [
        "simulate",
        "--games",
        "6",
        "--players",
        "3",
        "--seed",
        "4",
        "--bots",
        "random,random,random",
        "--json",
    ]
    code, out, _ = run([*args, "--records", str(tmp_path)])
    assert code == 0
    doc = json.loads(out)
    assert set(doc) == {
        "games",
        "rounds",
        "seconds",
        "rounds_per_second",
        "bots",
        "wins",
        "mean_round_score",
        "yaku_frequency",
        "lucky_hand_frequency",
    }
    assert doc["games"] == 6 and sum(doc["wins"]) == 6 and doc["bots"] == ["random"] * 3
    assert len(list(tmp_path.glob("*.json"))) == 6
    again = json.loads(run(args)[1])
    assert again["wins"] == doc["wins"] and again["rounds"] == doc["rounds"]  # seeded
    for record in tmp_path.glob("*.json"):
        code, out, _ = run(["replay", str(record), "--quiet"])
        assert code == 0 and out.startswith("verified:")


def test_simulate_jobs_give_the_same_document_and_records(tmp_path: Path) -> None:
    """``--jobs N`` plays the games in N worker processes: every field but the timing ones and
    every record byte are those of one process."""
    args = ["simulate", "--games", "40", "--players", "3", "--bots", "greedy,random,expert", "--seed", "7"]
    here, there = tmp_path / "one", tmp_path / "three"
    code, out, err = run([*args, "--json", "--records", str(here)])
    assert code == 0, err
    began = time.perf_counter()
    code, out3, err = run([*args, "--json", "--records", str(there), "--jobs", "3"])
    elapsed = time.perf_counter() - began
    assert code == 0, err
    timing = ("seconds", "rounds_per_second")
    one, three = json.loads(out), json.loads(out3)
    # FORMATS.md §4: `seconds` is the wall time of play, never the workers' times added up
    assert 0 < three["seconds"] <= elapsed
    # (seconds is written to the millisecond: the speed was worked out before that rounding)
    fastest, slowest = (three["rounds"] / (three["seconds"] + d) for d in (-0.0005, 0.0005))
    assert slowest - 0.1 <= three["rounds_per_second"] <= fastest + 0.1
    assert {k: v for k, v in three.items() if k not in timing} == {
        k: v for k, v in one.items() if k not in timing
    }
    names = sorted(p.name for p in here.iterdir())
    assert len(names) == 40 and names == sorted(p.name for p in there.iterdir())
    assert all((here / n).read_bytes() == (there / n).read_bytes() for n in names)


def test_simulate_refuses_bad_jobs() -> None:
    assert run(["simulate", "--games", "1", "--jobs", "0"])[1:] == (
        "",
        "roppyakken: error: --jobs must be at least 1\n",
    )
    code, out, err = run(["simulate", "--games", "1", "--jobs", "2", "--ray"])
    assert (code, out) == (2, "") and err.splitlines() == [
        "roppyakken: error: --jobs and --ray do not go together: --ray spreads the deals over the cluster"
    ]


def test_simulate_refuses_bad_options() -> None:
    assert "unknown bot level 'genius'" in run(["simulate", "--bots", "genius,random", "--games", "1"])[2]
    assert "names 2 bots for 3 players" in run(["simulate", "--players", "3", "--bots", "random,greedy"])[2]
    assert "2 players only" in run(["simulate", "--players", "3", "--rules", "changara", "--games", "1"])[2]


def test_simulate_one_level_plays_every_seat() -> None:
    code, out, err = run(
        ["simulate", "--players", "3", "--bots", "greedy", "--games", "2", "--seed", "4", "--json"]
    )
    assert code == 0, err
    assert json.loads(out)["bots"] == ["greedy"] * 3


def test_simulate_readable_summary() -> None:
    code, out, _ = run(["simulate", "--games", "3", "--seed", "1"])
    assert code == 0 and "3 games" in out and "wins" in out


def test_replay_prints_round_by_round(tmp_path: Path) -> None:
    run(["simulate", "--games", "1", "--seed", "2", "--records", str(tmp_path), "--json"])
    (record,) = tmp_path.glob("*.json")
    code, out, _ = run(["replay", str(record)])
    assert code == 0 and "Round 1 (dealer: " in out and "totals:" in out and "verified:" in out
    record.write_text(record.read_text().replace('"final":', '"final":1'), encoding="utf-8")
    code, _, err = run(["replay", str(record)])
    assert code == 2 and "scores" in err


def test_rules_lists_presets_and_shows_one() -> None:
    code, out, _ = run(["rules"])
    assert code == 0 and len(out.splitlines()) == 15 and out.startswith("classic")
    code, out, _ = run(["rules", "marguerite"])
    assert "joker_wild_on_table" in out and "turned-up" in out
    code, out, _ = run(["rules", "yukbaek", "--json"])
    assert json.loads(out)["options"]["instant_win"] == "immediate"
    code, _, err = run(["rules", "nope"])
    assert code == 2 and "unknown preset" in err


def test_installed_console_script_runs() -> None:
    exe = Path(sys.executable).with_name("roppyakken")
    require(
        exe.exists(), f"the roppyakken command is not installed beside {sys.executable} (pip install -e .)"
    )
    proc = subprocess.run(
        [str(exe), "score"], input=json.dumps(BRIGHTS), capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0 and json.loads(proc.stdout)["instant_win"]["yaku"] == "four-brights"
    proc = subprocess.run([str(exe), "score"], input="{", capture_output=True, text=True, check=False)
    assert (
        proc.returncode == 2
        and proc.stderr.startswith("roppyakken: error:")
        and "Traceback" not in proc.stderr
    )


def test_replay_text_tells_two_bots_of_one_level_apart(tmp_path: Path) -> None:
    """Two ``bot:random`` seats get their seat numbers; no "You deals"."""
    from roppyakken.ai.base import make_bot
    from roppyakken.ai.driver import play_out
    from roppyakken.engine import Game
    from roppyakken.record import save
    from roppyakken.rules import preset

    game = play_out(Game(preset("classic"), 3, 6), [make_bot("random", s) for s in (1, 2, 3)])
    path = tmp_path / "game.json"
    save(path, game, ["You", "bot:random", "bot:random"])
    code, out, _ = run(["replay", str(path)])
    assert code == 0
    assert "bot:random (seat 2):" in out and "bot:random (seat 3):" in out
    assert "You deals" not in out and "(dealer: " in out


def test_cards_lists_every_slug() -> None:
    """``roppyakken cards``: the 48 slugs, each one a card the other commands read."""
    code, out, _ = run(["cards", "--json"])
    cards = json.loads(out)
    assert code == 0 and len(cards) == 48
    assert [card_id(c["slug"]) for c in cards] == list(range(48))
    assert cards[0] == {"slug": "pine-crane", "month": 1, "kind": "bright", "points": 50}
    code, out, _ = run(["cards"])
    lines = out.splitlines()
    assert code == 0 and len(lines) == 48
    assert lines[0].split()[0] == "pine-crane" and lines[-1].split()[0] == SLUGS[47]


@pytest.mark.parametrize(
    ("slug", "near"),
    [
        ("maple-chaff", "(did you mean maple-chaff-1 or maple-chaff-2?)"),
        ("pine-crain", "(did you mean pine-crane"),
        ("maple", "(did you mean maple-deer, maple-ribbon, maple-chaff-1 or maple-chaff-2?)"),
        ("crane", "(did you mean pine-crane?)"),
        ("rainman", "(did you mean willow-rainman?)"),
        ("ribbon", ""),
    ],
)
def test_an_unknown_card_suggests_the_near_ones(slug: str, near: str) -> None:
    doc = {"players": [{"captures": [slug]}, {}]}
    code, _, err = run(["score"], json.dumps(doc))
    assert code == 2 and f"player 1 captures: unknown card '{slug}' {near}".rstrip() in err
    assert err.count("\n") == 1


def test_an_unknown_card_far_from_all_gets_no_suggestion() -> None:
    code, _, err = run(["targets"], json.dumps({"table": [], "card": "xyz"}))
    assert code == 2 and err == "roppyakken: error: card: unknown card 'xyz'\n"


def test_targets_explain_says_it_in_words() -> None:
    doc = {"table": ["willow-swallow", "pampas-moon", "pine-chaff-1"], "card": "willow-rainman"}
    code, out, _ = run(["targets", "--explain"], json.dumps(doc))
    assert code == 0 and "chooses" in out and "- pampas-moon" in out and "- willow-swallow" in out
    stack = {"table": ["pine-crane", "pine-chaff-1", "pine-chaff-2"], "card": "pine-ribbon", "source": "pile"}
    code, out, _ = run(["targets", "--explain"], json.dumps(stack))
    assert "turned up from the pile" in out and "must take pine-crane + pine-chaff-1 + pine-chaff-2" in out
    code, out, _ = run(["targets", "--explain"], json.dumps({"table": [], "card": "pine-ribbon"}))
    assert "an empty table" in out and "goes to the table" in out
    code, _, err = run(["targets", "--explain", "--jsonl"], "")
    assert code == 2 and "not allowed with" in err


def test_simulate_records_onto_a_file_or_an_impossible_path(tmp_path: Path) -> None:
    """One line naming the problem, before any game is played; nothing is written."""
    a_file = tmp_path / "a-file"
    a_file.write_text("keep", encoding="utf-8")
    code, out, err = run(["simulate", "--games", "1", "--records", str(a_file)])
    assert (
        code == 2
        and out == ""
        and err == f"roppyakken: error: --records: {a_file} exists and is not a directory\n"
    )
    assert a_file.read_text(encoding="utf-8") == "keep"
    below_a_file = a_file / "records"
    code, out, err = run(["simulate", "--games", "1", "--records", str(below_a_file)])
    assert (
        code == 2
        and out == ""
        and err.startswith(f"roppyakken: error: --records: cannot make the directory {below_a_file}")
    )
    assert err.count("\n") == 1 and "Traceback" not in err


def test_the_command_line_starts_without_the_rules() -> None:
    """``roppyakken --help`` is answered before anything a command needs is imported: the rules,
    their TOML and JSON readers (bench/RESULTS-startup.md; importing them doubled its start-up)."""
    code = (
        "import sys; import roppyakken.cli; "
        "heavy = sorted(m for m in ('roppyakken.rules', 'roppyakken.cards', 'tomllib', 'json', 'difflib', "
        "'dataclasses', 'roppyakken.cli.common') if m in sys.modules); print(heavy)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]", done.stdout
