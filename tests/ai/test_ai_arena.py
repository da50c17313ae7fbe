"""Arena and ladder smoke tests (FORMATS.md §5), statistics and Elo ratings."""

from __future__ import annotations

import json
import math

import pytest

from roppyakken.ai.arena import rotations, run_arena, summary
from roppyakken.ai.elo import PairResult, expected_score, fit, ratings
from roppyakken.ai.ladder import run_ladder
from roppyakken.ai.stats import Z95, percentile, ratio_interval, wilson
from roppyakken.cli import main
from roppyakken.errors import RoppyakkenError
from roppyakken.rules import preset

CLASSIC = preset("classic")


def test_rotations_seat_every_bot_everywhere() -> None:
    assert rotations(2) == [[0, 1], [1, 0]]
    three = rotations(3)
    for seat in range(3):
        assert sorted(r[seat] for r in three) == [0, 1, 2]


def test_arena_document_has_the_formats_fields() -> None:
    totals = run_arena(CLASSIC, ["expert", "random"], deals=3, seed=2)
    doc = summary(totals, "classic")
    assert doc["bots"] == ["expert", "random"]
    assert doc["games"] == 6 and doc["players"] == 2 and doc["rules"] == "classic"
    # The seeded figures (the seed fixes every deal and every bot's seed).
    assert (doc["wins"], doc["draws"], doc["deals"], doc["rounds"]) == ([4, 2], 0, 3, 10)
    assert doc["win_rate"] == [0.6667, 0.3333]
    assert doc["ci95"] == [[0.3, 0.9032], [0.0968, 0.7]]  # Wilson's interval of 4 of 6
    assert doc["mean_points_per_game"] == [1056.7, 540.0]
    assert set(doc["decision_ms"]) == {"expert", "random"}
    for t in doc["decision_ms"].values():
        assert 0 <= t["p50"] <= t["p99"] <= t["max"]


def test_points_per_round_is_the_mean_round_margin_over_duplicate_deals() -> None:
    totals = run_arena(CLASSIC, ["expert", "random"], deals=6, seed=4)
    doc = summary(totals, "classic")
    assert (doc["wins"], doc["rounds"]) == ([10, 2], 23)
    assert doc["points_per_round"] == [120.9, -120.9]  # two players: a zero sum
    # The cluster (deal) delta method over 6 deals, not a normal interval over 23 rounds.
    assert doc["points_per_round_ci95"] == [[6.7, 235.1], [-235.1, -6.7]]


def test_ratio_interval_is_the_cluster_delta_method() -> None:
    mean, lo, hi = ratio_interval([10.0, -2.0, 6.0, 4.0], [2.0, 1.0, 3.0, 2.0])
    assert mean == pytest.approx(18.0 / 8.0)
    residuals = [10 - mean * 2, -2 - mean, 6 - mean * 3, 4 - mean * 2]
    half = Z95 * (sum(r * r for r in residuals) / 12) ** 0.5 / 2.0
    assert lo == pytest.approx(mean - half) and hi == pytest.approx(mean + half)
    assert ratio_interval([5.0], [2.0])[1:] == (-math.inf, math.inf)  # one deal: no interval


def test_jobs_do_not_change_results() -> None:
    one = summary(run_arena(CLASSIC, ["greedy", "random", "expert"], deals=4, seed=5), "classic")
    two = summary(run_arena(CLASSIC, ["greedy", "random", "expert"], deals=4, seed=5, jobs=2), "classic")
    for key in (
        "wins",
        "draws",
        "games",
        "mean_points_per_game",
        "win_rate",
        "ci95",
        "points_per_round",
        "points_per_round_ci95",
    ):
        assert one[key] == two[key]


def test_arena_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--bots", "greedy,random", "--games", "4", "--seed", "1", "--json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"] == 4 and doc["bots"] == ["greedy", "random"]


def test_arena_command_table(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["arena", "--bots", "greedy,random,random", "--games", "3", "--rules", "marguerite"])
    assert code == 0
    out = capsys.readouterr().out
    assert "3 players" in out and "win rate" in out and "p99" in out and "margin/round" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["arena", "--bots", "greedy"], "2 or 3"),
        (["arena", "--bots", "greedy,wizard"], "unknown bot level 'wizard'"),
        (["arena", "--bots", "greedy,random", "--players", "3"], "2 bots for 3 players"),
        (["arena", "--bots", "greedy,random,random", "--rules", "ten-card"], "2 players only"),
        (["arena", "--bots", "greedy,random", "--games", "0"], "at least 1"),
        (["ladder", "--levels", "greedy", "--games", "2"], "at least two levels"),
    ],
)
def test_bad_arena_input_is_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and "\n" not in err and "Traceback" not in err


def test_ladder_smoke(capsys: pytest.CaptureFixture[str]) -> None:
    doc = run_ladder(CLASSIC, ["random", "greedy", "expert"], games_per_pair=4, seed=3, resamples=20)
    assert [r["level"] for r in doc["ratings"]] == ["random", "greedy", "expert"]
    assert doc["ratings"][0]["rating"] == 0.0
    assert len(doc["pairs"]) == 3
    for r in doc["ratings"]:
        lo, hi = r["ci95"]
        assert lo <= r["rating"] <= hi
    assert main(["ladder", "--levels", "random,greedy", "--games", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "rating" in out and "random vs greedy" in out


def test_wilson_interval() -> None:
    lo, hi = wilson(50, 100)
    assert abs(lo - 0.4038) < 1e-3 and abs(hi - 0.5962) < 1e-3
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def test_percentile() -> None:
    assert percentile([], 50) == 0.0
    assert percentile([3.0], 99) == 3.0
    assert percentile([1.0, 2.0, 3.0, 4.0], 50) == 2.5
    assert percentile(list(map(float, range(101))), 99) == 99.0


def test_elo_fit_recovers_known_strengths() -> None:
    """Wins drawn from ratings 0, 200, 400 come back close to them."""
    true = [0.0, 200.0, 400.0]
    pairs = []
    for a in range(3):
        for b in range(a + 1, 3):
            p = expected_score(true[a], true[b])
            n = 10000
            pairs.append((a, b, p * n, (1 - p) * n))
    got = fit(3, pairs)
    assert got[0] == 0.0
    assert abs(got[1] - 200) < 5 and abs(got[2] - 400) < 5


def test_elo_sweep_stays_finite_and_intervals_cover() -> None:
    results = [PairResult(0, 1, tuple((0, 2) for _ in range(20)))]
    point, intervals = ratings(2, results, resamples=30)
    assert point[1] > 400 and point[1] < 2000
    lo, hi = intervals[1]
    assert lo <= point[1] <= hi


def test_run_arena_refuses_bad_setups() -> None:
    with pytest.raises(RoppyakkenError):
        run_arena(CLASSIC, ["greedy"], deals=1)
    with pytest.raises(RoppyakkenError):
        run_arena(CLASSIC, ["greedy", "random"], deals=0)
