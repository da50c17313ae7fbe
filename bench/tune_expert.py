"""Try bot variants against a fixed opponent on the same deals.

Each variant is ``name=field:value,field:value`` over :class:`roppyakken.ai.expert.Weights`
(``base`` is the shipped expert), or ``name=@LEVEL`` for any bot level string (for
example ``m600=@master:iters=600``).  Every variant plays the same duplicate
deals of the batch seed against ``--against``; the report gives the win rate and the
points a round with their 95% intervals, and each variant's paired difference with the
first on the same deals, so variants can be compared on identical deals::

    nice -n 10 .venv/bin/python bench/tune_expert.py --rules marguerite --games 1000 \\
        --seed 29 base= deny=deny:0.6 future=future:0.5
    nice -n 10 .venv/bin/python bench/tune_expert.py --rules classic --against expert \\
        --games 400 --seed 29 --jobs 2 m=@master:iters=150 uniform=@master:iters=150:infer=0

The variants are registered as bot levels in this process only (worker processes
started by ``--jobs`` inherit them by fork).
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
import time
from typing import Any

from roppyakken.ai.arena import run_arena, summary
from roppyakken.ai.base import BOT_LEVELS
from roppyakken.ai.expert import DEFAULT_WEIGHTS, ExpertBot, Weights
from roppyakken.ai.stats import Z95
from roppyakken.rules import preset


def parse_variant(spec: str) -> tuple[str, Weights]:
    """``name=field:value,...`` -> (name, weights); ``name=`` is the shipped weights."""
    name, _, body = spec.partition("=")
    changes: dict[str, Any] = {}
    for part in filter(None, body.split(",")):
        key, _, text = part.partition(":")
        field = {f.name: f for f in dataclasses.fields(Weights) if f.init}.get(key)
        if field is None:
            raise SystemExit(f"unknown weight {key!r}")
        changes[key] = int(text) if field.type in (int, "int") else float(text)
    return name, dataclasses.replace(DEFAULT_WEIGHTS, **changes)


def register(name: str, weights: Weights) -> str:
    """Register a bot level ``x-<name>`` playing the expert with ``weights``."""
    level = f"x-{name}"

    def factory(seed: int = 0) -> ExpertBot:
        return ExpertBot(seed, weights)

    BOT_LEVELS[level] = (factory, f"expert variant {name}")
    return level


def main(argv: list[str] | None = None) -> int:
    """Run every variant; print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("variants", nargs="+")
    parser.add_argument("--rules", default="marguerite")
    parser.add_argument("--against", default="greedy")
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=29)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    rules = preset(args.rules)
    first: list[tuple[float, int]] = []
    for spec in args.variants:
        name, _, body = spec.partition("=")
        if body.startswith("@"):
            level = body[1:]
        else:
            name, weights = parse_variant(spec)
            level = register(name, weights)
        start = time.monotonic()
        totals = run_arena(rules, [level, args.against], -(-args.games // 2), args.seed, args.jobs)
        doc = summary(totals, args.rules)
        lo, hi = doc["ci95"][0]
        plo, phi = doc["points_per_round_ci95"][0]
        print(
            f"{name:24s} {doc['win_rate'][0]:.1%} ({lo:.1%}..{hi:.1%})  "
            f"ppr {doc['points_per_round'][0]:+.1f} ({plo}..{phi})  "
            f"{doc['games']} games {time.monotonic() - start:.0f}s",
            flush=True,
        )
        deals = [(d.margins[0] / max(1, d.rounds), d.wins[0]) for d in totals.per_deal]
        if not first:
            first = deals
            continue
        print(
            f"{'':24s} paired with {args.variants[0].partition('=')[0]}: {paired(deals, first)}", flush=True
        )
    return 0


def paired(deals: list[tuple[float, int]], base: list[tuple[float, int]]) -> str:
    """Differences with the first variant on the same deals: points a round and wins, 95% intervals."""
    n = len(deals)
    out = []
    for k, unit, scale in ((0, "a round", 1.0), (1, "win rate", 0.5)):
        diffs = [(a[k] - b[k]) * scale for a, b in zip(deals, base, strict=True)]
        mean = sum(diffs) / n
        se = math.sqrt(sum((d - mean) ** 2 for d in diffs) / max(1, n - 1) / n)
        if k:
            out.append(f"{unit} {mean:+.1%} ({mean - Z95 * se:+.1%}..{mean + Z95 * se:+.1%})")
        else:
            out.append(f"{unit} {mean:+.1f} ({mean - Z95 * se:+.1f}..{mean + Z95 * se:+.1f})")
    return ", ".join(out)


if __name__ == "__main__":
    sys.exit(main())
