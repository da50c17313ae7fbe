"""The new-game screen: players, rules, opponents (bot levels or hot seat), seed; or resume a save."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import ClassVar

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, Input, Label, Select, Static
from textual.widgets._select import SelectOverlay

from roppyakken.ai.base import BOT_LEVELS
from roppyakken.engine import check_seed
from roppyakken.errors import RoppyakkenError, RulesError
from roppyakken.i18n import N_
from roppyakken.rules import PRESETS, resolve
from roppyakken.text import bot_label, preset_description, preset_label
from roppyakken.text import bot_level_description as bot_description
from roppyakken.tui import text as t
from roppyakken.tui.session import (
    HUMAN,
    UNNAMED,
    GameSetup,
    Seat,
    check_name,
    default_level,
    name_seats,
    resumable_saves,
)


class NewGameScreen(Screen[None]):
    """Choose a game; :attr:`on_start` receives the setup, :attr:`on_resume` a saved file."""

    AUTO_FOCUS = "#start"
    DEFAULT_CSS = """
    NewGameScreen { align: center top; }
    #form { width: 100%; max-width: 100; height: 1fr; padding: 0 1; }
    #form .title { text-style: bold; color: $accent; }
    #form .intro { color: $text-muted; margin-bottom: 1; }
    .row { height: auto; margin-bottom: 0; }
    .row Label { width: 14; }
    .row Select, .row Input { width: 1fr; }
    .hint { color: $text-muted; padding-left: 14; height: auto; }
    #error { color: $error; height: auto; margin-top: 1; display: none; }
    #learn { margin-top: 1; }
    #buttons { height: auto; margin: 1 0; }
    #buttons Button { margin-right: 2; }
    #saves-row Button { margin-left: 2; }
    #saves SelectCurrent, #saves SelectCurrent Static, #saves SelectOverlay {
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    #form Select:focus > SelectCurrent, #form Input:focus { background: $accent 45%; text-style: bold; }
    #form Button:focus { background: $accent; text-style: bold reverse; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "start", t.BUTTON_START),
        Binding("escape", "quit", t.BUTTON_QUIT),
    ]

    def __init__(
        self,
        on_start: Callable[[GameSetup], None],
        on_resume: Callable[[Path], None],
        previous: GameSetup | None = None,
    ) -> None:
        super().__init__()
        self.on_start = on_start
        self.on_resume = on_resume
        self.previous = previous
        """The last game's setup: the form starts from it (players, rules, name, opponents)."""

    def compose(self) -> ComposeResult:
        """The form."""
        levels = [(t.BOT_LABEL.format(level=bot_label(level).lower()), level) for level in BOT_LEVELS]
        opponents = [*levels, (t.OPTION_HUMAN, HUMAN)]
        players, preset, name, chosen = 2, "classic", t.DEFAULT_HUMAN_NAME, [default_level()] * 2
        if self.previous is not None:
            seats = self.previous.seats
            players = len(seats)
            if self.previous.rules.preset in PRESETS:
                preset = self.previous.rules.preset
            if seats[0].human:
                name = seats[0].shown_name
            for i, seat in enumerate(seats[1:3]):
                chosen[i] = HUMAN if seat.human else seat.kind
        form = VerticalScroll(id="form")
        form.can_focus = False  # no Tab stop where the focus shows nowhere: a focused field scrolls into view
        with form:
            yield Static(t.NEW_GAME_TITLE, classes="title")
            yield Static(t.NEW_GAME_INTRO, classes="intro")
            with Horizontal(classes="row"):
                yield Label(t.LABEL_PLAYERS)
                yield Select([(t.LABEL_TWO, 2), (t.LABEL_THREE, 3)], value=players, allow_blank=False,
                             compact=True, id="players")  # fmt: skip
            with Horizontal(classes="row"):
                yield Label(t.LABEL_RULES)
                yield Select([(preset_label(name), name) for name in PRESETS], value=preset,
                             allow_blank=False, compact=True, id="preset")  # fmt: skip
            yield Static(preset_description(preset), classes="hint", id="preset-hint")
            with Horizontal(classes="row"):
                yield Label(t.LABEL_RULES_FILE)
                yield Input(placeholder=t.HINT_RULES_FILE, compact=True, id="rules-file")
            with Horizontal(classes="row"):
                yield Label(t.LABEL_NAME)
                yield Input(value=name, compact=True, id="name", max_length=20)
            for n in (1, 2):
                with Horizontal(classes="row", id=f"opp-row{n}"):
                    yield Label(t.LABEL_OPPONENT.format(n=n))
                    yield Select(
                        opponents, value=chosen[n - 1], allow_blank=False, compact=True, id=f"opp{n}"
                    )
                hint = t.OPTION_HUMAN if chosen[n - 1] == HUMAN else bot_description(chosen[n - 1])
                yield Static(hint, classes="hint", id=f"opp-hint{n}")
            with Horizontal(classes="row"):
                yield Label(t.LABEL_SEED)
                yield Input(
                    placeholder=t.HINT_SEED, compact=True, id="seed", type="integer", valid_empty=True
                )
            yield Static("", id="error")
            # Before Start in the Tab order: Tab from Start never opens it by surprise.
            yield Button(t.BUTTON_LEARN, id="learn", compact=True)
            with Horizontal(id="buttons"):
                yield Button(t.BUTTON_START, id="start", variant="primary", compact=True)
                # Not in the Tab order: Tab from Start must not land on Quit (Esc quits from anywhere).
                quit_button = Button(t.BUTTON_QUIT, id="quit", compact=True)
                quit_button.can_focus = False
                yield quit_button
            saves = resumable_saves()  # finished games are watched with `roppyakken replay`, not resumed
            if saves:
                with Horizontal(classes="row", id="saves-row"):
                    yield Label(t.LABEL_SAVES)
                    yield Select([(label, str(p)) for label, p in saves], value=str(saves[0][1]),
                                 allow_blank=False, compact=True, id="saves")  # fmt: skip
                    yield Button(t.BUTTON_RESUME, id="resume", compact=True)
        yield Footer()

    def on_mount(self) -> None:
        """Show the second opponent only for three players; the drop-downs' key in the language."""
        self._show_players(len(self.previous.seats) if self.previous is not None else 2)
        for overlay in self.query(SelectOverlay):  # Textual's own "Dismiss menu", translated
            overlay._bindings.key_to_bindings["escape"] = [Binding("escape", "dismiss", t.KEY_DISMISS_MENU)]

    def _show_players(self, players: int) -> None:
        three = players == 3
        self.query_one("#opp-row2").display = three
        self.query_one("#opp-hint2").display = three

    @on(Select.Changed, "#players")
    def _players_changed(self, event: Select.Changed) -> None:
        self._show_players(int(str(event.value)))

    @on(Select.Changed, "#preset")
    def _preset_changed(self, event: Select.Changed) -> None:
        self.query_one("#preset-hint", Static).update(preset_description(str(event.value)))

    @on(Select.Changed, "#opp1")
    @on(Select.Changed, "#opp2")
    def _opponent_changed(self, event: Select.Changed) -> None:
        n = 1 if event.select.id == "opp1" else 2
        value = str(event.value)
        hint = t.OPTION_HUMAN if value == HUMAN else bot_description(value)
        self.query_one(f"#opp-hint{n}", Static).update(hint)

    def setup(self) -> GameSetup:
        """The game the form describes; a clear error if something is wrong."""
        players = int(str(self.query_one("#players", Select).value))
        rules_file = self.query_one("#rules-file", Input).value.strip()
        preset = str(self.query_one("#preset", Select).value)
        rules = resolve(None, rules_file) if rules_file else resolve(preset, None)
        try:
            rules.check_players(players)
        except RulesError as exc:  # name the file: it is what to change
            if rules_file:
                raise RulesError(N_("{source}: {error}"), source=rules_file, error=exc) from None
            raise
        name = check_name(self.query_one("#name", Input).value)
        seats = [Seat(HUMAN, UNNAMED if name == t.DEFAULT_HUMAN_NAME else name)]
        for n in range(1, players):
            value = str(self.query_one(f"#opp{n}", Select).value)
            seats.append(Seat(HUMAN, t.HUMAN_NAME_N.format(n=n + 1)) if value == HUMAN else Seat(value))
        text = self.query_one("#seed", Input).value.strip()
        try:
            seed = check_seed(int(text)) if text else None
        except ValueError:
            raise RoppyakkenError(t.ERROR_SEED) from None
        return GameSetup(rules, tuple(name_seats(seats)), seed)

    def action_start(self) -> None:
        """Start the game, or say what is wrong."""
        try:
            setup = self.setup()
        except RoppyakkenError as exc:
            self._error(exc.translated())
            return
        self.on_start(setup)

    def _error(self, message: str) -> None:
        """Say what is wrong under the form (its line takes no room until then)."""
        error = self.query_one("#error", Static)
        error.update(message)
        error.display = True
        error.scroll_visible(animate=False)

    def action_quit(self) -> None:
        """Leave."""
        self.app.exit()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#start")
    def _start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#learn")
    def _learn_pressed(self) -> None:
        from roppyakken.tui.screens.learn import LearnScreen

        self.app.switch_screen(LearnScreen(on_leave=self._back_from_learning))

    def _back_from_learning(self) -> None:
        self.app.switch_screen(NewGameScreen(self.on_start, self.on_resume, self.previous))

    @on(Button.Pressed, "#quit")
    def _quit_pressed(self) -> None:
        self.app.exit()

    @on(Button.Pressed, "#resume")
    def _resume_pressed(self) -> None:
        value = self.query_one("#saves", Select).value
        try:
            self.on_resume(Path(str(value)))
        except RoppyakkenError as exc:
            self._error(exc.translated())
