"""The terminal game's driver: the game loop, apart from how the table is drawn and played.

:class:`TableDriver` owns the game and its seats: for each decision it asks the seat's
player — a person through the :class:`TableView` (keys or mouse), a bot (its ``choose`` runs
in a thread on the seat's :class:`~roppyakken.view.SeatView`, never on the game) or, in a
replay, the record — applies the action and hands the events to the view to show.  It also
keeps what outlives a screen: how many actions were applied, when the game was last saved,
and the lone person's decisions of the round for the review.  The view (the table screen)
draws, words and takes input only, as the browser's client does against the server: the
driver imports no screen.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Protocol, TypeVar

from roppyakken.actions import Action, Play, Take
from roppyakken.ai.base import Bot
from roppyakken.ai.hint import REVIEW_WORLDS, Review, review
from roppyakken.engine import Game
from roppyakken.errors import RoppyakkenError
from roppyakken.events import Event
from roppyakken.tui.session import RecordScript, Seat, display_names, make_bots, new_save_path, save_game
from roppyakken.view import SeatView, view_of

T = TypeVar("T")

RoundReview = tuple[list[Review], list[int]]
"""A round's review: the decisions that gave up the most, and the seat's turn numbers in the
round of the decisions reviewed (``Review.index`` is a place in them)."""


class TableView(Protocol):
    """What the driver needs from the screen that shows the table."""

    async def hand_over(self, seat: int) -> None:
        """Show the table to ``seat``'s person (hot seat: after handing over the keyboard)."""

    async def human_decision(self, seat: int) -> Action:
        """The decision of ``seat``'s person."""

    async def bot_thinking(self, seat: int | None) -> None:
        """Say that ``seat``'s bot is thinking (None: it has answered)."""

    async def rest(self, seconds: float) -> None:
        """Leave what is shown on screen for ``seconds`` (a bot's move, a replay's step)."""

    async def replay_step(self) -> None:
        """Wait until the next step of a replay is wanted."""

    async def show_events(self, events: list[Event]) -> None:
        """Show what the last action did, step by step."""

    async def game_over(self) -> None:
        """Show the end of the game."""

    async def end_of_record(self) -> None:
        """Show that the record has no more decisions."""

    def in_thread(self, work: Callable[[], T]) -> Awaitable[T | None]:
        """Run ``work`` in a thread; its result (None if it gave none)."""


class TableDriver:
    """A game at the terminal table: its seats, its bots and its loop (see the module)."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        *,
        script: RecordScript | None = None,
        save_path: Path | None = None,
        resumed: bool = False,
    ) -> None:
        self.game = game
        self.seats = list(seats)
        self.names = display_names(self.seats)
        self.script = script
        self.save_path = save_path
        self.bots: dict[int, Bot] = {} if script else make_bots(game, self.seats)
        humans = [i for i, s in enumerate(self.seats) if s.human]
        self.hot_seat = script is None and len(humans) > 1
        """Several people share the keyboard: the hands are hidden between their turns."""
        self.first_viewer: int | None = 0 if script else (None if self.hot_seat else humans[0])
        """Whose hand the table shows at first (None: nobody's yet, in a hot-seat game)."""
        self.applied = 0
        """Actions applied since the driver started."""
        self.saved_at: int | None = 0 if resumed and save_path is not None else None
        """:attr:`applied` when the game was last saved (None: never saved)."""
        self.round_decisions: list[tuple[int, SeatView, Action]] = []
        """The lone person's card-play decisions this round (turn, its view, its move), for the review."""

    async def run(self, view: TableView, pace: Callable[[], float]) -> None:
        """Play the game to its end (or the record to its last decision) through ``view``;
        ``pace()`` is how long each bot move stays on screen."""
        game = self.game
        while True:
            if self.script is not None and self.script.finished(game):
                await view.end_of_record()
                return
            if game.over:
                await view.game_over()
                return
            seat = game.to_act
            if self.script is not None:
                await view.replay_step()
                action = self.script.next_action(game)
            elif self.seats[seat].human:
                await view.hand_over(seat)
                seen = view_of(game, seat)
                action = await view.human_decision(seat)
                self.note_decision(seen, action)
            else:
                action = await self._bot_decision(view, seat, pace)
            events = game.apply(action, seat)
            self.applied += 1
            await view.show_events(events)

    async def _bot_decision(self, view: TableView, seat: int, pace: Callable[[], float]) -> Action:
        seen = view_of(self.game, seat)  # the bot sees its seat's view, never the game
        bot = self.bots[seat]
        await view.bot_thinking(seat)
        start = time.monotonic()
        action = await view.in_thread(lambda: bot.choose(seen))
        if action is None:
            raise RoppyakkenError(f"bot {bot.name} gave no action")
        await view.bot_thinking(None)
        await view.rest(pace() / 2 - (time.monotonic() - start))  # the pace as it is now
        return action

    def note_decision(self, seen: SeatView, action: Action) -> None:
        """Keep a card-play decision of a lone person for the round's review."""
        if self.hot_seat or not isinstance(action, Play | Take) or len(seen.legal) < 2:
            return
        self.round_decisions.append((len(self.round_decisions) + 1, seen, action))

    def take_review(self) -> Callable[[], RoundReview] | None:
        """The review of the round's decisions (to run in a thread), and a fresh round; None if
        there is nothing to review."""
        made, self.round_decisions = self.round_decisions, []
        if not made:
            return None

        def work() -> RoundReview:
            found = review([(view, action) for _, view, action in made], worlds=REVIEW_WORLDS)
            return found, [turn for turn, _, _ in made]

        return work

    @property
    def unchanged_since_saved(self) -> bool:
        """Whether the game was saved and nothing was played since."""
        return self.saved_at == self.applied and self.save_path is not None

    def save(self) -> Path:
        """Save the game (to the file it came from or was last saved to, else a new one)."""
        path = self.save_path or new_save_path()
        save_game(path, self.game, self.seats)
        self.save_path = path
        self.saved_at = self.applied
        return path
