"""What the table shows, and how it changes one readable step at a time.

The engine applies a whole turn at once (the card from hand, then the
turned-up card).  :class:`Board` is what one viewer may see at a moment;
:func:`frames` turns each public event into the boards to show in turn, so a
bot's move and the turned-up card's play appear as separate steps.  A board is
built from :func:`roppyakken.view.view_of` — never more than its viewer may see —
or, in a replay, from the game with every hand shown.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from roppyakken.engine import Game
from roppyakken.events import DealerTookFour, Declared, Event, Played, Turned
from roppyakken.view import view_of


@dataclass(frozen=True, slots=True)
class Board:
    """The table as one viewer sees it at one moment of the animation."""

    players: int
    viewer: int | None
    hands: tuple[int, ...]
    """Hands the viewer may see (their own; every hand in a replay); 0 for the others."""
    hand_sizes: tuple[int, ...]
    table: int
    captures: tuple[int, ...]
    pile_count: int
    turned: int
    dealer: int
    to_act: int
    round: int
    leg: int
    totals: tuple[int, ...]
    legs: tuple[int, ...]
    declared: tuple[tuple[str, ...], ...]
    revealed: tuple[int, ...]
    orders: tuple[tuple[int, ...], ...] = ()
    """Each seat's captures in capture order (R-5.6), for ordered rain-off in the running score."""
    in_play: int = -1
    """A card on its way (played from hand or turned up), shown beside the pile."""
    in_play_source: str = ""
    taking: int = 0
    """Table cards about to be taken by :attr:`in_play`."""
    fresh: int = 0
    """Cards that just arrived (on the table or in captures), marked for one step."""

    def without_marks(self) -> Board:
        """The same board with no animation marks."""
        return replace(self, in_play=-1, in_play_source="", taking=0, fresh=0)


def board_of(game: Game, viewer: int | None, show_all: bool = False) -> Board:
    """The board of ``viewer`` now (through :func:`view_of`); ``show_all`` shows every hand (replays)."""
    view = view_of(game, viewer)
    if show_all:
        hands = tuple(game.hands)
    else:
        hands = tuple(view.hand if s == viewer else 0 for s in range(view.players))
    return Board(
        players=view.players,
        viewer=viewer,
        hands=hands,
        hand_sizes=view.hand_sizes,
        table=view.table,
        captures=view.captures,
        pile_count=view.pile_count,
        turned=view.turned,
        dealer=view.dealer,
        to_act=view.to_act,
        round=view.round,
        leg=view.leg,
        totals=view.totals,
        legs=view.legs,
        declared=view.declared,
        revealed=view.revealed,
        orders=view.capture_orders,
    )


def _set(values: tuple[int, ...], seat: int, value: int) -> tuple[int, ...]:
    out = list(values)
    out[seat] = value
    return tuple(out)


def frames(board: Board, event: Event) -> list[Board]:
    """The boards to show, in order, for ``event`` (empty: nothing to animate)."""
    base = board.without_marks()
    if isinstance(event, Played):
        seat, card, taken = event.seat, event.card, event.captured
        step = base
        if event.source == "hand":
            step = replace(
                step,
                hands=_set(step.hands, seat, step.hands[seat] & ~(1 << card)),
                hand_sizes=_set(step.hand_sizes, seat, max(0, step.hand_sizes[seat] - 1)),
                revealed=_set(step.revealed, seat, step.revealed[seat] & ~(1 << card)),
            )
        elif step.turned == card:
            step = replace(step, turned=-1)
        else:
            step = replace(step, pile_count=max(0, step.pile_count - 1))
        first = replace(step, in_play=card, in_play_source=event.source, taking=taken, to_act=seat)
        if taken:
            moved = (1 << card) | taken
            second = replace(
                step,
                table=step.table & ~taken,
                captures=_set(step.captures, seat, step.captures[seat] | moved),
                fresh=moved,
                to_act=seat,
            )
        else:
            second = replace(step, table=step.table | 1 << card, fresh=1 << card, to_act=seat)
        return [first, second]
    if isinstance(event, Turned):
        return [replace(base, turned=event.card, pile_count=max(0, base.pile_count - 1), to_act=event.seat)]
    if isinstance(event, Declared):
        declared = list(base.declared)
        declared[event.seat] = tuple(slug for slug, _ in event.hands)
        revealed = _set(base.revealed, event.seat, base.revealed[event.seat] | event.cards)
        return [replace(base, declared=tuple(declared), revealed=revealed, fresh=event.cards)]
    if isinstance(event, DealerTookFour):
        captures = _set(base.captures, event.seat, base.captures[event.seat] | event.cards)
        return [replace(base, table=base.table & ~event.cards, captures=captures, fresh=event.cards)]
    return []
