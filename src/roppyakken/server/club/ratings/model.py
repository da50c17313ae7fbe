"""The rating model: OpenSkill's Plackett–Luce with its default parameters, one whole finishing order
at a time (ties share a place).

``openskill`` is imported only here, when a rating is updated, so that what shows a
rating (:mod:`.scale`, :mod:`.pools`) needs nothing outside the web extra's core.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

Rating = tuple[float, float]
"""``(mu, sigma)``."""


@cache
def model() -> PlackettLuce:
    """The one model every update uses (default parameters: mu 25, sigma 25/3, beta 25/6, tau 25/300)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def new_rating() -> Rating:
    """A new player's rating."""
    m = model()
    return (m.mu, m.sigma)


def rate(before: list[Rating], places: list[int]) -> list[Rating]:
    """Every player's rating after one game in which player ``i`` (rated ``before[i]``) finished at
    ``places[i]`` (1 first; equal places tie)."""
    m = model()
    teams = [[m.rating(mu=mu, sigma=sigma)] for mu, sigma in before]
    after = m.rate(teams, ranks=[float(p) for p in places])
    return [(team[0].mu, team[0].sigma) for team in after]
