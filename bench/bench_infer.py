"""How well weighted worlds guess the opponent's hand (a diagnostic for ``master:infer``).

Plays games between two bots (``expert`` against ``expert`` by default) and, at the
first seat's card-play decisions, weighs a pool of sampled worlds by the opponents'
past plays (:class:`roppyakken.ai.infer.WorldPool`).  Prints, for each model setting,
the mean chance the weighted pool gives to the cards the opponents really hold,
against the uniform sampler's (a hidden hand's size over the unseen cards), and the
pool's effective size (``--players 3``: both opponents' cards)::

    nice -n 10 .venv/bin/python bench/bench_infer.py --games 20 --pool 100 --model 10:0.1 --model 5:0.05

A model is ``TAU:EPS``: the expert's values as a softmax of temperature ``TAU`` points,
mixed with ``EPS`` of uniform play (the master weighs by ``0:0.02``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from roppyakken.actions import PLAY, TAKE
from roppyakken.ai.base import make_bot
from roppyakken.ai.infer import OpponentModel, WorldPool
from roppyakken.engine import Game
from roppyakken.rules import preset
from roppyakken.view import view_of


def main(argv: list[str] | None = None) -> int:
    """Print the mean chance given to the opponent's true cards, weighted against uniform."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rules", default="classic")
    parser.add_argument("--players", type=int, choices=(2, 3), default=2)
    parser.add_argument(
        "--bots", default="", help="the players, comma-separated (seat 0 is measured; expert for every seat)"
    )
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--pool", type=int, default=100)
    parser.add_argument("--model", action="append", default=[], help="TAU:EPS (repeatable; 10:0.1)")
    parser.add_argument(
        "--min-plays", type=int, default=0, help="only decisions after this many opponent plays"
    )
    args = parser.parse_args(argv)
    rules = preset(args.rules)
    specs = args.model or ["10:0.1"]
    models = [_fixed(m) for m in specs]
    players = args.players
    levels = args.bots.split(",") if args.bots else ["expert"] * players
    if len(levels) != players:
        parser.error(f"--bots: {len(levels)} levels for {players} players")
    uniform: list[float] = []
    weighted: list[list[float]] = [[] for _ in models]
    ess: list[list[float]] = [[] for _ in models]
    spent = [0.0 for _ in models]
    for g_index in range(args.games):
        seed = args.seed * 100_000 + g_index
        game = Game(rules, players, seed=seed)
        bots = [make_bot(level, seed + s) for s, level in enumerate(levels)]
        rng = random.Random(seed)
        while not game.over:
            seat = game.to_act
            view = view_of(game, seat)
            if seat == 0 and game.phase in (PLAY, TAKE) and view.record is not None:
                opp_plays = sum(1 for p in view.record.plays if p[0] != 0 and p[1] == "hand")
                hidden = [game.hands[s] & ~game.revealed[s] for s in range(1, players)]
                count = sum(h.bit_count() for h in hidden)
                if count and opp_plays >= args.min_plays:
                    # Uniform: each unseen card is in a given opponent's hand with that hand's
                    # size over the unseen cards; the mean over the opponents' true cards.
                    unseen = view.unseen.bit_count()
                    uniform.append(sum(h.bit_count() ** 2 for h in hidden) / count / unseen)
                    for k, model in enumerate(models):
                        t0 = time.perf_counter()
                        pool = WorldPool(view, random.Random(rng.random()), args.pool, model)
                        spent[k] += time.perf_counter() - t0
                        true = []
                        for s, h in enumerate(hidden, start=1):
                            probs = pool.card_probability(s)
                            true += [probs[c] for c in probs if h >> c & 1]
                        weighted[k].append(sum(true) / len(true))
                        ess[k].append(pool.effective_size)
            game.apply(bots[seat].choose(view))
    n = len(uniform)
    print(f"{args.rules}, {','.join(levels)}, {args.games} games, {n} decisions, pool {args.pool}")
    print(f"  uniform: mean chance on the true cards {statistics.fmean(uniform):.3f}")
    for k, model in enumerate(models):
        name = f"tau {model.tau:g} eps {model.eps:g}"
        print(
            f"  {name}: {statistics.fmean(weighted[k]):.3f} "
            f"(ratio {statistics.fmean(weighted[k]) / statistics.fmean(uniform):.2f}), "
            f"effective pool {statistics.fmean(ess[k]):.1f}, {1000 * spent[k] / n:.1f} ms a pool"
        )
    return 0


def _fixed(spec: str) -> OpponentModel:
    """``TAU:EPS`` as a model."""
    tau, eps = spec.split(":")
    return OpponentModel(float(tau), float(eps))


if __name__ == "__main__":
    sys.exit(main())
