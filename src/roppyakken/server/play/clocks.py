"""Time controls and a room's clock: who must move by when, what the clock played, which seats were given up.

A room made with a time control has a :class:`Clock`.  Only the seat to act has
a running clock; its deadline is a wall-clock time (epoch seconds) stored with
the room after every move, so a restart or another cluster member taking the
room over finds it exactly.  Two families (docs/PROTOCOL.md, "Clocks"):

- real time (``15+60``, ``30+120``, ``60+300``): each move has its own time,
  then the seat's bank runs; what a move takes beyond its own time comes out of
  the bank;
- turn-based (``1d``, ``2d``, ``3d``, ``7d``): days a move, no bank.

When a deadline passes the server plays the seat's move with the ``expert`` bot
(:data:`CLOCK_BOT`) and marks the seat away; two timeouts in a row in real time
(one turn-based) and the seat is abandoned: a bot plays it to the end.  Rooms
without a clock keep a clock of control ``none`` only once a seat has been
handed to a bot by the other players, or while nobody is connected (the time at
which the game ends as abandoned).

Everything here is plain data and arithmetic on times given by the caller; the
room (server/play/room.py) arms the timer and stores the state.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any, Final

from roppyakken.server.wire.server import ClockView

REALTIME: Final = "realtime"
TURN: Final = "turn"
NONE: Final = "none"
"""The control of a room without a clock."""
DAY: Final = 86_400.0
CLOCK_BOT: Final = "expert"
"""The bot level that plays a seat whose time ran out, and an abandoned seat."""
ABANDON_AFTER_TIMEOUTS: Final = {REALTIME: 2, TURN: 1}
"""Timeouts in a row after which a seat is handed to a bot for the rest of the game."""


@dataclass(frozen=True, slots=True)
class Control:
    """A time control: its name, family, seconds a move and starting bank."""

    name: str
    kind: str
    per_move: float
    bank: float


CONTROLS: Final[dict[str, Control]] = {
    c.name: c
    for c in (
        Control("15+60", REALTIME, 15.0, 60.0),
        Control("30+120", REALTIME, 30.0, 120.0),
        Control("60+300", REALTIME, 60.0, 300.0),
        Control("1d", TURN, DAY, 0.0),
        Control("2d", TURN, 2 * DAY, 0.0),
        Control("3d", TURN, 3 * DAY, 0.0),
        Control("7d", TURN, 7 * DAY, 0.0),
    )
}
"""The time controls a room may be made with (besides ``none``)."""


@dataclass(slots=True)
class Clock:
    """A room's clock state (see the module docstring); ``to_json`` is what is stored."""

    control: str
    kind: str
    per_move: float
    banks: list[float]
    timeouts: list[int]
    away: list[bool]
    abandoned: list[bool]
    by_clock: list[list[int]] = field(default_factory=list)
    """``[action index, seat]`` of every move the clock played."""
    turn: int | None = None
    """The seat whose clock runs (None: nobody's, e.g. a bot to act or the game over)."""
    move: int = 0
    """The action index the running clock is for."""
    started: float | None = None
    deadline: float | None = None
    paused: float | None = None
    """Seconds left on the running clock when the server stopped (given back on restore)."""
    abandon_at: float | None = None
    """No clock: when the game ends as abandoned if nobody comes back (None: someone is there)."""
    ended: str | None = None
    """``abandoned`` once the game ended with nobody there."""

    @classmethod
    def new(cls, control: str, players: int, scale: float = 1.0) -> Clock:
        """A fresh clock of ``control`` (a :data:`CONTROLS` name or ``none``); seconds times ``scale``."""
        spec = CONTROLS.get(control)
        kind, per_move, bank = (NONE, 0.0, 0.0) if spec is None else (spec.kind, spec.per_move, spec.bank)
        return cls(
            control=control if spec is not None else NONE,
            kind=kind,
            per_move=per_move * scale,
            banks=[bank * scale] * players,
            timeouts=[0] * players,
            away=[False] * players,
            abandoned=[False] * players,
        )

    @property
    def timed(self) -> bool:
        """Whether moves have deadlines (a real time control, not ``none``)."""
        return self.kind != NONE

    def copy(self) -> Clock:
        """An independent copy (a change is made on a copy and kept only once stored)."""
        return dataclasses.replace(
            self,
            banks=list(self.banks),
            timeouts=list(self.timeouts),
            away=list(self.away),
            abandoned=list(self.abandoned),
            by_clock=[list(e) for e in self.by_clock],
        )

    # ------------------------------------------------------------------ stored form

    def to_json(self) -> dict[str, Any]:
        """The stored form."""
        return {
            "control": self.control,
            "kind": self.kind,
            "per_move": self.per_move,
            "banks": self.banks,
            "timeouts": self.timeouts,
            "away": self.away,
            "abandoned": self.abandoned,
            "by_clock": self.by_clock,
            "turn": self.turn,
            "move": self.move,
            "started": self.started,
            "deadline": self.deadline,
            "paused": self.paused,
            "abandon_at": self.abandon_at,
            "ended": self.ended,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Clock:
        """The clock of a stored form."""
        return cls(
            control=str(data["control"]),
            kind=str(data["kind"]),
            per_move=float(data["per_move"]),
            banks=[float(b) for b in data["banks"]],
            timeouts=[int(t) for t in data["timeouts"]],
            away=[bool(a) for a in data["away"]],
            abandoned=[bool(a) for a in data["abandoned"]],
            by_clock=[[int(i), int(s)] for i, s in data.get("by_clock", [])],
            turn=data.get("turn"),
            move=int(data.get("move", 0)),
            started=data.get("started"),
            deadline=data.get("deadline"),
            paused=data.get("paused"),
            abandon_at=data.get("abandon_at"),
            ended=data.get("ended"),
        )

    def next_deadline(self) -> float | None:
        """The time at which the room must act by itself next (a timeout or the end as abandoned)."""
        if self.ended is not None:
            return None
        if self.deadline is not None and self.turn is not None:
            return self.deadline
        return self.abandon_at

    # ------------------------------------------------------------------ changes

    def start_turn(self, seat: int | None, move: int, now: float) -> None:
        """The clock of ``seat`` starts for action ``move`` (None: nobody's clock runs)."""
        self.paused = None
        if not self.timed or seat is None:
            self.turn, self.started, self.deadline = None, None, None
            return
        self.turn, self.move, self.started = seat, move, now
        bank = self.banks[seat] if self.kind == REALTIME else 0.0
        self.deadline = now + self.per_move + bank

    def moved(self, seat: int, now: float) -> None:
        """``seat`` made its move itself: time beyond the move's own comes out of its bank."""
        if self.timed and self.turn == seat and self.started is not None and self.kind == REALTIME:
            over = now - self.started - self.per_move
            if over > 0:
                self.banks[seat] = max(0.0, self.banks[seat] - over)
        self.timeouts[seat] = 0
        self.away[seat] = False

    def timed_out(self, seat: int, index: int) -> bool:
        """The clock played action ``index`` for ``seat``; True if the seat is now abandoned."""
        self.banks[seat] = 0.0
        self.timeouts[seat] += 1
        self.away[seat] = True
        self.by_clock.append([index, seat])
        limit = ABANDON_AFTER_TIMEOUTS.get(self.kind, 1)
        if self.timeouts[seat] >= limit and not self.abandoned[seat]:
            self.abandoned[seat] = True
            return True
        return False

    def pause(self, now: float) -> None:
        """The server stops: remember what is left on the running clock."""
        if self.deadline is not None and self.turn is not None and self.paused is None:
            self.paused = max(0.0, self.deadline - now)

    def resume(self, now: float) -> bool:
        """The room is loaded again after a clean stop: the stopped time is not charged. True if changed."""
        if self.paused is None:
            return False
        if self.deadline is not None and self.started is not None:
            shift = now + self.paused - self.deadline
            self.deadline += shift
            self.started += shift
        self.paused = None
        return True

    def give_back(self, alive_at: float, now: float) -> float:
        """The room's holder died and the room had no living holder since ``alive_at`` at most (its
        last sign of life): the running clock gets back the time since then, or since its turn
        started if later (the holder was alive then), so the seat has at least what it had when the
        holder died.  A clock paused by a clean stop is resumed instead.  The seconds given back."""
        if not self.timed or self.turn is None or self.deadline is None or self.paused is not None:
            return 0.0
        since = alive_at if self.started is None else max(alive_at, self.started)
        shift = now - since
        if shift <= 0:
            return 0.0
        self.deadline += shift
        if self.started is not None:
            self.started += shift
        return shift

    # ------------------------------------------------------------------ shown

    def remaining(self, now: float) -> float | None:
        """Seconds left on the running clock (None: none runs)."""
        if self.deadline is None or self.turn is None:
            return None
        return max(0.0, self.deadline - now)

    def view(self, now: float) -> ClockView:
        """The ``clock`` of a ``state`` message (public: every seat's clock, no secrets)."""
        left = self.remaining(now)
        return ClockView(
            control=self.control,
            kind=self.kind,  # type: ignore[typeddict-item]  # REALTIME, TURN or NONE
            per_move=_round(self.per_move),
            banks=[_round(b) for b in self.banks],
            turn=self.turn,
            remaining=None if left is None else _round(left),
            away=list(self.away),
            abandoned=list(self.abandoned),
        )

    def record_fields(self) -> dict[str, Any]:
        """The record's ``online`` extension (docs/FORMATS-EXTENSIONS.md)."""
        return {
            "online": {
                "clock": self.control,
                "by_clock": [{"move": i, "seat": s} for i, s in self.by_clock],
                "abandoned": [i for i, a in enumerate(self.abandoned) if a],
                "ended": self.ended or "finished",
            }
        }


def _round(seconds: float) -> float:
    """Seconds to the millisecond (the wire needs no more)."""
    return math.floor(seconds * 1000) / 1000


@dataclass(frozen=True, slots=True)
class Timing:
    """The server's clock bounds a room follows (``Limits`` fields of the same names)."""

    hand_over_after: float = 60.0
    abandon_after: float = 86_400.0
    horizon: float = 120.0
