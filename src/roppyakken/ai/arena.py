"""Duplicate matches between bots, measured (FORMATS.md §5).

Every deal (a game seed: it fixes the first-dealer draw and every deck) is played once
per seat rotation of the bots, so each bot plays each deal from each seat and the luck
of the deal cancels out: with 2 bots a deal is played twice (seats swapped), with 3
bots three times (the three cyclic seatings).  Deal seeds come from the batch seed
(:func:`roppyakken.ai.driver.game_seeds`) and each bot's seed from the deal seed and the
bot's place in the list, so a run is reproducible and ``jobs`` (worker processes over
deals) changes nothing but the speed — except decision times, and the moves of bots
with a time budget (``master:ms=…``), which depend on the machine.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Final

from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import game_seeds, play_out
from roppyakken.ai.stats import percentile, ratio_interval, wilson
from roppyakken.engine import Game
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import N_, fill, nfill
from roppyakken.rules import Rules
from roppyakken.scoring import RoundScore


def rotations(count: int) -> list[list[int]]:
    """The cyclic seatings of ``count`` bots: ``seating[seat]`` is the bot's index in the list."""
    return [[(seat + shift) % count for seat in range(count)] for shift in range(count)]


@dataclass(slots=True)
class DealResult:
    """What one deal, played in every seating, gave each bot (indexed by place in the list)."""

    wins: list[int]
    draws: int
    points: list[int]
    times: list[list[float]]
    rounds: int
    margins: list[float] = field(default_factory=list)
    """Each bot's round-score margin over the mean of the others, summed over every round."""


@dataclass(slots=True)
class ArenaTotals:
    """Running totals of an arena over deals (in deal order)."""

    bots: list[str]
    games: int = 0
    deals: int = 0
    rounds: int = 0
    draws: int = 0
    wins: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    times: dict[str, list[float]] = field(default_factory=dict)
    per_deal: list[DealResult] = field(default_factory=list)

    def __post_init__(self) -> None:
        n = len(self.bots)
        self.wins = [0] * n
        self.points = [0] * n
        self.times = {b: [] for b in self.bots}

    def add(self, deal: DealResult) -> None:
        """Add one deal's results."""
        n = len(self.bots)
        self.deals += 1
        self.games += n
        self.rounds += deal.rounds
        self.draws += deal.draws
        for i in range(n):
            self.wins[i] += deal.wins[i]
            self.points[i] += deal.points[i]
            self.times[self.bots[i]].extend(deal.times[i])
        self.per_deal.append(deal)


def play_deal(rules: Rules, levels: Sequence[str], seed: int) -> DealResult:
    """Play deal ``seed`` once per seating of ``levels``; what each bot won, scored and took to decide."""
    n = len(levels)
    wins = [0] * n
    points = [0] * n
    margins = [0.0] * n
    times: list[list[float]] = [[] for _ in range(n)]
    draws = 0
    rounds = 0
    for seating in rotations(n):
        bots = [make_bot(levels[i], seed * 7 + i) for i in seating]
        timings: list[list[float]] = [[] for _ in range(n)]
        game = play_out(Game(rules, n, seed), bots, timings)
        for seat, i in enumerate(seating):
            times[i].extend(timings[seat])
            points[i] += sum(log.score.players[seat].final for log in game.history if log.score is not None)
            margins[i] += sum(round_margin(log.score, seat) for log in game.history if log.score is not None)
        rounds += len(game.history)
        if game.winner is None:
            draws += 1
        else:
            wins[seating[game.winner]] += 1
    return DealResult(wins, draws, points, times, rounds, margins)


def round_margin(score: RoundScore, seat: int) -> float:
    """What a round added to ``seat``'s total, less the mean of what it added to the others'."""
    finals = [p.final for p in score.players]
    others = (sum(finals) - finals[seat]) / (len(finals) - 1)
    return finals[seat] - others


def play_deals(rules: Rules, levels: Sequence[str], seeds: Sequence[int]) -> list[DealResult]:
    """:func:`play_deal` for each of ``seeds``, in order (one task of a distributed arena)."""
    return [play_deal(rules, levels, s) for s in seeds]


def _play_chunk(args: tuple[Rules, list[str], list[int]]) -> list[DealResult]:
    return play_deals(*args)


def chunk_size(deals: int, workers: int) -> int:
    """Deals a task: about four tasks a worker (for balance), at most 8 deals (for progress)."""
    return max(1, min(8, deals // (workers * 4) or 1))


def chunked(seeds: Sequence[int], size: int) -> list[list[int]]:
    """``seeds`` in consecutive chunks of ``size``."""
    return [list(seeds[i : i + size]) for i in range(0, len(seeds), size)]


def run_arena(
    rules: Rules,
    levels: Sequence[str],
    deals: int,
    seed: int = 0,
    jobs: int = 1,
    progress: Callable[[ArenaTotals], None] | None = None,
    ray: str | None = None,
) -> ArenaTotals:
    """Play ``deals`` duplicate deals between ``levels`` (one per seat) and total them.

    ``jobs`` > 1 spreads the deals over worker processes, ``ray`` (a cluster address,
    or ``auto``) over the nodes of a Ray cluster instead; totals are added in deal
    order, so the result is the same as with one job.  ``progress`` is called after
    each batch of deals with the totals so far.
    """
    levels = list(levels)
    if len(levels) not in (2, 3):
        raise RoppyakkenError(N_("an arena is for 2 or 3 bots, not {n}"), n=len(levels))
    rules.check_players(len(levels))
    for level in levels:
        make_bot(level)  # refuse unknown levels and bad options before playing
    if deals < 1:
        raise RoppyakkenError(N_("an arena needs at least one deal"))
    if jobs < 1:
        raise RoppyakkenError(N_("--jobs must be at least 1"))
    if ray is not None and jobs != 1:
        raise RoppyakkenError(
            N_("--jobs and --ray do not go together: --ray spreads the deals over the cluster")
        )
    seeds = game_seeds(seed, deals)
    totals = ArenaTotals(levels)
    if ray is not None:
        from roppyakken.ai.ray_backend import cluster_cpus, ordered_map

        chunks = chunked(seeds, chunk_size(deals, cluster_cpus(ray)))
        for results in ordered_map(ray, play_deals, (rules, levels), chunks):
            for r in results:
                totals.add(r)
            if progress is not None:
                progress(totals)
        return totals
    if jobs == 1:
        for s in seeds:
            totals.add(play_deal(rules, levels, s))
            if progress is not None:
                progress(totals)
        return totals
    chunks = chunked(seeds, chunk_size(deals, jobs))
    methods = multiprocessing.get_all_start_methods()
    ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=ctx) as pool:
        for results in pool.map(_play_chunk, [(rules, levels, c) for c in chunks]):
            for r in results:
                totals.add(r)
            if progress is not None:
                progress(totals)
    return totals


def summary(totals: ArenaTotals, rules_name: str) -> dict[str, Any]:
    """The FORMATS.md §5 document of an arena (plus ``deals``, ``rounds`` and more timing)."""
    games = totals.games
    n = len(totals.bots)
    cis = [wilson(w, games) for w in totals.wins]
    rounds = [float(d.rounds) for d in totals.per_deal]
    per_round = [ratio_interval([d.margins[i] for d in totals.per_deal], rounds) for i in range(n)]
    decision: dict[str, dict[str, float]] = {}
    for bot, values in totals.times.items():
        ms = [v * 1000.0 for v in values]
        decision[bot] = {
            "p50": round(percentile(ms, 50), 3),
            "p99": round(percentile(ms, 99), 3),
            "mean": round(sum(ms) / len(ms), 3) if ms else 0.0,
            "max": round(max(ms), 3) if ms else 0.0,
            "decisions": len(ms),
        }
    return {
        "bots": list(totals.bots),
        "games": games,
        "players": n,
        "rules": rules_name,
        "wins": list(totals.wins),
        "draws": totals.draws,
        "win_rate": [round(w / games, 4) if games else 0.0 for w in totals.wins],
        "ci95": [[round(lo, 4), round(hi, 4)] for lo, hi in cis],
        "mean_points_per_game": [round(p / games, 1) if games else 0.0 for p in totals.points],
        "points_per_round": [round(mean, 1) for mean, _, _ in per_round],
        "points_per_round_ci95": [[_finite(lo), _finite(hi)] for _, lo, hi in per_round],
        "decision_ms": decision,
        "deals": totals.deals,
        "rounds": totals.rounds,
    }


def _finite(value: float) -> float | None:
    """``value`` rounded for JSON, or ``None`` for an infinite bound (too few deals)."""
    return round(value, 1) if abs(value) != float("inf") else None


def elapsed_text(seconds: float) -> str:
    """``'1h02m'``, ``'3m05s'`` or ``'12s'``."""
    s = int(seconds)
    if s >= 3600:
        return f"{s // 3600}h{s % 3600 // 60:02d}m"
    if s >= 60:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s}s"


PROGRESS: Final = N_("{games}, {elapsed} elapsed, about {left} left")
"""The progress line, in the current language (``--lang``)."""


class Progress:
    """A one-line progress report on a stream (games done, elapsed, estimated time left)."""

    def __init__(self, total_games: int, write: Callable[[str], None], label: str = "") -> None:
        self.total = total_games
        self.write = write
        self.label = label
        self.start = time.monotonic()
        self.last = 0.0

    def __call__(self, totals: ArenaTotals) -> None:
        """Report, at most twice a second, and always at the end."""
        now = time.monotonic()
        done = totals.games
        if done < self.total and now - self.last < 0.5:
            return
        self.last = now
        spent = now - self.start
        left = spent / done * (self.total - done) if done else 0.0
        prefix = f"{self.label}: " if self.label else ""
        line = fill(
            PROGRESS,
            games=nfill("{done}/{n} game", "{done}/{n} games", self.total, done=done),
            elapsed=elapsed_text(spent),
            left=elapsed_text(left),
        )
        self.write(f"\r{prefix}{line} ")
