"""The compiled expert (``ai.position``, ``ai.expert`` in the mypyc group) plays exactly as the pure one.

The master's rollouts play every seat as the ``expert``; compiled, the appraisal must
give the very same floats, or the master would choose differently with and without
the compiled modules.  Both run the same seeded games in separate processes
(``ROPPYAKKEN_PURE=1`` forces the pure modules, the reference) and compare digests of:
the ``repr`` (exact) of :func:`move_values` and the choice of :func:`best_move` at every
card-play decision of games on every preset and player count (2 and 3 players, the
joker presets), whole rollouts (:func:`expert_rollout`) from those positions, and the
moves ``master:iters=N`` chooses in seeded games.  As in ``tests/test_compiled_kernel.py``,
CI (which builds the compiled modules) fails without them; elsewhere the test is skipped.
"""

from __future__ import annotations

import json

import roppyakken.kernel
from roppyakken.ai import expert, position
from roppyakken.compiled import GROUP, copy_module
from tests.support import COMPILED_MISSING, require, run_python

VALUES = """
import hashlib, json, random, sys
from roppyakken.actions import Play, Take
from roppyakken.ai.base import make_bot
from roppyakken.ai.expert import DEFAULT_WEIGHTS, Weights, best_move, expert_rollout, move_values
from roppyakken.ai.playout import Playout, yaku_index
from roppyakken.ai.position import Position
from roppyakken.engine import Game
from roppyakken.kernel import COMPILED
from roppyakken.rules import PRESETS, preset
from roppyakken.view import view_of

games = int(sys.argv[1])
other = Weights(draw=0.5, hold=0.7, exposure=1.1, fuke_cards=6)
digests = {}
count = 0
for name in PRESETS:
    rules = preset(name)
    index = yaku_index(rules)
    for players in rules.players:
        h = hashlib.sha256()
        for seed in range(games):
            rng = random.Random(seed)
            game = Game(rules, players, seed=seed, log=False)
            bots = [make_bot("expert", seed + s) for s in range(players)]
            while not game.over:
                seat = game.to_act
                view = view_of(game, seat)
                legal = view.legal
                action = None
                if len(legal) > 1 and isinstance(legal[0], Play | Take):
                    if isinstance(legal[0], Take):
                        moves = [(view.turned, a.target) for a in legal if isinstance(a, Take)]
                    else:
                        moves = [(a.card, a.target) for a in legal if isinstance(a, Play)]
                    pos = Position.of_view(view)
                    from_hand = view.phase == "play"
                    h.update(repr(move_values(pos, moves, from_hand)).encode())
                    h.update(repr(move_values(pos, moves, from_hand, other)).encode())
                    h.update(repr(best_move(pos, moves, from_hand, DEFAULT_WEIGHTS)).encode())
                    count += 1
                    if count % 4 == 0:  # a rollout from here, the expert then points-now
                        p = Playout.from_game(game)
                        expert_rollout(p, game.totals, DEFAULT_WEIGHTS, index, count % 12)
                        h.update(repr((p.captures, p.orders, p.score)).encode())
                    if rng.random() < 0.3:  # off the expert's path now and then
                        action = legal[rng.randrange(len(legal))]
                game.apply(action if action is not None else bots[seat].choose(view))
        digests[f"{name}-{players}p"] = h.hexdigest()
print(json.dumps({"compiled": COMPILED, "positions": count, "digests": digests}))
"""

MASTER = """
import hashlib, json, sys
from roppyakken.ai.base import make_bot
from roppyakken.engine import Game
from roppyakken.kernel import COMPILED
from roppyakken.rules import preset
from roppyakken.view import view_of

games, level = int(sys.argv[1]), sys.argv[2]
digests = {}
for name, players in (("classic", 2), ("classic", 3), ("marguerite", 2), ("lightning", 2), ("fuke", 3)):
    h = hashlib.sha256()
    for seed in range(games):
        game = Game(preset(name), players, seed=seed, log=False)
        bots = [make_bot(level if s == 0 else "expert", seed + s) for s in range(players)]
        while not game.over:
            action = bots[game.to_act].choose(view_of(game, game.to_act))
            h.update(repr(action).encode())
            game.apply(action)
        h.update(repr((game.totals, game.legs, game.winner)).encode())
    digests[f"{name}-{players}p"] = h.hexdigest()
print(json.dumps({"compiled": COMPILED, "digests": digests}))
"""


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
