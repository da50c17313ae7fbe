"""The environments' compiled hot path (:mod:`roppyakken.env.kernel`): the same bytes, ids and games
compiled as pure, and the same as the reference code it replaces.

The reference for the observation is :func:`roppyakken.env.core.observe_view` (checked in
``tests/env/test_env_fast.py`` through :class:`~roppyakken.env.arrays.ObservationWriter`); here
the compiled module is held to the pure one over thousands of seeded decisions, and the
random opponents' loop to the loop of single steps it stands for.
"""

from __future__ import annotations

import json
import random

import pytest

from roppyakken.engine import GAME_STATE, Game
from roppyakken.env import core
from roppyakken.env import kernel as env_kernel
from roppyakken.env.core import RoppyakkenEnv
from roppyakken.indexed import choice_index
from roppyakken.kernel import COMPILED, ROUND_STATE
from roppyakken.rules import preset
from tests.harness.env_games import RULE_SETS
from tests.harness.support import COMPILED_MISSING, require, run_python

PROGRAM = """
import hashlib, json, random, sys
from roppyakken.engine import Game
from roppyakken.env import kernel
from roppyakken.env.core import NUM_ACTIONS, _cached_rule_features
from roppyakken.rules import PRESETS, preset

games = int(sys.argv[1])
digests = {}
states = 0
for name in PRESETS:
    rules = preset(name)
    for players in rules.players:
        encoder = kernel.SeatEncoder(players, rules.target, _cached_rule_features(rules, players))
        h = hashlib.sha256()
        for seed in range(games):
            rng = random.Random(seed)
            draws = [random.Random(seed * 7 + s).getrandbits for s in range(players)]
            draws[seed % players] = None if seed % 3 else draws[seed % players]
            game = Game(rules, players, seed, log=False)
            game.stop_at_round_end = seed % 2 == 0
            while not game.over:
                states += 1
                sets, tails = encoder.encode_rows([game] * players, 0)
                h.update(sets.tobytes() + tails)
                outcome = kernel.step_games([game], [-1], [seed % 7 == 0], 0, [draws], [-1])
                h.update(repr(outcome).encode())  # (an illegal id, or skipped: nothing played)
                for seat in range(players):
                    h.update(encoder.encode(game, seat))
                ids = kernel.card_play_ids(game)
                h.update(repr(ids).encode())
                others = []
                done = [False, seed % 5 == 0]
                flat = kernel.flat_ids([game, game], done, game.to_act, NUM_ACTIONS, others)
                h.update(repr((flat, others)).encode())
                if ids:
                    h.update(kernel.mask_of(ids, NUM_ACTIONS))
                    assert not kernel.play_id(game, -1)
                    me = game.to_act
                    if seed % 2:
                        assert kernel.play_id(game, ids[rng.randrange(len(ids))])
                        h.update(repr(kernel.play_random(game, me, draws)).encode())
                    else:
                        outcomes = [-1]
                        pick = [ids[rng.randrange(len(ids))]]
                        rest = kernel.step_games([game], pick, [False], me, [draws], outcomes)
                        h.update(repr((rest, outcomes)).encode())
                else:
                    legal = game.legal_actions()
                    game.apply(legal[rng.randrange(len(legal))])
            h.update(repr((game.totals, game.captures, game.orders, game.round)).encode())
        digests[f"{name}-{players}p"] = h.hexdigest()
print(json.dumps({"module": kernel.SeatEncoder.__module__, "states": states, "digests": digests}))
"""


def _run(pure: bool) -> dict[str, object]:
    result: dict[str, object] = json.loads(run_python(PROGRAM, "30", pure=pure, timeout=900))
    return result


def test_the_compiled_env_kernel_gives_what_the_pure_one_gives() -> None:
    """Observations (every seat, one at a time and in rows), ids, masks, plays by id and the
    random opponents' plays: byte for byte the same over seeded games of every preset."""
    require(COMPILED, COMPILED_MISSING)
    assert env_kernel.SeatEncoder.__module__ == "roppyakken.env._kernel_c"
    pure, compiled = _run(pure=True), _run(pure=False)
    assert pure["module"] == "roppyakken.env.kernel" and compiled["module"] == "roppyakken.env._kernel_c"
    assert isinstance(pure["states"], int) and pure["states"] > 5000
    assert pure["states"] == compiled["states"]
    assert pure["digests"] == compiled["digests"]


def test_the_kernels_constants_are_the_environments() -> None:
    assert env_kernel.TAKE_BASE == core.TAKE_BASE
    assert env_kernel.NO_TARGET == core.NO_TARGET
    assert core.PLAY_BASE == 0 and env_kernel.PLAY_STRIDE == core.NO_TARGET + 1 == 49
    assert tuple(p.value for p in core.PHASES) == env_kernel.PHASE_ORDER
    for players in (2, 3):
        rules = preset("classic")
        encoder = env_kernel.SeatEncoder(players, rules.target, core._cached_rule_features(rules, players))
        assert encoder.size == core.observation_size(players)


def _state(game: Game) -> list[str]:
    return [repr(getattr(game, name)) for name in (*ROUND_STATE, *GAME_STATE)]


@pytest.mark.parametrize(("name", "rules"), RULE_SETS)
def test_random_opponents_play_as_single_steps_would(name: str, rules: object) -> None:
    """:func:`play_random` leaves the game and the generators as the loop of single steps it
    replaces (the engine's moves, ``choice_index``, one step each, stopping at the agent's
    turn, at a round's end and at any other decision)."""
    from roppyakken.rules import Rules

    assert isinstance(rules, Rules)
    checked = 0
    for players in rules.players:
        for seed in range(16):
            fast = Game(rules, players, seed, log=False)
            slow = fast.clone()
            rng = random.Random(seed)
            me = seed % players
            fast_draws = [None if s == me else random.Random(seed + s).getrandbits for s in range(players)]
            slow_draws = [None if s == me else random.Random(seed + s).getrandbits for s in range(players)]
            while not fast.over:
                played = env_kernel.play_random(fast, me, fast_draws)
                count = 0
                while slow.phase in ("play", "take") and slow.to_act != me:
                    bits = slow_draws[slow.to_act]
                    assert bits is not None
                    moves = slow.moves()
                    count += 1
                    if slow.step(*moves[choice_index(bits, len(moves))]):
                        break
                assert played == count and _state(fast) == _state(slow), (name, seed)
                checked += played
                if fast.over:
                    break
                legal = fast.legal_actions()
                pick = legal[rng.randrange(len(legal))]
                fast.apply(pick)
                slow.apply(pick)
    assert checked > 400


def test_a_play_by_an_id_that_is_not_legal_changes_nothing() -> None:
    env = RoppyakkenEnv("classic", 2, seed=4)
    while not env.game.moves():
        env.step(env.legal_ids()[0])
    game = env.game
    before = _state(game)
    legal = set(env_kernel.card_play_ids(game))
    for aid in (-1, 2351, 2352 + 47, core.NUM_ACTIONS, *range(0, core.NUM_ACTIONS, 7)):
        if aid not in legal:
            assert not env_kernel.play_id(game, aid)
    assert _state(game) == before


@pytest.mark.parametrize(("name", "rules"), RULE_SETS)
def test_a_play_by_id_is_the_move_of_that_id_and_only_a_legal_id_plays(name: str, rules: object) -> None:
    """Every id of the action space, at card-play decisions of random games: :func:`play_id`
    plays exactly the ids of :func:`card_play_ids`, each as the engine's move of that id."""
    from roppyakken.rules import Rules
    from tests.harness.env_games import random_states

    assert isinstance(rules, Rules)
    checked = 0
    for players in rules.players:
        for state in random_states(rules, players, seed=31, episodes=2)[::3]:
            game = state.game
            ids = env_kernel.card_play_ids(game)
            if not ids:
                continue
            moves = dict(zip(ids, game.moves(), strict=True))
            before = _state(game)
            for aid in range(-2, core.DECLARE_BASE + 2):
                if aid not in moves:  # refused, and the game left as it was (checked below)
                    assert not env_kernel.play_id(game, aid), (name, aid)
                    continue
                copy, expected = game.clone(), game.clone()
                assert env_kernel.play_id(copy, aid), (name, aid)
                expected.step(*moves[aid])
                assert _state(copy) == _state(expected), (name, aid)
                checked += 1
            assert _state(game) == before, name
    assert checked > 100
