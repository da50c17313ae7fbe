"""The guided first game (``roppyakken learn``): the tutorial's steps at a real table.

The screen shows the table of :class:`roppyakken.tutorial.Lesson` (whose game runs on the
engine) with a guide panel above it: the current step's message, then, once the learner has
done what it asks, its explanation.  Only the step's own actions are played; anything else
is refused with a line saying so and changes nothing.  The round's scores are the real
round-end screen.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Static

from roppyakken.actions import Action, Declare, Play, Take
from roppyakken.cards import KIND, POINTS, iter_cards
from roppyakken.events import RoundEnded
from roppyakken.i18n import _
from roppyakken.phase import Phase
from roppyakken.text import kind_name
from roppyakken.tui import text as t
from roppyakken.tui.board import board_of
from roppyakken.tui.eventlog import event_line
from roppyakken.tui.screens.scores import RoundEndScreen
from roppyakken.tui.table.choosing import TARGET_KEYS, table_slots
from roppyakken.tui.widgets import CardRow, PileSlot, PlayerStrip, RecentLog, Slot
from roppyakken.tutorial import LEARNER, OPPONENT, STEPS, Lesson, Step

MARK_GUIDE = "▶"
"""The label of the card (or target) the guide asks for."""


class LearnScreen(Screen[None]):
    """The guided first game; q leaves it."""

    DEFAULT_CSS = """
    LearnScreen { layout: vertical; }
    #title { height: 1; background: $primary-darken-2; color: $text; padding: 0 1; text-style: bold; }
    #guide { height: auto; max-height: 7; background: $panel; color: $text; padding: 0 1; }
    #play { height: 1fr; }
    #tablearea { height: auto; background: #1d4a2a; padding: 0 0 0 1; }
    #pile { margin-right: 1; }
    #table { color: #f0f0f0; }
    #hand { margin-left: 1; }
    #status { height: auto; min-height: 2; max-height: 4; padding: 0 1; background: $boost; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", t.KEY_CONTINUE),
        Binding("left", "move(-1)", show=False),
        Binding("right", "move(1)", show=False),
        Binding("q", "leave", t.KEY_QUIT),
    ]

    def __init__(self, on_leave: Callable[[], None] | None = None) -> None:
        super().__init__()
        self.on_leave = on_leave
        """What leaving does (back to the new-game screen); None: the app ends."""
        self.lesson = Lesson()
        self.names = [t.DEFAULT_HUMAN_NAME, t.LEARN_OPPONENT]
        self.explaining: Step | None = None
        """The step just done, whose explanation is shown until Enter."""
        self.sel = 0
        self.tsel = 0
        self.choosing: list[int] = []
        """The targets of the chosen card, when it has several (letters pick one)."""
        self.message = ""
        self.log_lines: list[str] = []
        for event in self.lesson.events:
            self._log_event_line(event_line(event, self.names))

    # ----------------------------------------------------------------- layout

    def compose(self) -> ComposeResult:
        """Title, guide, opponent, table, hand, own strip, recent moves, status with the keys."""
        yield Static(id="title")
        yield Static(id="guide")
        with VerticalScroll(id="play"):
            yield PlayerStrip(id="opp", compact=True)
            with Horizontal(id="tablearea"):
                yield PileSlot(id="pile")
                yield CardRow(id="table", empty="")
            yield CardRow(id="hand", label_above=True)
            yield PlayerStrip(id="me", compact=True)
            yield RecentLog(id="recent")
        yield Static(id="status")  # the keys the step takes (no footer: it would offer keys that do nothing)

    def on_mount(self) -> None:
        """Draw the first step (once the widgets are laid out)."""
        self.call_after_refresh(self._refresh)

    # ----------------------------------------------------------------- state

    @property
    def step(self) -> Step | None:
        """The step waiting for the learner (None while an explanation is shown, or at the end)."""
        return None if self.explaining is not None else self.lesson.step

    def _phase(self) -> Phase:
        """The decision the lesson's game waits for."""
        return Phase(self.lesson.game.phase)

    def _hand(self) -> list[int]:
        return sorted(iter_cards(self.lesson.game.hands[LEARNER]))

    def _targets(self, card: int) -> list[int]:
        return [m for m in self.lesson.game.targets(card) if m]

    def _wanted(self) -> tuple[int, int]:
        """The card (-1 for a turned-up card's choice) and target the step asks for, if any."""
        step = self.step
        if step is not None and step.accepts:
            action = step.accepts[0]
            if isinstance(action, Play):
                return action.card, action.target
            if isinstance(action, Take):
                return -1, action.target
        return -2, 0

    # ----------------------------------------------------------------- input

    def action_move(self, delta: int) -> None:
        """←/→: the previous or next card, or target."""
        phase = self._phase()
        if self.step is None:
            return
        if phase == Phase.TAKE or self.choosing:
            count = len(self.choosing or self._take_targets())
            self.tsel = (self.tsel + delta) % max(1, count)
        elif phase == Phase.PLAY and self._hand():
            self.sel = (self.sel + delta) % len(self._hand())
        self._refresh()

    def _take_targets(self) -> list[int]:
        game = self.lesson.game
        phase = self._phase()
        return list(game.targets(game.turned, True)) if phase == Phase.TAKE else []

    def on_key(self, event: events.Key) -> None:
        """Digits choose a card, letters a target; d and n answer the lucky hand."""
        char = event.character or ""
        step = self.step
        game = self.lesson.game
        phase = self._phase()
        if step is None or not step.accepts:
            return
        if phase == Phase.DECLARE and char in ("d", "n"):
            event.stop()
            held = tuple(h.slug for h in game.held_lucky_hands(LEARNER))
            self._attempt(Declare(held if char == "d" else ()))
        elif phase == Phase.PLAY and char.isdigit():
            event.stop()
            index = 9 if char == "0" else int(char) - 1
            if index < len(self._hand()):
                self.sel, self.choosing, self.tsel = index, [], 0
                self._refresh()
        elif char and char in TARGET_KEYS and phase.card_play:
            targets = self._take_targets() if phase == Phase.TAKE else self._choice_targets()
            index = TARGET_KEYS.index(char)
            if index < len(targets):
                event.stop()
                self.tsel = index
                self._play_target(targets[index])

    def _choice_targets(self) -> list[int]:
        hand = self._hand()
        return self._targets(hand[self.sel]) if hand else []

    def _play_target(self, target: int) -> None:
        phase = self._phase()
        if phase == Phase.TAKE:
            self._attempt(Take(target))
        else:
            self._attempt(Play(self._hand()[self.sel], target))

    def action_confirm(self) -> None:
        """Enter: play the chosen card (or target), or go on past a text."""
        if self.explaining is not None:
            self.explaining = None
            self.sel, self.tsel, self.choosing, self.message = 0, 0, [], ""
            if self.lesson.done:
                self.action_leave()
                return
            self._refresh()
            return
        step = self.lesson.step
        if step is None:
            self.action_leave()
            return
        if not step.accepts:
            self._read(step)
            return
        phase = self._phase()
        if phase == Phase.TAKE:
            targets = self._take_targets()
            self._attempt(Take(targets[self.tsel % len(targets)]))
        elif phase == Phase.PLAY and self._hand():
            card = self._hand()[self.sel]
            targets = self._targets(card)
            if self.choosing:
                self._attempt(Play(card, self.choosing[self.tsel % len(self.choosing)]))
            elif len(targets) > 1:
                self.choosing, self.tsel = targets, 0
                self._refresh()
            else:
                self._attempt(Play(card, targets[0] if targets else 0))

    def _read(self, step: Step) -> None:
        """A step with nothing to play: the round's end opens the real scores first."""
        game = self.lesson.game
        ended = next((e for e in self.lesson.events if isinstance(e, RoundEnded)), None)
        if step.id == "round-end" and ended is not None:
            log = game.history[ended.round]

            def scored(choice: str | None) -> None:
                self._acknowledge(step)
                if choice == "quit":  # q on the scores leaves the lesson, as q at its table does
                    self.action_leave()

            self.app.push_screen(
                RoundEndScreen(
                    rules=game.rules,
                    names=self.names,
                    round_index=ended.round,
                    score=ended.score,
                    captures=list(log.captures or game.captures),
                    totals=ended.totals,
                    legs=game.legs,
                    leg_winner=None,
                    leg_number=0,
                    last=True,
                ),
                scored,
            )
            return
        self._acknowledge(step)

    def _acknowledge(self, step: Step) -> None:
        if self.lesson.acknowledge():
            self.explaining = step
            self._refresh()

    def _attempt(self, action: Action) -> None:
        step = self.lesson.step
        events_ = self.lesson.attempt(action)
        if events_ is None or step is None:
            self.message = t.LEARN_NOT_THIS
            self.choosing = []
            self._refresh()
            return
        for event in events_:
            self._log_event_line(event_line(event, self.names))
        self.message = ""
        self.choosing = []
        self.explaining = step
        self._refresh()

    def action_leave(self) -> None:
        """q: leave the guided game."""
        if self.on_leave is not None:
            self.on_leave()
        else:
            self.app.exit()

    # ----------------------------------------------------------------- drawing

    def _log_event_line(self, line: str | None) -> None:
        if line is not None:
            self.log_lines.append(line)

    def _refresh(self) -> None:
        if not self.is_mounted:
            return
        lesson = self.lesson
        game = lesson.game
        rules = game.rules
        board = board_of(game, LEARNER)
        number = min(lesson.index + (0 if self.explaining else 1), len(STEPS))
        self.query_one("#title", Static).update(t.LEARN_TITLE.format(n=number, total=len(STEPS)))
        self.query_one("#guide", Static).update(self._guide_text())
        self.query_one("#opp", PlayerStrip).show(board, OPPONENT, self.names[OPPONENT], rules)
        self.query_one("#me", PlayerStrip).show(board, LEARNER, self.names[LEARNER], rules)
        self.query_one("#pile", PileSlot).show(board, rules.joker_card)
        self.query_one("#table", CardRow).show(self._table_view(board.table), rules.joker_card)
        self.query_one("#hand", CardRow).show(self._hand_view(), rules.joker_card)
        self.query_one("#recent", RecentLog).show(self.log_lines)
        self.query_one("#status", Static).update(self._status())
        if self.step is not None and self._phase() == Phase.PLAY:  # a card asked for: the hand in sight
            self.query_one("#hand", CardRow).scroll_visible(animate=False)

    def _guide_text(self) -> Text:
        text = Text()
        if self.explaining is not None:
            text.append(f"{t.LEARN_DONE_LABEL} ", style="bold green")
            text.append(_(self.explaining.explanation))
            return text
        step = self.lesson.step
        if step is not None:
            text.append(f"{t.LEARN_GUIDE}: ", style="bold")
            text.append(_(step.message))
        return text

    def _status(self) -> Text:
        phase = self._phase()
        step = self.step
        text = Text(self.message, style="bold red" if self.message else "")
        if self.message:
            text.append("\n")
        if step is None:
            keys = t.LEARN_KEYS_END if self.lesson.done else t.LEARN_KEYS_READ
        elif not step.accepts:
            keys = t.LEARN_KEYS_SCORES if step.id == "round-end" else t.LEARN_KEYS_READ
        elif phase == Phase.DECLARE:
            keys = t.LEARN_KEYS_DECLARE
        elif phase == Phase.TAKE:
            keys = t.LEARN_KEYS_TAKE
        else:
            hand = self._hand()
            if hand and not self.message:
                card = hand[self.sel % len(hand)]
                text.append(
                    t.LEARN_SELECTED.format(
                        card=t.card_name(card), kind=kind_name(KIND[card]), points=POINTS[card]
                    )
                    + "\n"
                )
            keys = t.LEARN_KEYS_PLAY.format(keys=f"1-{len(hand)}" if len(hand) > 1 else "1")
        text.append(keys, style="bold")
        return text

    def _table_view(self, table: int) -> list[Slot]:
        phase = self._phase()
        step = self.step
        _card, wanted = self._wanted()
        if phase == Phase.TAKE and step is not None:
            targets = self._take_targets()
        elif self.choosing:
            targets = self.choosing
        else:
            targets = self._choice_targets() if step is not None and phase == Phase.PLAY else []
        slots = []
        for mask in table_slots(table):
            slot = Slot(mask)
            if mask in targets:
                index = targets.index(mask)
                slot.label = TARGET_KEYS[index] if len(targets) > 1 else t.MARK_TARGET
                slot.marked = True
                if mask == wanted:
                    slot.label = f"{MARK_GUIDE}{slot.label}"
                    slot.emphasis = True
            slots.append(slot)
        return slots

    def _hand_view(self) -> list[Slot]:
        phase = self._phase()
        wanted, _target = self._wanted()
        slots = []
        playing = self.step is not None and phase == Phase.PLAY
        for i, card in enumerate(self._hand()):
            slot = Slot(1 << card)
            key = str((i + 1) % 10)
            if card == wanted:
                slot.label, slot.marked = f"{MARK_GUIDE}{key}", True
            else:
                slot.label = key
            if playing and i == self.sel:
                slot.emphasis = True
                slot.label = t.MARK_SELECTED.format(key=slot.label)
            slots.append(slot)
        return slots
