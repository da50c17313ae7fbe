"""The decisions a player can face and the actions that answer them.

Card sets are masks (see :mod:`roppyakken.cards`).  Every action has a JSON form
(``to_json`` / :func:`action_from_json`) used by records, bots and the web
protocol, with card slugs, never ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from roppyakken.cards import SLUGS, mask_of, parse_cards, slugs_of
from roppyakken.errors import RoppyakkenError

# The kernel's phases: plain strings, the values of roppyakken.phase.Phase (which front ends
# compare against), kept as literals so that the compiled kernel compares C strings.
REDEAL: Final = "redeal"
"""Decision (R-3.4 ``optional``): call a redeal for four of a month in hand, or not."""
DECLARE: Final = "declare"
"""Decision (R-4.1 ``choose``): which held lucky hands to declare."""
PLAY: Final = "play"
"""Decision (R-5.1, R-5.2): which card to play from hand, and which target it takes."""
TAKE: Final = "take"
"""Decision (R-5.5): which target the turned-up card takes, when it has several."""
OVER: Final = "over"
"""No decision: the game has ended."""


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``card`` from hand, capturing the table cards in ``target`` (0: none, added)."""

    card: int
    target: int

    def to_json(self) -> dict[str, Any]:
        """``{"type": "play", "card": slug, "target": [slugs]}``."""
        return {"type": PLAY, "card": SLUGS[self.card], "target": slugs_of(self.target)}

    def __str__(self) -> str:
        if self.target:
            return f"play {SLUGS[self.card]} taking {', '.join(slugs_of(self.target))}"
        return f"play {SLUGS[self.card]} to the table"


@dataclass(frozen=True, slots=True)
class Take:
    """The turned-up card takes the table cards in ``target``."""

    target: int

    def to_json(self) -> dict[str, Any]:
        """``{"type": "take", "target": [slugs]}``."""
        return {"type": TAKE, "target": slugs_of(self.target)}

    def __str__(self) -> str:
        return f"take {', '.join(slugs_of(self.target))}"


@dataclass(frozen=True, slots=True)
class Declare:
    """Declare these lucky hands (possibly none), revealing the cards that form them."""

    hands: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"type": "declare", "hands": [slugs]}``."""
        return {"type": DECLARE, "hands": list(self.hands)}

    def __str__(self) -> str:
        return f"declare {', '.join(self.hands)}" if self.hands else "declare nothing"


@dataclass(frozen=True, slots=True)
class CallRedeal:
    """With four of a month in hand and ``hand_four = optional``: call the redeal or not."""

    call: bool

    def to_json(self) -> dict[str, Any]:
        """``{"type": "redeal", "call": bool}``."""
        return {"type": REDEAL, "call": self.call}

    def __str__(self) -> str:
        return "call a redeal" if self.call else "play on without a redeal"


Action = Play | Take | Declare | CallRedeal


def action_from_json(data: Any) -> Action:
    """Parse the JSON form of an action; raise a one-line error if malformed."""
    if not isinstance(data, dict):
        raise RoppyakkenError("action: expected a JSON object")
    kind = data.get("type")
    if kind == PLAY:
        card = data.get("card")
        if not isinstance(card, str):
            raise RoppyakkenError("play: 'card' must be a card slug")
        (cid,) = parse_cards([card], "play")
        return Play(cid, _target(data))
    if kind == TAKE:
        return Take(_target(data))
    if kind == DECLARE:
        hands = data.get("hands", [])
        if not isinstance(hands, list) or not all(isinstance(h, str) for h in hands):
            raise RoppyakkenError("declare: 'hands' must be a list of lucky-hand slugs")
        return Declare(tuple(hands))
    if kind == REDEAL:
        call = data.get("call")
        if not isinstance(call, bool):
            raise RoppyakkenError("redeal: 'call' must be true or false")
        return CallRedeal(call)
    raise RoppyakkenError(f"action: unknown type {kind!r} (play, take, declare or redeal)")


def _target(data: dict[str, Any]) -> int:
    target = data.get("target", [])
    if not isinstance(target, list):
        raise RoppyakkenError("'target' must be a list of card slugs")
    return mask_of(parse_cards(target, "target"))
