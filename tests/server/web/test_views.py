"""The server's ``state`` messages are each seat's engine view and its choices (roppyakken.choices)."""

from __future__ import annotations

import json
import random

import pytest

from roppyakken.choices import choices
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.server.play.seat_views import SEAT_FIELDS, StateMessages
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire.server import ClockView
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


def test_state_messages_are_the_state_builders_bytes() -> None:
    """The parts encoded once per change make the very text the ``state`` builder makes of each view."""
    game = Game(preset("classic"), 3, seed=5)
    rng = random.Random(5)
    names = ["a", "b", "bot:expert"]
    clock = ClockView(
        control="15+60", kind="realtime", per_move=15.0, banks=[60.0, 1e-05, 0.5], turn=1,
        remaining=12.25, away=[False, True, False], abandoned=[False, False, True],
    )  # fmt: skip
    for seq in range(40):
        messages = StateMessages(game, names, seq, clock if seq % 2 else None)
        for seat in [None, 0, 1, 2]:
            view = view_of(game, seat)
            fields = view.to_json()  # sent with the seat's own fields first
            ordered = {key: fields[key] for key in SEAT_FIELDS} | {
                key: value for key, value in fields.items() if key not in SEAT_FIELDS
            }
            made = to_client.state(
                names, seq, ordered, [c.to_json() for c in choices(view)], clock if seq % 2 else None
            )
            assert messages.for_seat(seat) == made
        if game.over:
            break
        game.apply(rng.choice(game.legal_actions()))
