"""The server's ``state`` messages are each seat's engine view and its choices (roppyakken.choices)."""

from __future__ import annotations

import json
import random

import pytest

from roppyakken.choices import choices
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.server.views import StateMessages
from roppyakken.view import view_of


@pytest.mark.parametrize(
    ("name", "players"), [("classic", 2), ("classic", 3), ("marguerite", 2), ("changara", 2)]
)
def test_state_messages_equal_the_engine_views_at_every_step(name: str, players: int) -> None:
    game = Game(preset(name), players, seed=17)
    rng = random.Random(17)
    names = [f"p{i}" for i in range(players)]
    seq = 0
    while True:
        messages = StateMessages(game, names, seq)
        for seat in [None, *range(players)]:
            got = json.loads(messages.for_seat(seat))
            view = view_of(game, seat)
            want = [c.to_json() for c in choices(view)]
            assert got == {
                "type": "state",
                "seq": seq,
                "names": names,
                "view": view.to_json(),
                "choices": want,
            }
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
        seq += 1
    assert seq > 20
