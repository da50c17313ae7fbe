"""Standings kept game by game: the lines :func:`~.tiebreaks.standings` gives, without counting every
game again at each look.

A :class:`Tally` takes the games as they end and the byes as they are given, and keeps each
player's points, Buchholz and Sonneborn–Berger as sums over their table-mates' points now.  When a
player's points change, only the players who met them are touched: Buchholz sums ``n × points``
over the players met ``n`` times, Sonneborn–Berger ``w × points`` with ``w`` the player's weight over
that mate (1 a game finished above them, one half a place shared), so a game costs its few players'
table-mates, not the whole tournament.  Points are multiples of one half and every sum is exact in
floating point, so the lines are equal to :func:`~.tiebreaks.standings`'s (tests/server/club/
test_tournament_tally.py holds them equal over many random tournaments).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from roppyakken.server.club.tournaments.points import StreakCounter, place_points
from roppyakken.server.club.tournaments.records import BYE_POINTS, Entrant, Format, Standing, TableResult
from roppyakken.server.club.tournaments.tiebreaks import ABANDONED_PLACE, ranked


class Tally:
    """A tournament's standings, brought up to date game by game (:meth:`add`, :meth:`set_byes`)."""

    __slots__ = (
        "_arena",
        "_berger",
        "_buchholz",
        "_byes",
        "_counters",
        "_games",
        "_ids",
        "_mates",
        "_over",
        "_points",
        "_results",
        "_wins",
        "last",
    )

    def __init__(self, fmt: Format, players: Iterable[str] = ()) -> None:
        self._arena = fmt == "arena"
        self._results: list[TableResult] = []
        self._byes: dict[str, int] = {}
        self._clear(set(players))

    def _clear(self, players: set[str]) -> None:
        """No game counted, for ``players``."""
        self._ids: set[str] = set()
        self._counters: dict[str, StreakCounter] = {}
        self._points: dict[str, float] = {}
        self._buchholz: dict[str, float] = {}
        self._berger: dict[str, float] = {}
        self._wins: dict[str, int] = {}
        self._games: dict[str, int] = {}
        self._mates: dict[str, dict[str, int]] = {}
        """For each player, the players who met them and how many times."""
        self._over: dict[str, dict[str, float]] = {}
        """For each player, the players with a Sonneborn–Berger weight over them, and that weight."""
        self.last: dict[str, frozenset[str]] = {}
        """Each player's table-mates of their last game (an arena's pairing avoids a rematch)."""
        self.players(players)

    def players(self, players: Iterable[str]) -> None:
        """The players the standings count (a tournament's entrants, withdrawn ones too): games are
        counted for them only, as :func:`~.tiebreaks.standings` counts them."""
        wanted = set(players)
        if wanted == self._ids:
            return
        if self._ids <= wanted and not any(p in self.last for p in wanted - self._ids):
            for player in wanted - self._ids:
                self._counters[player] = StreakCounter()
                self._points[player] = BYE_POINTS * self._byes.get(player, 0) * (not self._arena)
                self._buchholz[player] = self._berger[player] = 0.0
                self._wins[player] = self._games[player] = 0
                self._mates[player], self._over[player] = {}, {}
            self._ids = wanted
            return
        # a player left, or one counted now had played uncounted: count every game again
        results, byes = self._results, self._byes
        self._results, self._byes = [], {}
        self._clear(wanted)
        self.set_byes(byes)
        for result in results:
            self.add(result)

    def set_byes(self, byes: dict[str, int]) -> None:
        """The byes each player has had so far (Swiss and round robins: each is worth
        :data:`~.records.BYE_POINTS`)."""
        if self._arena:
            self._byes = dict(byes)
            return
        for player in self._byes.keys() | byes.keys():
            delta = byes.get(player, 0) - self._byes.get(player, 0)
            if delta and player in self._ids:
                self._credit(player, BYE_POINTS * delta)
        self._byes = dict(byes)

    def add(self, result: TableResult) -> None:
        """Count a game that ended (each player's games in the order they played them)."""
        self._results.append(result)
        players, places, gave_up = result.players, result.places, result.abandoned
        for player in players:
            self.last[player] = frozenset(o for o in players if o != player)
        counted = [i for i, p in enumerate(players) if p in self._ids]
        if not counted:
            return
        if gave_up:
            places = tuple(
                ABANDONED_PLACE if p in gave_up else q for p, q in zip(players, places, strict=True)
            )
        given = place_points(result.places)
        alone_first = result.places.count(1) == 1
        gains = []
        for i in counted:
            pid = players[i]
            kept = pid not in gave_up
            win = kept and alone_first and result.places[i] == 1
            self._games[pid] += 1
            self._wins[pid] += win
            points = given[i] if kept else 0.0
            counter = self._counters[pid]
            gains.append(counter.count(points, win) if self._arena else points)
            # the new meeting counts the mate's points so far; their gain below is passed on
            for j in counted:
                if j == i:
                    continue
                mate = players[j]
                self._mates[mate][pid] = self._mates[mate].get(pid, 0) + 1
                self._buchholz[pid] += self._points[mate]
                weight = 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0.0
                if weight:
                    self._over[mate][pid] = self._over[mate].get(pid, 0.0) + weight
                    self._berger[pid] += weight * self._points[mate]
        for i, gain in zip(counted, gains, strict=True):
            if gain:
                self._credit(players[i], gain)

    def _credit(self, player: str, gain: float) -> None:
        """The player's points rise by ``gain``: so do the tie-breaks of those who met them."""
        self._points[player] += gain
        buchholz, berger = self._buchholz, self._berger
        for mate, times in self._mates[player].items():
            buchholz[mate] += times * gain
        for mate, weight in self._over[player].items():
            berger[mate] += weight * gain

    def points(self, player: str) -> float:
        """The player's points so far (0 for a player not counted)."""
        return self._points.get(player, 0.0)

    def standings(self, entrants: Sequence[Entrant], withdrawn: Iterable[str] = ()) -> list[Standing]:
        """The standings of ``entrants`` (the players counted) as :func:`~.tiebreaks.standings`
        gives them for the same games and byes."""
        self.players(e.player_id for e in entrants)
        counters = self._counters
        return ranked(
            [e.player_id for e in entrants],
            {e.player_id: e.rating for e in entrants},
            self._points,
            self._buchholz,
            self._berger,
            self._wins,
            self._games,
            self._byes,
            {p for p in counters if self._arena and counters[p].on_streak},
            set(withdrawn),
        )
