"""The hint panel (key ``h`` at the table) and the round review's text.

The hint is worked out by :func:`roppyakken.ai.hint.hint` from the seat's view only, in a
Textual thread worker (never on the UI thread); the panel says so while it works.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static
from textual.worker import WorkerCancelled, WorkerFailed

from roppyakken.ai.hint import DEFAULT_WORLDS, Hint, MoveHint, Review, hint
from roppyakken.cards import iter_cards
from roppyakken.errors import RoppyakkenError
from roppyakken.text import card_name, enumeration, yaku_name
from roppyakken.tui import text as t
from roppyakken.view import SeatView


def _num(x: float) -> str:
    return f"{x:.0f}" if math.isfinite(x) else "?"


def play_text(move: MoveHint) -> str:
    """ "Crane takes Pine chaff" or "Crane to the table"."""
    card = card_name(move.card)
    if not move.target:
        return str(t.HINT_PLAY_TO.format(card=card))
    return str(
        t.HINT_PLAY_TAKES.format(
            card=card, cards=t.cards_phrase([card_name(c) for c in iter_cards(move.target)])
        )
    )


def move_lines(move: MoveHint, number: int) -> list[str]:
    """One candidate of a hint in four short lines (fits 76 columns)."""
    head = f"{number}. {play_text(move)}"
    if move.expert_choice:
        head += f"  ★ {t.HINT_EXPERT}"
    now = [t.HINT_NOW.format(n=move.points_now)]
    if move.yaku_now:
        now.append(t.HINT_YAKU_NOW.format(yaku=enumeration([yaku_name(s) for s in move.yaku_now])))
    if move.yaku_chances:
        slug, chance = move.yaku_chances[0]
        now.append(t.HINT_YAKU_CHANCE.format(yaku=yaku_name(slug), pct=round(chance * 100)))
    expected = t.HINT_EXPECTED.format(
        score=_num(move.expected_score), ci=_num(move.score_ci95), pct=round(move.win_chance * 100)
    )
    return [head, "   " + " · ".join(now), "   " + expected, "   " + t.HINT_RISK.format(n=_num(move.risk))]


def hint_text(found: Hint) -> str:
    """The whole hint: each candidate, best first, and how it was worked out."""
    lines: list[str] = []
    for i, move in enumerate(found.moves, 1):
        lines += move_lines(move, i)
    lines.append(t.HINT_NOTE.format(n=found.worlds))
    return "\n".join(lines)


def review_text(reviews: Sequence[Review], turns: Sequence[int]) -> str:
    """The round review: at each turn shown, what was played, the master's play, the points given up.

    ``turns`` are the seat's turn numbers in the round of the decisions reviewed, in the order
    :func:`~roppyakken.ai.hint.review` was given them (``review.index`` is a place in it).
    """
    if not reviews:
        return str(t.REVIEW_NONE)
    lines: list[str] = []
    for r in reviews:
        lines.append(
            t.REVIEW_ITEM.format(n=turns[r.index], played=play_text(r.played), best=play_text(r.best))
        )
        pct = max(1, math.floor(r.loss * 100 + 0.5))  # a review's loss is at least 1% (never "−0%")
        lines.append(t.REVIEW_LOST.format(points=_num(max(0.0, r.margin_loss)), pct=pct))
    return "\n".join(lines)


def review_work(work: Callable[[], tuple[Sequence[Review], Sequence[int]]]) -> Callable[[], str]:
    """The round review's text, from ``work`` that finds the reviews and their turns (both to
    run in a thread)."""
    return lambda: review_text(*work())


class HintScreen(ModalScreen[None]):
    """The expert's three best plays for the decision at hand; Esc or h closes it."""

    DEFAULT_CSS = """
    HintScreen { align: center middle; }
    HintScreen .sheet {
        width: 100%; max-width: 100; height: auto; max-height: 100%;
        border: round $accent; background: $panel; padding: 0 1;
    }
    HintScreen .title { text-style: bold; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,h,enter", "close", t.KEY_CLOSE)]

    def __init__(self, view: SeatView, worlds: int = DEFAULT_WORLDS) -> None:
        super().__init__()
        self.view = view
        self.worlds = worlds
        self.result: Hint | None = None

    def compose(self) -> ComposeResult:
        """The title and the hint (at first: that it is being worked out)."""
        with VerticalScroll(classes="sheet"):
            yield Static(t.HINT_TITLE, classes="title")
            yield Static(t.HINT_WORKING.format(n=self.worlds), id="hint-body")

    def on_mount(self) -> None:
        """Work the hint out in a thread."""
        self.run_worker(self._work(), group="hint", exclusive=True)

    async def _work(self) -> None:
        body = self.query_one("#hint-body", Static)
        worker = self.run_worker(
            partial(hint, self.view, worlds=self.worlds),
            thread=True,
            group="hint-thread",
            exit_on_error=False,
        )
        try:
            await worker.wait()
        except WorkerCancelled:  # the panel was closed before the hint was ready
            return
        except WorkerFailed as exc:  # it wraps the hint's own one-line error
            body.update(
                t.HINT_FAILED.format(
                    error=exc.error.translated() if isinstance(exc.error, RoppyakkenError) else exc
                )
            )
            return
        self.result = worker.result
        if self.result is not None:
            body.update(hint_text(self.result))

    def action_close(self) -> None:
        """Back to the table."""
        self.dismiss(None)


class ReviewScreen(ModalScreen[None]):
    """After a round: what the master would have played where you gave up the most; Esc closes it."""

    DEFAULT_CSS = HintScreen.DEFAULT_CSS.replace("HintScreen", "ReviewScreen")
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,r,enter", "close", t.KEY_CLOSE)]

    def __init__(self, work: Callable[[], str]) -> None:
        super().__init__()
        self.work = work
        self.result: str | None = None

    def compose(self) -> ComposeResult:
        """The title and the review (at first: that it is being worked out)."""
        with VerticalScroll(classes="sheet"):
            yield Static(t.REVIEW_TITLE, classes="title")
            yield Static(t.REVIEW_WORKING, id="review")
            yield Static(t.REVIEW_CLOSE)

    def on_mount(self) -> None:
        """Work the review out in a thread."""
        self.run_worker(self._work(), group="review", exclusive=True)

    async def _work(self) -> None:
        body = self.query_one("#review", Static)
        worker = self.run_worker(self.work, thread=True, group="review-thread", exit_on_error=False)
        try:
            await worker.wait()
        except WorkerCancelled:  # the review was closed before it was ready
            return
        except WorkerFailed as exc:
            body.update(t.HINT_FAILED.format(error=exc.error))
            return
        self.result = worker.result
        if self.result is not None:
            body.update(self.result)

    def action_close(self) -> None:
        """Back to the scores."""
        self.dismiss(None)
