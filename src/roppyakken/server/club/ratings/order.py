"""A rated game's finishing order, from how it ended.

- A seat that was abandoned (its player left: the clock gave it to a bot) is last
  whatever its bot did; two leavers tie for last.
- Among the others, the game's winner (RULES.md R-9: the target, an instant win, a
  match's legs, the tie rule) is first, and the rest follow by legs won (matches), then
  by their final total; equal legs and totals tie.
- If every seat was abandoned the game tells nothing about anyone's skill: no order
  (the game is not rated).

Places are competition ranks: 1 first, tied seats share a place and the next place
skips (1, 2, 2 / 1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Sequence


def finishing_order(
    winner: int | None, totals: Sequence[int], legs: Sequence[int], left: Sequence[bool]
) -> list[int] | None:
    """Each seat's place (see the module docstring); None if every seat was abandoned."""
    seats = range(len(totals))
    if all(left):
        return None

    def key(seat: int) -> tuple[int, int, int, int]:
        # smaller is better: stayed, won, more legs, higher total
        return (int(left[seat]), 0 if seat == winner and not left[seat] else 1, -legs[seat], -totals[seat])

    def tie_key(seat: int) -> tuple[int, ...]:
        return (1,) if left[seat] else key(seat)

    keys = {seat: tie_key(seat) for seat in seats}
    return [1 + sum(1 for other in seats if keys[other] < keys[seat]) for seat in seats]
