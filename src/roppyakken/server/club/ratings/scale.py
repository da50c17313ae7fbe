"""What a rating shows: a conservative display rating, its uncertainty, provisional or not, and the
bot level nearest to it.

A rating is OpenSkill's ``(mu, sigma)``: the skill estimate and its standard deviation
(a new player: 25 and 25/3).  The display rating is the conservative ordinal
``mu - 3*sigma`` on a familiar scale::

    display = round(1500 + 30 * (mu - 3*sigma - 20))

- 30 points a unit of ``mu`` make the differences read as Elo's: two settled players
  ``d`` units apart are expected to finish in the order ``d`` predicts with odds
  ``exp(d / c)`` (``c ≈ 5.9``, PlackettLuce's spread for two players of small sigma),
  so 400 points are about 10 to 1, as in Elo;
- the offset 20 = 25 − 3 × 5/3 puts an average player whose sigma came down to 5/3 (a
  fifth of a newcomer's, some fifty games) at 1500; a newcomer shows 900 and climbs as
  the system learns about them (never negative: the display is at least 0).

The uncertainty shown with it is ``round(30 * sigma)`` points (one standard deviation
of the skill estimate).  A rating is *provisional* while the player has played fewer
than :data:`PROVISIONAL_GAMES` games in the pool or its sigma is above
:data:`PROVISIONAL_SIGMA`.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Final

MU0: Final = 25.0
"""A new player's ``mu`` (OpenSkill's default)."""
SIGMA0: Final = 25.0 / 3.0
"""A new player's ``sigma`` (OpenSkill's default)."""
CENTER: Final = 1500
SCALE: Final = 30.0
"""Display points a unit of ``mu``."""
OFFSET: Final = 20.0
"""The ordinal shown as :data:`CENTER`."""
PROVISIONAL_SIGMA: Final = 6.0
"""A rating whose sigma is above this is provisional (a newcomer's is 8.33; about ten games bring it
under)."""
PROVISIONAL_GAMES: Final = 10
"""A rating of fewer games than this in its pool is provisional."""


def display(mu: float, sigma: float) -> int:
    """The display rating of ``(mu, sigma)``: conservative, 1500 for a settled average player."""
    return max(0, round(CENTER + SCALE * (mu - 3.0 * sigma - OFFSET)))


def uncertainty(sigma: float) -> int:
    """The uncertainty shown beside a display rating: one standard deviation, in display points."""
    return round(SCALE * sigma)


def skill_points(mu: float) -> float:
    """``mu`` on the display scale without the conservative part (quick pairing compares these)."""
    return CENTER + SCALE * (mu - OFFSET)


def provisional(sigma: float, games: int) -> bool:
    """Whether a rating of this sigma after this many games is provisional (shown marked)."""
    return games < PROVISIONAL_GAMES or sigma > PROVISIONAL_SIGMA


@cache
def bot_table() -> dict[str, dict[str, dict[str, float]]]:
    """The bot levels' ratings by pool (``bot_ratings.json``, written by bench/bench_bot_ratings.py)."""
    raw = resources.files("roppyakken.server.club.ratings").joinpath("bot_ratings.json").read_text("utf-8")
    table: dict[str, dict[str, dict[str, float]]] = json.loads(raw)["pools"]
    return table


def nearest_bot(pool: str, mu: float) -> str | None:
    """The bot level whose rating in ``pool`` is nearest ``mu`` ("you play like an expert-level
    bot"); None if the pool has no rated bots."""
    levels = bot_table().get(pool)
    if not levels:
        return None
    return min(levels, key=lambda level: (abs(levels[level]["mu"] - mu), level))
