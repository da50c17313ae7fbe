"""How many uniform worlds contradict what the deal showed (why the sampler checks the deal).

:func:`roppyakken.infoset.sample_world` keeps only worlds whose deal agrees with what
the seat saw of it (:func:`~roppyakken.infoset.deal_consistent`: no redeal called, the
lucky hands declared).  This plays seeded ``expert`` games and, at seat 0's card-play
decisions, draws plain uniform splits of the unseen cards and counts those the check
rules out: the share of impossible worlds a sampler that ignored the deal would search::

    .venv/bin/python bench/bench_deal.py --rules marguerite,classic --players 2,3 --games 30
"""

from __future__ import annotations

import argparse
import random
import sys

from roppyakken.actions import PLAY, TAKE
from roppyakken.ai.base import make_bot
from roppyakken.engine import Game
from roppyakken.infoset import _draw_world, deal_consistent
from roppyakken.rules import preset
from roppyakken.view import view_of


def impossible_share(
    rules_name: str, players: int, games: int, draws: int, seed: int
) -> tuple[int, float, int]:
    """Seat 0's decisions, the share of uniform draws the deal rules out, and the most
    ruled out at one decision (of ``draws``)."""
    rules = preset(rules_name)
    rng = random.Random(seed)
    decisions = ruled_out = worst = 0
    for g in range(games):
        game = Game(rules, players, seed=seed * 1000 + g)
        bots = [make_bot("expert", g * 10 + s) for s in range(players)]
        while not game.over:
            view = view_of(game, game.to_act)
            if game.to_act == 0 and game.phase in (PLAY, TAKE) and view.record is not None:
                decisions += 1
                here = sum(not deal_consistent(view, _draw_world(view, rng)) for _ in range(draws))
                ruled_out += here
                worst = max(worst, here)
            game.apply(bots[game.to_act].choose(view))
    return decisions, ruled_out / max(1, decisions * draws), worst


def main(argv: list[str] | None = None) -> int:
    """Print, per preset and player count, the share of uniform worlds the deal rules out."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="marguerite,classic", help="presets, comma-separated")
    parser.add_argument("--players", default="2,3", help="player counts, comma-separated")
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--draws", type=int, default=100, help="uniform draws a decision (100)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    print("| rules | players | decisions | uniform worlds the deal rules out | most at one decision |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name in args.rules.split(","):
        for players in (int(p) for p in args.players.split(",")):
            decisions, share, worst = impossible_share(name, players, args.games, args.draws, args.seed)
            print(f"| `{name}` | {players} | {decisions} | {share:.1%} | {worst} of {args.draws} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
