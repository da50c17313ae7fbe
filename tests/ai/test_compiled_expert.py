"""The compiled expert (``ai.position``, ``ai.expert`` in the mypyc group) plays exactly as the pure one.

The master's rollouts play every seat as the ``expert``; compiled, the appraisal must
give the very same floats, or the master would choose differently with and without
the compiled modules.  Both run the same seeded games in separate processes
(``ROPPYAKKEN_PURE=1`` forces the pure modules, the reference) and compare digests of:
the ``repr`` (exact) of :func:`move_values` and the choice of :func:`best_move` at every
card-play decision of games on every preset and player count (2 and 3 players, the
joker presets), whole rollouts (:func:`expert_rollout`) from those positions, and the
moves ``master:iters=N`` chooses in seeded games.  As in ``tests/core/test_compiled_kernel.py``,
CI (which builds the compiled modules) fails without them; elsewhere the test is skipped.
"""

from __future__ import annotations

import json

import roppyakken.kernel
from roppyakken.ai import expert, position
from roppyakken.compiled import GROUP, copy_module
from tests.harness.expert_programs import MASTER, VALUES
from tests.harness.support import COMPILED_MISSING, require, run_python


def _needs_compiled() -> None:
    require(roppyakken.kernel.COMPILED, COMPILED_MISSING)


def _both(program: str, *args: str) -> tuple[dict[str, object], dict[str, object]]:
    pure = json.loads(run_python(program, *args, pure=True, timeout=600))
    compiled = json.loads(run_python(program, *args, pure=False, timeout=600))
    assert pure["compiled"] is False and compiled["compiled"] is True
    return pure, compiled


def test_the_expert_and_its_position_are_in_the_compiled_group() -> None:
    """Built, the expert's appraisal, its rollout and the seat's knowledge are the compiled ones."""
    _needs_compiled()
    assert GROUP.index("ai.playout") < GROUP.index("ai.position") < GROUP.index("ai.expert")
    assert position.Position.__module__ == copy_module("ai.position")
    swapped = [expert.Appraisal, expert.move_values, expert.best_move, expert.expert_rollout]
    assert {f.__module__ for f in swapped} == {copy_module("ai.expert")}
    # The weights stay one plain class, which the pure and the compiled appraisal both take.
    assert expert.Weights.__module__ == "roppyakken.ai.weights"


def test_the_compiled_expert_values_every_move_exactly_as_the_pure_one() -> None:
    """Thousands of positions on every preset: the same floats, bit for bit, and the same rollouts."""
    _needs_compiled()
    pure, compiled = _both(VALUES, "4")
    assert isinstance(pure["positions"], int) and pure["positions"] >= 5000
    assert pure["positions"] == compiled["positions"]
    assert pure["digests"] == compiled["digests"]


def test_the_master_chooses_the_same_moves_compiled_and_pure() -> None:
    """``master:iters=N`` (reproducible) plays the same seeded games on both."""
    _needs_compiled()
    pure, compiled = _both(MASTER, "2", "master:iters=24")
    assert pure["digests"] == compiled["digests"]
