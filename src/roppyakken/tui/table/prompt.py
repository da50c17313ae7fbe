"""The table's status line: the last thing that happened, and under it what the keys do now
(the card chosen and its targets, the targets of the turned-up card, a bot thinking, a replay)."""

from __future__ import annotations

from rich.text import Text

from roppyakken.cards import KIND, POINTS
from roppyakken.text import kind_name
from roppyakken.tui import text as t
from roppyakken.tui.table.choosing import CARD, CHOOSE_TAKE, TARGET, TARGET_KEYS, Choosing, target_name
from roppyakken.tui.table.state import TableState


def status_text(shown: TableState) -> Text:
    """The message, and the prompt in bold (both wrap: a long line is never cut)."""
    text = Text(shown.message)  # wraps: a long line (French, a joker's targets) is never cut
    text.append("\n")
    text.append(prompt_line(shown), style="bold")  # wraps: targets are never cut off
    return text


def prompt_line(shown: TableState) -> str:
    """What the keys do now, or what the table waits for."""
    c = shown.choosing
    if shown.replay:
        if shown.replay_done:
            return t.REPLAY_END_KEYS
        auto = t.REPLAY_AUTO_ON if shown.replay_auto else t.REPLAY_AUTO_OFF
        return t.PROMPT_REPLAY.format(auto=auto, pace=t.PACE_NAMES[shown.pace])
    if c.mode == CARD and c.hand_cards:
        return card_detail(c)
    if shown.game.over:
        return t.GAME_OVER_TABLE
    if c.mode == TARGET and c.hand_cards:
        return t.PROMPT_TARGET_NAMED.format(
            card=t.card_name(c.card),
            targets=lettered(c, c.targets, c.card),
            last=TARGET_KEYS[len(c.targets) - 1],
        )
    if c.mode == CHOOSE_TAKE:
        turned = t.card_name(shown.board.turned) if shown.board.turned >= 0 else ""
        return t.DETAIL_TURNED.format(
            card=turned, targets=lettered(c, c.targets, -1), last=TARGET_KEYS[len(c.targets) - 1]
        )
    prompt = t.PROMPT_WAIT.format(pace=t.PACE_NAMES[shown.pace])
    if shown.thinking is not None:
        return t.STATUS_WAIT_BOT.format(name=shown.names[shown.thinking]) + " · " + prompt
    return prompt


def card_detail(c: Choosing) -> str:
    """The chosen card: its name, kind and points, and where it goes."""
    card = c.card
    text = t.DETAIL_CARD.format(card=t.card_name(card), kind=kind_name(KIND[card]), points=POINTS[card])
    targets = c.card_targets(card)
    if not targets:
        text += t.DETAIL_TO_TABLE
    elif len(targets) == 1:
        text += t.DETAIL_TAKES_ONE.format(target=target_name(targets[0]))
    else:
        text += t.DETAIL_TAKES_MANY.format(n=len(targets), targets=lettered(c, targets, card))
    return text


def lettered(c: Choosing, targets: list[int], card: int) -> str:
    """``a) Pampas Moon (+50 pts, Moon Viewing 1/2), b) …``: each target, what it gives if they differ."""
    items = []
    for i, m in enumerate(targets[: len(TARGET_KEYS)]):
        gives = c.gives.get((card, m))
        name = target_name(m)
        what = t.TARGET_GIVES.format(target=name, gives=gives) if gives else name
        items.append(t.TARGET_ITEM.format(key=TARGET_KEYS[i], target=what))
    return ", ".join(items)
