"""Thousands of seeded random games per preset, 2 and 3 players, checked after every action.

Invariants: each of the 48 cards is in exactly one place; a decision pending always
has legal actions; a seat's view never holds another seat's unrevealed hand or any
card of the pile; an illegal action changes nothing; and the saved record replays
to the same scores.
"""

from __future__ import annotations

import json
import random

import pytest

from roppyakken.actions import Play
from roppyakken.cards import SLUGS, iter_cards
from roppyakken.engine import Game
from roppyakken.errors import IllegalActionError
from roppyakken.record import record_of, replay
from roppyakken.rules import PRESETS, preset
from roppyakken.view import view_of

GAMES = 1000
VIEW_EVERY = 20  # full view checks on every 20th game (they are the slow part)
REPLAY_EVERY = 4  # and a record round trip on every 4th

CONFIGS = [(name, n) for name in PRESETS for n in (2, 3) if n in preset(name).players]


def hidden_from(game: Game, seat: int | None) -> list[str]:
    """Slugs that ``seat`` must not see: other seats' unrevealed hands and the unturned pile."""
    secret = 0
    for other in range(game.players):
        if other != seat:
            secret |= game.hands[other] & ~game.revealed[other]
    for card in game.pile[game.pile_pos :]:
        secret |= 1 << card
    return [SLUGS[c] for c in iter_cards(secret)]


def check_views(game: Game) -> None:
    for seat in [*range(game.players), None]:
        view = view_of(game, seat)
        text = json.dumps(view.to_json())
        for slug in hidden_from(game, seat):
            assert f'"{slug}"' not in text, f"seat {seat} sees {slug}"
        if seat is not None:
            assert view.hand == game.hands[seat]
            assert view.unseen & game.hands[seat] == 0
            assert bool(view.legal) == (seat == game.to_act and not game.over)


def check_illegal_changes_nothing(game: Game) -> None:
    before = (list(game.hands), game.table, list(game.captures), game.phase, game.to_act, game.pile_pos)
    seat = game.to_act
    not_held = next(c for c in range(48) if not game.hands[seat] >> c & 1)
    with pytest.raises(IllegalActionError):
        game.apply(Play(not_held, 0))
    assert before == (
        list(game.hands),
        game.table,
        list(game.captures),
        game.phase,
        game.to_act,
        game.pile_pos,
    )


@pytest.mark.slow  # minutes in all: `pytest -m "not slow"` for a quick run; CI runs it
@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=[f"{n}-{p}p" for n, p in CONFIGS])
def test_random_games_keep_every_invariant(name: str, players: int) -> None:
    rules = preset(name)
    rng = random.Random(f"{name}:{players}")
    for index in range(GAMES):
        game = Game(rules, players, seed=rng.getrandbits(40))
        full = index % VIEW_EVERY == 0
        steps = 0
        while not game.over:
            game.card_count_check()
            actions = game.legal_actions()
            assert actions, f"no legal action in phase {game.phase}"
            if full:
                check_views(game)
                if steps == 3:
                    check_illegal_changes_nothing(game)
            game.apply(actions[rng.randrange(len(actions))])
            steps += 1
            assert steps < 2000, "the game does not end"
        assert game.legal_actions() == []
        assert game.winner is not None
        if index % REPLAY_EVERY:
            continue
        again, _ = replay(json.loads(json.dumps(record_of(game))))
        assert again.totals == game.totals and again.winner == game.winner
