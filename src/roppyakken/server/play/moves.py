"""The functional core of a move: given a room's state and a move, decide what it comes to.

:func:`decide_move` checks the move (the sender's ``seq``, the seat's clock, the
engine's rules), lets the room's engine game take it, and returns the effects
(:class:`~roppyakken.server.play.effects.MoveEffects`): what to store, whom to
tell what, the clock after it, the game's end.  It does no I/O and changes
nothing of the room but its engine game, which the shell rebuilds from the
stored actions if the write fails (server/play/runner.py).
"""

from __future__ import annotations

import json
from datetime import datetime

from roppyakken.actions import Action
from roppyakken.cards import slugs_of
from roppyakken.engine import Game
from roppyakken.errors import IllegalActionError
from roppyakken.events import Event, GameEnded, RoundEnded
from roppyakken.record import dumps, record_of
from roppyakken.server.play.clocks import Clock
from roppyakken.server.play.effects import (
    Broadcast,
    Ending,
    MoveEffects,
    Result,
    ReviewRound,
    SendStates,
    StoreMove,
    Tell,
)
from roppyakken.server.play.seats import HUMAN, OVER
from roppyakken.server.play.state import RoomState
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire import text
from roppyakken.server.wire.protocol import ProtocolError


def record_address(room_id: str) -> str:
    """Where a finished game's record is served."""
    return f"/api/games/{room_id}/record"


def clock_seat(room: RoomState, game: Game, clock: Clock) -> int | None:
    """The seat whose clock runs now: the seat to act if a person plays it (not a bot)."""
    if game.over:
        return None
    seat = game.to_act
    if room.seats[seat].kind != HUMAN or clock.abandoned[seat]:
        return None
    return seat


def clock_after(
    room: RoomState, game: Game, seat: int, index: int, now: float, by_clock: bool, by_bot: bool
) -> tuple[Clock | None, bool]:
    """The clock once action ``index`` (already applied to ``game``) is made; and whether ``seat``
    was given up by it.  A copy: the room's clock changes only once the move is stored."""
    if room.clock is None:
        return None, False
    clock = room.clock.copy()
    gave_up = clock.timed_out(seat, index) if by_clock else False
    if not by_clock and not by_bot:
        clock.moved(seat, now)
    clock.start_turn(clock_seat(room, game, clock), index + 1, now)
    return clock, gave_up


def rated_result(room: RoomState, game: Game, clock: Clock | None) -> Result | None:
    """For a rated room whose game just ended with every seat a person: how it ended; else None."""
    if not room.rated or any(s.kind != HUMAN for s in room.seats):
        return None
    left = [False] * room.players if clock is None else list(clock.abandoned)
    return Result(game.winner, list(game.totals), list(game.legs), left)


def ending_of(room: RoomState, game: Game, clock: Clock | None, at: datetime) -> Ending:
    """The end of ``room``'s game that just ended, as stored."""
    fields = record_of(game, room.names(), salt=room.salt)
    if clock is not None:
        fields.update(clock.record_fields())
    result = rated_result(room, game, clock)
    return Ending(room.id, dumps(fields), room.rules.preset, room.players, at, result)


def tells(room_id: str, game: Game, new_events: list[Event], seq: int) -> list[Tell]:
    """After a change: the public events, round and game ends, then each client's own state."""
    out: list[Tell] = []
    if new_events:
        out.append(Broadcast(to_client.events([e.to_json() for e in new_events], seq)))
    for event in new_events:
        if isinstance(event, RoundEnded):
            captures = [slugs_of(m) for m in game.history[event.round].captures or []]
            score = event.score.to_json()
            out.append(Broadcast(to_client.round_end(event.round, score, event.totals, captures, seq)))
            out.append(ReviewRound(event.round))
        elif isinstance(event, GameEnded):
            message = to_client.game_end(event.winner, event.reason, record_address(room_id), seq)
            out.append(Broadcast(message))
    out.append(SendStates())
    return out


def check_move(
    room: RoomState, seat: int, msg_id: str | None, seq: int | None, now: float, by_clock: bool, by_bot: bool
) -> Game:
    """The room's game if ``seat`` may move now; else the refusal (:class:`ProtocolError`)."""
    game = room.game
    if game is None:
        raise ProtocolError(text.NOT_STARTED, msg_id)
    if game.over or room.status == OVER:
        raise ProtocolError(text.GAME_OVER, msg_id)
    if seq is not None and seq != room.actions:
        raise ProtocolError(text.STALE_ACT, msg_id, seq=seq, now=room.actions)
    clock = room.clock
    if clock is not None and not by_clock and not by_bot:
        if clock.abandoned[seat]:
            raise ProtocolError(text.SEAT_ABANDONED, msg_id)
        if clock.turn == seat and clock.deadline is not None and now > clock.deadline:
            raise ProtocolError(text.TIME_UP, msg_id)
    return game


def decide_move(
    room: RoomState,
    seat: int,
    action: Action,
    msg_id: str | None,
    seq: int | None,
    *,
    now: float,
    today: datetime,
    by_clock: bool = False,
    by_bot: bool = False,
) -> MoveEffects:
    """What ``action`` for ``seat`` comes to (``now``/``today``: the move's time); the engine's game
    takes it.  Refused: :class:`ProtocolError`, and nothing changed."""
    game = check_move(room, seat, msg_id, seq, now, by_clock, by_bot)
    seen = room.hint_desk.before(room, game, seat, action)
    try:
        new_events = game.apply(action, seat)
    except IllegalActionError as exc:
        raise ProtocolError.of(exc, msg_id) from None
    index = room.actions
    clock, gave_up = clock_after(room, game, seat, index, now, by_clock, by_bot)
    store = StoreMove(
        room_id=room.id,
        epoch=room.epoch,
        index=index,
        seat=seat,
        action=json.dumps(action.to_json(), separators=(",", ":")),
        clock=None if clock is None else clock.to_json(),
        deadline=None if clock is None or game.over else clock.next_deadline(),
        gave_up=gave_up,
        at=now,
        ending=ending_of(room, game, clock, today) if game.over else None,
        winner=game.winner if game.over else None,
    )
    told = tells(room.id, game, new_events, index + 1)
    if by_clock:
        told.insert(0, Broadcast(to_client.timeout(seat, index + 1, gave_up)))
    return MoveEffects(store, clock, game.over, tuple(told), seen, seat, action)
