"""The Textual application: starts on the new-game screen, a game, a resumed game or a replay."""

from __future__ import annotations

from pathlib import Path

from textual.app import App

from roppyakken.engine import Game
from roppyakken.tui import linebreaking
from roppyakken.tui import text as t
from roppyakken.tui.screens.newgame import NewGameScreen
from roppyakken.tui.screens.table import TableScreen
from roppyakken.tui.session import GameSetup, RecordScript, Seat, resume


class RoppyakkenApp(App[None]):
    """Roppyakken in the terminal.

    Give at most one of ``setup`` (start that game), ``resumed`` (a game loaded
    from ``save_path``, with its seats), ``script`` (watch a record) or ``learn`` (the
    guided first game); with none it opens the new-game screen.  ``pace`` sets how long
    bots' steps stay on screen.
    """

    TITLE = t.APP_TITLE
    ENABLE_COMMAND_PALETTE = False
    SUB_TITLE = t.APP_SUBTITLE

    def __init__(
        self,
        *,
        setup: GameSetup | None = None,
        resumed: tuple[Game, list[Seat]] | None = None,
        save_path: Path | None = None,
        script: RecordScript | None = None,
        pace: str = "normal",
        learn: bool = False,
    ) -> None:
        super().__init__()
        linebreaking.install()
        self.start_setup = setup
        self.start_resumed = resumed
        self.start_save_path = save_path
        self.script = script
        self.pace = pace
        self.learn = learn
        self.last_setup: GameSetup | None = setup
        """The last game played: a new game after it starts from the same choices."""

    def on_mount(self) -> None:
        """Open the first screen."""
        if self.learn:
            from roppyakken.tui.screens.learn import LearnScreen

            self.push_screen(LearnScreen())
        elif self.script is not None:
            game = self.script.start()
            self.push_screen(TableScreen(game, self.script.seats(), pace=self.pace, script=self.script))
        elif self.start_resumed is not None:
            game, seats = self.start_resumed
            self.push_screen(self._table(game, seats, self.start_save_path, resumed=True))
        elif self.start_setup is not None:
            self.push_screen(self._table(self.start_setup.new_game(), list(self.start_setup.seats), None))
        else:
            self.push_screen(NewGameScreen(self.start_game, self.resume_game))

    def action_help_quit(self) -> None:
        """Ctrl-C (which does not quit): say which key does, in the game's language."""
        for active in self.active_bindings.values():
            if active.binding.action in ("quit", "app.quit"):
                key = self.get_key_display(active.binding)
                self.notify(t.CTRL_C_BODY.format(key=f"[b]{key}[/b]"), title=t.CTRL_C_TITLE)
                return

    def _table(
        self, game: Game, seats: list[Seat], save_path: Path | None, resumed: bool = False
    ) -> TableScreen:
        self.last_setup = GameSetup(game.rules, tuple(seats), None)
        return TableScreen(
            game, seats, pace=self.pace, save_path=save_path, on_new_game=self.new_game, resumed=resumed
        )

    def start_game(self, setup: GameSetup) -> None:
        """Leave the new-game screen for the table of a new game."""
        self.switch_screen(self._table(setup.new_game(), list(setup.seats), None))

    def resume_game(self, path: Path) -> None:
        """Leave the new-game screen for the table of a saved game (raises if it cannot be resumed)."""
        game, seats = resume(path)
        self.switch_screen(self._table(game, seats, path, resumed=True))

    def new_game(self) -> None:
        """Back to the new-game screen after a game."""
        self.switch_screen(NewGameScreen(self.start_game, self.resume_game, self.last_setup))
