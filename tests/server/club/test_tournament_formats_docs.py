"""docs/TOURNAMENTS.md ("Formats") states the formats' numbers as the code has them, and the
pairing benchmark still runs (tiny sizes: the real run is by hand)."""

from __future__ import annotations

import importlib.util
import sys

from roppyakken.server.club.tournaments import swiss
from roppyakken.server.club.tournaments.model import (
    ARENA_MAX_WAIT,
    ARENA_RANK_WINDOW,
    BYE_POINTS,
    MAX_ROUND_ROBIN,
    PLACE_POINTS,
    STREAK_AFTER,
)
from tests.harness.support import ROOT


def test_the_formats_section_states_the_numbers_the_code_uses() -> None:
    text = " ".join((ROOT / "docs" / "TOURNAMENTS.md").read_text(encoding="utf-8").split())
    said = [
        f"more than {swiss.DENSE_LIMIT} players",
        f"blocks of about {swiss.BLOCK} consecutive",
        f"up to {swiss.SEARCH_MOST:,} players, within {swiss.SEARCH_BUDGET:,} steps",
        f"at most {swiss.SWAP_REACH} apart",
        f"at most {MAX_ROUND_ROBIN} players",
        f"more than {ARENA_RANK_WINDOW} places away",
        f"waited {ARENA_MAX_WAIT:g} seconds",
        f"after {STREAK_AFTER} wins in a row",
        f"**Bye** (Swiss and round robin): {BYE_POINTS:g} point",
        "| 2 players | {:g} | {:g} | |".format(*PLACE_POINTS[2]),
        "| 3 players | {:g} | {:g} | {:g} |".format(*PLACE_POINTS[3]),
    ]
    assert [s for s in said if s not in text] == []


def test_the_pairing_benchmark_runs() -> None:
    spec = importlib.util.spec_from_file_location(
        "bench_tournament_pairing", ROOT / "bench" / "bench_tournament_pairing.py"
    )
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    sys.modules["bench_tournament_pairing"] = bench
    spec.loader.exec_module(bench)
    for size in (2, 3):
        seconds, repeats = bench._swiss(16, size, 2, 1)
        assert seconds > 0 and repeats == 0
