"""Screens to look things up: the rules (help), the yaku progress and the game's log."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.markdown import Markdown as RichMarkdown
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static, TabbedContent, TabPane

from roppyakken.rules import Rules
from roppyakken.tui import helptext
from roppyakken.tui import text as t
from roppyakken.tui.widgets import missing_lines, yaku_table

INFO_CSS = """
.info { width: 100%; height: 1fr; border: round $accent; background: $panel; padding: 0 1; }
.info .title { text-style: bold; }
.info .notes { margin-top: 1; }
"""


class HelpScreen(ModalScreen[None]):
    """The rules of this game's preset, generated from its options; the keys; card values."""

    DEFAULT_CSS = """
    HelpScreen { background: $background; }
    HelpScreen TabbedContent { height: 1fr; }
    HelpScreen TabPane { padding: 0 1; }
    HelpScreen .help-text { margin: 0; padding: 0; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark", "close", t.KEY_CLOSE),
        Binding("left", "tab(-1)", show=False),
        Binding("right", "tab(1)", show=False),
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
        Binding("pageup", "scroll(-10)", show=False),
        Binding("pagedown,space", "scroll(10)", show=False),
        Binding("home", "scroll(-10000)", show=False),
        Binding("end", "scroll(10000)", show=False),
    ]
    TABS = ("play", "yaku", "cards", "options", "keys")

    def __init__(self, rules: Rules, players: int, start: str = "play") -> None:
        super().__init__()
        self.rules = rules
        self.players = players
        self.start = start

    def compose(self) -> ComposeResult:
        """One tab per part of the rules, each one Static of Rich Markdown: Textual's Markdown
        widget makes a widget of every paragraph and list item (over a thousand for the five tabs,
        seconds to mount), one Static is one widget."""
        rules = self.rules
        with TabbedContent(initial=self.start):
            with TabPane(t.HELP_TAB_PLAY, id="play"), VerticalScroll():
                yield Static(RichMarkdown(helptext.how_to_play(rules, self.players)), classes="help-text")
            with TabPane(t.HELP_TAB_YAKU, id="yaku"), VerticalScroll():
                yield Static(RichMarkdown(helptext.yaku_and_lucky_hands(rules)), classes="help-text")
            with TabPane(t.HELP_TAB_CARDS, id="cards"), VerticalScroll():
                yield Static(RichMarkdown(helptext.card_values(rules)), classes="help-text")
            with TabPane(t.HELP_TAB_OPTIONS, id="options"), VerticalScroll():
                yield Static(RichMarkdown(helptext.all_options(rules)), classes="help-text")
            with TabPane(t.HELP_TAB_KEYS, id="keys"), VerticalScroll():
                yield Static(RichMarkdown(t.HELP_KEYS), classes="help-text")
        yield Footer()

    def action_tab(self, delta: int) -> None:
        """Show the next or previous tab."""
        tabs = self.query_one(TabbedContent)
        current = self.TABS.index(tabs.active) if tabs.active in self.TABS else 0
        tabs.active = self.TABS[(current + delta) % len(self.TABS)]

    def action_scroll(self, lines: int) -> None:
        """Scroll the shown tab (wherever the focus is): the help scrolls from the start."""
        tabs = self.query_one(TabbedContent)
        pane = tabs.get_pane(tabs.active) if tabs.active else None
        if pane is None:
            return
        scroller = pane.query_one(VerticalScroll)
        # at once, not at the next refresh: keys pressed in a row add up
        scroller.scroll_to(y=max(0, scroller.scroll_y + lines), animate=False, immediate=True)

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class YakuScreen(ModalScreen[None]):
    """Every yaku's progress for every player, and what the viewer still needs."""

    DEFAULT_CSS = (
        """
    YakuScreen { background: $background; }
    """
        + INFO_CSS
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,y,q", "close", t.KEY_CLOSE)]

    def __init__(
        self,
        rules: Rules,
        captures: Sequence[int],
        names: Sequence[str],
        viewer: int | None,
        round_index: int,
        hand: int = 0,
    ) -> None:
        super().__init__()
        self.hand = hand
        self.rules = rules
        self.captures = list(captures)
        self.names = list(names)
        self.viewer = viewer
        self.round_index = round_index

    def compose(self) -> ComposeResult:
        """Title, table, what is missing, legend."""
        with VerticalScroll(classes="info"):
            yield Static(t.YAKU_TITLE.format(round=self.round_index + 1), classes="title")
            if not self.rules.yaku:
                yield Static(t.YAKU_NONE)
            else:
                # The screen is wide enough for whole names (the French ones are the longest).
                table = yaku_table(self.rules, self.captures, self.names, self.viewer, name_width=None)
                yield Static(table)
                if self.viewer is not None:
                    name = self.names[self.viewer]
                    lines = missing_lines(self.rules, self.captures, name, self.viewer, self.hand)
                    if lines:
                        header = t.YAKU_MISSING.format(name=self.names[self.viewer])
                        yield Static(
                            header + "\n" + "\n".join(f"  {line}" for line in lines), classes="notes"
                        )
                yield Static(t.YAKU_LEGEND, classes="notes")
        yield Footer()

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class LogScreen(ModalScreen[None]):
    """Everything that happened in this game, newest last."""

    DEFAULT_CSS = (
        """
    LogScreen { background: $background; }
    """
        + INFO_CSS
    )
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,l,q", "close", t.KEY_CLOSE)]

    def __init__(self, lines: Sequence[str]) -> None:
        super().__init__()
        self.lines = list(lines)

    def compose(self) -> ComposeResult:
        """The log, scrolled to its end."""
        with VerticalScroll(classes="info", id="log"):
            yield Static(t.LOG_TITLE, classes="title")
            yield Static("\n".join(self.lines))
        yield Footer()

    def on_mount(self) -> None:
        """Show the newest lines."""
        self.query_one("#log", VerticalScroll).scroll_end(animate=False)

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)
