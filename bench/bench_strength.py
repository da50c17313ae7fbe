"""The bots' strength in one command: matches, points a round, more time, 3 players.

Every line is a duplicate arena (each deal played from every seat) on the deals of one
batch seed, with 95% intervals (Wilson for win rates, by deal for points a round):

* ``expert`` against ``greedy``: ``marguerite`` matches (first to three games of 600);
* the master against ``expert``: ``marguerite`` matches, and points a round on ``classic``;
* a master with more time (``master:ms=1000``) against the default master, ``classic``;
* 3 players: the master against two ``expert`` s, ``classic`` games;
* a line per preset family (``classic``, ``online``, ``marguerite``, ``yukbaek``):
  ``expert`` against ``greedy``, win rate and points a round;
* the master's decision times (p50, p99) over every decision it made above.

Usage (the full run plays the default master for hours: see bench/RESULTS-bots.md)::

    nice -n 10 .venv/bin/python bench/bench_strength.py --seed 29 --jobs 2
    .venv/bin/python bench/bench_strength.py --seed 29 --ray auto   # on a Ray cluster (docs/RAY.md)
    .venv/bin/python bench/bench_strength.py --quick      # a smoke test, seconds

``--master master:iters=600`` (and ``--strong master:iters=2600``) make every figure but
the times reproducible on any machine; the default budget is a time budget.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from dataclasses import dataclass
from typing import Any

from roppyakken.ai.arena import ArenaTotals, elapsed_text, run_arena, summary
from roppyakken.ai.ray_backend import document_stdout
from roppyakken.ai.stats import percentile
from roppyakken.rules import preset

FAMILIES = ("classic", "online", "marguerite", "yukbaek")
"""One preset per family of rules, for the per-variant lines."""


@dataclass(frozen=True, slots=True)
class Line:
    """One measure of the table: ``bots[0]`` is the bot measured, the rest its opponents."""

    label: str
    rules: str
    bots: tuple[str, ...]
    games: int
    target: str
    kind: str
    """``win``: the win rate is the measure (``goal`` a proportion, met when at least that
    and, if ``strict``, the whole interval above it); ``ppr``: points a round (``goal`` in
    points, and the interval must be above zero)."""
    goal: float
    strict: bool = False


def plan(args: argparse.Namespace) -> list[Line]:
    """The lines to measure, with the sizes of ``args``."""
    m, s = args.master, args.strong
    lines = [
        Line(
            "expert vs greedy",
            "marguerite",
            ("expert", "greedy"),
            args.matches,
            ">= 65% of matches",
            "win",
            0.65,
        ),
        Line(
            f"{m} vs expert",
            "marguerite",
            (m, "expert"),
            args.master_matches,
            ">= 65% of matches",
            "win",
            0.65,
        ),
        Line(
            f"{m} vs expert", "classic", (m, "expert"), args.classic_games, ">= +25 a round, > 0", "ppr", 25.0
        ),
        Line(f"{s} vs {m}", "classic", (s, m), args.time_games, "> 50% (interval)", "win", 0.5, True),
        Line(
            f"{m} vs 2 x expert",
            "classic",
            (m, "expert", "expert"),
            args.games3,
            ">= 40% of games",
            "win",
            0.40,
        ),
    ]
    for family in FAMILIES:
        lines.append(
            Line("expert vs greedy", family, ("expert", "greedy"), args.family_games, "", "ppr", 0.0)
        )
    return lines


def measure(line: Line, seed: int, jobs: int, ray: str | None = None) -> tuple[dict[str, Any], ArenaTotals]:
    """Play one line; its arena document (FORMATS.md §5) and totals."""
    n = len(line.bots)
    deals = max(1, -(-line.games // n))

    def progress(totals: ArenaTotals) -> None:
        print(f"\r{line.label} ({line.rules}): {totals.games} games   ", end="", file=sys.stderr, flush=True)

    workers = jobs if ray is None else 1  # the cluster's CPUs take the place of --jobs
    totals = run_arena(preset(line.rules), list(line.bots), deals, seed, workers, progress, ray=ray)
    print(file=sys.stderr)
    return summary(totals, line.rules), totals


def verdict(line: Line, doc: dict[str, Any]) -> str:
    """``yes``/``no`` for a line with a target, ``""`` otherwise."""
    if not line.target:
        return ""
    if line.kind == "ppr":
        lo = doc["points_per_round_ci95"][0][0]
        ok = doc["points_per_round"][0] >= line.goal and lo is not None and lo > 0
    else:
        ok = doc["win_rate"][0] >= line.goal and (not line.strict or doc["ci95"][0][0] > line.goal)
    return "yes" if ok else "no"


def main(argv: list[str] | None = None) -> int:
    """Run the measures; print the report as Markdown."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--master", default="master", help="the master measured (master)")
    parser.add_argument(
        "--strong", default="master:ms=1000", help="the master with more time (master:ms=1000)"
    )
    parser.add_argument(
        "--matches", type=int, default=1000, help="expert vs greedy marguerite matches (1000)"
    )
    parser.add_argument(
        "--master-matches", type=int, default=100, help="master vs expert marguerite matches (100)"
    )
    parser.add_argument("--classic-games", type=int, default=400, help="master vs expert classic games (400)")
    parser.add_argument("--time-games", type=int, default=200, help="strong vs default master games (200)")
    parser.add_argument("--games3", type=int, default=300, help="3-player games (300)")
    parser.add_argument(
        "--family-games", type=int, default=1000, help="expert vs greedy games per preset (1000)"
    )
    parser.add_argument("--seed", type=int, default=29, help="batch seed (29)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument(
        "--ray",
        nargs="?",
        const="auto",
        metavar="ADDRESS",
        help="play every deal on this Ray cluster (auto: the one this machine joined) instead of --jobs",
    )
    parser.add_argument(
        "--quick", action="store_true", help="tiny sizes and a 4-rollout master: a smoke test"
    )
    parser.add_argument("--out", help="also write the Markdown report to this file")
    parser.add_argument("--json", help="also write every arena document as JSON to this file")
    args = parser.parse_args(argv)
    if args.quick:
        args.master, args.strong = "master:iters=4", "master:iters=8"
        args.matches = args.family_games = 4
        args.master_matches = args.classic_games = args.time_games = 2
        args.games3 = 3
        args.jobs = 1
    start = time.monotonic()
    results = []
    done: dict[tuple[str, tuple[str, ...], int], tuple[dict[str, Any], ArenaTotals]] = {}
    with document_stdout(args.ray):  # Ray's own messages go to stderr, not into the report
        for line in plan(args):
            key = (line.rules, line.bots, line.games)
            if key not in done:  # the same arena twice (a target and its family line) is played once
                done[key] = measure(line, args.seed, args.jobs, args.ray)
            results.append((line, *done[key]))
    spent = time.monotonic() - start
    report = render(results, args, spent, " ".join(sys.argv[1:] if argv is None else argv))
    print(report)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(report)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump([{"label": line.label, **doc} for line, doc, _ in results], f, indent=1)
    return 0


def render(
    results: list[tuple[Line, dict[str, Any], ArenaTotals]],
    args: argparse.Namespace,
    spent: float,
    command: str,
) -> str:
    """The report as Markdown tables."""
    out = [
        f"Measured with `bench/bench_strength.py {command}`".rstrip() + f" ({elapsed_text(spent)}, "
        f"Python {platform.python_version()}, {platform.machine()}); seed {args.seed}, duplicate deals, "
        "95% intervals.",
        "",
        "### Targets",
        "",
        "| match | rules | players | games | win rate | 95% interval | points a round | 95% interval "
        "| target | met |",
        "| --- | --- | ---: | ---: | ---: | --- | ---: | --- | --- | --- |",
    ]
    family_rows = ["", "### Every family of presets (expert vs greedy, 2 players)", ""]
    family_rows += [
        "| rules | games | rounds a game | win rate | 95% interval | points a round | 95% interval |",
        "| --- | ---: | ---: | ---: | --- | ---: | --- |",
    ]
    master_ms: list[float] = []
    for line, doc, totals in results:
        lo, hi = doc["ci95"][0]
        plo, phi = doc["points_per_round_ci95"][0]
        ppr = f"{doc['points_per_round'][0]:+.1f}"
        pci = f"{_pts(plo, '-inf')} .. {_pts(phi, '+inf')}"
        win = f"{doc['win_rate'][0]:.1%}"
        wci = f"{lo:.1%} .. {hi:.1%}"
        if line.target:
            out.append(
                f"| {line.label} | {line.rules} | {len(line.bots)} | {doc['games']} | {win} | {wci} | "
                f"{ppr} | {pci} | {line.target} | {verdict(line, doc)} |"
            )
        else:
            rounds = doc["rounds"] / doc["games"] if doc["games"] else 0.0
            family_rows.append(
                f"| {line.rules} | {doc['games']} | {rounds:.1f} | {win} | {wci} | {ppr} | {pci} |"
            )
        if args.master in totals.times and line.target:
            master_ms.extend(v * 1000.0 for v in totals.times[args.master])
    out += family_rows
    if master_ms:
        p50, p99 = percentile(master_ms, 50), percentile(master_ms, 99)
        ok = "yes" if p50 <= 250 and p99 <= 1000 else "no"
        out += [
            "",
            f"Decision times of `{args.master}` over {len(master_ms)} decisions: p50 {p50:.0f} ms, "
            f"p99 {p99:.0f} ms (targets 250 ms and 1,000 ms at the default budget: {ok}).",
        ]
    return "\n".join(out) + "\n"


def _pts(value: float | None, infinite: str) -> str:
    return infinite if value is None else f"{value:+.1f}"


if __name__ == "__main__":
    sys.exit(main())
