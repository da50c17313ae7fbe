"""The ``expert`` bot's tunable weights (:class:`Weights`), apart from its compiled appraisal.

:mod:`roppyakken.ai.expert` is compiled with mypyc when the compiled modules are built
(:data:`roppyakken.compiled.GROUP`); the weights stay a plain Python dataclass here, so
that the pure and the compiled appraisal take the same objects (one class, whichever
runs) and the tuning scripts may build and replace them freely.  Re-exported by
:mod:`roppyakken.ai.expert`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields


@dataclass(frozen=True, slots=True)
class Weights:
    """The expert's tunable weights and card-getting chances (points are the unit)."""

    yaku: float = 1.0
    """Own yaku progress."""
    deny: float = 0.45
    """Blocking: the opponents' yaku chances a capture destroys."""
    future: float = 0.375
    """Table cards of a month it holds, to take later."""
    exposure: float = 1.35
    """What the opponents can take from the table on their turns."""
    joker_keep: float = 37.5
    """Keeping the joker for a better target."""
    reveal_cost: float = 8.0
    """Points a revealed lucky-hand card is worth to the opponents (R-4.1 ``choose``)."""
    a_hand: float = 0.8
    """Chance of capturing, in the end, a card of one's own hand."""
    a_table_mine: float = 0.8
    """... a table card of a month one holds (less the opponents' chance to take it first)."""
    a_table: float = 0.3
    """... a table card of a month one does not hold."""
    share2: float = 0.45
    """... an unseen card that comes into play, two players."""
    share3: float = 0.3
    """... an unseen card that comes into play, three players."""
    a_op_hand: float = 0.2
    """Chance an opponent ends up with a card of the expert's hand."""
    trail_yaku: float = 1.25
    """Yaku weight factor when far behind."""
    lead_deny: float = 1.25
    """Blocking weight factor when far ahead."""
    danger_deny: float = 1.3
    """Blocking weight factor when an opponent is near the target."""
    instant: float = 1.0
    """An instant win (R-8.5) is worth this many times the larger of the target and 600 points."""
    hold: float = 0.5
    """Weight of what a card kept in hand is worth (:meth:`Appraisal.hold_value`)."""
    keep_table: float = 0.85
    """Chance of capturing in the end a hand card whose month is on the table."""
    keep_unseen: float = 0.3
    """... per unseen card of its month, when none is on the table."""
    mates: float = 0.125
    """Share of the unseen cards of its month that a hand card is expected to take."""
    fuke_cards: int = 4
    """Fuke (R-7.3) is weighed when the expert has this many cards in hand or fewer."""
    draw: float = 0.0
    """Weight of what its own turned-up card, right after the play, takes from the months
    the play changed (:meth:`Appraisal.draw_value`); 0 leaves it out."""
    _hash: int = field(init=False, repr=False, compare=False, default=0)

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "_hash", hash(tuple(getattr(self, f.name) for f in fields(self) if f.compare))
        )

    def __hash__(self) -> int:
        """Weights are values: equal weights hash alike (the appraisal's cache is keyed by
        them), the hash worked out once."""
        return self._hash


DEFAULT_WEIGHTS = Weights()
"""The expert's weights as tuned (``bench/RESULTS-bots.md``)."""

__all__ = ["DEFAULT_WEIGHTS", "Weights"]
