"""Rating pools: one rating per preset family and player count (``classic-2`` … ``match-3``).

Every preset of RULES.md R-10 belongs to exactly one family:

- ``classic``: single games of the Japanese rules (classic, online, wikipedia, fuke,
  ten-card, lightning, no-instant-win, sanbyakuken, yamayaku);
- ``korean``: single games of the Korean rules (yukbaek, sambong, korean-high);
- ``match``: matches of several games or a fixed number of rounds (marguerite,
  changara: first to three games; mocogame: twelve rounds).

Games of one family are alike enough in length and luck that one rating describes a
player's strength in all of them; a 3-player game is another skill than a duel, so the
player count is part of the pool.
"""

from __future__ import annotations

from typing import Final

CLASSIC: Final = "classic"
KOREAN: Final = "korean"
MATCH: Final = "match"

FAMILIES: Final[dict[str, str]] = {
    "classic": CLASSIC,
    "online": CLASSIC,
    "wikipedia": CLASSIC,
    "fuke": CLASSIC,
    "ten-card": CLASSIC,
    "lightning": CLASSIC,
    "no-instant-win": CLASSIC,
    "sanbyakuken": CLASSIC,
    "yamayaku": CLASSIC,
    "yukbaek": KOREAN,
    "sambong": KOREAN,
    "korean-high": KOREAN,
    "marguerite": MATCH,
    "changara": MATCH,
    "mocogame": MATCH,
}
"""Each preset's family (see the module docstring)."""

POOLS: Final[tuple[str, ...]] = tuple(f"{family}-{n}" for family in (CLASSIC, KOREAN, MATCH) for n in (2, 3))
"""Every rating pool's name: ``<family>-<players>``."""


def pool_of(preset_name: str, players: int) -> str:
    """The rating pool of a game of ``preset_name`` for ``players`` players (ValueError if none)."""
    family = FAMILIES.get(preset_name)
    if family is None or players not in (2, 3):
        raise ValueError(f"no rating pool for {preset_name!r} with {players} players")
    return f"{family}-{players}"
