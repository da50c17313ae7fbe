"""A person's choice at the table: a card from the hand, then a target on the table (or a
target for the turned-up card), by keys or by the mouse.

:class:`Choosing` holds what is being chosen and answers each key or click with the action it
makes (or None while the choice goes on); it draws nothing and knows no screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from roppyakken.actions import Action, Play, Take
from roppyakken.cards import MONTH, iter_cards
from roppyakken.choices import Choice
from roppyakken.engine import stacks_of
from roppyakken.phase import Phase
from roppyakken.text import enumeration, month_name, yaku_name
from roppyakken.tui import text as t
from roppyakken.view import SeatView

WAIT: Final = "wait"
"""Nothing to choose: the table waits for a bot, a replay's step or the next decision."""
CARD: Final = "card"
"""Choosing a card of the hand."""
TARGET: Final = "target"
"""Choosing which target the chosen card takes."""
CHOOSE_TAKE: Final = "take"
"""Choosing which target the turned-up card takes."""

TARGET_KEYS: Final = "abcdeghijkmortuwxz"
"""Letters that pick a target (those the table's other keys use are left out)."""


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
    return t.STACK_NAME.format(month=month, cards=enumeration([t.card_name(c) for c in cards]))


def gives_of(found: list[Choice]) -> dict[tuple[int, int], str]:
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
                    t.GIVES_YAKU.format(yaku=yaku_name(s.slug).split(" (")[0], held=s.after, need=s.needed)
                    for s in c.steps
                ]
            target = c.action.target if isinstance(c.action, Play | Take) else 0
            out[(card, target)] = enumeration(parts)
    return out


@dataclass
class Choosing:
    """What a person is choosing at the table, and where the choice stands."""

    mode: str = WAIT
    """:data:`WAIT`, :data:`CARD`, :data:`TARGET` or :data:`CHOOSE_TAKE`."""
    hand_cards: list[int] = field(default_factory=list)
    """The hand's cards, in the order shown."""
    sel: int = 0
    """The chosen card's place in :attr:`hand_cards` (kept from one decision to the next)."""
    targets: list[int] = field(default_factory=list)
    """The targets offered (while choosing one)."""
    tsel: int = 0
    """The chosen target's place in :attr:`targets`."""
    legal_by_card: dict[int, list[int]] = field(default_factory=dict)
    """The targets each card of the hand may take (0: to the table)."""
    gives: dict[tuple[int, int], str] = field(default_factory=dict)
    """What each target gives, by (card or -1 for the turned-up card, target), when targets differ."""
    view: SeatView | None = None
    """The view of the card-play decision awaited (None once it is made): what a hint answers."""

    def offer(self, view: SeatView, found: list[Choice]) -> None:
        """Start choosing among ``found`` (a card to play, or a target for the turned-up card)."""
        self.gives = gives_of(found)
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
        self.view = view

    def decided(self) -> None:
        """The decision is made: keys queued behind it (a hint, a card) belong to no decision."""
        self.view = None
        self.mode = WAIT

    def closed(self) -> None:
        """The decision is over: nothing is offered until the next."""
        self.decided()
        self.targets = []

    @property
    def card(self) -> int:
        """The chosen card (while choosing a card or its target)."""
        return self.hand_cards[self.sel]

    def card_targets(self, card: int) -> list[int]:
        """The cards or stacks ``card`` may take (none: it goes to the table)."""
        return [m for m in self.legal_by_card.get(card, []) if m]

    def current_targets(self) -> list[int]:
        """The targets marked on the table now."""
        if self.mode == CARD and self.hand_cards:
            return self.card_targets(self.card)
        if self.mode in (TARGET, CHOOSE_TAKE):
            return self.targets
        return []

    def move(self, delta: int) -> None:
        """The previous or next card (or target)."""
        if self.mode == CARD and self.hand_cards:
            self.sel = (self.sel + delta) % len(self.hand_cards)
        elif self.mode in (TARGET, CHOOSE_TAKE) and self.targets:
            self.tsel = (self.tsel + delta) % len(self.targets)

    def to_targets(self) -> bool:
        """Go on to choose among the chosen card's targets, if it has several (else no change)."""
        targets = self.card_targets(self.card)
        if len(targets) < 2:
            return False
        self.mode, self.targets, self.tsel = TARGET, targets, 0
        return True

    @property
    def confirmable(self) -> bool:
        """Whether there is a card or a target to confirm (Enter means something)."""
        if self.mode == CARD:
            return bool(self.hand_cards)
        return self.mode in (TARGET, CHOOSE_TAKE) and bool(self.targets)

    def confirm(self) -> Action | None:
        """Play the chosen card, or take the chosen target; None if the card has several
        targets (they are offered now) or there is nothing to confirm."""
        if self.mode == CARD and self.hand_cards:
            targets = self.legal_by_card.get(self.card, [0])
            if len(targets) == 1:
                return Play(self.card, targets[0])
            self.mode, self.targets, self.tsel = TARGET, targets, 0
        elif self.mode == TARGET and self.targets:
            return Play(self.card, self.targets[self.tsel])
        elif self.mode == CHOOSE_TAKE and self.targets:
            return Take(self.targets[self.tsel])
        return None

    def back(self) -> bool:
        """Back from choosing a target to choosing a card (False: nothing to go back from)."""
        if self.mode != TARGET:
            return False
        self.mode, self.targets = CARD, []
        return True

    def pick_card(self, index: int) -> None:
        """Choose the card at ``index`` of the hand."""
        self.mode, self.targets = CARD, []
        self.sel = index

    def pick_target(self, mask: int) -> Action | None:
        """The action that takes ``mask`` (clicked on the table), if it is a target now."""
        if self.mode == CARD and self.hand_cards:
            if mask in self.legal_by_card.get(self.card, []):
                return Play(self.card, mask)
        elif self.mode == TARGET and mask in self.targets:
            return Play(self.card, mask)
        elif self.mode == CHOOSE_TAKE and mask in self.targets:
            return Take(mask)
        return None
