"""The strength benchmarks still run end to end (tiny sizes: the real runs are by hand)."""

from __future__ import annotations

import importlib.util
import json
import random
import re
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest

from roppyakken.actions import Play, Take
from roppyakken.ai.base import BOT_LEVELS
from roppyakken.ai.playout import yaku_index
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.view import view_of
from tests.harness.support import ROOT

BENCH = ROOT / "bench"


@pytest.fixture(autouse=True)
def _levels_as_they_were() -> Iterator[None]:
    """The benches register their variants as bot levels; other tests in this worker must not see them."""
    before = dict(BOT_LEVELS)
    yield
    BOT_LEVELS.clear()
    BOT_LEVELS.update(before)


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # so that worker processes can find its functions
    spec.loader.exec_module(module)
    return module


def test_oracle_answers_a_legal_move_seeing_the_pile_or_not() -> None:
    ceiling = _load("bench_ceiling")
    rules = preset("classic")
    index = yaku_index(rules)
    for seed in range(6):
        game = Game(rules, 2, seed, log=False)
        steps = 0
        while not game.over and steps < 12:
            legal = game.legal_actions()
            if isinstance(legal[0], Play | Take):
                for sees_pile in (True, False):
                    pile_before = list(game.pile)
                    action = ceiling.oracle_choice(game, "greedy", 2, random.Random(seed), index, sees_pile)
                    assert action in legal
                    assert game.pile == pile_before  # playouts never touch the real game
            game.apply(game.legal_actions()[0])
            steps += 1


def test_ceiling_prints_its_four_lines(capsys: pytest.CaptureFixture[str]) -> None:
    ceiling = _load("bench_ceiling")
    assert ceiling.main(["--deals", "1", "--k", "1", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    rows = [line for line in out.splitlines() if re.match(r"\| every hand", line)]
    # Seed 5's deal, both seatings: the seeded win rates and points a round.
    assert rows == [
        "| every hand and the pile's order | `random` | 2 | 100.0% | 34.2%–100.0% | +430.0 | -inf..+inf |",
        "| every hand and the pile's order | `greedy` | 2 | 0.0% | 0.0%–65.8% | -120.0 | -inf..+inf |",
        "| every hand, not the pile's order | `random` | 2 | 50.0% | 9.5%–90.5% | +17.5 | -inf..+inf |",
        "| every hand, not the pile's order | `greedy` | 2 | 0.0% | 0.0%–65.8% | -280.0 | -inf..+inf |",
    ]


def test_oracle_plays_out_with_the_expert_against_the_expert() -> None:
    ceiling = _load("bench_ceiling")
    rules = preset("classic")
    game = Game(rules, 2, 4, log=False)
    while not isinstance(game.legal_actions()[0], Play | Take):
        game.apply(game.legal_actions()[0])
    pile_before = list(game.pile)
    action = ceiling.oracle_choice(game, "expert", 2, random.Random(4), yaku_index(rules), False, "expert")
    assert action in game.legal_actions()
    assert game.pile == pile_before


def test_seeing_master_is_handed_the_true_cards() -> None:
    ceiling = _load("bench_ceiling")
    game = Game(preset("classic"), 2, 3, log=False)
    while not isinstance(game.legal_actions()[0], Play | Take):
        game.apply(game.legal_actions()[0])
    cheat = ceiling.SeeingMaster.from_options(1, {"iters": "6"})
    cheat.game, cheat.sees_pile = game, True
    view = view_of(game, game.to_act)
    rest = game.pile[game.pile_pos :]
    world = cheat.sample(view)
    assert world.hands == tuple(game.hands)
    assert list(world.pile) == rest
    cheat.sees_pile = False
    shuffled = [cheat.sample(view).pile for _ in range(4)]
    assert all(sorted(p) == sorted(rest) for p in shuffled)
    assert any(list(p) != rest for p in shuffled)
    assert cheat.choose(view) in game.legal_actions()


def test_ceiling_runs_the_master_handed_the_cards(capsys: pytest.CaptureFixture[str]) -> None:
    ceiling = _load("bench_ceiling")
    cheat = ["--master", "master:iters=4", "--against", "expert", "--sees", "hands"]
    argv = ["--deals", "1", "--jobs", "1", *cheat]
    assert ceiling.main(argv) == 0
    out = capsys.readouterr().out
    assert "`master:iters=4` handed the cards" in out
    assert "| every hand, not the pile's order | `expert` | 2 | 50.0% | 9.5%–90.5% | +5.0 |" in out


def test_ceiling_plays_three_players_handed_both_hands(capsys: pytest.CaptureFixture[str]) -> None:
    ceiling = _load("bench_ceiling")
    argv = ["--deals", "1", "--jobs", "1", "--players", "3", "--master", "master:iters=4"]
    assert ceiling.main([*argv, "--against", "expert", "--sees", "hands"]) == 0
    out = capsys.readouterr().out
    assert "classic, 3 players" in out and "1 deals x 3 seatings" in out
    assert "| every hand, not the pile's order | `expert` | 3 | 33.3% | 6.1%–79.2% | +28.0 |" in out
    with pytest.raises(SystemExit):
        ceiling.main(["--players", "3"])  # the oracle is 2 players only: refused


def test_bot_bench_writes_its_report(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bots = _load("bench_bots")
    out = tmp_path / "report.md"
    argv = ["--games", "2", "--games3", "3", "--master", "master:iters=4", "--jobs", "1"]
    assert bots.main([*argv, "--resamples", "5", "--out", str(out)]) == 0
    report = out.read_text(encoding="utf-8")
    assert report == capsys.readouterr().out.rstrip("\n") + "\n"
    for heading in ("### Ladder", "### Head-to-head targets", "### Three players", "### Decision times"):
        assert heading in report
    assert "| greedy vs random | 2 |" in report
    assert "| master:iters=4 vs 2 x expert | 3 |" in report


def test_strength_bench_prints_its_report_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    strength = _load("bench_strength")
    out = tmp_path / "report.md"
    data = tmp_path / "report.json"
    assert strength.main(["--quick", "--out", str(out), "--json", str(data)]) == 0
    report = out.read_text(encoding="utf-8")
    assert report == capsys.readouterr().out.rstrip("\n") + "\n"
    rows = [line for line in report.splitlines() if line.startswith("| ") and "---" not in line]
    assert "| expert vs greedy | marguerite | 2 | 4 |" in report
    assert "| master:iters=4 vs expert | marguerite | 2 | 2 |" in report
    assert "| master:iters=4 vs expert | classic | 2 | 2 |" in report
    assert "| master:iters=8 vs master:iters=4 | classic | 2 | 2 |" in report
    assert "| master:iters=4 vs 2 x expert | classic | 3 | 3 |" in report
    # The seeded figures of --quick (seed 29, duplicate deals).
    for row in (
        "| expert vs greedy | marguerite | 2 | 4 | 25.0% | 4.6% .. 69.9% | -35.8 | -49.6 .. -21.9 "
        "| >= 65% of matches | no |",
        "| master:iters=4 vs 2 x expert | classic | 3 | 3 | 33.3% | 6.2% .. 79.2% | -250.0 | -inf .. +inf "
        "| >= 40% of games | no |",
        "| classic | 4 | 1.8 | 75.0% | 30.1% .. 95.4% | +65.7 | -41.5 .. +172.9 |",
        "| online | 4 | 1.8 | 75.0% | 30.1% .. 95.4% | +81.4 | -43.4 .. +206.2 |",
        "| marguerite | 4 | 8.2 | 25.0% | 4.6% .. 69.9% | -35.8 | -49.6 .. -21.9 |",
        "| yukbaek | 4 | 3.5 | 50.0% | 15.0% .. 85.0% | +27.1 | -26.9 .. +81.1 |",
    ):
        assert row in rows, row
    for row in rows[1:6]:
        assert re.search(r"\| (yes|no) \|$", row)
    assert "Decision times of `master:iters=4` over 171 decisions" in report
    assert len(json.loads(data.read_text(encoding="utf-8"))) == 9


def test_duel_prints_running_figures(capsys: pytest.CaptureFixture[str]) -> None:
    duel = _load("duel")
    assert duel.main(["expert", "greedy", "--rules", "marguerite", "--games", "4", "--every", "1"]) == 0
    rows = [r.rsplit(None, 1)[0] for r in capsys.readouterr().out.splitlines()]  # less the time
    assert rows == [
        "    2 games    15 rounds  win 50.0% (9.4%..90.5%)  a round -28.0 (None..None)",
        "    4 games    33 rounds  win 25.0% (4.6%..69.9%)  a round -35.8 (-49.6..-21.9)",
    ]


def test_duel_goes_on_from_a_later_deal(capsys: pytest.CaptureFixture[str]) -> None:
    """``--start 2`` plays the batch's third and fourth deals: the figures a run of four
    deals adds after its second (here the greedy player's points, by difference)."""
    duel = _load("duel")
    argv = ["greedy", "random", "--games", "8", "--every", "1"]
    assert duel.main(argv) == 0
    whole = capsys.readouterr().out.splitlines()
    assert duel.main(["greedy", "random", "--games", "4", "--every", "1", "--start", "2"]) == 0
    later = capsys.readouterr().out.splitlines()
    assert [int(r.split()[0]) for r in later] == [2, 4]

    def rounds(row: str) -> int:
        return int(row.split()[2])

    assert rounds(later[-1]) == rounds(whole[-1]) - rounds(whole[1])


def test_duel_pairs_a_variant_on_the_same_deals(capsys: pytest.CaptureFixture[str]) -> None:
    """``--paired`` plays a second level in the first bot's place on the same deals: paired
    with itself the difference is exactly zero, and two processes report the same figures."""
    duel = _load("duel")
    argv = ["expert", "greedy", "--paired", "expert", "--games", "6", "--every", "1", "--seed", "5"]
    assert duel.main(argv) == 0
    one = capsys.readouterr().out.splitlines()
    assert len(one) == 9
    assert one[0].split()[:8] == one[1].split()[1:9]
    assert "paired: a round +0.0 (+0.0..+0.0), win rate +0.0% (+0.0%..+0.0%)" in one[2]
    assert duel.main([*argv, "--jobs", "2"]) == 0
    two = capsys.readouterr().out.splitlines()
    assert [r.rsplit(None, 1)[0] for r in two] == [r.rsplit(None, 1)[0] for r in one]


def test_infer_bench_prints_the_weighted_guess(capsys: pytest.CaptureFixture[str]) -> None:
    bench = _load("bench_infer")
    assert bench.main(["--games", "1", "--pool", "6", "--model", "0:0.02", "--model", "5:0.1"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "classic, expert,expert, 1 games, 17 decisions, pool 6"
    assert out[1] == "  uniform: mean chance on the true cards 0.192"
    assert out[2].startswith("  tau 0 eps 0.02: 0.171 (ratio 0.89), effective pool 2.4, ")
    assert out[3].startswith("  tau 5 eps 0.1: 0.246 (ratio 1.28), effective pool 2.8, ")


def test_yaku_breakdown_adds_up_to_the_final_scores() -> None:
    """bench_yaku's parts (cards, lucky hands, each yaku) add up to each bot's final score
    on classic rules (no void rounds), and the difference column is the first less the second."""
    bench = _load("bench_yaku")
    lines = bench.breakdown("classic", ("expert", "greedy"), 3, 5)
    rows = [line.split(" | ") for line in lines if line.startswith("| ") and "---" not in line][1:]
    values = {r[0].lstrip("| "): (float(r[1]), float(r[2]), float(r[3].rstrip(" |"))) for r in rows}
    final = values.pop("final score")
    for i in (0, 1):
        assert abs(sum(v[i] for v in values.values()) - final[i]) < 0.05 * len(values) + 0.05
    for a, b, d in [final, *values.values()]:
        assert abs((a - b) - d) < 0.11


def test_tune_expert_takes_a_bot_level_as_a_variant(capsys: pytest.CaptureFixture[str]) -> None:
    """A ``name=@LEVEL`` variant plays that level on the same deals as the first variant,
    and its paired difference with the first is printed (zero with itself)."""
    tune = _load("tune_expert")
    assert tune.main(["--rules", "classic", "--games", "4", "--seed", "3", "base=", "same=@expert"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("base") and out[1].startswith("same")
    assert out[0].split()[1:3] == out[1].split()[1:3]  # the same bot: the same figures
    assert "paired with base: a round +0.0 (+0.0..+0.0), win rate +0.0% (+0.0%..+0.0%)" in out[2]


def test_master_bench_prints_its_rates(capsys: pytest.CaptureFixture[str]) -> None:
    """bench_master prints the expert's and the master's rates for the modules this process runs."""
    bench = _load("bench_master")
    args = ["--games", "1", "--repeat", "1", "--iters", "6", "--master-decisions", "3", "--budget-games", "0"]
    assert bench.main(args) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(("pure: compiled=False", "compiled: compiled=True"))
    assert out[1].startswith("  expert decisions / CPU s :") and out[2].startswith(
        "  expert decision (choose)"
    )
    assert out[3].startswith("  master rollouts / CPU s  :") and " rollouts)" in out[3]


def test_deal_bench_counts_the_worlds_the_deal_rules_out(capsys: pytest.CaptureFixture[str]) -> None:
    deal = _load("bench_deal")
    assert deal.main(["--rules", "marguerite", "--players", "2", "--games", "3", "--draws", "40"]) == 0
    # Automatic declarations rule out some uniform worlds (about one in twelve), never all.
    assert "| `marguerite` | 2 | 190 | 7.8% | 15 of 40 |" in capsys.readouterr().out


def test_infer_bench_weighs_both_opponents_with_three_players(capsys: pytest.CaptureFixture[str]) -> None:
    infer = _load("bench_infer")
    assert infer.main(["--players", "3", "--games", "1", "--pool", "12", "--model", "0:0.02"]) == 0
    out = capsys.readouterr().out
    assert "classic, expert,expert,expert, 1 games" in out
    assert "classic, expert,expert,expert, 1 games, 14 decisions, pool 12" in out
    assert "uniform: mean chance on the true cards 0.219" in out
    assert "tau 0 eps 0.02: 0.268 (ratio 1.22), effective pool 4.6, " in out
