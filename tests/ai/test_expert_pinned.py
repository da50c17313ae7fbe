"""The expert values every move, and the master chooses, as they did when these were pinned.

The digests in ``tests/ai/snapshots/expert-digests.json`` were written by the code before its
appraisal's weights were named and its shifts rewritten: the exact floats of
:func:`~roppyakken.ai.expert.move_values` (default and other weights), the expert's choices
and rollouts at every card-play decision of seeded games on every preset (the programs of
``tests/ai/test_compiled_expert.py``), and the moves of ``master:iters=24``.  Run on the pure
modules, the reference; a digest that differs means the play changed, which is a bug.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.harness.expert_programs import MASTER, VALUES
from tests.harness.support import run_python

SNAPSHOT = Path(__file__).parent / "snapshots" / "expert-digests.json"


def test_the_expert_values_the_pinned_positions_as_before() -> None:
    pinned = json.loads(SNAPSHOT.read_text(encoding="utf-8"))["values (2 games a case)"]
    now = json.loads(run_python(VALUES, "2", pure=True, timeout=600))
    assert (now["positions"], now["digests"]) == (pinned["positions"], pinned["digests"])


def test_the_master_plays_the_pinned_games_as_before() -> None:
    pinned = json.loads(SNAPSHOT.read_text(encoding="utf-8"))["master:iters=24 (1 game a case)"]
    now = json.loads(run_python(MASTER, "1", "master:iters=24", pure=True, timeout=600))
    assert now["digests"] == pinned
