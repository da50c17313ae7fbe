"""The table: the screen that plays a game (or replays a record) with a person at the keys.

The game loop is :class:`~roppyakken.tui.driver.TableDriver`'s (run in an async worker); its
view is this screen's :class:`~roppyakken.tui.screens.tableplay.TablePlay`.  The screen holds
the keys and the mouse: what each does to the table's state
(:class:`~roppyakken.tui.table.state.TableState`: the choice being made, the pace, whose hand
is shown) and the decision it makes; the layout and the drawing are
:mod:`roppyakken.tui.table.layout`'s.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Footer

from roppyakken.engine import Game
from roppyakken.errors import RoppyakkenError
from roppyakken.tui import text as t
from roppyakken.tui.board import board_of
from roppyakken.tui.driver import TableDriver
from roppyakken.tui.screens.dialogs import QuitScreen
from roppyakken.tui.screens.hint import HintScreen
from roppyakken.tui.screens.info import HelpScreen, LogScreen, YakuScreen
from roppyakken.tui.screens.tableplay import TablePlay
from roppyakken.tui.session import RecordScript, Seat, save_dir
from roppyakken.tui.table.choosing import CARD, CHOOSE_TAKE, TARGET, TARGET_KEYS, WAIT, table_slots
from roppyakken.tui.table.layout import TABLE_CSS, compose_table, draw_sidebar, draw_table, wide
from roppyakken.tui.table.pacing import Pacer
from roppyakken.tui.table.state import TableState
from roppyakken.tui.widgets import CardRow

__all__ = ["WAIT", "TableScreen"]  # WAIT: what :attr:`TableScreen.mode` is when nobody is asked


class TableScreen(Screen[None]):
    """The game table; runs the game until it ends (or replays a record)."""

    DEFAULT_CSS = TABLE_CSS

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "←→ Choose", show=False),
        Binding("right", "move(1)", show=False),
        Binding("enter", "confirm", t.KEY_PLAY),
        Binding("enter", "step", t.KEY_NEXT),
        Binding("tab", "cycle(1)", show=False),
        Binding("shift+tab", "cycle(-1)", show=False),
        Binding("escape", "back", t.KEY_BACK, show=False),
        Binding("space", "skip", t.KEY_SKIP, show=False),
        Binding("question_mark", "help", t.KEY_HELP),
        Binding("h", "hint", t.KEY_HINT),
        Binding("y", "yaku", t.KEY_YAKU),
        Binding("l", "log", t.KEY_LOG),
        Binding("s", "save", t.KEY_SAVE),
        Binding("f", "speed", t.KEY_SPEED),
        Binding("p", "auto", t.KEY_AUTO),
        Binding("v", "whose", t.KEY_WHOSE),
        Binding("n", "new", t.KEY_NEW),
        Binding("q", "quit", t.KEY_QUIT),
    ]

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        *,
        pace: str = "normal",
        save_path: Path | None = None,
        script: RecordScript | None = None,
        on_new_game: Callable[[], None] | None = None,
        resumed: bool = False,
    ) -> None:
        super().__init__()
        self.driver = TableDriver(game, seats, script=script, save_path=save_path, resumed=resumed)
        viewer = self.driver.first_viewer
        self.state = TableState(
            game=game,
            names=self.driver.names,
            replay=script is not None,
            board=board_of(game, viewer, show_all=script is not None),
            viewer=viewer,
            pacer=Pacer(pace),
        )
        self.play = TablePlay(self, self, self.state, self.driver)
        self.on_new_game = on_new_game
        self.resumed = resumed

    @property
    def game(self) -> Game:
        """The game (the driver's)."""
        return self.driver.game

    @property
    def mode(self) -> str:
        """What the table waits for: a person's card or target, or (:data:`WAIT`) nobody's."""
        return self.state.choosing.mode

    def compose(self) -> ComposeResult:
        """Title, opponents, table with pile, hand, own strip, status, keys."""
        yield from compose_table(self.game.players)
        yield Footer()

    def on_mount(self) -> None:
        """Log how the game starts and run the game loop."""
        state = self.state
        if not state.replay:
            state.log(t.TIP_START)
        for event in self.game.events:  # a resumed game's log is rebuilt from its events
            state.log_event(event)
        if self.resumed:
            state.log(t.say(t.RESUMED, state.names[self.game.dealer], round=self.game.round + 1))
        self.refresh_table()
        game_loop = self.driver.run(self.play, lambda: state.pacer.seconds)
        self.run_worker(game_loop, exclusive=True, group="game", name="game-loop")

    def on_resize(self, event: events.Resize) -> None:
        """Show the yaku sidebar only where there is room for it."""
        self._refresh_sidebar()

    def on_screen_resume(self) -> None:
        """The table is on top again: what waited for the dialogs over it goes on."""
        self.play.on_top()

    def refresh_table(self) -> None:
        """Draw the table as its state is now."""
        if self.is_mounted:
            draw_table(self, self.state, self.app.size.width)

    def _refresh_sidebar(self) -> None:
        if self.is_mounted:
            draw_sidebar(self, self.state, self.app.size.width)

    # ----------------------------------------------------------------- choosing

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that mean something now."""
        replay = self.state.replay
        if action in ("auto", "whose", "step"):
            return replay
        if action == "save":
            return not replay
        if action in ("hint", "confirm"):
            return not replay and not self.game.over
        if action == "new":
            return not replay and self.game.over
        if action == "speed":
            return replay or not self.game.over  # no bot moves left to pace: room for "n New game"
        return True

    def action_move(self, delta: int) -> None:
        """←/→: the previous or next card (or target)."""
        if self.state.replay:
            if delta > 0:
                self.action_step()
            return
        self.state.choosing.move(delta)
        self.refresh_table()

    def action_cycle(self, delta: int) -> None:
        """Tab: go through the targets of the chosen card."""
        if self.state.choosing.mode == CARD and self.state.choosing.hand_cards:
            if self.state.choosing.to_targets():
                self.refresh_table()
            return
        self.action_move(delta)

    def action_confirm(self) -> None:
        """Enter: play the chosen card, or take the chosen target."""
        if not self.state.choosing.confirmable:
            self.state.pacer.skip()
            return
        action = self.state.choosing.confirm()
        if action is None:  # the card's targets are offered now
            self.refresh_table()
        self.play.decide(action)

    def action_back(self) -> None:
        """Esc: back from choosing a target to choosing a card."""
        if self.state.choosing.back():
            self.refresh_table()

    def on_key(self, event: events.Key) -> None:
        """Number keys choose a card; letters choose a target."""
        char, c = event.character or "", self.state.choosing
        if c.mode == CARD and char.isdigit() and c.hand_cards:
            index = 9 if char == "0" else int(char) - 1
            if index < len(c.hand_cards):
                c.sel = index
                self.refresh_table()
            event.stop()
        elif c.mode in (TARGET, CHOOSE_TAKE) and char and char in TARGET_KEYS:
            index = TARGET_KEYS.index(char)
            if index < len(c.targets):
                event.stop()
                c.tsel = index
                self.action_confirm()

    def on_card_row_picked(self, message: CardRow.Picked) -> None:
        """Mouse: click a card to choose it, again to play it; click a highlighted target to take it."""
        c = self.state.choosing
        if message.row.id == "hand" and c.mode in (CARD, TARGET):
            if c.mode == CARD and message.index == c.sel:
                self.action_confirm()
                return
            c.pick_card(message.index)
            self.refresh_table()
        elif message.row.id == "table":
            self.play.decide(c.pick_target(table_slots(self.state.board.table)[message.index]))

    def action_hint(self) -> None:
        """h: on your turn to play or take a card, the expert's best plays (worked out in a thread)."""
        view = self.state.choosing.view
        if self.state.replay or view is None or self.state.choosing.mode == WAIT:
            self.notify(t.HINT_NOT_NOW, timeout=3)
            return
        self.app.push_screen(HintScreen(view))

    # ----------------------------------------------------------------- pace and replay

    def action_skip(self) -> None:
        """Space: skip the current pause (in a replay: the next step)."""
        self.state.pacer.skip()
        if self.state.replay:
            self.state.pacer.step()

    def action_step(self) -> None:
        """Enter (replay): the next step."""
        self.state.pacer.step()
        self.state.pacer.skip()

    def action_speed(self) -> None:
        """f: the next speed for bots' moves."""
        self.state.pacer.faster()
        self.notify(t.PACE_CHANGED.format(pace=t.PACE_NAMES[self.state.pace]), timeout=2)
        self.refresh_table()

    def action_auto(self) -> None:
        """p (replay): play on by itself, or pause."""
        if self.state.replay:
            self.state.replay_auto = not self.state.replay_auto
            self.state.pacer.step()
            self.refresh_table()

    def action_whose(self) -> None:
        """v (replay): show the next player's hand."""
        if self.state.replay:
            self.state.viewer = ((self.state.viewer or 0) + 1) % self.game.players
            self.state.board = board_of(self.game, self.state.viewer, show_all=True)
            self.state.message = t.REPLAY_HAND_OF.format(name=self.state.names[self.state.viewer])
            self.refresh_table()

    # ----------------------------------------------------------------- look-ups

    def action_help(self) -> None:
        """?: the rules of this game."""
        self.app.push_screen(HelpScreen(self.game.rules, self.game.players))

    def action_yaku(self) -> None:
        """y: yaku progress (a sidebar on wide terminals, a screen otherwise)."""
        if wide(self.app.size.width, self.game.players):
            self.state.sidebar_on = not self.state.sidebar_on
            self._refresh_sidebar()
            return
        hand = self.state.board.hands[self.state.viewer] if self.state.viewer is not None else 0
        rules, captures, round_ = self.game.rules, self.state.board.captures, self.state.board.round
        self.app.push_screen(YakuScreen(rules, captures, self.state.names, self.state.viewer, round_, hand))

    def action_log(self) -> None:
        """l: the log of this game."""
        self.app.push_screen(LogScreen(self.state.log_lines))

    # ----------------------------------------------------------------- saving, leaving

    def save_message(self) -> str:
        """Save the game; what to tell about it (where, or why it failed)."""
        try:
            path = self.save()
        except RoppyakkenError as exc:
            return t.SAVE_FAILED.format(error=exc.translated())
        return t.SAVED.format(path=path)

    def save(self) -> Path:
        """Save the game (to the file it came from or was last saved to, else a new one)."""
        return self.driver.save()

    def action_save(self) -> None:
        """s: save the game."""
        if self.state.replay:
            self.notify(t.NOTHING_TO_SAVE)
            return
        message = self.save_message()
        self.notify(message, severity="information" if self.driver.save_path else "error", timeout=6)

    def action_new(self) -> None:
        """n (after the game): back to the new-game screen."""
        if self.game.over and self.on_new_game is not None:
            self.on_new_game()

    def action_quit(self) -> None:
        """q: quit, after asking (and saving if wished)."""

        def done(choice: str | None) -> None:
            if choice == "save":
                self.app.exit(message=self.save_message())
            elif choice == "quit":
                self.app.exit()

        can_save = not self.state.replay and not self.game.over
        saved = str(self.driver.save_path) if can_save and self.driver.unchanged_since_saved else ""
        self.app.push_screen(QuitScreen(str(save_dir()), can_save=can_save, saved=saved), done)
