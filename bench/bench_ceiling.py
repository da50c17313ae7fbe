"""How much of a Roppyakken game is luck: cheating players against each bot level.

The players of this benchmark are not bots and never will be: they are handed the
cards a seat cannot see, so their win rates bound what a fair bot can reach against
the same opponent (``bench/RESULTS-bots.md``).

* The *oracle* reads the whole game state — every hand and the order of the pile — and
  knows which policy its opponent follows.  At each card-play decision it plays every
  legal move out ``K`` times to the end of the round (its own later moves by ``--own``:
  points now or the expert; the opponent's by its own policy: uniform at random for
  ``random``, points now for ``greedy``, the expert for ``expert``) and keeps the move
  with the best chance of winning the game (the master's
  :func:`~roppyakken.ai.master.game_value`).
* With ``--master LEVEL`` the master itself plays instead (its budget and options as
  given, e.g. ``master`` or ``master:iters=240``), handed the real hands in every world
  it plays out (:class:`SeeingMaster`): the difference with the fair master is what
  the hidden cards are worth to it.

Each plays seeing everything, then seeing every hand but not the order of the pile
(each playout or world shuffles the pile); ``--sees`` picks one.  The difference is
what knowing the pile is worth — knowledge no player at a real table has.

Usage (on 2 cores: four minutes for the first, about ten minutes a line for the others)::

    .venv/bin/python bench/bench_ceiling.py --deals 200 --k 32 --jobs 2
    .venv/bin/python bench/bench_ceiling.py --own expert --against random,greedy,expert
    .venv/bin/python bench/bench_ceiling.py --master master --against expert
"""

from __future__ import annotations

import argparse
import math
import random
import sys
from collections.abc import Sequence
from multiprocessing import Pool

from roppyakken.actions import Action, Play, Take
from roppyakken.ai.arena import round_margin
from roppyakken.ai.base import make_bot, parse_level
from roppyakken.ai.determinize import World
from roppyakken.ai.driver import game_seeds
from roppyakken.ai.expert import DEFAULT_WEIGHTS, ExpertBot, expert_index
from roppyakken.ai.master import MasterBot, game_value
from roppyakken.ai.playout import Playout, greedy_index, yaku_index
from roppyakken.ai.stats import ratio_interval, wilson
from roppyakken.engine import Game
from roppyakken.rules import Rules, preset
from roppyakken.view import SeatView, view_of

HEAD = "| the oracle sees | against | games | win rate | 95% interval | points a round | 95% interval |"
"""The header of the report's table (the oracle's, or the cheating master's, figures)."""

POLICIES = ("random", "greedy", "expert")
"""The policies a playout can follow: uniformly random, points now, the expert."""


def oracle_choice(
    game: Game,
    opponent: str,
    k: int,
    rng: random.Random,
    index: list[list[tuple[int, int]]],
    sees_pile: bool = True,
    own: str = "greedy",
) -> Action:
    """The all-seeing choice for the seat to act (declarations and redeals as the expert).

    With ``sees_pile`` false the oracle sees every hand but not the order of the pile:
    each of its ``k`` playouts shuffles the pile (the same ``k`` orders for every move).
    In its playouts the oracle's own later moves follow ``own`` (``greedy``: points now;
    ``expert``: the expert, from what the oracle's seat would know in that playout), and
    the opponent's follow ``opponent`` (``random``, ``greedy`` or ``expert``).
    """
    me = game.to_act
    view = view_of(game, me)
    legal = view.legal
    if len(legal) == 1 or not isinstance(legal[0], Play | Take):
        return ExpertBot().choose(view)
    base = Playout.from_game(game)
    rest = base.pile[base.pile_pos :]
    piles = [rest if sees_pile else rng.sample(rest, len(rest)) for _ in range(k)]
    best, best_value = legal[0], -1.0
    for action in legal:
        assert isinstance(action, Play | Take)
        card = action.card if isinstance(action, Play) else game.turned
        total = 0.0
        for pile in piles:
            p = base.copy()
            p.pile, p.pile_pos = pile, 0
            p.step(card, action.target)
            while not p.ended:
                moves = p.moves()
                policy = own if p.to_act == me else opponent
                if policy == "random":
                    c, t = rng.choice(moves)
                elif policy == "expert" and len(moves) > 1:
                    c, t = moves[expert_index(p, moves, game.totals, DEFAULT_WEIGHTS)]
                else:
                    c, t = moves[greedy_index(p, moves, index)]
                p.step(c, t)
            assert p.score is not None
            total += game_value(game.rules, p.score, game.totals, game.legs, game.dealer, game.round, me)
        if total > best_value:
            best, best_value = action, total
    return best


class SeeingMaster(MasterBot):
    """The master handed the true hidden cards: a cheat for this benchmark, never a bot.

    Its worlds hold the opponents' real hands and, when it sees the pile, the real pile;
    otherwise the rest of the pile is shuffled for each world.  Everything else — the
    budget, the expert rollouts, the paired test before leaving the expert's choice — is
    the master's own, so the difference with the fair master is what the hidden cards
    are worth to it.
    """

    game: Game
    sees_pile: bool

    def sample(self, view: SeatView) -> World:
        """The true hands, and the true pile or a shuffle of it."""
        game = self.game
        rest = list(game.pile[game.pile_pos :])
        if not self.sees_pile:
            self.rng.shuffle(rest)
        return World(tuple(game.hands), tuple(rest))

    def weigh(self, view: SeatView, deadline: float = math.inf) -> None:
        """No weighing of sampled worlds (``infer``): the cheat is handed the real ones."""
        self._pool = None


def _deal(args: tuple[str, str, int, int, bool, str, str, int]) -> tuple[int, float, int]:
    """On one deal, played from each seat: the games the oracle wins (0 to ``players``), its
    round-score margin summed over the rounds (as the arena counts it), and the rounds.
    With 3 players (the master only) both other seats are ``opponent``."""
    rules_name, opponent, k, seed, sees_pile, own, master, players = args
    rules: Rules = preset(rules_name)
    rng = random.Random(seed)
    index = yaku_index(rules)
    wins = 0
    margin = 0.0
    rounds = 0
    for me in range(players):
        game = Game(rules, players, seed)
        others = [make_bot(opponent, seed if players == 2 else seed + s) for s in range(players)]
        cheat = SeeingMaster.from_options(seed, parse_level(master)[1]) if master else None
        if cheat is not None:
            cheat.game, cheat.sees_pile = game, sees_pile
        while not game.over:
            if game.to_act == me and cheat is not None:
                action = cheat.choose(view_of(game, me))
            elif game.to_act == me:
                action = oracle_choice(game, opponent, k, rng, index, sees_pile, own)
            else:
                action = others[game.to_act].choose(view_of(game, game.to_act))
            game.apply(action)
        wins += game.winner == me
        margin += sum(round_margin(log.score, me) for log in game.history if log.score is not None)
        rounds += len(game.history)
    return wins, margin, rounds


def _row(sees: str, opponent: str, deals: Sequence[tuple[int, float, int]], players: int = 2) -> str:
    """One line of the report: games won and points a round, with their 95% intervals."""
    wins = sum(d[0] for d in deals)
    games = players * len(deals)
    low, high = wilson(wins, games)
    ppr, plo, phi = ratio_interval([d[1] for d in deals], [float(d[2]) for d in deals])
    return (
        f"| {sees} | `{opponent}` | {games} | {wins / games:.1%} | {low:.1%}–{high:.1%} "
        f"| {ppr:+.1f} | {plo:+.1f}..{phi:+.1f} |"
    )


def main(argv: list[str] | None = None) -> int:
    """Run the oracle, seeing the pile's order and not, against each opponent (``random``
    and ``greedy`` unless told); print win rates with 95% intervals as a Markdown table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=200, help="deals per line, each played twice (200)")
    parser.add_argument("--k", type=int, default=32, help="playouts per move (32)")
    parser.add_argument("--rules", default="classic", help="preset (classic)")
    parser.add_argument("--seed", type=int, default=5, help="batch seed (5)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    add = parser.add_argument
    add("--against", default="random,greedy", help="opponents: random, greedy, expert (random,greedy)")
    add("--own", choices=POLICIES[1:], default="greedy", help="the oracle's playout policy (greedy)")
    add("--sees", choices=("both", "pile", "hands"), default="both", help="which oracles (both)")
    add(
        "--master",
        default="",
        help="play the master (e.g. master, master:iters=240) seeing the cards instead",
    )
    add("--players", type=int, choices=(2, 3), default=2, help="players (2; 3 with --master only)")
    add("--progress", type=int, default=0, help="print the figures so far every N deals on stderr (0: no)")
    args = parser.parse_args(argv)
    against = args.against.split(",")
    for name in against:
        if name not in POLICIES:
            parser.error(f"--against: unknown opponent {name!r} (expected {', '.join(POLICIES)})")
    if args.players == 3 and not args.master:
        parser.error("--players 3: only the master is played seeing the cards (--master)")
    if args.master and parse_level(args.master)[0] != "master":
        parser.error(f"--master: expected the master level with its options, not {args.master!r}")
    how = (
        f"`{args.master}` handed the cards" if args.master else f"K={args.k}, own playout moves by {args.own}"
    )
    print(
        f"oracle, {args.rules}, {args.players} players, {how}, "
        f"{args.deals} deals x {args.players} seatings, seed {args.seed}"
    )
    print()
    print(HEAD)
    print("| --- | --- | ---: | ---: | --- | ---: | --- |")
    seeds = game_seeds(args.seed, args.deals)
    with Pool(args.jobs) as pool:
        for sees_pile in {"both": (True, False), "pile": (True,), "hands": (False,)}[args.sees]:
            sees = "every hand and the pile's order" if sees_pile else "every hand, not the pile's order"
            for opponent in against:
                jobs = [
                    (args.rules, opponent, args.k, s, sees_pile, args.own, args.master, args.players)
                    for s in seeds
                ]
                deals: list[tuple[int, float, int]] = []
                for deal in pool.imap(_deal, jobs, chunksize=1 if args.rules != "classic" else 4):
                    deals.append(deal)
                    if args.progress and len(deals) % args.progress == 0 and len(deals) < len(jobs):
                        print(_row(sees, opponent, deals, args.players), file=sys.stderr, flush=True)
                print(_row(sees, opponent, deals, args.players), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
