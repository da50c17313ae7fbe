"""The cards of the table and of the hand as the table screen shows them: each a slot with its
mark (a target and its letter, the card chosen, a card just taken or laid)."""

from __future__ import annotations

from roppyakken.cards import iter_cards
from roppyakken.tui import text as t
from roppyakken.tui.table.choosing import CARD, CHOOSE_TAKE, TARGET, TARGET_KEYS, table_slots
from roppyakken.tui.table.state import TableState
from roppyakken.tui.widgets import Slot


def table_view(shown: TableState) -> list[Slot]:
    """The table's places, the targets on offer marked with their letters."""
    board = shown.board
    targets = shown.choosing.current_targets()
    choosing = shown.choosing.mode in (TARGET, CHOOSE_TAKE)
    tsel = shown.choosing.tsel
    slots = []
    for mask in table_slots(board.table):
        slot = Slot(mask)
        if mask in targets:
            index = targets.index(mask)
            key = TARGET_KEYS[index] if index < len(TARGET_KEYS) else ""
            if choosing and index == tsel:
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


def hand_view(shown: TableState) -> list[Slot]:
    """The viewer's hand with its number keys, the chosen card and the cards that can take marked."""
    board, viewer, c = shown.board, shown.viewer, shown.choosing
    if viewer is None:
        return []
    hand = list(iter_cards(board.hands[viewer]))
    slots = []
    for i, card in enumerate(hand):
        key = str((i + 1) % 10) if i < 10 else ""
        slot = Slot(1 << card)
        choosable = c.mode in (CARD, TARGET)
        can_take = choosable and any(c.legal_by_card.get(card, []))
        if choosable and c.hand_cards and card == c.card:
            slot.label, slot.emphasis, slot.marked = t.MARK_SELECTED.format(key=key), True, True
        elif board.revealed[viewer] >> card & 1:
            slot.label = (t.MARK_SHOWN_CAN_TAKE if can_take else t.MARK_SHOWN).format(key=key)
        elif can_take:
            slot.label = t.MARK_CAN_TAKE.format(key=key)
        else:
            slot.label = key if not shown.replay else ""
        if c.mode == TARGET and card != c.card:
            slot.dim = True
        slots.append(slot)
    return slots
