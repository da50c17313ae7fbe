"""The compiled modules (scripts/build_kernel.py, mypyc) play exactly as the pure-Python ones.

The compiled group is :data:`roppyakken.compiled.GROUP`: the kernel, scoring, yaku,
the end of the game, the cards and the searchers' playouts (and the environments' hot
path, held to its pure module by ``tests/test_env_kernel.py``).

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
import textwrap

import roppyakken.kernel
from roppyakken import cards, decknet, engine, game_end, indexed, scoring, yaku
from roppyakken.ai import expert, playout, position
from roppyakken.compiled import GROUP, copy_module
from roppyakken.env import kernel as env_kernel
from tests.support import COMPILED_MISSING, require, run_python

GAMES_PER_CONFIG = 120
"""Seeded games per preset and player count (about 2,900 games in all, each mode)."""

PROGRAM = textwrap.dedent(
    """
    import hashlib, json, random, sys
    from roppyakken import kernel
    from roppyakken.ai.playout import Playout, greedy_index, yaku_index
    from roppyakken.engine import Game
    from roppyakken.game_end import round_result
    from roppyakken.record import dumps, record_of
    from roppyakken.rules import PRESETS, preset

    games = int(sys.argv[1])
    digests = {}
    count = 0
    for name in PRESETS:
        rules = preset(name)
        for players in rules.players:
            h = hashlib.sha256()
            put = lambda x: h.update(repr(x).encode())
            for seed in range(games):
                count += 1
                rng = random.Random(seed)
                if seed % 4 == 0:  # logged: the record and the events
                    g = Game(rules, players, seed)
                    while not g.over:
                        g.playout(rng)
                    put(dumps(record_of(g, ["a"] * players)))
                    put([repr(e) for e in g.events])
                elif seed % 4 == 1:  # the public API
                    g = Game(rules, players, seed, log=False)
                    while not g.over:
                        actions = g.legal_actions()
                        put(len(actions))
                        g.apply(actions[rng.randrange(len(actions))])
                else:
                    g = Game(rules, players, seed, log=False)
                    while not g.over:
                        g.playout(rng)
                put((g.winner, g.end_reason, g.totals, g.legs, g.round, g.captures, g.orders))
                base = Game(rules, players, seed, log=False)
                base.stop_at_round_end = True
                copy = base.clone()
                copy.playout(rng)
                put((copy.winner, copy.totals, copy.legs, copy.phase, copy.captures, copy.orders))
                while base.phase not in ("play", "over"):
                    actions = base.legal_actions()
                    base.apply(actions[rng.randrange(len(actions))])
                if base.phase == "play":
                    p = Playout.from_game(base)
                    index = yaku_index(rules)
                    while not p.ended:
                        moves = p.moves()
                        put(moves)
                        put(greedy_index(p, moves, index))
                        p.copy().step(*moves[0])
                        p.step(*moves[rng.randrange(len(moves))])
                    put((p.score, p.instant, p.captures, p.orders))
                    put(round_result(rules, p.score, base.totals, base.legs, base.dealer, base.round))
            digests[f"{name}-{players}p"] = h.hexdigest()
    print(json.dumps({"compiled": kernel.COMPILED, "games": count, "digests": digests}))
    """
)


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
    swapped += [position.Position, expert.Appraisal]  # tests/test_compiled_expert.py
    swapped += [env_kernel.SeatEncoder]  # tests/test_env_kernel.py
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
