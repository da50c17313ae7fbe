"""Attack review of the server (issues 11 and 12): each test is a weakness that was found, then fixed."""

from __future__ import annotations

import asyncio
from pathlib import Path

from roppyakken.actions import Action
from roppyakken.engine import Game
from roppyakken.rules import PRESETS, preset
from roppyakken.server import storage
from roppyakken.server.bots import BotRunner
from roppyakken.server.db import Database
from roppyakken.server.protocol import Act, ProtocolError
from roppyakken.server.rooms import HUMAN, Room, Seat, hash_token


class _Client:
    """A room client that keeps what it was sent."""

    def __init__(self, seat: int | None) -> None:
        self.seat = seat
        self.sent: list[str] = []

    def send(self, message: str) -> None:
        self.sent.append(message)

    def close(self, code: int, reason: str) -> None:
        pass


def _twice_in_a_row(rules_name: str, seed: int) -> tuple[list[Action], int]:
    """Legal actions from the deal up to a seat about to act twice in a row; and that seat."""
    game = Game(preset(rules_name), 2, seed)
    actions: list[Action] = []
    while not game.over:
        seat = game.to_act
        action = game.legal_actions()[0]
        game.apply(action, seat)
        actions.append(action)
        if game.to_act == seat and not game.over:
            actions.append(game.legal_actions()[0])
            return actions, seat
    raise AssertionError("no seat ever acted twice in a row")


def test_two_acts_for_the_same_seq_cannot_both_be_made(tmp_path: Path) -> None:
    """Two sockets of one seat (or a resend racing its first copy) send acts for the same ``seq``:
    the second must be refused as stale, not applied to the state the first one made."""
    name = next(iter(PRESETS))
    actions, seat = _twice_in_a_row(name, 7)
    *before, first, second = actions

    async def scenario() -> tuple[int, list[BaseException | None]]:
        db = Database(f"sqlite:///{tmp_path / 'r.sqlite3'}")
        db.open()
        await db.start()
        bots = BotRunner(0, 1)
        seats = [Seat(HUMAN, "a", None, hash_token("ta")), Seat(HUMAN, "b", None, hash_token("tb"))]
        room = Room("seqrace", 2, preset(name), 7, seats, db=db, bots=bots, bot_delay=0.0)
        room.start_now()
        await db.run(lambda c: storage.insert_room(c, room.row(), [s.row(i) for i, s in enumerate(seats)]))
        for action in before:
            assert room.game is not None
            await room.apply(room.game.to_act, action)
        seq = room.actions
        one, two = _Client(seat), _Client(seat)
        results = await asyncio.gather(
            room.handle(one, Act(first, "m1", seq)),
            room.handle(two, Act(second, "m2", seq)),
            return_exceptions=True,
        )
        made = room.actions - seq
        bots.shutdown()
        await db.close()
        return made, list(results)

    made, results = asyncio.run(scenario())
    assert made == 1, "both acts for one seq were made"
    assert results[0] is None
    assert isinstance(results[1], ProtocolError) and "moved on" in str(results[1])
