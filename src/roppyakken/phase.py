"""The decision a game waits for, as a typed value: :class:`Phase`.

Front ends and bots compare a view's phase against :class:`Phase` members, so that a
misspelt phase is a type error.  A ``Phase`` is a ``str`` whose value is the phase's
name in the JSON formats and the web protocol (``"play"``, ``"take"``…), so JSON, records
and digests read the same.  Inside the compiled kernel the phase stays the plain string
constant of :mod:`roppyakken.actions` (a C string comparison on the hot path);
:func:`roppyakken.view.view_of` converts it to a ``Phase`` at the view's boundary.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Final


class Phase(StrEnum):
    """The decision the seat to act faces, or :attr:`OVER` when the game has ended."""

    REDEAL = "redeal"
    """R-3.4 ``optional``: call a redeal for four of a month in hand, or not."""
    DECLARE = "declare"
    """R-4.1 ``choose``: which held lucky hands to declare."""
    PLAY = "play"
    """R-5.1, R-5.2: which card to play from hand, and which target it takes."""
    TAKE = "take"
    """R-5.5: which target the turned-up card takes, when it has several."""
    OVER = "over"
    """No decision: the game has ended."""

    @property
    def card_play(self) -> bool:
        """Whether this is a card-play decision (:attr:`PLAY` or :attr:`TAKE`)."""
        return self is Phase.PLAY or self is Phase.TAKE


PHASE_OF: Final[Mapping[str, Phase]] = {p.value: p for p in Phase}
"""The :class:`Phase` of each kernel phase string: a dict look-up, where ``Phase(value)``
costs a microsecond on the path of every view a bot or an environment reads."""

__all__ = ["PHASE_OF", "Phase"]
