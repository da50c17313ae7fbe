"""How much of a Roppyakken game is luck: an all-seeing player against each bot level.

The *oracle* of this benchmark is not a bot and never will be one: it reads the whole
game state — every hand and the order of the pile — and it knows which policy its
opponent follows.  At each card-play decision it plays every legal move out ``K`` times
to the end of the round (itself by points now, the opponent by its own policy: uniform
at random for ``random``, points now for ``greedy``) and keeps the move with the best
chance of winning the game (the master's :func:`~roppyakken.ai.master.game_value`).

No fair player can do better than such a cheat by much, so its win rate bounds what a
bot that sees only its own seat can reach against the same opponent.  On ``classic``
(target 600, lucky hands, instant wins) most games last two rounds, and the bound is
low: see ``bench/RESULTS-bots.md``.

It plays twice: seeing everything, then seeing every hand but not the order of the
pile (each playout shuffles the pile).  The difference is what knowing the pile is
worth — knowledge no player at a real table has.

Usage (about four minutes on 2 cores)::

    .venv/bin/python bench/bench_ceiling.py --deals 200 --k 32 --jobs 2
"""

from __future__ import annotations

import argparse
import random
from multiprocessing import Pool

from roppyakken.actions import Action, Play, Take
from roppyakken.ai.base import make_bot
from roppyakken.ai.expert import ExpertBot
from roppyakken.ai.master import game_value
from roppyakken.ai.playout import Playout, greedy_index, yaku_index
from roppyakken.ai.stats import wilson
from roppyakken.driver import game_seeds
from roppyakken.engine import Game
from roppyakken.rules import Rules, preset
from roppyakken.view import view_of


def oracle_choice(
    game: Game,
    opponent: str,
    k: int,
    rng: random.Random,
    index: list[list[tuple[int, int]]],
    sees_pile: bool = True,
) -> Action:
    """The all-seeing choice for the seat to act (declarations and redeals as the expert).

    With ``sees_pile`` false the oracle sees every hand but not the order of the pile:
    each of its ``k`` playouts shuffles the pile (the same ``k`` orders for every move).
    """
    me = game.to_act
    view = view_of(game, me)
    legal = view.legal
    if len(legal) == 1 or not isinstance(legal[0], Play | Take):
        return ExpertBot().choose(view)
    base = Playout.from_game(game)
    rest = base.pile[base.pos :]
    piles = [rest if sees_pile else rng.sample(rest, len(rest)) for _ in range(k)]
    best, best_value = legal[0], -1.0
    for action in legal:
        assert isinstance(action, Play | Take)
        card = action.card if isinstance(action, Play) else game.turned
        total = 0.0
        for pile in piles:
            p = base.copy()
            p.pile, p.pos = pile, 0
            p.step(card, action.target)
            while not p.ended:
                moves = p.moves()
                if p.to_act != me and opponent == "random":
                    c, t = rng.choice(moves)
                else:
                    c, t = moves[greedy_index(p, moves, index)]
                p.step(c, t)
            assert p.score is not None
            total += game_value(game.rules, p.score, game.totals, game.legs, game.dealer, game.round, me)
        if total > best_value:
            best, best_value = action, total
    return best


def _deal(args: tuple[str, str, int, int, bool]) -> int:
    """Games the oracle wins on one deal, played from each seat (0, 1 or 2)."""
    rules_name, opponent, k, seed, sees_pile = args
    rules: Rules = preset(rules_name)
    rng = random.Random(seed)
    index = yaku_index(rules)
    wins = 0
    for me in (0, 1):
        game = Game(rules, 2, seed, log=False)
        other = make_bot(opponent, seed)
        while not game.over:
            if game.to_act == me:
                action = oracle_choice(game, opponent, k, rng, index, sees_pile)
            else:
                action = other.choose(view_of(game, game.to_act))
            game.apply(action)
        wins += game.winner == me
    return wins


def main(argv: list[str] | None = None) -> int:
    """Run the oracle, seeing the pile's order and not, against ``random`` and ``greedy``;
    print win rates with 95% intervals as a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=200, help="deals per line, each played twice (200)")
    parser.add_argument("--k", type=int, default=32, help="playouts per move (32)")
    parser.add_argument("--rules", default="classic", help="preset (classic)")
    parser.add_argument("--seed", type=int, default=5, help="batch seed (5)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    args = parser.parse_args(argv)
    print(f"oracle, {args.rules}, 2 players, K={args.k}, {args.deals} deals x 2 seatings, seed {args.seed}")
    print()
    print("| the oracle sees | against | games | oracle's win rate | 95% interval |")
    print("| --- | --- | ---: | ---: | --- |")
    seeds = game_seeds(args.seed, args.deals)
    with Pool(args.jobs) as pool:
        for sees_pile in (True, False):
            sees = "every hand and the pile's order" if sees_pile else "every hand, not the pile's order"
            for opponent in ("random", "greedy"):
                jobs = [(args.rules, opponent, args.k, s, sees_pile) for s in seeds]
                wins = sum(pool.map(_deal, jobs, chunksize=4))
                games = 2 * len(seeds)
                low, high = wilson(wins, games)
                print(
                    f"| {sees} | `{opponent}` | {games} | {wins / games:.1%} | {low:.1%}–{high:.1%} |",
                    flush=True,
                )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
