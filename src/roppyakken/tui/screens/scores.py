"""The end of a round (its breakdown) and the end of the game (the winner and why)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from roppyakken.cards import KIND, KINDS, POINTS, iter_cards
from roppyakken.engine import Game
from roppyakken.events import Event, GameEnded, LegWon, RoundEnded
from roppyakken.outcome import termination_of
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore
from roppyakken.text import yaku_name
from roppyakken.tui import text as t
from roppyakken.tui.screens.hint import ReviewScreen

SCORES_CSS = """
.sheet {
    width: 100%; max-width: 100; height: auto; max-height: 100%;
    border: round $accent; background: $panel; padding: 0 1;
}
.sheet .title { text-style: bold; }
.sheet .notes { margin-top: 1; }
.sheet .keys { margin-top: 1; text-style: bold; }
"""


def breakdown_table(
    rules: Rules,
    score: RoundScore,
    captures: Sequence[int],
    names: Sequence[str],
    totals: Sequence[int],
    legs: Sequence[int] | None = None,
) -> Table:
    """A round's scores, one column per player: points by kind, yaku, lucky hands, round score, totals."""
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2))
    table.add_column("")
    for name in names:
        table.add_column(name, justify="right", no_wrap=True)
    for kind in KINDS:
        cells = []
        for captured in captures:
            cards = [c for c in iter_cards(captured) if KIND[c] == kind]
            cells.append(f"{sum(POINTS[c] for c in cards)} ({len(cards)})" if cards else "–")
        table.add_row(Text(t.KIND_PLURALS[kind], style="dim"), *cells)
    players = score.players
    table.add_row(Text(t.ROUND_ROW_CARDS, style="bold"), *[str(p.card_points) for p in players])
    yaku_slugs = [s for p in players for s, _ in p.yaku]
    for slug in dict.fromkeys(yaku_slugs):
        cells = [next((str(v) for s, v in p.yaku if s == slug), "") for p in players]
        table.add_row(yaku_name(slug), *cells)
    lucky_slugs = [s for p in players for s, _ in p.lucky_hands]
    for slug in dict.fromkeys(lucky_slugs):
        cells = [next((str(v) for s, v in p.lucky_hands if s == slug), "") for p in players]
        table.add_row(t.ROUND_ROW_LUCKY.format(name=yaku_name(slug)), *cells)
    table.add_row(Text(t.ROUND_ROW_SCORE, style="bold"), *[str(p.round_score) for p in players])
    if rules.fuke != "off":
        table.add_row(t.ROUND_ROW_COUNTED, *[str(p.counted) for p in players])
    table.add_row(Text(t.ROUND_ROW_ADDS, style="bold"), *[f"+{p.final}" for p in players])
    table.add_row(Text(t.ROUND_ROW_TOTAL, style="bold"), *[Text(str(v), style="bold") for v in totals])
    if legs is not None and rules.match_rule.kind != "single":
        table.add_row(t.ROUND_ROW_LEGS, *[str(v) for v in legs])
    return table


def round_notes(rules: Rules, score: RoundScore, names: Sequence[str]) -> list[str]:
    """Sentences for fuke, round scoring and instant wins of a scored round."""
    notes = []
    if score.fuke:
        notes.append(t.ROUND_FUKE.format(threshold=rules.fuke_threshold))
    elif rules.fuke != "off" and any(p.counted <= rules.fuke_threshold for p in score.players):
        spared = [s for p in score.players for s, _ in p.yaku if s in rules.fuke_exempt]
        if spared:
            notes.append(t.ROUND_FUKE_SPARED.format(yaku=yaku_name(spared[0])))
    if rules.round_scoring != "plain":
        notes.append(t.ROUND_SCORING[rules.round_scoring])
    if score.instant_win is not None:
        seat, slug = score.instant_win
        notes.append(t.ROUND_INSTANT.format(name=names[seat], yaku=yaku_name(slug)))
    return notes


class RoundEndScreen(ModalScreen[str | None]):
    """A round's breakdown and the totals; Enter goes on, q closes it to quit (``'quit'``)."""

    DEFAULT_CSS = (
        """
    RoundEndScreen { align: center middle; }
    """
        + SCORES_CSS
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,space,escape", "close", t.KEY_CONTINUE),
        Binding("r", "review", t.KEY_REVIEW),
        Binding("q", "quit", t.KEY_QUIT, show=False),
    ]

    def __init__(
        self,
        *,
        rules: Rules,
        names: Sequence[str],
        round_index: int,
        score: RoundScore,
        captures: Sequence[int],
        totals: Sequence[int],
        legs: Sequence[int],
        leg_winner: int | None,
        leg_number: int,
        last: bool,
        review: Callable[[], str] | None = None,
    ) -> None:
        super().__init__()
        self.review = review
        """Works out the review of the round (run in a thread worker), or None: no review."""
        self.rules = rules
        self.names = list(names)
        self.round_index = round_index
        self.score = score
        self.captures = list(captures)
        self.totals = list(totals)
        self.legs = list(legs)
        self.leg_winner = leg_winner
        self.leg_number = leg_number
        self.last = last

    def compose(self) -> ComposeResult:
        """Title, breakdown table, notes and the key to go on."""
        with VerticalScroll(classes="sheet"):
            yield Static(t.ROUND_END_TITLE.format(round=self.round_index + 1), classes="title")
            yield Static(
                breakdown_table(self.rules, self.score, self.captures, self.names, self.totals, self.legs)
            )
            notes = round_notes(self.rules, self.score, self.names)
            if self.leg_winner is not None:
                notes.append(t.say(t.ROUND_LEG, self.names[self.leg_winner], leg=self.leg_number))
            if notes:
                yield Static("\n".join(notes), classes="notes")
            keys = t.ROUND_FINAL if self.last else t.ROUND_CONTINUE
            if self.review is not None:
                keys = f"{keys} · {t.ROUND_REVIEW_KEY}"
            yield Static(keys, classes="keys")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """r only when there is a round of yours to review."""
        return self.review is not None if action == "review" else True

    def action_review(self) -> None:
        """r: what the master would have played (worked out in a thread)."""
        if self.review is not None:
            self.app.push_screen(ReviewScreen(self.review))

    def action_close(self) -> None:
        """Go on."""
        self.dismiss(None)

    def action_quit(self) -> None:
        """q: close, for the table to ask whether to quit (as its own q does)."""
        self.dismiss("quit")


def end_reason_text(reason: str, name: str, rules: Rules, legs: int) -> str:
    """Why the game ended (a game's ``end_reason``), in a sentence."""
    template = t.END_REASONS.get(termination_of(reason), t.END_REASON_UNKNOWN)
    return t.say(template, name, target=rules.target, legs=legs, reason=reason)


class GameOverScreen(ModalScreen[str]):
    """The winner and why, final totals; n new game, s save the record, q quit."""

    DEFAULT_CSS = (
        """
    GameOverScreen { align: center middle; }
    """
        + SCORES_CSS
    )
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter", "finish('new')", t.KEY_NEW),
        Binding("s", "save", t.KEY_SAVE),
        Binding("q", "finish('quit')", t.KEY_QUIT),
        Binding("escape", "finish('close')", t.KEY_CLOSE),
    ]

    def __init__(
        self,
        *,
        rules: Rules,
        names: Sequence[str],
        winner: int,
        reason: str,
        totals: Sequence[int],
        legs: Sequence[int],
        rounds: int,
        on_save: Callable[[], str] | None,
    ) -> None:
        super().__init__()
        self.rules = rules
        self.names = list(names)
        self.winner = winner
        self.reason = reason
        self.totals = list(totals)
        self.legs = list(legs)
        self.rounds = rounds
        self.on_save = on_save

    def compose(self) -> ComposeResult:
        """Winner, reason, totals, keys."""
        match = self.rules.match_rule.kind != "single"
        title = t.GAME_OVER_MATCH_TITLE if match else t.GAME_OVER_TITLE
        table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2))
        table.add_column("")
        table.add_column("", justify="right")
        if match:
            table.add_column("", justify="right")
        for seat, name in enumerate(self.names):
            row = [Text(name, style="bold" if seat == self.winner else ""), Text(str(self.totals[seat]))]
            if match:
                row.append(Text(t.STRIP_LEGS.format(n=self.legs[seat])))
            table.add_row(*row)
        with Vertical(classes="sheet"):
            yield Static(t.say(title, self.names[self.winner]), classes="title")
            yield Static(
                end_reason_text(self.reason, self.names[self.winner], self.rules, self.legs[self.winner]),
                classes="notes",
            )
            yield Static(table, classes="notes")
            yield Static(t.GAME_OVER_ROUNDS.format(n=self.rounds), classes="notes")
            keys = t.GAME_OVER_KEYS if self.on_save is not None else t.GAME_OVER_KEYS_REPLAY
            yield Static(keys, classes="keys", id="keys")

    def action_finish(self, choice: str) -> None:
        """Close with ``choice``: ``new``, ``quit`` or ``close``."""
        if choice == "new" and self.on_save is None:
            choice = "close"  # a replay has no new game to start
        self.dismiss(choice)

    def action_save(self) -> None:
        """Save the record of the finished game and say where."""
        if self.on_save is not None:
            self.query_one("#keys", Static).update(self.on_save() + "\n" + t.GAME_OVER_KEYS)


def round_end_of(
    game: Game,
    event: RoundEnded,
    after: Sequence[Event],
    names: Sequence[str],
    shown: Sequence[int],
    review: Callable[[], str] | None,
) -> RoundEndScreen:
    """The scores of the round ``event`` ended in ``game``; ``after`` are the events that
    followed it in the same move (a leg won, the game's end), ``shown`` the captures on the
    table in case the game's history has none."""
    log = game.history[event.round] if event.round < len(game.history) else None
    captures = list(log.captures) if log is not None and log.captures else list(shown)
    leg = next((e for e in after if isinstance(e, LegWon)), None)
    return RoundEndScreen(
        rules=game.rules,
        names=names,
        round_index=event.round,
        score=event.score,
        captures=captures,
        totals=event.totals,
        legs=leg.legs if leg is not None else game.legs,
        leg_winner=leg.seat if leg is not None else None,
        leg_number=sum(leg.legs) if leg is not None else 0,
        last=any(isinstance(e, GameEnded) for e in after),
        review=review,
    )


def game_over_of(
    game: Game, names: Sequence[str], on_save: Callable[[], str] | None
) -> GameOverScreen | None:
    """The end of ``game`` (None if it has no winner); ``on_save`` saves its record."""
    if game.winner is None:
        return None
    totals = game.history[-1].totals if game.history and game.history[-1].totals else game.totals
    return GameOverScreen(
        rules=game.rules,
        names=names,
        winner=game.winner,
        reason=game.end_reason,
        totals=totals,
        legs=game.legs,
        rounds=len(game.history),
        on_save=on_save,
    )
