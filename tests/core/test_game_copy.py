"""A game copies whole (copy, deepcopy), on the pure and on the compiled kernel alike."""

from __future__ import annotations

import ast
import copy
import random
from pathlib import Path

import pytest

from roppyakken import engine, kernel
from roppyakken.engine import Game
from roppyakken.kernel import COMPILED, Round
from roppyakken.rules import preset
from roppyakken.view import view_of


@pytest.mark.parametrize("how", ["copy", "deepcopy"])
def test_a_game_mid_round_copies_whole_and_plays_on_alike(how: str) -> None:
    game = Game(preset("classic"), 3, seed=8)
    rng = random.Random(8)
    for _ in range(9):
        game.apply(rng.choice(game.legal_actions()))
    other = copy.copy(game) if how == "copy" else copy.deepcopy(game)
    for seat in (None, 0, 1, 2):
        assert view_of(other, seat) == view_of(game, seat)
    if how != "copy":  # a shallow copy shares the lists: play on the deep copies only
        a, b = random.Random(3), random.Random(3)
        while not game.over:
            game.apply(a.choice(game.legal_actions()))
            other.apply(b.choice(other.legal_actions()))
        assert (other.winner, other.totals, len(other.history)) == (
            game.winner,
            game.totals,
            len(game.history),
        )


def test_the_kernel_in_use_is_named() -> None:
    """Which kernel these tests ran on (both run in CI: see test_compiled_kernel)."""
    assert (Round.__module__ == "roppyakken._kernel_c") == COMPILED


def test_round_state_lists_every_attribute_round_declares() -> None:
    """kernel.ROUND_STATE (what Game copies and pickles by name) is the class's own list,
    read from the source (a compiled Round has no annotations to read)."""
    tree = ast.parse(Path(kernel.__file__).read_text(encoding="utf-8"))
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Round"]
    declared = [
        n.target.id for n in cls.body if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)
    ]
    assert declared == list(kernel.ROUND_STATE)


def test_game_state_lists_every_attribute_setup_sets_besides_the_rounds() -> None:
    """engine.GAME_STATE (what Game.clone copies and copy/pickle take by name: a compiled game
    has no ``__dict__``) is what ``Game._setup`` sets, less the round's attributes, in order."""
    tree = ast.parse(Path(engine.__file__).read_text(encoding="utf-8"))
    (cls,) = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Game"]
    (setup,) = [n for n in cls.body if isinstance(n, ast.FunctionDef) and n.name == "_setup"]
    assigned: list[str] = []
    for node in setup.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets = node.targets
        elif isinstance(node, ast.AnnAssign):
            targets = [node.target]
        for t in targets:
            mine = isinstance(t, ast.Attribute) and isinstance(t.value, ast.Name) and t.value.id == "self"
            if mine and isinstance(t, ast.Attribute) and t.attr not in (*kernel.ROUND_STATE, *assigned):
                assigned.append(t.attr)
    assert assigned == list(engine.GAME_STATE)


@pytest.mark.parametrize("log", [False, True])
def test_a_clone_has_every_attribute_of_the_game(log: bool) -> None:
    """Game.clone copies each attribute by name (GAME_STATE, ROUND_STATE): equal values, the
    logs only when asked for, and lists of its own."""
    game = Game(preset("classic"), 2, seed=5)
    rng = random.Random(5)
    for _ in range(7):
        game.apply(rng.choice(game.legal_actions()))
    other = game.clone(log=log)
    unlogged = {"log", "history", "events", "plays"}
    for name in (*engine.GAME_STATE, *kernel.ROUND_STATE):
        if name in unlogged and not log:
            continue
        assert getattr(other, name) == getattr(game, name), name
    assert other.log is log and (log or not (other.history or other.events or other.plays))
    for name in ("hands", "captures", "orders", "totals"):
        assert getattr(other, name) is not getattr(game, name), name


@pytest.mark.parametrize("name", ["marguerite", "classic"])
def test_lists_a_clone_shares_are_never_changed_in_place(name: str) -> None:
    """``legs``, ``_queue`` and ``declared`` are shared by a clone (copy on write): whatever the
    clone plays (declarations, redeal choices, legs won, whole games), the original keeps its
    own values, and the other way round."""
    rules = preset(name).with_options({"hand_four": "optional"})
    for seed in range(40):
        game = Game(rules, 2, seed=seed)
        rng = random.Random(seed)
        for _ in range(seed % 5):
            if game.over:
                break
            game.apply(rng.choice(game.legal_actions()))
        kept = copy.deepcopy((game.legs, game._queue, game.declared))
        for _ in range(3):
            other = game.clone()
            while not other.over:
                other.apply(rng.choice(other.legal_actions()))
            assert (game.legs, game._queue, game.declared) == kept
        other = game.clone()
        kept = copy.deepcopy((other.legs, other._queue, other.declared))
        while not game.over:
            game.apply(rng.choice(game.legal_actions()))
        assert (other.legs, other._queue, other.declared) == kept
