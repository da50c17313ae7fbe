"""What the table screen shows and where a game at it stands: the board as shown, whose hand,
the choice being made, the pace, the log and the replay's controls."""

from __future__ import annotations

from dataclasses import dataclass, field

from roppyakken.engine import Game
from roppyakken.events import Event
from roppyakken.tui.board import Board
from roppyakken.tui.eventlog import event_line
from roppyakken.tui.table.choosing import Choosing
from roppyakken.tui.table.pacing import Pacer


@dataclass
class TableState:
    """The table as it is to be shown; the table screen's keys and its game loop both change it."""

    game: Game
    names: list[str]
    """The players' names as shown, by seat."""
    replay: bool
    """Whether a record is replayed (every hand shown, no choosing)."""
    board: Board
    """The board as shown (a step of a move, or the position)."""
    viewer: int | None
    """Whose hand is shown (None: nobody's yet, in a hot-seat game)."""
    pacer: Pacer
    choosing: Choosing = field(default_factory=Choosing)
    message: str = ""
    """The last line of the log (or a replay's note)."""
    log_lines: list[str] = field(default_factory=list)
    """The game's log, oldest first."""
    thinking: int | None = None
    """The seat whose bot is thinking (None: none)."""
    sidebar_on: bool = True
    """Whether the yaku sidebar is wanted (it shows where there is room)."""
    replay_auto: bool = False
    """Whether the replay plays on by itself."""
    replay_done: bool = False
    """Whether the replay reached the record's last decision."""

    @property
    def pace(self) -> str:
        """The pace's name."""
        return self.pacer.pace

    def log(self, line: str) -> None:
        """Add ``line`` to the log; it is the message shown."""
        self.log_lines.append(line)
        self.message = line

    def log_event(self, event: Event) -> None:
        """Log ``event``, if it is one the log tells."""
        line = event_line(event, self.names)
        if line is not None:
            self.log(line)
