"""Ratings: OpenSkill (Plackett–Luce) ratings of people, one per preset family and player count, and
the bot levels on the same scale.

- :mod:`.pools`: which pool a game rates (``classic-2`` … ``match-3``);
- :mod:`.order`: a game's finishing order (ties, leavers last);
- :mod:`.model`: the OpenSkill update;
- :mod:`.store`: the update in the game's ending transaction, and the replay that rebuilds
  every rating (``roppyakken ratings --recompute``);
- :mod:`.scale`: what is shown (display rating, uncertainty, provisional, nearest bot).
"""

from __future__ import annotations

from roppyakken.server.club.ratings.pools import FAMILIES, POOLS, pool_of
from roppyakken.server.club.ratings.scale import display, nearest_bot, provisional, uncertainty

__all__ = ["FAMILIES", "POOLS", "display", "nearest_bot", "pool_of", "provisional", "uncertainty"]
