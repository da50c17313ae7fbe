"""Every bot level plays every preset legally, and a seed reproduces its games."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from roppyakken.actions import Action, Take
from roppyakken.ai.base import (
    BOT_LEVELS,
    BOT_OPTIONS,
    IndexBot,
    LegalOnlyBot,
    RandomBot,
    bot_description,
    make_bot,
    parse_level,
)
from roppyakken.ai.driver import play_out
from roppyakken.engine import Game
from roppyakken.errors import RoppyakkenError
from roppyakken.record import dumps, record_of, replay
from roppyakken.rules import PRESETS, preset
from roppyakken.view import SeatView
from tests.harness.bot_games import bot_record
from tests.harness.support import run_python

FAST_MASTER = "master:iters=30"
"""A master with a tiny rollout budget: the same code paths, fast enough for CI."""


def test_the_four_levels_exist_with_descriptions() -> None:
    for level in ("random", "greedy", "expert", "master"):
        assert level in BOT_LEVELS
        text = bot_description(level)
        assert text and text.endswith(".") and len(text) < 100
        assert make_bot(level).name == level
    assert "master" in BOT_OPTIONS


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("grandmaster", "unknown bot level 'grandmaster'"),
        ("expert:ms=5", "takes no options"),
        ("master:ms", "key=value"),
        ("master:ms=-3", "positive number"),
        ("master:iters=0", "positive number"),
        ("master:speed=3", "has no option 'speed'"),
        ("master:rollout=dice", "has no option 'rollout'"),
        ("master:infer=x", "infer='x': expected a number of worlds, 0 or more"),
    ],
)
def test_bad_levels_are_refused_in_one_line(spec: str, message: str) -> None:
    with pytest.raises(RoppyakkenError, match=message) as err:
        make_bot(spec)
    assert "\n" not in str(err.value)


def test_level_options_parse() -> None:
    assert parse_level("master:ms=150:iters=40") == ("master", {"ms": "150", "iters": "40"})
    bot = make_bot("master:iters=40")
    assert getattr(bot, "iters", None) == 40
    assert getattr(bot, "ms", 0) is None
    both = make_bot("master:ms=150:iters=40")
    assert (getattr(both, "ms", None), getattr(both, "iters", None)) == (150.0, 40)


@pytest.mark.parametrize("name", list(PRESETS))
def test_every_level_plays_every_preset(name: str) -> None:
    """Joker modes, rain-off, fuke, declarations, instant wins, round scoring, matches:
    every level answers a legal action in every preset, for 2 and 3 players."""
    rules = preset(name)
    levels = ["random", "greedy", "expert", FAST_MASTER]
    for players in rules.players:
        for shift in range(2):
            seats = [levels[(shift + i) % len(levels)] for i in range(players)]
            bots = [make_bot(level, seed=7 + i) for i, level in enumerate(seats)]
            game = play_out(Game(rules, players, seed=shift + 3), bots)
            assert game.over and game.winner is not None
            again, _ = replay(record_of(game))
            assert again.totals == game.totals


SEEDED_LEVELS = ["random", "greedy", FAST_MASTER]
"""The levels whose play depends on their seed (choices, ties, worlds drawn from it); the
learned level draws from it only on exact ties (tests/env/test_env_learned.py)."""


@pytest.mark.parametrize("level", SEEDED_LEVELS)
def test_another_seed_changes_the_game(level: str) -> None:
    """A bot that ignored its seed would play these three games alike."""
    assert len({bot_record(level, seed) for seed in (1, 2, 3)}) > 1


def test_the_expert_plays_the_same_whatever_its_seed() -> None:
    """The expert is deterministic by design (its seed is kept for the interface only)."""
    assert bot_record("expert", 1) == bot_record("expert", 2)


def test_a_seed_reproduces_a_game_in_another_process() -> None:
    """The same seed gives the same record in a fresh interpreter, for every level (nothing
    hangs on the process: string hashing, ids, the order of a set)."""
    levels = [*SEEDED_LEVELS, "expert", "learned"]
    program = (
        "import json, sys; from tests.harness.bot_games import bot_record; "
        "print(json.dumps([bot_record(level, 1) for level in sys.argv[1:]]))"
    )
    there = json.loads(run_python(program, *levels, pure=False, timeout=300))
    assert there == [bot_record(level, 1) for level in levels]


class _ViewOnly:
    """A random bot hidden behind ``choose(view)`` only: the driver must build its views."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.bot = make_bot("random", seed)

    def choose(self, view: SeatView) -> Action:
        return self.bot.choose(view)


@pytest.mark.parametrize("players", [2, 3])
def test_the_driver_hands_a_legal_only_bot_the_same_choices(players: int) -> None:
    """The random bot given only its legal actions plays the very games it plays from views."""
    assert isinstance(make_bot("random"), LegalOnlyBot)
    assert not isinstance(_ViewOnly(0), LegalOnlyBot)
    assert not isinstance(make_bot("expert"), LegalOnlyBot)
    rules = preset("classic")
    for seed in range(12):
        fast = play_out(Game(rules, players, seed), [make_bot("random", seed + s) for s in range(players)])
        slow = play_out(Game(rules, players, seed), [_ViewOnly(seed + s) for s in range(players)])
        assert dumps(record_of(fast, ["r"] * players)) == dumps(record_of(slow, ["r"] * players))
        assert fast.events == slow.events


def test_the_random_bot_chooses_by_index_what_it_chooses_from_the_actions() -> None:
    """``choose_index(len(legal))`` draws what ``choose_legal(legal)`` draws (Random.choice)."""
    by_index, by_actions = make_bot("random", 11), make_bot("random", 11)
    assert isinstance(by_index, IndexBot) and isinstance(by_actions, IndexBot)
    assert not isinstance(make_bot("greedy"), IndexBot)
    for count in [*range(1, 70), 127, 128, 129, 255, 256, 1000, 1 << 20, 3, 1, 2, 1]:
        legal = [Take(t) for t in range(count)]
        assert legal[by_index.choose_index(count)] == by_actions.choose_legal(legal)


class _IndexOnly:
    """The random bot choosing by index through its picker alone (no ``choice_bits``)."""

    name = "random"

    def __init__(self, seed: int) -> None:
        self.bot = RandomBot(seed)

    def choose(self, view: SeatView) -> Action:
        return self.bot.choose(view)

    def choose_legal(self, legal: Sequence[Action]) -> Action:
        return self.bot.choose_legal(legal)

    def choose_index(self, count: int) -> int:
        return self.bot.choose_index(count)


@pytest.mark.parametrize("name", list(PRESETS))
def test_indexed_seats_beside_other_bots_play_the_same_games(name: str) -> None:
    """Random seats played by index (Game.play_indexed: drawn directly, or through a picker)
    beside a greedy one, and the same random bots choosing from views: the same records and
    events, on every preset."""
    rules = preset(name)
    for players in rules.players:
        for seed in range(4):
            fast = [make_bot("random", seed), make_bot("greedy", seed + 1), _IndexOnly(seed + 2)]
            slow = [_ViewOnly(seed), make_bot("greedy", seed + 1), _ViewOnly(seed + 2)]
            one = play_out(Game(rules, players, seed), fast[:players])
            two = play_out(Game(rules, players, seed), slow[:players])
            assert dumps(record_of(one)) == dumps(record_of(two))
            assert one.events == two.events
