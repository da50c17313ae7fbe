"""The compiled modules (scripts/build_kernel.py, mypyc) play exactly as the pure-Python ones.

The compiled group is :data:`roppyakken.compiled.GROUP`: the kernel, scoring, yaku,
the end of the game, the cards and the searchers' playouts (and the environments' hot
path, held to its pure module by ``tests/env/test_env_kernel.py``).

Both run the same seeded games in separate processes -- ``ROPPYAKKEN_PURE=1`` forces
the pure kernel, the reference -- and every result is compared: whole games through
:meth:`Game.playout` (logged and not), games through ``legal_actions()``/``apply()``,
search copies, and the searchers' :class:`Playout` stepping with random moves.  CI
builds the compiled kernel (``scripts/setup``), so there the test fails without it;
elsewhere it is skipped when the kernel was not built.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import roppyakken.kernel
from roppyakken import cards, decknet, engine, game_end, indexed, scoring, yaku
from roppyakken.ai import expert, playout, position
from roppyakken.compiled import GROUP, copy_module
from roppyakken.env import kernel as env_kernel
from tests.harness.kernel_program import PROGRAM
from tests.harness.support import COMPILED_MISSING, require, run_python

GAMES_PER_CONFIG = 120
"""Seeded games per preset and player count (about 2,900 games in all, each mode)."""


def _run(pure: bool) -> dict[str, object]:
    result: dict[str, object] = json.loads(
        run_python(PROGRAM, str(GAMES_PER_CONFIG), pure=pure, timeout=1200)
    )
    return result


def test_the_compiled_kernel_plays_as_the_pure_one() -> None:
    """Thousands of seeded games give the same results, move for move, on both kernels."""
    require(roppyakken.kernel.COMPILED, COMPILED_MISSING)
    assert roppyakken.kernel.Round.__module__ == "roppyakken._kernel_c"
    swapped = [cards.points_of, decknet.deck_by_network, yaku.YakuTable, scoring.score_round]
    swapped += [game_end.round_outcome]
    swapped += [roppyakken.kernel.Round, indexed.play_cards, engine.Game, playout.greedy_index]
    swapped += [position.Position, expert.Appraisal]  # tests/ai/test_compiled_expert.py
    swapped += [env_kernel.SeatEncoder]  # tests/env/test_env_kernel.py
    assert [f.__module__ for f in swapped] == [copy_module(m) for m in GROUP]
    pure, compiled = _run(pure=True), _run(pure=False)
    assert pure["compiled"] is False and compiled["compiled"] is True
    assert isinstance(pure["games"], int) and pure["games"] >= 2000
    assert pure["games"] == compiled["games"]
    assert pure["digests"] == compiled["digests"]


def test_a_stale_compiled_build_is_not_used() -> None:
    """Modules compiled from other sources are ignored (the pure ones run); so is any with
    ``ROPPYAKKEN_PURE`` set."""
    program = (
        "import hashlib, sys\n"
        "from roppyakken import compiled\n"
        "fake = type(sys)('roppyakken._scoring_c')\n"
        "fake.GROUP_SHA256 = hashlib.sha256(b'another kernel').hexdigest()\n"
        "sys.modules['roppyakken._scoring_c'] = fake\n"
        "print(compiled.compiled_module('scoring') is None)\n"
        "fake.GROUP_SHA256 = compiled.group_digest()\n"
        "print(compiled.compiled_module('scoring') is fake)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "ROPPYAKKEN_PURE"}
    out = subprocess.run(
        [sys.executable, "-c", program], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.split() == ["True", "True"]
    env["ROPPYAKKEN_PURE"] = "1"
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            "import roppyakken.kernel as k, roppyakken.scoring as s\n"
            "print(k.COMPILED, s.score_round.__module__)",
        ],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert out.split() == ["False", "roppyakken.scoring"]
