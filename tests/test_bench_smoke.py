"""The strength benchmarks still run end to end (tiny sizes: the real runs are by hand)."""

from __future__ import annotations

import importlib.util
import random
import re
import sys
from pathlib import Path
from types import ModuleType

import pytest

from roppyakken.actions import Play, Take
from roppyakken.ai.playout import yaku_index
from roppyakken.engine import Game
from roppyakken.rules import preset

BENCH = Path(__file__).resolve().parent.parent / "bench"


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
    assert len(rows) == 4
    for row in rows:
        assert re.search(r"\| 2 \| \d+\.\d% \|", row)


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
