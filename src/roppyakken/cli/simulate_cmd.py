"""``roppyakken simulate``: a batch of bot games (FORMATS.md §4)."""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import game_seeds, play_out
from roppyakken.ai.ray_backend import cluster_cpus, document_stdout, ordered_map
from roppyakken.cli.common import (
    add_rules_arguments,
    add_worker_arguments,
    check_players,
    print_json,
    rules_from_args,
    seed_argument,
)
from roppyakken.engine import Game
from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import N_, Plural, _, decimal, fill, nfill, os_reason, pad
from roppyakken.record import dumps, record_of
from roppyakken.rules import Rules
from roppyakken.text import bot_label, preset_label, yaku_name
from roppyakken.yaku import LUCKY_HAND_SLUGS


def register(sub: Any, help_text: str) -> None:
    """Add the ``simulate`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    p = sub.add_parser(
        "simulate",
        help=help_text,
        description=_("Play N seeded games between bots (FORMATS.md §4)."),
    )
    p.add_argument("--games", type=int, default=100, metavar="N", help=_("number of games (100)"))
    p.add_argument("--players", type=int, default=2, choices=(2, 3), help=_("2 or 3 (2)"))
    add_rules_arguments(p)
    p.add_argument("--seed", type=seed_argument, default=0, help=_("batch seed (0)"))
    p.add_argument(
        "--bots", default=None, help=_("bot levels, comma-separated, one per seat (one level: every seat)")
    )
    p.add_argument("--records", metavar="DIR", help=_("write one game record per game into DIR"))
    add_worker_arguments(p)
    p.add_argument("--json", action="store_true", help=_("print the FORMATS.md §4 document"))
    p.set_defaults(run=run)


def _records_dir(records: Path) -> None:
    """Make the records directory, or refuse it in one line (a file, no permission...)."""
    if records.exists() and not records.is_dir():
        raise RoppyakkenError(N_("--records: {path} exists and is not a directory"), path=records)
    try:
        records.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise RoppyakkenError(
            N_("--records: cannot make the directory {path}: {error}"), path=records, error=os_reason(exc)
        ) from None


@dataclass(slots=True)
class GameSummary:
    """What one game of a batch adds to the summary (and its record, when asked for)."""

    winner: int | None
    rounds: int
    score_sums: list[int]
    yaku: Counter[str]
    lucky_hands: Counter[str]
    seconds: float
    record: str | None


def play_games(rules: Rules, levels: Sequence[str], records: bool, seeds: Sequence[int]) -> list[GameSummary]:
    """Play one game per seed between ``levels`` (seat order); their summaries, in order.

    A game is a pure function of its seed, so a batch split into chunks (Ray tasks, with
    ``--ray``) sums to the same summary as one played here.
    """
    out = []
    for seed in seeds:
        bots = [make_bot(level, seed + seat) for seat, level in enumerate(levels)]
        start = time.perf_counter()
        game = play_out(Game(rules, len(levels), seed, events=False), bots)  # records, no events
        seconds = time.perf_counter() - start
        rounds = 0
        score_sums = [0] * len(levels)
        yaku: Counter[str] = Counter()
        lucky: Counter[str] = Counter()
        for log in game.history:
            if log.score is None:
                continue
            rounds += 1
            for seat, p in enumerate(log.score.players):
                score_sums[seat] += p.round_score
                yaku.update(slug for slug, _ in p.yaku)
                lucky.update(slug for slug, _ in p.lucky_hands)
        record = dumps(record_of(game, [f"bot:{lv}" for lv in levels])) if records else None
        out.append(GameSummary(game.winner, rounds, score_sums, yaku, lucky, seconds, record))
    return out


def _play_chunk(args: tuple[Rules, list[str], bool, list[int]]) -> list[GameSummary]:
    return play_games(*args)


def chunk_size(games: int, workers: int) -> int:
    """Games a task: about four tasks a worker (for balance), at most 64 games."""
    return max(1, min(64, games // (workers * 4)))


def played(
    rules: Rules, levels: list[str], records: bool, seeds: Sequence[int], jobs: int, ray: str | None
) -> Iterator[list[GameSummary]]:
    """The summaries of the games of ``seeds``, in order, a chunk at a time: played here, by
    ``jobs`` worker processes, or by the Ray cluster at ``ray``."""
    if ray is not None:
        size = chunk_size(len(seeds), cluster_cpus(ray))
        chunks = [list(seeds[i : i + size]) for i in range(0, len(seeds), size)]
        yield from ordered_map(ray, play_games, (rules, levels, records), chunks)
    elif jobs == 1:
        for seed in seeds:
            yield play_games(rules, levels, records, [seed])
    else:
        size = chunk_size(len(seeds), jobs)
        tasks = [(rules, levels, records, list(seeds[i : i + size])) for i in range(0, len(seeds), size)]
        methods = multiprocessing.get_all_start_methods()
        ctx = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
        pool = ProcessPoolExecutor(max_workers=jobs, mp_context=ctx)
        try:
            yield from pool.map(_play_chunk, tasks)
        finally:  # a run stopped early (an error, ^C) does not wait for the games queued
            pool.shutdown(cancel_futures=True)


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken simulate``."""
    rules = rules_from_args(args)
    check_players(args, rules, args.players)
    if args.games < 1:
        raise RoppyakkenError(N_("--games must be at least 1"))
    if args.jobs < 1:
        raise RoppyakkenError(N_("--jobs must be at least 1"))
    if args.ray is not None and args.jobs != 1:
        raise RoppyakkenError(
            N_("--jobs and --ray do not go together: --ray spreads the deals over the cluster")
        )
    levels = [s.strip() for s in (args.bots or "random").split(",")]
    if len(levels) == 1:
        levels *= args.players  # one level plays every seat, as `play` takes one for every opponent
    if len(levels) != args.players:
        raise RoppyakkenError(
            N_("--bots names {bots} for {players}"),
            bots=Plural("{n} bot", "{n} bots", len(levels)),
            players=Plural("{n} player", "{n} players", args.players),
        )
    for level in levels:
        make_bot(level)  # refuse an unknown level before playing anything
    records = Path(args.records) if args.records else None
    if records is not None:
        _records_dir(records)
    wins = [0] * args.players
    rounds = 0
    score_sums = [0] * args.players
    yaku_counts: Counter[str] = Counter()
    lucky_counts: Counter[str] = Counter()
    seconds = 0.0  # FORMATS.md §4: the wall time of play alone (no start-up, no record writing)
    writing = 0.0
    parallel = args.ray is not None or args.jobs > 1
    progress = (not args.json and sys.stderr.isatty()) or (args.games >= 1000 and not args.json)
    seeds = game_seeds(args.seed, args.games)
    index = 0
    with document_stdout(args.ray):  # Ray's own messages go to stderr, not into the document
        began = time.perf_counter()
        for batch in played(rules, levels, records is not None, seeds, args.jobs, args.ray):
            if parallel and index == 0:  # the workers' start-up is not play
                began = time.perf_counter() - sum(summary.seconds for summary in batch)
            for summary in batch:
                if not parallel:
                    seconds += summary.seconds
                if summary.winner is not None:
                    wins[summary.winner] += 1
                rounds += summary.rounds
                for seat in range(args.players):
                    score_sums[seat] += summary.score_sums[seat]
                yaku_counts.update(summary.yaku)
                lucky_counts.update(summary.lucky_hands)
                if records is not None and summary.record is not None:
                    path = records / f"game-{index:06d}.json"
                    wrote = time.perf_counter()
                    try:
                        path.write_text(summary.record, encoding="utf-8")
                    except OSError as exc:
                        raise RoppyakkenError(
                            N_("--records: cannot write {path}: {error}"), path=path, error=os_reason(exc)
                        ) from None
                    writing += time.perf_counter() - wrote
                index += 1
                if progress and index % max(1, args.games // 20) == 0:
                    done = nfill("{done}/{n} game", "{done}/{n} games", args.games, done=index)
                    print(f"\r{done}", end="", file=sys.stderr, flush=True)
        if parallel:  # the workers play side by side: the wall time from the first game's start
            seconds = time.perf_counter() - began - writing
    if progress:
        print(file=sys.stderr)
    player_rounds = max(1, rounds * args.players)
    result = {
        "games": args.games,
        "rounds": rounds,
        "seconds": round(seconds, 3),
        "rounds_per_second": round(rounds / seconds, 1) if seconds else 0.0,
        "bots": levels,
        "wins": wins,
        "mean_round_score": [round(s / max(1, rounds), 1) for s in score_sums],
        "yaku_frequency": {slug: round(yaku_counts[slug] / player_rounds, 4) for slug in rules.yaku},
        "lucky_hand_frequency": {
            slug: round(lucky_counts[slug] / player_rounds, 4)
            for slug in LUCKY_HAND_SLUGS
            if slug in rules.lucky_hands
        },
    }
    if args.json:
        print_json(result)
        return 0
    print(
        fill(
            "{games}, {rounds}, {preset} rules, {players}",
            games=nfill("{n} game", "{n} games", args.games),
            rounds=nfill("{n} round", "{n} rounds", rounds),
            preset=preset_label(rules.preset),
            players=nfill("{n} player", "{n} players", args.players),
        )
    )
    elapsed = decimal(format(seconds, ".2f"))
    speed = decimal(str(result["rounds_per_second"]))
    print(fill("played in {seconds} s ({speed} rounds/s)", seconds=elapsed, speed=speed))
    for seat, level in enumerate(levels):
        won, share = format(wins[seat], ">6"), decimal(format(wins[seat] / args.games, "6.1%"))
        line = fill(
            "seat {seat} {level} wins {wins} ({share})  mean round score {mean}",
            seat=seat + 1,
            level=pad(bot_label(level), 10),
            wins=won,
            share=share,
            mean=decimal(str(result["mean_round_score"][seat])),
        )
        print("  " + line)
    print(_("yaku per player-round:"))
    for slug, freq in sorted(result["yaku_frequency"].items(), key=lambda kv: -kv[1]):
        print(f"  {decimal(format(freq, '8.4f'))}  {yaku_name(slug)}")
    if result["lucky_hand_frequency"]:
        print(_("lucky hands per player-round:"))
        for slug, freq in result["lucky_hand_frequency"].items():
            print(f"  {decimal(format(freq, '8.4f'))}  {yaku_name(slug)}")
    if records is not None:
        print(fill("records written to {directory}", directory=records))
    return 0
