"""The table's widgets: rows of cards, the pile, a player's strip and the yaku table."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Final

from rich.console import RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual import events
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget

from roppyakken.cards import KIND, KINDS, MONTH, MONTH_MASK, NUM_CARDS, POINTS, WILLOW, iter_cards, points_of
from roppyakken.rules import Rules
from roppyakken.text import card_name, enumeration, kind_mark, month_name, yaku_name
from roppyakken.tui import text as t
from roppyakken.tui.board import Board
from roppyakken.tui.cardface import (
    CARD_HEIGHT,
    CARD_WIDTH,
    SLOT_WIDTH,
    fit_center,
    render_back,
    render_blank,
    render_card,
    render_stack,
)
from roppyakken.tui.progress import DONE, GONE, yaku_progress

_LABEL_STYLE = Style(bold=True)
_MARK_STYLE = Style(bold=True, color="#ffd75f")
_DIM = Style(dim=True)


@dataclass(slots=True)
class Slot:
    """One place in a row: a card or a stack, its label and whether it stands out."""

    mask: int
    label: str = ""
    emphasis: bool = False
    marked: bool = False
    dim: bool = False
    lines: list[Text] = field(default_factory=list)


def slot_lines(slot: Slot, joker: int) -> list[Text]:
    """The three drawn lines of a slot."""
    if slot.lines:
        return slot.lines
    if slot.mask.bit_count() > 1:
        return render_stack(slot.mask, emphasis=slot.emphasis)
    card = slot.mask.bit_length() - 1
    return render_card(card, joker=joker, emphasis=slot.emphasis, dim=slot.dim)


class CardRow(Widget):
    """A row of cards that wraps onto more rows when narrow; each card has a label line.

    Clicking a card posts :class:`CardRow.Picked` with its index.
    """

    DEFAULT_CSS = """
    CardRow { height: auto; width: 1fr; }
    """

    class Picked(Message):
        """A card of the row was clicked."""

        def __init__(self, row: CardRow, index: int) -> None:
            super().__init__()
            self.row = row
            self.index = index

        @property
        def control(self) -> CardRow:
            """The row that was clicked."""
            return self.row

    def __init__(self, *, label_above: bool = False, empty: str = "", id: str | None = None) -> None:
        super().__init__(id=id)
        self.slots: list[Slot] = []
        self.joker = -1
        self.label_above = label_above
        self.empty = empty

    def show(self, slots: list[Slot], joker: int) -> None:
        """Show ``slots`` (the layout is redone only when the number of cards changes)."""
        if slots == self.slots and joker == self.joker:
            return
        resized = len(slots) != len(self.slots)
        self.slots = slots
        self.joker = joker
        self.refresh(layout=resized)

    def _per_row(self, width: int) -> int:
        return max(1, (width + 1) // SLOT_WIDTH)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many rows of cards as the width needs (4 lines each)."""
        rows = max(1, -(-len(self.slots) // self._per_row(width)))
        return rows * (CARD_HEIGHT + 1)

    def render(self) -> RenderableType:
        """Cards and labels, row by row."""
        if not self.slots:
            pad = "\n" * (CARD_HEIGHT // 2)
            return Text(pad + self.empty, style=_DIM)
        per_row = self._per_row(self.size.width or 80)
        lines: list[Text] = []
        for start in range(0, len(self.slots), per_row):
            chunk = self.slots[start : start + per_row]
            card_rows = [Text() for _ in range(CARD_HEIGHT)]
            label_row = Text()
            for slot in chunk:
                drawn = slot_lines(slot, self.joker)
                edge = "▌" if slot.mask.bit_count() > 1 else " "
                for i in range(CARD_HEIGHT):
                    card_rows[i].append_text(drawn[i])
                    card_rows[i].append(edge, style=drawn[i].style if edge != " " else "")
                label = fit_center(slot.label)
                label_row.append(label + " ", style=_MARK_STYLE if slot.marked else _LABEL_STYLE)
            lines.extend([label_row, *card_rows] if self.label_above else [*card_rows, label_row])
        return Text("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        """Post the index of the clicked card."""
        per_row = self._per_row(self.size.width)
        col = event.x // SLOT_WIDTH
        if col >= per_row or event.x % SLOT_WIDTH >= CARD_WIDTH:
            return
        index = event.y // (CARD_HEIGHT + 1) * per_row + col
        if 0 <= index < len(self.slots):
            self.post_message(self.Picked(self, index))


class PileSlot(Widget):
    """The draw pile, or the card on its way (played from hand or turned up) beside it."""

    DEFAULT_CSS = """
    PileSlot { width: 8; height: 4; }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.board: Board | None = None
        self.joker = -1

    def show(self, board: Board, joker: int) -> None:
        """Show the pile of ``board``."""
        self.board = board
        self.joker = joker
        self.refresh()

    def render(self) -> RenderableType:
        """The card (or back) and its label."""
        board = self.board
        if board is None:
            return Text("")
        if board.in_play >= 0:
            drawn = render_card(board.in_play, joker=self.joker, emphasis=True)
            label = t.IN_PLAY_HAND if board.in_play_source == "hand" else t.IN_PLAY_PILE
            style = _MARK_STYLE
        elif board.turned >= 0:
            drawn = render_card(board.turned, joker=self.joker, emphasis=True)
            label, style = t.IN_PLAY_PILE, _MARK_STYLE
        elif board.pile_count:
            drawn = render_back(str(board.pile_count))
            label, style = t.PILE_LABEL.format(n=board.pile_count), _LABEL_STYLE
        else:
            drawn = render_blank()
            label, style = t.PILE_EMPTY, _DIM
        return Text("\n").join([*drawn, Text(label[: CARD_WIDTH + 1], style=style)])


class RecentLog(Widget):
    """The latest lines of the game's log, as many as fit, newest at the bottom."""

    DEFAULT_CSS = """
    RecentLog { height: 1fr; padding: 0 1; color: $text-muted; }
    """

    def __init__(self, id: str | None = None) -> None:
        super().__init__(id=id)
        self.lines: list[str] = []

    def show(self, lines: list[str]) -> None:
        """Show the end of ``lines``."""
        if lines != self.lines:
            self.lines = list(lines)
            self.refresh()

    def render(self) -> RenderableType:
        """The lines that fit, bottom-aligned, each cut to the width."""
        height, width = self.size.height, max(1, self.size.width)
        shown = self.lines[-height:] if height else []
        padded = [""] * (height - len(shown)) + [
            line if len(line) <= width else line[: width - 1] + "…" for line in shown
        ]
        return Text("\n".join(padded))


def capture_fields(captured: int, fresh: int = 0, *, whole: bool = False) -> list[Text]:
    """Captured cards by kind, one field each: ``B Crane Moon``, ``A Boar``, ``C 5 +Yellow (1 new)``;
    ``whole``: in whole words, comma-separated (``A Wild boar, Butterflies``, ``R Bush clover``)."""
    fields: list[Text] = []
    subjects = t.ENGLISH["CARD_SUBJECTS"]  # compared in English: the shown words are translated
    words = t.CARD_SUBJECT_WORDS if whole else t.CARD_SUBJECTS
    between = ", " if whole else " "
    for kind in KINDS:
        cards = [c for c in iter_cards(captured) if KIND[c] == kind]
        out = Text()
        out.append(kind_mark(kind) + " ", style=_LABEL_STYLE)
        if not cards:
            out.append(t.STRIP_NONE, style=_DIM)
        elif kind == "chaff":
            out.append(str(len(cards)))
            extra = [c for c in cards if POINTS[c] or subjects[c] != "chaff"]
            if extra:
                names = "+".join(words[c] for c in extra)
                out.append(" " + t.STRIP_CHAFF_EXTRA.format(names=names), style=_DIM)
            new = sum(fresh >> c & 1 for c in cards)
            if new:
                out.append(" " + t.STRIP_CHAFF_NEW.format(n=new), style=_MARK_STYLE)
        else:
            for i, c in enumerate(cards):
                if kind != "ribbon":
                    word = words[c]
                else:
                    word = month_name(MONTH[c]) if whole else t.MONTH_SHORT[MONTH[c] - 1]
                if kind == "ribbon" and subjects[c] in ("Poem", "Blue"):
                    word += "·" + t.CARD_SUBJECTS[c][0].lower()
                style = _MARK_STYLE if fresh >> c & 1 else Style()
                out.append(("" if i == 0 else between) + word, style=style)
        fields.append(out)
    return fields


def round_score_text(rules: Rules, captured: int, order: Sequence[int], declared: Sequence[str]) -> str:
    """The round so far: card points, plus the yaku made and the lucky hands declared."""
    cards = points_of(captured)
    yaku = sum(p for _, p in rules.table.evaluate(captured, list(order)))
    lucky = sum(rules.lucky_hands.get(slug, 0) for slug in declared)
    total = cards + yaku + lucky
    if lucky and yaku:
        return t.STRIP_ROUND_YAKU_LUCKY.format(total=total, cards=cards, yaku=yaku, lucky=lucky)
    if lucky:
        return t.STRIP_ROUND_LUCKY.format(total=total, cards=cards, lucky=lucky)
    if yaku:
        return t.STRIP_ROUND_YAKU.format(total=total, cards=cards, yaku=yaku)
    return t.STRIP_ROUND.format(total=total)


def pack(fields: Sequence[Text], width: int, *, sep: str, indent: str = "") -> list[Text]:
    """Fields laid out in lines of at most ``width`` cells, broken only between fields."""
    lines: list[Text] = []
    line = Text(indent)
    started = False
    for item in fields:
        joiner = Text(sep, style=_DIM) if started else Text()
        if started and line.cell_len + len(sep) + item.cell_len > width:
            lines.append(line)
            line, joiner = Text(indent), Text()
        line.append_text(joiner)
        line.append_text(item)
        started = True
    lines.append(line)
    return lines


class PlayerStrip(Widget):
    """One player: name, hand size, dealer, totals, declared lucky hands; captures by kind and
    the round's running score.  Lines break between fields, never inside one."""

    DEFAULT_CSS = """
    PlayerStrip { height: auto; width: 1fr; }
    """

    def __init__(self, id: str | None = None, *, compact: bool = False) -> None:
        super().__init__(id=id)
        self._parts: tuple[list[Text], list[Text], list[list[Text]]] = ([], [], [])
        self._whole: list[Text] = []
        """The captures in whole words, shown instead when they take no more lines."""
        self.compact = compact
        """Captures on the name's line when both fit the width (a small screen's strip)."""

    def show(
        self,
        board: Board,
        seat: int,
        name: str,
        rules: Rules,
        *,
        show_hand: bool = False,
    ) -> None:
        """Show ``seat`` of ``board``."""
        acting = board.to_act == seat
        first = Text()
        first.append(t.STRIP_TO_ACT if acting else " ", style=_MARK_STYLE)
        first.append(" ")
        first.append(name, style=Style(bold=True, underline=acting))
        head = [first, Text(t.STRIP_HAND.format(n=board.hand_sizes[seat]))]
        if board.dealer == seat:
            head.append(Text(t.STRIP_DEALER))
        head.append(Text(t.STRIP_TOTAL.format(n=board.totals[seat])))
        if rules.match_rule.kind != "single":
            head.append(Text(t.STRIP_LEGS.format(n=board.legs[seat])))
        if board.declared[seat]:
            hands = enumeration([yaku_name(s) for s in board.declared[seat]])
            head.append(Text(t.STRIP_DECLARED.format(hands=hands)))
        captured = board.captures[seat]
        known = board.orders[seat] if seat < len(board.orders) else ()
        order = [c for c in known if captured >> c & 1]
        order += [c for c in iter_cards(captured) if c not in order]
        score = Text(round_score_text(rules, captured, order, board.declared[seat]), style=_LABEL_STYLE)
        fields = [*capture_fields(captured, board.fresh), score]
        whole = [*capture_fields(captured, board.fresh, whole=True), score]
        extra: list[list[Text]] = []
        if board.revealed[seat] and not show_hand:
            cards = [Text(card_name(c), style=_DIM) for c in iter_cards(board.revealed[seat])]
            extra.append([Text(t.STRIP_SHOWS_LABEL, style=_DIM), *cards])
        if show_hand and board.hands[seat]:
            cards = [Text(card_name(c), style=_DIM) for c in iter_cards(board.hands[seat])]
            extra.append([Text(t.STRIP_HOLDS_LABEL, style=_DIM), *cards])
        parts = (head, fields, extra)
        if parts != self._parts or whole != self._whole:
            self._parts = parts
            self._whole = whole
            self.refresh(layout=True)

    def lines(self, width: int) -> list[Text]:
        """The strip laid out in ``width`` cells (the captures in whole words if they fit as many lines)."""
        whole = self._lines(width, self._whole)
        cut = self._lines(width, self._parts[1])
        return whole if self._whole and len(whole) <= len(cut) else cut

    def _lines(self, width: int, fields: list[Text]) -> list[Text]:
        head, _fields, extra = self._parts
        out = pack(head, width, sep=" · ", indent="")
        captures = pack(fields, width, sep=" │ ", indent="  ")
        if (
            self.compact
            and len(out) == 1
            and len(captures) == 1
            and out[0].cell_len + captures[0].cell_len <= width
        ):
            out = [out[0] + captures[0]]
        else:
            out += captures
        for items in extra:
            label, *cards = items
            out += pack([label + Text(" ") + cards[0], *cards[1:]] if cards else [label], width, sep=", ",
                        indent="  ")  # fmt: skip
        return out

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """As many lines as the fields need at this width."""
        return len(self.lines(width))

    def render(self) -> RenderableType:
        """The strip's lines."""
        return Text("\n").join(self.lines(self.size.width or 80))


YAKU_NAME_WIDTH: Final = 24
"""The yaku column of the sidebar (its width is fixed); longer names end in an ellipsis there."""


def yaku_table(
    rules: Rules,
    captures: Sequence[int],
    names: Sequence[str],
    viewer: int | None,
    name_width: int | None = YAKU_NAME_WIDTH,
) -> Table:
    """Every enabled yaku with each player's progress (held/needed, DONE or gone); ``name_width``
    bounds the names' column (None: as wide as the longest name, for a screen of its own)."""
    table = Table(box=None, pad_edge=False, expand=False, show_edge=False, padding=(0, 1))
    table.add_column(
        t.YAKU_HEADER_YAKU, no_wrap=True, overflow="ellipsis", min_width=14, max_width=name_width
    )
    table.add_column(t.YAKU_HEADER_POINTS, justify="right", no_wrap=True, min_width=3)
    for name in names:
        label = name if len(name) <= 10 else f"{name[:6]}…{name[-2:]}"
        table.add_column(label, justify="center", no_wrap=True, min_width=5)
    for p in yaku_progress(rules, captures):
        cells: list[Text] = []
        for seat in range(len(names)):
            status = p.status[seat]
            if status == DONE:
                cells.append(Text(t.YAKU_DONE, style=Style(bold=True, color="#5fd75f")))
            elif status == GONE:
                cells.append(Text(t.YAKU_GONE, style=Style(dim=True, strike=True)))
            else:
                count = t.YAKU_COUNT.format(held=p.held[seat], need=p.needed)
                style = Style(bold=True) if seat == viewer and p.held[seat] else Style()
                cells.append(Text(count, style=style))
        table.add_row(yaku_name(p.slug).split(" (")[0], str(p.points), *cells)
    return table


def out_of_reach(rules: Rules, captures: Sequence[int]) -> int:
    """Cards nobody can capture any more: every other card of their month is captured already,
    and the joker (R-6) cannot take them either (it is captured, or they are not its targets)."""
    everyone = 0
    for c in captures:
        everyone |= c
    joker = rules.joker_card
    joker_free = joker >= 0 and not everyone >> joker & 1
    dead = 0
    for card in range(NUM_CARDS):
        if everyone >> card & 1 or card == joker:
            continue  # captured already; the joker takes or is taken in many ways: left in
        if MONTH_MASK[MONTH[card]] & ~(1 << card) & ~everyone:
            continue  # a card of its month can still take it (or be taken by it)
        if joker_free and card != joker and (POINTS[card] > 0 or MONTH[card] == WILLOW):
            continue
        dead |= 1 << card
    return dead


def missing_lines(rules: Rules, captures: Sequence[int], name: str, seat: int, hand: int = 0) -> list[str]:
    """For each yaku still within reach of ``seat``: the cards it still needs (those in ``hand``,
    the seat's own hand, marked).  A yaku that needs a card nobody can capture is left out."""
    dead = out_of_reach(rules, captures)
    lines = []
    for p in yaku_progress(rules, captures):
        if p.status[seat] != "open":
            continue
        missing = p.missing[seat]
        label = yaku_name(p.slug).split(" (")[0]
        if p.slug == "seven-ribbons":
            missing &= ~dead
            if p.held[seat] + missing.bit_count() < p.needed:
                continue
        elif missing & dead:
            continue
        cards = enumeration(
            [
                t.MISSING_IN_HAND.format(card=card_name(c)) if hand >> c & 1 else card_name(c)
                for c in iter_cards(missing)
            ]
        )
        if p.slug == "seven-ribbons":
            lines.append(t.MISSING_SEVEN.format(yaku=label, n=p.needed - p.held[seat], cards=cards))
        else:
            lines.append(t.MISSING_LINE.format(yaku=label, cards=cards))
    return lines
