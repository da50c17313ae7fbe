"""The minimal round of ``bench/bound/round.c`` in Python: an upper bound for mypyc.

The same sketch of a classic 2-player round (not the rules: no joker, no lucky hands,
no logs) as plain ints in local variables -- no Round object, no lists of masks, no
rules object -- so that, compiled with mypyc (``bench/bench_bound.py`` does it in a
temporary directory), it shows what mypyc makes of the card play itself.  Random
numbers come from ``rand`` (``random.Random().random``, as the engine's playouts use).
"""

from __future__ import annotations

from collections.abc import Callable

P50 = 0
P10 = 0
RIB = 0
for _c in range(48):
    _m, _p = _c // 4, _c % 4
    if _p == 0 and _m in (0, 2, 7, 10, 11):
        P50 |= 1 << _c
    elif _p < 2 and _m != 11:
        P10 |= 1 << _c
    if _p == 1 and _m not in (7, 10):
        RIB |= 1 << _c
YAKU: list[int] = [(0x9 << (4 * (y % 11))) | (1 << ((y * 7) % 48)) for y in range(22)]
VALUES: list[int] = [200, 100, 100, 50, 50, 50, 50, 100, 50, 50, 60] + [60] * 7 + [40, 40, 30, 30]


def place(table: int, captured: int, card: int, rand: Callable[[], float]) -> tuple[int, int]:
    """A card onto the table: it takes its month's card(s) or is added. Returns (table, captured)."""
    on = table & (15 << (card & ~3))
    if not on:
        return table | 1 << card, captured
    take = on
    if on.bit_count() == 2:
        low = on & -on
        take = low if rand() < 0.5 else on ^ low
    return table & ~take, captured | take | 1 << card


def playout(hand0: int, hand1: int, table: int, pile: list[int], rand: Callable[[], float]) -> int:
    """Play the round out at random and score it (card points and yaku of both seats)."""
    cap0 = cap1 = 0
    seat = 0
    pos = 0
    while hand0 | hand1:
        hand = hand0 if seat == 0 else hand1
        h = hand
        for _ in range(int(rand() * h.bit_count())):
            h &= h - 1
        low = h & -h
        card = low.bit_length() - 1
        captured = cap0 if seat == 0 else cap1
        table, captured = place(table, captured, card, rand)
        table, captured = place(table, captured, pile[pos], rand)
        pos += 1
        if seat == 0:
            hand0, cap0, seat = hand ^ low, captured, 1
        else:
            hand1, cap1, seat = hand ^ low, captured, 0
    return score(cap0) + score(cap1)


def score(captured: int) -> int:
    """Card points, set yaku and seven ribbons of one seat's captures."""
    total = 50 * (captured & P50).bit_count() + 10 * (captured & P10).bit_count()
    for i in range(22):
        mask = YAKU[i]
        if captured & mask == mask:
            total += VALUES[i]
    if (captured & RIB).bit_count() >= 7:
        total += 100
    return total


def draws(rand: Callable[[], float], count: int) -> float:
    """``count`` calls of ``rand`` (the cost of a playout's random draws, from compiled code)."""
    total = 0.0
    for _ in range(count):
        total += rand()
    return total
