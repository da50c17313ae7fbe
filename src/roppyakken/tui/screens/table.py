"""The table: the board, choosing cards and targets, bots' moves shown step by step.

The game loop is :class:`~roppyakken.tui.driver.TableDriver`'s (run in an async worker);
this screen is its :class:`~roppyakken.tui.driver.TableView`: it draws the table, takes a
person's decisions from keys or the mouse, runs bots in thread workers (the interface never
freezes) and shows the events of each move one step at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import ClassVar, Final, TypeVar

from rich.console import Group, RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import Screen
from textual.widgets import Footer, Static

from roppyakken.actions import Action, CallRedeal, Declare, Play, Take
from roppyakken.cards import KIND, MONTH, MONTH_MASK, POINTS, iter_cards
from roppyakken.choices import Choice, automatic, choices
from roppyakken.engine import Game, stacks_of
from roppyakken.errors import RoppyakkenError
from roppyakken.events import (
    Event,
    FirstDealerDrawn,
    GameEnded,
    LegWon,
    Redealt,
    RoundEnded,
    RoundStarted,
)
from roppyakken.phase import Phase
from roppyakken.text import kind_name, month_name, preset_label, yaku_name
from roppyakken.tui import text as t
from roppyakken.tui.board import Board, board_of, frames
from roppyakken.tui.driver import TableDriver
from roppyakken.tui.eventlog import event_line
from roppyakken.tui.screens.dialogs import DeclareScreen, HandoffScreen, QuitScreen, RedealScreen
from roppyakken.tui.screens.hint import HintScreen, review_work
from roppyakken.tui.screens.info import HelpScreen, LogScreen, YakuScreen
from roppyakken.tui.screens.scores import GameOverScreen, RoundEndScreen
from roppyakken.tui.session import (
    RecordScript,
    Seat,
    save_dir,
)
from roppyakken.tui.widgets import (
    CardRow,
    PileSlot,
    PlayerStrip,
    RecentLog,
    Slot,
    missing_lines,
    yaku_table,
)
from roppyakken.view import SeatView, view_of

T = TypeVar("T")

PACES: Final[dict[str, float]] = {"slow": 1.2, "normal": 0.6, "fast": 0.25, "instant": 0.0}
"""Seconds each step of a move stays on screen."""
PACE_ORDER: Final = ("normal", "fast", "instant", "slow")
TARGET_KEYS: Final = "abcdeghijkmortuwxz"
"""Letters that pick a target (those the table's other keys use are left out)."""
SIDEBAR_MIN_WIDTH: Final = 80
"""The table's own width: the yaku sidebar shows where the terminal has room beyond it."""


def sidebar_width(players: int) -> int:
    """Cells the yaku sidebar needs: names and points, and a column per player."""
    return 34 + 9 * players


WAIT: Final = "wait"
CARD: Final = "card"
TARGET: Final = "target"
CHOOSE_TAKE: Final = "take"


def table_slots(table: int) -> list[int]:
    """The places on the table: each stack is one place, every other card its own (by lowest id)."""
    stacks = stacks_of(table)
    stacked = 0
    for s in stacks:
        stacked |= s
    slots = stacks + [1 << c for c in iter_cards(table & ~stacked)]
    return sorted(slots, key=lambda m: (m & -m).bit_length())


def target_name(mask: int) -> str:
    """A target in words: a card's name, or the stack of a month."""
    cards = list(iter_cards(mask))
    if len(cards) == 1:
        return t.card_name(cards[0])
    month = month_name(MONTH[cards[0]])
    return t.STACK_NAME.format(month=month, cards=", ".join(t.card_name(c) for c in cards))


class TableScreen(Screen[None]):
    """The game table; runs the game until it ends (or replays a record)."""

    DEFAULT_CSS = """
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
        self.pace = pace if pace in PACES else "normal"
        self.on_new_game = on_new_game
        self.resumed = resumed
        self.viewer: int | None = self.driver.first_viewer
        self.board: Board = board_of(game, self.viewer, show_all=script is not None)
        self.mode = WAIT
        self.hand_cards: list[int] = []
        self.sel = 0
        self.targets: list[int] = []
        self.tsel = 0
        self.legal_by_card: dict[int, list[int]] = {}
        self.gives: dict[tuple[int, int], str] = {}
        """What each target gives, by (card or -1 for the turned-up card, target), when targets differ."""
        self.message = ""
        self.log_lines: list[str] = []
        self.sidebar_on = True
        self.thinking: int | None = None
        self.replay_auto = False
        self.replay_done = False
        self._decision: asyncio.Future[Action] | None = None
        self._decision_view: SeatView | None = None
        """The view of the card-play decision awaited (None once it is made): what a hint answers."""
        self._skip = asyncio.Event()
        self._step = asyncio.Event()
        self._table_on_top = asyncio.Event()

    @property
    def game(self) -> Game:
        """The game (the driver's)."""
        return self.driver.game

    @property
    def names(self) -> list[str]:
        """The players' names as shown, by seat."""
        return self.driver.names

    @property
    def script(self) -> RecordScript | None:
        """The record a replay steps through (None in a game)."""
        return self.driver.script

    @property
    def save_path(self) -> Path | None:
        """The file the game came from or was last saved to."""
        return self.driver.save_path

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        """Title, opponents, table with pile, hand, own strip, status, keys."""
        yield Static(id="title")
        with Horizontal(id="main"):
            with Vertical(id="left"):
                with VerticalScroll(id="play"):
                    with Vertical(id="opponents"):
                        for i in range(self.game.players - 1):
                            yield PlayerStrip(id=f"opp{i}")
                    with Horizontal(id="tablearea"):
                        yield PileSlot(id="pile")
                        yield CardRow(id="table", empty="")
                    yield CardRow(id="hand", label_above=True)
                    yield PlayerStrip(id="me")
                yield RecentLog(id="recent")
            yield Static(id="sidebar")
        yield Static(id="status")
        yield Footer()

    def on_mount(self) -> None:
        """Log how the game starts and run the game loop."""
        if self.script is None:
            self._log(t.TIP_START)
        for event in self.game.events:  # a resumed game's log is rebuilt from its events
            self._log_event(event)
        if self.resumed:
            self._log(t.say(t.RESUMED, self.names[self.game.dealer], round=self.game.round + 1))
        self._refresh_all()
        game_loop = self.driver.run(self, lambda: PACES[self.pace])
        self.run_worker(game_loop, exclusive=True, group="game", name="game-loop")

    def on_resize(self, event: events.Resize) -> None:
        """Show the yaku sidebar only where there is room for it."""
        self._refresh_sidebar()

    # ----------------------------------------------------------------- game loop

    async def hand_over(self, seat: int) -> None:
        """Hot seat: hide the hands and hand over the keyboard before another person's turn."""
        if self.viewer == seat:
            return
        if self.driver.hot_seat:
            await self.app.push_screen_wait(HandoffScreen(self.names[seat]))
        self.viewer = seat
        self.board = board_of(self.game, seat)
        self._refresh_all()

    async def human_decision(self, seat: int) -> Action:
        """Ask the person at ``seat``: a dialog for a declaration or a redeal, else keys or mouse."""
        view = view_of(self.game, seat)
        if view.phase == Phase.DECLARE:
            self._refresh_all()
            chosen: tuple[str, ...] = await self.app.push_screen_wait(
                DeclareScreen(self.names[seat], view.lucky_hands)
            )
            return Declare(chosen)
        if view.phase == Phase.REDEAL:
            hand = view.hand
            month = next(m for m in range(1, 13) if hand & MONTH_MASK[m] == MONTH_MASK[m])
            call: bool = await self.app.push_screen_wait(RedealScreen(self.names[seat], month))
            return CallRedeal(call)
        auto = automatic(view)
        if auto is not None and isinstance(auto, Take):
            # Every target of the turned-up card gives the same: take one without asking.
            turned = t.card_name(view.turned) if view.turned >= 0 else ""
            self._log(t.AUTO_TAKEN.format(card=turned, target=target_name(auto.target)))
            return auto
        # Equivalent targets (same points, same yaku progress) are offered once.
        found = [c for c in choices(view) if c.same_as is None]
        self.gives = self._gives(found)
        self._decision = asyncio.get_running_loop().create_future()
        if view.phase == Phase.PLAY:
            self.legal_by_card = {}
            for choice in found:
                action = choice.action
                if isinstance(action, Play):
                    self.legal_by_card.setdefault(action.card, []).append(action.target)
            self.hand_cards = sorted(iter_cards(view.hand))
            self.sel = min(self.sel, len(self.hand_cards) - 1)
            self.mode = CARD
            self.targets = []
        else:
            self.targets = [c.action.target for c in found if isinstance(c.action, Take)]
            self.tsel = 0
            self.mode = CHOOSE_TAKE
        self._decision_view = view
        self._refresh_all()
        try:
            return await self._decision
        finally:
            self._decision = None
            self._decision_view = None
            self.mode = WAIT
            self.targets = []

    @staticmethod
    def _gives(found: list[Choice]) -> dict[tuple[int, int], str]:
        """What each target gives ("+10 pts, Blue Ribbons 2/3"), for cards whose targets differ."""
        by_card: dict[int, list[Choice]] = {}
        for c in found:
            a = c.action
            if isinstance(a, Play) and a.target:
                by_card.setdefault(a.card, []).append(c)
            elif isinstance(a, Take):
                by_card.setdefault(-1, []).append(c)
        out: dict[tuple[int, int], str] = {}
        for card, group in by_card.items():
            if len(group) < 2:
                continue
            for c in group:
                parts = [t.GIVES_POINTS.format(n=c.points)]
                if len(group) <= 3:  # with many targets (a joker's), points only: the line stays whole
                    parts += [
                        t.GIVES_YAKU.format(
                            yaku=yaku_name(s.slug).split(" (")[0], held=s.after, need=s.needed
                        )
                        for s in c.steps
                    ]
                target = c.action.target if isinstance(c.action, Play | Take) else 0
                out[(card, target)] = ", ".join(parts)
        return out

    async def bot_thinking(self, seat: int | None) -> None:
        """Say that ``seat``'s bot is thinking (None: it has answered)."""
        self.thinking = seat
        self._refresh_all()

    async def in_thread(self, work: Callable[[], T]) -> T | None:
        """Run ``work`` in a thread worker (a bot's choice): the interface goes on meanwhile."""
        worker = self.run_worker(work, thread=True, group="bot", exit_on_error=False)
        await worker.wait()
        return worker.result

    async def rest(self, seconds: float) -> None:
        """Leave the screen as it is for ``seconds`` (Space skips it)."""
        await self._pause(seconds)

    async def replay_step(self) -> None:
        """Wait for the next step of a replay: a key, or the pace when it plays on by itself (not
        while a dialog is open over the table: the quit dialog, the help)."""
        self._refresh_all()
        if self.replay_auto:
            await self._pause(PACES[self.pace])
            await self._uncovered()
        else:
            self._step.clear()
            await self._step.wait()

    async def show_events(self, evs: list[Event]) -> None:
        """Log each event and animate it one step at a time (the round's end opens its scores)."""
        game = self.game
        for index, event in enumerate(evs):
            self._log_event(event)
            if isinstance(event, RoundEnded):
                await self._pause(PACES[self.pace])
                await self._round_end(event, evs[index + 1 :])
                continue
            if isinstance(event, RoundStarted | Redealt | FirstDealerDrawn | LegWon | GameEnded):
                continue
            if not PACES[self.pace]:
                continue  # instant: only the position after the move is shown
            for frame in frames(self.board, event):
                self.board = frame
                self._refresh_all()
                await self._pause(PACES[self.pace])
        self.board = board_of(game, self.viewer, show_all=self.script is not None)
        self._refresh_all()

    async def _round_end(self, event: RoundEnded, after: list[Event]) -> None:
        game = self.game
        log = game.history[event.round] if event.round < len(game.history) else None
        captures = list(log.captures) if log is not None and log.captures else list(self.board.captures)
        leg = next((e for e in after if isinstance(e, LegWon)), None)
        last = any(isinstance(e, GameEnded) for e in after)
        work = self.driver.take_review() if self.script is None else None
        await self._uncovered()
        choice = await self.app.push_screen_wait(
            RoundEndScreen(
                rules=game.rules,
                names=self.names,
                round_index=event.round,
                score=event.score,
                captures=captures,
                totals=event.totals,
                legs=leg.legs if leg is not None else game.legs,
                leg_winner=leg.seat if leg is not None else None,
                leg_number=sum(leg.legs) if leg is not None else 0,
                last=last,
                review=review_work(work) if work is not None else None,
            )
        )
        if choice == "quit":
            self.action_quit()

    async def game_over(self) -> None:
        """The table as it ends, and the game-over box."""
        game = self.game
        self.board = board_of(game, self.viewer, show_all=self.script is not None)
        self._refresh_all()
        self.refresh_bindings()
        if game.winner is None:
            return
        on_save = None if self.script is not None else self._save_message
        totals = game.history[-1].totals if game.history and game.history[-1].totals else game.totals
        await self._uncovered()
        choice = await self.app.push_screen_wait(
            GameOverScreen(
                rules=game.rules,
                names=self.names,
                winner=game.winner,
                reason=game.end_reason,
                totals=totals,
                legs=game.legs,
                rounds=len(game.history),
                on_save=on_save,
            )
        )
        if choice == "quit":
            self.app.exit()
        elif choice == "new":
            self.action_new()
        self._refresh_all()

    async def end_of_record(self) -> None:
        """A replay at its last decision: who won, or that the record stops there."""
        self.replay_done = True
        game = self.game
        if game.over and game.winner is not None:  # the table keeps saying who won, after the box
            self.message = t.say(t.EVENT_GAME_ENDED, self.names[game.winner])
        else:
            self.message = t.REPLAY_UNFINISHED
        self._refresh_all()
        if self.game.over:
            await self.game_over()

    async def _uncovered(self) -> None:
        """Wait until no dialog is open over the table (a round's scores never hide the quit
        dialog, nor a replay playing on by itself run on behind it)."""
        while self.app.screen is not self and self in self.app.screen_stack:
            self._table_on_top.clear()
            await self._table_on_top.wait()

    def on_screen_resume(self) -> None:
        """The table is on top again: what waited for the dialogs over it goes on."""
        self._table_on_top.set()

    async def _pause(self, seconds: float) -> None:
        """Let a step be seen for ``seconds`` (Space skips it)."""
        if seconds <= 0:
            await asyncio.sleep(0)
            return
        self._skip.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._skip.wait(), timeout=seconds)

    def _decide(self, action: Action) -> None:
        if self._decision is not None and not self._decision.done():
            self._decision.set_result(action)
            # Keys queued behind this one (a hint, a card) belong to no decision until the next.
            self._decision_view = None
            self.mode = WAIT

    # ----------------------------------------------------------------- log

    def _log(self, line: str) -> None:
        self.log_lines.append(line)
        self.message = line

    def _log_event(self, event: Event) -> None:
        line = event_line(event, self.names)
        if line is not None:
            self._log(line)

    # ----------------------------------------------------------------- drawing

    def _refresh_all(self) -> None:
        if not self.is_mounted:
            return
        board = self.board
        game = self.game
        rules = game.rules
        joker = rules.joker_card
        title = t.TITLE_REPLAY if self.script else ""
        title += t.TITLE_TABLE.format(
            preset=preset_label(rules.preset), round=board.round + 1, target=rules.target
        )
        if rules.match_rule.kind != "single":
            title += t.TITLE_LEG.format(leg=board.leg + 1, match=rules.match)
        self.query_one("#title", Static).update(title)
        n = board.players
        me = self.viewer if self.viewer is not None else 0
        for i in range(n - 1):
            seat = (me + 1 + i) % n
            self.query_one(f"#opp{i}", PlayerStrip).show(
                board, seat, self.names[seat], rules, show_hand=self.script is not None
            )
        self.query_one("#me", PlayerStrip).show(board, me, self.names[me], rules)
        self.query_one("#pile", PileSlot).show(board, joker)
        self.query_one("#table", CardRow).show(self._table_view(), joker)
        self.query_one("#hand", CardRow).show(self._hand_view(), joker)
        self.query_one("#status", Static).update(self._status_text())
        self.query_one("#recent", RecentLog).show(self.log_lines[:-1])
        self._refresh_sidebar()

    def _refresh_sidebar(self) -> None:
        if not self.is_mounted:
            return
        sidebar = self.query_one("#sidebar", Static)
        width = sidebar_width(self.game.players)
        sidebar.styles.width = width
        sidebar.display = self._wide() and self.sidebar_on and bool(self.game.rules.yaku)
        if sidebar.display:
            board, rules = self.board, self.game.rules
            parts: list[RenderableType] = [yaku_table(rules, board.captures, self.names, self.viewer)]
            if self.viewer is not None:
                hand = board.hands[self.viewer]
                missing = missing_lines(rules, board.captures, self.names[self.viewer], self.viewer, hand)
                if missing:
                    parts.append(Text(t.YAKU_MISSING.format(name=self.names[self.viewer]), style="bold"))
                    parts.extend(Text(line, style="dim") for line in missing)
            sidebar.update(Group(*parts))

    def _wide(self) -> bool:
        return self.app.size.width >= SIDEBAR_MIN_WIDTH + sidebar_width(self.game.players)

    def _current_targets(self) -> list[int]:
        if self.mode == CARD and self.hand_cards:
            card = self.hand_cards[self.sel]
            return [m for m in self.legal_by_card.get(card, []) if m]
        if self.mode in (TARGET, CHOOSE_TAKE):
            return self.targets
        return []

    def _table_view(self) -> list[Slot]:
        board = self.board
        targets = self._current_targets()
        choosing = self.mode in (TARGET, CHOOSE_TAKE)
        slots = []
        for mask in table_slots(board.table):
            slot = Slot(mask)
            if mask in targets:
                index = targets.index(mask)
                key = TARGET_KEYS[index] if index < len(TARGET_KEYS) else ""
                if choosing and index == self.tsel:
                    slot.label, slot.emphasis = t.MARK_CURRENT.format(label=key), True
                elif len(targets) > 1:
                    slot.label = f"{t.MARK_TARGET}{key}"
                else:
                    slot.label = t.MARK_TARGET
                slot.marked = True
            elif board.taking & mask:
                slot.label, slot.emphasis, slot.marked = t.MARK_TAKEN, True, True
            elif board.fresh & mask:
                slot.label, slot.marked = t.MARK_NEW, True
            slots.append(slot)
        return slots

    def _hand_view(self) -> list[Slot]:
        board = self.board
        if self.viewer is None:
            return []
        hand = list(iter_cards(board.hands[self.viewer]))
        slots = []
        for i, card in enumerate(hand):
            key = str((i + 1) % 10) if i < 10 else ""
            slot = Slot(1 << card)
            choosable = self.mode in (CARD, TARGET)
            if choosable and self.hand_cards and card == self.hand_cards[self.sel]:
                slot.label, slot.emphasis, slot.marked = t.MARK_SELECTED.format(key=key), True, True
            elif board.revealed[self.viewer] >> card & 1:
                can_take = choosable and any(self.legal_by_card.get(card, []))
                slot.label = (t.MARK_SHOWN_CAN_TAKE if can_take else t.MARK_SHOWN).format(key=key)
            elif choosable and any(self.legal_by_card.get(card, [])):
                slot.label = t.MARK_CAN_TAKE.format(key=key)
            else:
                slot.label = key if self.script is None else ""
            if self.mode == TARGET and card != self.hand_cards[self.sel]:
                slot.dim = True
            slots.append(slot)
        return slots

    def _status_text(self) -> Text:
        text = Text(self.message)  # wraps: a long line (French, a joker's targets) is never cut
        text.append("\n")
        text.append(self._detail(), style="bold")  # wraps: targets are never cut off
        return text

    def _detail(self) -> str:
        if self.script is not None:
            if self.replay_done:
                return t.REPLAY_END_KEYS
            auto = t.REPLAY_AUTO_ON if self.replay_auto else t.REPLAY_AUTO_OFF
            return t.PROMPT_REPLAY.format(auto=auto, pace=t.PACE_NAMES[self.pace])
        if self.mode == CARD and self.hand_cards:
            card = self.hand_cards[self.sel]
            text = t.DETAIL_CARD.format(
                card=t.card_name(card), kind=kind_name(KIND[card]), points=POINTS[card]
            )
            targets = [m for m in self.legal_by_card.get(card, []) if m]
            if not targets:
                text += t.DETAIL_TO_TABLE
            elif len(targets) == 1:
                text += t.DETAIL_TAKES_ONE.format(target=target_name(targets[0]))
            else:
                text += t.DETAIL_TAKES_MANY.format(n=len(targets), targets=self._lettered(targets, card))
            return text
        if self.game.over:
            return t.GAME_OVER_TABLE
        if self.mode == TARGET and self.hand_cards:
            card = self.hand_cards[self.sel]
            return t.PROMPT_TARGET_NAMED.format(
                card=t.card_name(card),
                targets=self._lettered(self.targets, card),
                last=TARGET_KEYS[len(self.targets) - 1],
            )
        if self.mode == CHOOSE_TAKE:
            turned = t.card_name(self.board.turned) if self.board.turned >= 0 else ""
            return t.DETAIL_TURNED.format(
                card=turned, targets=self._lettered(self.targets, -1), last=TARGET_KEYS[len(self.targets) - 1]
            )
        prompt = t.PROMPT_WAIT.format(pace=t.PACE_NAMES[self.pace])
        if self.thinking is not None:
            return t.STATUS_WAIT_BOT.format(name=self.names[self.thinking]) + " · " + prompt
        return prompt

    def _lettered(self, targets: list[int], card: int) -> str:
        """``a) Pampas Moon (+50 pts, Moon Viewing 1/2), b) …``: each target, what it gives if they differ."""
        items = []
        for i, m in enumerate(targets[: len(TARGET_KEYS)]):
            gives = self.gives.get((card, m))
            name = target_name(m)
            what = t.TARGET_GIVES.format(target=name, gives=gives) if gives else name
            items.append(t.TARGET_ITEM.format(key=TARGET_KEYS[i], target=what))
        return ", ".join(items)

    # ----------------------------------------------------------------- input

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Show only the keys that mean something now."""
        replay = self.script is not None
        if action in ("auto", "whose", "step"):
            return replay
        if action == "save":
            return not replay
        if action == "hint":
            return not replay and not self.game.over
        if action == "new":
            return not replay and self.game.over
        if action == "confirm":
            return not replay and not self.game.over
        if action == "speed":
            return replay or not self.game.over  # no bot moves left to pace: room for "n New game"
        return True

    def action_move(self, delta: int) -> None:
        """←/→: the previous or next card (or target)."""
        if self.script is not None:
            if delta > 0:
                self.action_step()
            return
        if self.mode == CARD and self.hand_cards:
            self.sel = (self.sel + delta) % len(self.hand_cards)
        elif self.mode in (TARGET, CHOOSE_TAKE) and self.targets:
            self.tsel = (self.tsel + delta) % len(self.targets)
        self._refresh_all()

    def action_cycle(self, delta: int) -> None:
        """Tab: go through the targets of the chosen card."""
        if self.mode == CARD and self.hand_cards:
            targets = [m for m in self.legal_by_card.get(self.hand_cards[self.sel], []) if m]
            if len(targets) > 1:
                self.mode, self.targets, self.tsel = TARGET, targets, 0
                self._refresh_all()
            return
        self.action_move(delta)

    def action_step(self) -> None:
        """Enter (replay): the next step."""
        self._step.set()
        self._skip.set()

    def action_confirm(self) -> None:
        """Enter: play the chosen card, or take the chosen target."""
        if self.mode == CARD and self.hand_cards:
            card = self.hand_cards[self.sel]
            targets = self.legal_by_card.get(card, [0])
            if len(targets) == 1:
                self._decide(Play(card, targets[0]))
            else:
                self.mode, self.targets, self.tsel = TARGET, targets, 0
                self._refresh_all()
        elif self.mode == TARGET and self.targets:
            self._decide(Play(self.hand_cards[self.sel], self.targets[self.tsel]))
        elif self.mode == CHOOSE_TAKE and self.targets:
            self._decide(Take(self.targets[self.tsel]))
        else:
            self._skip.set()

    def action_back(self) -> None:
        """Esc: back from choosing a target to choosing a card."""
        if self.mode == TARGET:
            self.mode, self.targets = CARD, []
            self._refresh_all()

    def action_skip(self) -> None:
        """Space: skip the current pause (in a replay: the next step)."""
        self._skip.set()
        if self.script is not None:
            self._step.set()

    def on_key(self, event: events.Key) -> None:
        """Number keys choose a card; letters choose a target."""
        char = event.character or ""
        if self.mode == CARD and char.isdigit() and self.hand_cards:
            index = 9 if char == "0" else int(char) - 1
            if index < len(self.hand_cards):
                self.sel = index
                self._refresh_all()
            event.stop()
        elif self.mode in (TARGET, CHOOSE_TAKE) and char and char in TARGET_KEYS:
            index = TARGET_KEYS.index(char)
            if index < len(self.targets):
                event.stop()
                self.tsel = index
                self.action_confirm()

    def on_card_row_picked(self, message: CardRow.Picked) -> None:
        """Mouse: click a card to choose it, again to play it; click a highlighted target to take it."""
        if message.row.id == "hand" and self.mode in (CARD, TARGET):
            if self.mode == CARD and message.index == self.sel:
                self.action_confirm()
                return
            self.mode, self.targets = CARD, []
            self.sel = message.index
            self._refresh_all()
        elif message.row.id == "table":
            mask = table_slots(self.board.table)[message.index]
            if self.mode == CARD and self.hand_cards:
                card = self.hand_cards[self.sel]
                if mask in self.legal_by_card.get(card, []):
                    self._decide(Play(card, mask))
            elif self.mode == TARGET and mask in self.targets:
                self._decide(Play(self.hand_cards[self.sel], mask))
            elif self.mode == CHOOSE_TAKE and mask in self.targets:
                self._decide(Take(mask))

    def action_new(self) -> None:
        """n (after the game): back to the new-game screen."""
        if self.game.over and self.on_new_game is not None:
            self.on_new_game()

    def action_help(self) -> None:
        """?: the rules of this game."""
        self.app.push_screen(HelpScreen(self.game.rules, self.game.players))

    def action_hint(self) -> None:
        """h: on your turn to play or take a card, the expert's best plays (worked out in a thread)."""
        view = self._decision_view
        if self.script is not None or view is None or self.mode not in (CARD, TARGET, CHOOSE_TAKE):
            self.notify(t.HINT_NOT_NOW, timeout=3)
            return
        self.app.push_screen(HintScreen(view))

    def action_yaku(self) -> None:
        """y: yaku progress (a sidebar on wide terminals, a screen otherwise)."""
        if self._wide():
            self.sidebar_on = not self.sidebar_on
            self._refresh_sidebar()
            return
        board = self.board
        self.app.push_screen(
            YakuScreen(
                self.game.rules,
                board.captures,
                self.names,
                self.viewer,
                board.round,
                board.hands[self.viewer] if self.viewer is not None else 0,
            )
        )

    def action_log(self) -> None:
        """l: the log of this game."""
        self.app.push_screen(LogScreen(self.log_lines))

    def action_speed(self) -> None:
        """f: the next speed for bots' moves."""
        self.pace = PACE_ORDER[(PACE_ORDER.index(self.pace) + 1) % len(PACE_ORDER)]
        self._skip.set()
        self.notify(t.PACE_CHANGED.format(pace=t.PACE_NAMES[self.pace]), timeout=2)
        self._refresh_all()

    def action_auto(self) -> None:
        """p (replay): play on by itself, or pause."""
        if self.script is not None:
            self.replay_auto = not self.replay_auto
            self._step.set()
            self._refresh_all()

    def action_whose(self) -> None:
        """v (replay): show the next player's hand."""
        if self.script is not None:
            self.viewer = ((self.viewer or 0) + 1) % self.game.players
            self.board = board_of(self.game, self.viewer, show_all=True)
            self.message = t.REPLAY_HAND_OF.format(name=self.names[self.viewer])
            self._refresh_all()

    def _save_message(self) -> str:
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
        if self.script is not None:
            self.notify(t.NOTHING_TO_SAVE)
            return
        message = self._save_message()
        self.notify(message, severity="information" if self.save_path else "error", timeout=6)

    def action_quit(self) -> None:
        """q: quit, after asking (and saving if wished)."""

        def done(choice: str | None) -> None:
            if choice == "save":
                message = self._save_message()
                self.app.exit(message=message)
            elif choice == "quit":
                self.app.exit()

        can_save = self.script is None and not self.game.over
        saved = str(self.save_path) if can_save and self.driver.unchanged_since_saved else ""
        self.app.push_screen(QuitScreen(str(save_dir()), can_save=can_save, saved=saved), done)
