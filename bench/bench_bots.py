"""Strength and speed of the bot levels, in one command (the figures of bench/RESULTS-bots.md).

Runs, on the ``classic`` rules with duplicate deals:

* the ladder: every pair of ``random``, ``greedy``, ``expert`` and the master, 2 players,
  with Elo-style ratings and 95% intervals (the three head-to-heads of the targets —
  greedy vs random, expert vs greedy, master vs expert — are pairs of the ladder);
* the 3-player figures: each level against two of the level below;
* the master's decision times (p50, p99) over all its decisions.

Usage (about an hour on 2 cores with the default master)::

    .venv/bin/python bench/bench_bots.py --games 400 --games3 300 --seed 1 --jobs 2

The master's default budget is a time budget, so its moves (and strength) depend on the
machine; ``--master master:iters=600`` makes every figure but the times exactly
reproducible.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections.abc import Callable
from typing import Any

from roppyakken.ai.arena import ArenaTotals, elapsed_text, run_arena, summary
from roppyakken.ai.ladder import run_ladder
from roppyakken.rules import preset

TARGETS = (
    ("greedy", "random", 0.90),
    ("expert", "greedy", 0.60),
    ("master", "expert", 0.60),
)


def _progress(label: str, totals: ArenaTotals) -> None:
    print(f"\r{label}: {totals.games} games   ", end="", file=sys.stderr, flush=True)


def _reporter(label: str) -> Callable[[ArenaTotals], None]:
    return lambda totals: _progress(label, totals)


def head_to_head(pairs: list[dict[str, Any]], strong: str, weak: str) -> dict[str, Any]:
    """The arena of ``strong`` against ``weak`` from the ladder, seen from ``strong``."""
    for arena in pairs:
        a, b = arena["bots"]
        if (a, b) == (strong, weak):
            i = 0
        elif (a, b) == (weak, strong):
            i = 1
        else:
            continue
        return {
            "bot": strong,
            "against": weak,
            "games": arena["games"],
            "wins": arena["wins"][i],
            "win_rate": arena["win_rate"][i],
            "ci95": arena["ci95"][i],
            "points_per_game": [arena["mean_points_per_game"][i], arena["mean_points_per_game"][1 - i]],
        }
    raise KeyError(f"{strong} vs {weak}")


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; print the report as Markdown."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=400, help="games per pair of the ladder (400)")
    parser.add_argument("--games3", type=int, default=300, help="games per 3-player match (300)")
    parser.add_argument("--master", default="master", help="the master level string (master)")
    parser.add_argument("--seed", type=int, default=0, help="batch seed (0)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument("--resamples", type=int, default=300, help="bootstrap resamples for the ratings")
    parser.add_argument("--out", help="also write the Markdown report to this file")
    parser.add_argument("--json", help="also write every figure as JSON to this file")
    args = parser.parse_args(argv)
    rules = preset("classic")
    master = args.master
    levels = ["random", "greedy", "expert", master]
    start = time.monotonic()
    ladder = run_ladder(rules, levels, args.games, args.seed, args.jobs, _progress, args.resamples)
    print(file=sys.stderr)
    three: list[dict[str, Any]] = []
    for strong, weak in (("greedy", "random"), ("expert", "greedy"), (master, "expert")):
        bots = [strong, weak, weak]
        deals = -(-args.games3 // 3)
        label = f"{strong} vs 2 x {weak}"
        totals = run_arena(rules, bots, deals, args.seed, args.jobs, _reporter(label))
        print(file=sys.stderr)
        doc = summary(totals, "classic")
        doc["label"] = label
        three.append(doc)
    spent = time.monotonic() - start
    pairs = ladder["pairs"]
    heads = [head_to_head(pairs, master if s == "master" else s, w) for s, w, _ in TARGETS]
    master_times: list[dict[str, Any]] = [a["decision_ms"][master] for a in pairs if master in a["bots"]]
    report = render(ladder, heads, three, master, master_times, args, spent)
    print(report)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(report)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump({"ladder": ladder, "head_to_head": heads, "three_players": three}, f, indent=1)
    return 0


def render(
    ladder: dict[str, Any],
    heads: list[dict[str, Any]],
    three: list[dict[str, Any]],
    master: str,
    master_times: list[dict[str, Any]],
    args: argparse.Namespace,
    spent: float,
) -> str:
    """The report as Markdown tables."""
    lines = [
        f"Measured with `bench/bench_bots.py --games {args.games} --games3 {args.games3} "
        f"--master {master} --seed {args.seed} --jobs {args.jobs}` "
        f"({elapsed_text(spent)}, Python {platform.python_version()}, {platform.machine()}).",
        "",
        "### Ladder (classic, 2 players, duplicate deals)",
        "",
        "| level | rating | 95% CI |",
        "| --- | ---: | --- |",
    ]
    for r in sorted(ladder["ratings"], key=lambda r: -r["rating"]):
        lo, hi = r["ci95"]
        lines.append(f"| {r['level']} | {r['rating']:.0f} | {lo:.0f} .. {hi:.0f} |")
    lines += [
        "",
        f"{ladder['games_per_pair']} games per pair; the first level (random) is rated 0; "
        "400 rating points are 10 to 1 odds.",
        "",
        "### Head-to-head targets (classic, 2 players)",
        "",
        "| match | games | win rate | 95% CI | points per game | target | met |",
        "| --- | ---: | ---: | --- | --- | ---: | --- |",
    ]
    for h, (_, _, goal) in zip(heads, TARGETS, strict=True):
        lo, hi = h["ci95"]
        pts = f"{h['points_per_game'][0]:.0f} vs {h['points_per_game'][1]:.0f}"
        met = "yes" if h["win_rate"] >= goal else "no"
        lines.append(
            f"| {h['bot']} vs {h['against']} | {h['games']} | {h['win_rate']:.1%} | "
            f"{lo:.1%} .. {hi:.1%} | {pts} | {goal:.0%} | {met} |"
        )
    lines += ["", "All pairs of the ladder (first bot's wins):", ""]
    for a in ladder["pairs"]:
        lo, hi = a["ci95"][0]
        lines.append(
            f"- {a['bots'][0]} vs {a['bots'][1]}: {a['wins'][0]}/{a['games']} = "
            f"{a['win_rate'][0]:.1%} ({lo:.1%} .. {hi:.1%})"
        )
    lines += [
        "",
        "### Three players (one bot against two of the level below)",
        "",
        "| match | games | strong bot wins | 95% CI | even share | points per game |",
        "| --- | ---: | ---: | --- | ---: | --- |",
    ]
    for doc in three:
        lo, hi = doc["ci95"][0]
        pts = " / ".join(f"{p:.0f}" for p in doc["mean_points_per_game"])
        lines.append(
            f"| {doc['label']} | {doc['games']} | {doc['win_rate'][0]:.1%} | {lo:.1%} .. {hi:.1%} | "
            f"33.3% | {pts} |"
        )
    lines += [
        "",
        "### Decision times (ms)",
        "",
        "| bot | match | p50 | p99 | max | decisions |",
        "| --- | --- | ---: | ---: | ---: | ---: |",
    ]
    for a in ladder["pairs"]:
        for bot, t in a["decision_ms"].items():
            lines.append(
                f"| {bot} | {a['bots'][0]} vs {a['bots'][1]} | {t['p50']:.3f} | {t['p99']:.3f} | "
                f"{t['max']:.1f} | {t['decisions']} |"
            )
    if master_times:
        worst50 = max(t["p50"] for t in master_times)
        worst99 = max(t["p99"] for t in master_times)
        lines += [
            "",
            f"Master ({master}): p50 at most {worst50:.0f} ms and p99 at most {worst99:.0f} ms "
            "over its matches (targets: 250 ms and 1000 ms).",
        ]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
