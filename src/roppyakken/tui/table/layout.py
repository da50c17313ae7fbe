"""The table screen's layout and how it is drawn: title, opponents, the table with the pile,
the hand, the own strip, recent events, the yaku sidebar and the status line."""

from __future__ import annotations

from typing import Final

from rich.console import Group, RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.dom import DOMNode
from textual.widgets import Static

from roppyakken.text import preset_label
from roppyakken.tui import text as t
from roppyakken.tui.table.prompt import status_text
from roppyakken.tui.table.slots import hand_view, table_view
from roppyakken.tui.table.state import TableState
from roppyakken.tui.widgets import CardRow, PileSlot, PlayerStrip, RecentLog, missing_lines, yaku_table

TABLE_CSS: Final = """
TableScreen { layout: vertical; }
#title { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; text-style: bold; }
#main { height: 1fr; }
#left { width: 1fr; height: 1fr; }
#play { height: auto; max-height: 100%; }
#opponents { height: auto; }
#tablearea { height: auto; background: #1d4a2a; padding: 0 0 0 1; }
#pile { margin-right: 1; }
#table { color: #f0f0f0; }
#hand { margin-left: 1; }
#status { height: auto; min-height: 2; max-height: 6; padding: 0 1; background: $boost; }
#sidebar { height: 1fr; padding: 0 1; border-left: vkey $accent; display: none; }
"""
"""The table screen's styles (by the ids :func:`compose_table` gives)."""

SIDEBAR_MIN_WIDTH: Final = 80
"""The table's own width: the yaku sidebar shows where the terminal has room beyond it."""


def sidebar_width(players: int) -> int:
    """Cells the yaku sidebar needs: names and points, and a column per player."""
    return 34 + 9 * players


def wide(width: int, players: int) -> bool:
    """Whether a terminal ``width`` cells wide has room for the yaku sidebar beside the table."""
    return width >= SIDEBAR_MIN_WIDTH + sidebar_width(players)


def compose_table(players: int) -> ComposeResult:
    """Title, opponents, table with pile, hand, own strip, recent events, sidebar, status."""
    yield Static(id="title")
    with Horizontal(id="main"):
        with Vertical(id="left"):
            with VerticalScroll(id="play"):
                with Vertical(id="opponents"):
                    for i in range(players - 1):
                        yield PlayerStrip(id=f"opp{i}")
                with Horizontal(id="tablearea"):
                    yield PileSlot(id="pile")
                    yield CardRow(id="table", empty="")
                yield CardRow(id="hand", label_above=True)
                yield PlayerStrip(id="me")
            yield RecentLog(id="recent")
        yield Static(id="sidebar")
    yield Static(id="status")


def title_text(shown: TableState) -> str:
    """The title bar: a replay's mark, the rules, the round and the target (and the leg)."""
    board, rules = shown.board, shown.game.rules
    title = t.TITLE_REPLAY if shown.replay else ""
    title += t.TITLE_TABLE.format(
        preset=preset_label(rules.preset), round=board.round + 1, target=rules.target
    )
    if rules.match_rule.kind != "single":
        title += t.TITLE_LEG.format(leg=board.leg + 1, match=rules.match)
    return title


def draw_table(root: DOMNode, shown: TableState, width: int) -> None:
    """Draw everything under ``root`` (laid out by :func:`compose_table`) on a terminal
    ``width`` cells wide."""
    board = shown.board
    rules = shown.game.rules
    joker = rules.joker_card
    root.query_one("#title", Static).update(title_text(shown))
    n = board.players
    me = shown.viewer if shown.viewer is not None else 0
    for i in range(n - 1):
        seat = (me + 1 + i) % n
        root.query_one(f"#opp{i}", PlayerStrip).show(
            board, seat, shown.names[seat], rules, show_hand=shown.replay
        )
    root.query_one("#me", PlayerStrip).show(board, me, shown.names[me], rules)
    root.query_one("#pile", PileSlot).show(board, joker)
    root.query_one("#table", CardRow).show(table_view(shown), joker)
    root.query_one("#hand", CardRow).show(hand_view(shown), joker)
    root.query_one("#status", Static).update(status_text(shown))
    root.query_one("#recent", RecentLog).show(shown.log_lines[:-1])
    draw_sidebar(root, shown, width)


def draw_sidebar(root: DOMNode, shown: TableState, width: int) -> None:
    """Show the yaku sidebar where the terminal (``width`` cells) has room and it is wanted."""
    sidebar = root.query_one("#sidebar", Static)
    sidebar.styles.width = sidebar_width(shown.game.players)
    sidebar.display = wide(width, shown.game.players) and shown.sidebar_on and bool(shown.game.rules.yaku)
    if sidebar.display:
        sidebar.update(Group(*sidebar_parts(shown)))


def sidebar_parts(shown: TableState) -> list[RenderableType]:
    """The yaku table, and what the viewer still misses for each yaku."""
    board, rules, viewer = shown.board, shown.game.rules, shown.viewer
    parts: list[RenderableType] = [yaku_table(rules, board.captures, shown.names, viewer)]
    if viewer is not None:
        hand = board.hands[viewer]
        missing = missing_lines(rules, board.captures, shown.names[viewer], viewer, hand)
        if missing:
            parts.append(Text(t.YAKU_MISSING.format(name=shown.names[viewer]), style="bold"))
            parts.extend(Text(line, style="dim") for line in missing)
    return parts
