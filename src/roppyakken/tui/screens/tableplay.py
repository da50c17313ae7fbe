"""The table's side of the game loop: what the driver asks of the table, answered.

:class:`TablePlay` is the :class:`~roppyakken.tui.driver.TableView` the table screen hands to
:class:`~roppyakken.tui.driver.TableDriver`: it hands the keyboard over in a hot-seat game,
asks a person's decision (a dialog for a declaration or a redeal, else the keys or the
mouse through :class:`~roppyakken.tui.table.choosing.Choosing`), shows the events of each
move one step at a time, and opens the scores at the round's end and the game's.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from textual.screen import Screen

from roppyakken.actions import Action, CallRedeal, Declare, Take
from roppyakken.cards import MONTH_MASK
from roppyakken.choices import automatic, choices
from roppyakken.events import Event, FirstDealerDrawn, GameEnded, LegWon, Redealt, RoundEnded, RoundStarted
from roppyakken.phase import Phase
from roppyakken.tui import text as t
from roppyakken.tui.board import board_of, frames
from roppyakken.tui.driver import TableDriver
from roppyakken.tui.screens.dialogs import DeclareScreen, HandoffScreen, RedealScreen
from roppyakken.tui.screens.hint import review_work
from roppyakken.tui.screens.scores import game_over_of, round_end_of
from roppyakken.tui.table.choosing import target_name
from roppyakken.tui.table.state import TableState
from roppyakken.view import view_of

T = TypeVar("T")


class TableControls(Protocol):
    """What the game loop's side needs of the table screen."""

    def refresh_table(self) -> None:
        """Draw the table as its state is now."""

    def action_quit(self) -> None:
        """Ask whether to quit (and save)."""

    def action_new(self) -> None:
        """Back to the new-game screen."""

    def save_message(self) -> str:
        """Save the game; what to tell about it."""


class TablePlay:
    """The table's answers to the driver (see the module), over ``screen`` and its ``state``."""

    def __init__(self, screen: Screen[Any], controls: TableControls, state: TableState, driver: TableDriver):
        self.screen = screen
        self.controls = controls
        self.state = state
        self.driver = driver
        self._decision: asyncio.Future[Action] | None = None
        self._table_on_top = asyncio.Event()

    async def hand_over(self, seat: int) -> None:
        """Hot seat: hide the hands and hand over the keyboard before another person's turn."""
        state = self.state
        if state.viewer == seat:
            return
        if self.driver.hot_seat:
            await self.screen.app.push_screen_wait(HandoffScreen(state.names[seat]))
        state.viewer = seat
        state.board = board_of(state.game, seat)
        self.controls.refresh_table()

    async def human_decision(self, seat: int) -> Action:
        """Ask the person at ``seat``: a dialog for a declaration or a redeal, else keys or mouse."""
        state = self.state
        view = view_of(state.game, seat)
        if view.phase == Phase.DECLARE:
            self.controls.refresh_table()
            chosen: tuple[str, ...] = await self.screen.app.push_screen_wait(
                DeclareScreen(state.names[seat], view.lucky_hands)
            )
            return Declare(chosen)
        if view.phase == Phase.REDEAL:
            hand = view.hand
            month = next(m for m in range(1, 13) if hand & MONTH_MASK[m] == MONTH_MASK[m])
            call: bool = await self.screen.app.push_screen_wait(RedealScreen(state.names[seat], month))
            return CallRedeal(call)
        auto = automatic(view)
        if auto is not None and isinstance(auto, Take):
            # Every target of the turned-up card gives the same: take one without asking.
            turned = t.card_name(view.turned) if view.turned >= 0 else ""
            state.log(t.AUTO_TAKEN.format(card=turned, target=target_name(auto.target)))
            return auto
        self._decision = asyncio.get_running_loop().create_future()
        # Equivalent targets (same points, same yaku progress) are offered once.
        state.choosing.offer(view, [c for c in choices(view) if c.same_as is None])
        self.controls.refresh_table()
        try:
            return await self._decision
        finally:
            self._decision = None
            state.choosing.closed()

    def decide(self, action: Action | None) -> None:
        """The person's decision (None: none yet), if one is awaited."""
        if action is not None and self._decision is not None and not self._decision.done():
            self._decision.set_result(action)
            self.state.choosing.decided()

    async def bot_thinking(self, seat: int | None) -> None:
        """Say that ``seat``'s bot is thinking (None: it has answered)."""
        self.state.thinking = seat
        self.controls.refresh_table()

    async def in_thread(self, work: Callable[[], T]) -> T | None:
        """Run ``work`` in a thread worker (a bot's choice): the interface goes on meanwhile."""
        worker = self.screen.run_worker(work, thread=True, group="bot", exit_on_error=False)
        await worker.wait()
        return worker.result

    async def rest(self, seconds: float) -> None:
        """Leave the screen as it is for ``seconds`` (Space skips it)."""
        await self.state.pacer.pause(seconds)

    async def replay_step(self) -> None:
        """Wait for the next step of a replay: a key, or the pace when it plays on by itself (not
        while a dialog is open over the table: the quit dialog, the help)."""
        self.controls.refresh_table()
        pacer = self.state.pacer
        if self.state.replay_auto:
            await pacer.pause(pacer.seconds)
            await self._uncovered()
        else:
            await pacer.next_step()

    async def show_events(self, evs: list[Event]) -> None:
        """Log each event and animate it one step at a time (the round's end opens its scores)."""
        state, pacer = self.state, self.state.pacer
        for index, event in enumerate(evs):
            state.log_event(event)
            if isinstance(event, RoundEnded):
                await pacer.pause(pacer.seconds)
                await self._round_end(event, evs[index + 1 :])
                continue
            if isinstance(event, RoundStarted | Redealt | FirstDealerDrawn | LegWon | GameEnded):
                continue
            if not pacer.seconds:
                continue  # instant: only the position after the move is shown
            for frame in frames(state.board, event):
                state.board = frame
                self.controls.refresh_table()
                await pacer.pause(pacer.seconds)
        state.board = board_of(state.game, state.viewer, show_all=state.replay)
        self.controls.refresh_table()

    async def _round_end(self, event: RoundEnded, after: list[Event]) -> None:
        state = self.state
        await self._uncovered()
        work = None if state.replay else self.driver.take_review()
        review = review_work(work) if work is not None else None
        scores = round_end_of(state.game, event, after, state.names, state.board.captures, review)
        if await self.screen.app.push_screen_wait(scores) == "quit":
            self.controls.action_quit()

    async def game_over(self) -> None:
        """The table as it ends, and the game-over box."""
        state = self.state
        state.board = board_of(state.game, state.viewer, show_all=state.replay)
        self.controls.refresh_table()
        self.screen.refresh_bindings()
        box = game_over_of(state.game, state.names, None if state.replay else self.controls.save_message)
        if box is None:
            return
        await self._uncovered()
        choice = await self.screen.app.push_screen_wait(box)
        if choice == "quit":
            self.screen.app.exit()
        elif choice == "new":
            self.controls.action_new()
        self.controls.refresh_table()

    async def end_of_record(self) -> None:
        """A replay at its last decision: who won, or that the record stops there."""
        state = self.state
        state.replay_done = True
        game = state.game
        if game.over and game.winner is not None:  # the table keeps saying who won, after the box
            state.message = t.say(t.EVENT_GAME_ENDED, state.names[game.winner])
        else:
            state.message = t.REPLAY_UNFINISHED
        self.controls.refresh_table()
        if game.over:
            await self.game_over()

    async def _uncovered(self) -> None:
        """Wait until no dialog is open over the table (a round's scores never hide the quit
        dialog, nor a replay playing on by itself run on behind it)."""
        app, screen = self.screen.app, self.screen
        while app.screen is not screen and screen in app.screen_stack:
            self._table_on_top.clear()
            await self._table_on_top.wait()

    def on_top(self) -> None:
        """The table is on top again: what waited for the dialogs over it goes on."""
        self._table_on_top.set()
