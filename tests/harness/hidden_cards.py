"""Games to test that a seat's choices ignore what it cannot see: seeded positions,
and copies whose hidden cards are shuffled."""

from __future__ import annotations

import random

from roppyakken.actions import PLAY, TAKE
from roppyakken.ai.determinize import sample_world
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.view import view_of


def poisoned(game: Game, seat: int, rng: random.Random) -> Game:
    """The same position with every card ``seat`` has not seen dealt again at random."""
    v = view_of(game, seat)
    world = sample_world(v, rng)
    turned_rest = game.pile[game.pile_pos :]
    assert len(world.pile) == len(turned_rest)
    copy = Game.from_position(
        game.rules,
        hands=world.hands,
        table=game.table,
        pile=list(world.pile),
        captures=game.captures,
        orders=game.orders,
        declared=game.declared,
        phase=game.phase,
        to_act=game.to_act,
        dealer=game.dealer,
        turned=game.turned,
        totals=game.totals,
        legs=game.legs,
        round_index=game.round,
        leg=game.leg,
        pending=game._queue,
    )
    copy.revealed = list(game.revealed)
    # The round's public record (dealt table, shown cards, plays) is the same in the poisoned
    # game: only the cards the seat never saw are dealt again.
    copy.log = True
    copy.history = game.history[-1:]
    return copy


def positions(name: str, players: int, count: int) -> list[Game]:
    """Card-play positions from random games (copies, to poison)."""
    rules = preset(name)
    out: list[Game] = []
    seed = 0
    while len(out) < count:
        game = Game(rules, players, seed=seed)
        rng = random.Random(seed)
        seed += 1
        while not game.over and len(out) < count:
            if game.phase in (PLAY, TAKE) and len(game.legal_actions()) > 1 and rng.random() < 0.3:
                out.append(game.clone(log=True))
            game.apply(rng.choice(game.legal_actions()))
    return out
