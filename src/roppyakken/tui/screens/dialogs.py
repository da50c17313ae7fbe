"""Small decisions in a box: hand the keyboard over, quit, declare lucky hands, call a redeal."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widgets import Button, Static

from roppyakken.cards import iter_cards
from roppyakken.text import enumeration, month_name, yaku_name
from roppyakken.tui import text as t
from roppyakken.yaku import LuckyHand

DIALOG_CSS = """
.dialog {
    width: 72; max-width: 100%; height: auto; max-height: 100%;
    border: round $accent; background: $panel; padding: 0 1;
}
.dialog .title { text-style: bold; margin-bottom: 1; }
.dialog .buttons { height: auto; margin-top: 1; }
.dialog Button { margin-right: 1; }
"""


class HandoffScreen(Screen[None]):
    """Hot seat: a full screen that hides every hand until the next player is ready."""

    AUTO_FOCUS = None

    DEFAULT_CSS = (
        """
    HandoffScreen { align: center middle; background: $background; }
    """
        + DIALOG_CSS
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter,space", "ready", t.KEY_CONTINUE)]

    def __init__(self, name: str) -> None:
        super().__init__()
        self.player = name

    def compose(self) -> ComposeResult:
        """Title, text and a button."""
        with Vertical(classes="dialog"):
            yield Static(t.HANDOFF_TITLE.format(name=self.player), classes="title")
            yield Static(t.HANDOFF_BODY.format(name=self.player))
            with Horizontal(classes="buttons"):
                yield Button(t.KEY_CONTINUE, id="ready", variant="primary")

    def action_ready(self) -> None:
        """The next player is at the keyboard."""
        self.dismiss(None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The button does what Enter does."""
        self.dismiss(None)


class QuitScreen(ModalScreen[str | None]):
    """Quit? Save and quit, quit without saving, or cancel (``'save'``, ``'quit'`` or None)."""

    AUTO_FOCUS = None

    DEFAULT_CSS = (
        """
    QuitScreen { align: center middle; }
    """
        + DIALOG_CSS
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "choose('save')", t.QUIT_SAVE),
        Binding("q,y", "choose('quit')", t.QUIT_NOSAVE),
        Binding("escape,n", "choose('')", t.QUIT_CANCEL),
    ]

    def __init__(self, saves_dir: str, can_save: bool = True, saved: str = "") -> None:
        super().__init__()
        self.saves_dir = saves_dir
        self.saved = saved
        """The file the game is saved in when nothing happened since (no warning then)."""
        self.can_save = can_save and not saved

    def compose(self) -> ComposeResult:
        """Question and three buttons."""
        with Vertical(classes="dialog"):
            yield Static(t.QUIT_TITLE, classes="title")
            if self.saved:
                yield Static(t.QUIT_SAVED.format(path=self.saved))
            elif self.can_save:
                yield Static(t.QUIT_BODY.format(dir=self.saves_dir))
            with Horizontal(classes="buttons"):
                if self.can_save:
                    yield Button(f"{t.QUIT_SAVE} (s)", id="save", variant="primary")
                    yield Button(f"{t.QUIT_NOSAVE} (q)", id="quit", variant="error")
                else:
                    yield Button(f"{t.QUIT_REPLAY} (q)", id="quit", variant="error")
                yield Button(f"{t.QUIT_CANCEL} (Esc)", id="cancel")

    def action_choose(self, choice: str) -> None:
        """Close with ``choice`` (empty: cancel)."""
        if choice == "save" and not self.can_save:
            return
        self.dismiss(choice or None)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Buttons do what their keys do."""
        self.action_choose("" if event.button.id == "cancel" else str(event.button.id))


class DeclareScreen(ModalScreen[tuple[str, ...]]):
    """R-4.1: which held lucky hands to declare (all ticked at first); returns their slugs."""

    AUTO_FOCUS = None

    # At the bottom and compact, so that the hand stays in sight while deciding (80×24 too).
    DEFAULT_CSS = (
        DIALOG_CSS
        + """
    DeclareScreen { align: center bottom; background: $background 30%; }
    DeclareScreen .dialog .title { margin-bottom: 0; }
    DeclareScreen .dialog .buttons { margin-top: 0; }
    #hands { height: auto; margin-top: 0; }
    """
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", t.KEY_DECLARE),
        Binding("n,escape", "nothing", t.DECLARE_NONE),
        Binding("up", "move(-1)", show=False),
        Binding("down", "move(1)", show=False),
        Binding("space", "tick", show=False),
    ]

    def __init__(self, name: str, hands: Sequence[LuckyHand]) -> None:
        super().__init__()
        self.player = name
        self.hands = list(hands)
        self.ticked = [True] * len(self.hands)
        self.cursor = 0

    def compose(self) -> ComposeResult:
        """Title, explanation, the hands and two buttons."""
        with Vertical(classes="dialog"):
            yield Static(t.say(t.DECLARE_TITLE, self.player), classes="title")
            yield Static(t.DECLARE_BODY)
            yield Static(self._hands_text(), id="hands")
            with Horizontal(classes="buttons"):
                yield Button(f"{t.DECLARE_OK} (Enter)", id="ok", variant="primary", compact=True)
                yield Button(f"{t.DECLARE_NONE} (n)", id="none", compact=True)

    def _hands_text(self) -> Text:
        lines = []
        for i, hand in enumerate(self.hands):
            box = "[x]" if self.ticked[i] else "[ ]"
            pointer = "▶" if i == self.cursor else " "
            cards = enumeration([t.card_name(c) for c in iter_cards(hand.cards)])
            item = t.DECLARE_ITEM.format(name=yaku_name(hand.slug), points=hand.points, cards=cards)
            lines.append(Text(f"{pointer} {box} {i + 1}. {item}", style="bold" if i == self.cursor else ""))
        return Text("\n").join(lines)

    def _update(self) -> None:
        self.query_one("#hands", Static).update(self._hands_text())

    def on_key(self, event: events.Key) -> None:
        """A number toggles that hand."""
        if event.character and event.character.isdigit():
            index = int(event.character) - 1
            if 0 <= index < len(self.hands):
                self.cursor = index
                self.ticked[index] = not self.ticked[index]
                self._update()
                event.stop()

    def action_move(self, delta: int) -> None:
        """Move the cursor."""
        self.cursor = (self.cursor + delta) % len(self.hands)
        self._update()

    def action_tick(self) -> None:
        """Tick or untick the hand under the cursor."""
        self.ticked[self.cursor] = not self.ticked[self.cursor]
        self._update()

    def action_confirm(self) -> None:
        """Declare the ticked hands."""
        self.dismiss(tuple(h.slug for h, on in zip(self.hands, self.ticked, strict=True) if on))

    def action_nothing(self) -> None:
        """Declare nothing."""
        self.dismiss(())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Buttons do what their keys do."""
        if event.button.id == "ok":
            self.action_confirm()
        else:
            self.action_nothing()


class RedealScreen(ModalScreen[bool]):
    """R-3.4 ``optional``: four of a month in hand — call a redeal or not."""

    AUTO_FOCUS = None

    DEFAULT_CSS = (
        """
    RedealScreen { align: center middle; }
    """
        + DIALOG_CSS
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y", "answer(True)", t.REDEAL_YES),
        Binding("n,escape", "answer(False)", t.REDEAL_NO),
    ]

    def __init__(self, name: str, month: int) -> None:
        super().__init__()
        self.player = name
        self.month = month

    def compose(self) -> ComposeResult:
        """Question and two buttons."""
        with Vertical(classes="dialog"):
            yield Static(t.say(t.REDEAL_TITLE, self.player, month=month_name(self.month)), classes="title")
            yield Static(t.REDEAL_BODY)
            with Horizontal(classes="buttons"):
                yield Button(t.REDEAL_YES, id="yes", variant="primary")
                yield Button(t.REDEAL_NO, id="no")

    def action_answer(self, call: bool) -> None:
        """Close with the answer."""
        self.dismiss(call)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Buttons do what their keys do."""
        self.dismiss(event.button.id == "yes")
