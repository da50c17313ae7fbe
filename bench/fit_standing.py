"""How well the master's leaf value predicts who wins: ``standing_value`` against the games.

The master values a round that does not end the game by :func:`roppyakken.ai.master.standing_value`,
an estimate of the chance of winning the game from the totals and legs.  This plays
``expert`` against ``expert`` (seeded, duplicate deals not needed), takes every round's
starting totals and legs with the game's winner, and prints the estimate's log-loss and
Brier score and its calibration by bins, beside the constant fair share and a fitted
alternative (:func:`fitted_standing`: a softmax of the totals over the rounds left, and for
``first-to`` matches the legs by recursion, every later leg even), whose parameters the
``--fit`` option searches on a grid::

    .venv/bin/python bench/fit_standing.py --rules marguerite --games 3000 --seed 11
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections.abc import Callable, Sequence

from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import game_seeds, play_out
from roppyakken.ai.master import standing_value
from roppyakken.engine import Game
from roppyakken.rules import Rules, preset

FIT = (4.0, 1.0, 2.0)
"""The fitted alternative's parameters (beta, base, to_go): the grid's best on ``marguerite``."""

State = tuple[tuple[int, ...], tuple[int, ...], int, int]
"""A round's start: totals, legs, the seat valued, and whether that seat won (1 or 0)."""


class _Starts:
    """Called after every step of a game: keeps each round's starting totals and legs."""

    def __init__(self) -> None:
        self.round = -1
        self.seen: list[tuple[tuple[int, ...], tuple[int, ...]]] = []

    def __call__(self, game: Game) -> None:
        if game.round != self.round and not game.over:
            self.round = game.round
            self.seen.append((tuple(game.totals), tuple(game.legs)))


def collect(rules: Rules, players: int, games: int, seed: int, bots: Sequence[str]) -> list[State]:
    """Every round's start of ``games`` seeded games, from every seat, with the game's result."""
    out: list[State] = []
    for i, game_seed in enumerate(game_seeds(seed, games)):
        starts = _Starts()
        game = Game(rules, players, seed=game_seed, log=False, events=False)
        starts(game)
        play_out(game, [make_bot(b, seed * 1000 + i * 7 + s) for s, b in enumerate(bots)], on_step=starts)
        if game.winner is None:
            continue
        for totals, legs in starts.seen[1:]:  # the first round's start says nothing
            for seat in range(players):
                out.append((totals, legs, seat, 1 if game.winner == seat else 0))
    return out


def _fresh_legs(need: tuple[int, ...], memo: dict[tuple[int, ...], tuple[float, ...]]) -> tuple[float, ...]:
    """Each seat's chance of a ``first-to`` match when seat ``i`` still needs ``need[i]`` legs,
    every leg from a fresh start, won by each seat alike."""
    if need in memo:
        return memo[need]
    n = len(need)
    out = [0.0] * n
    for i in range(n):
        if need[i] == 1:
            out[i] += 1.0 / n
        else:
            after = _fresh_legs((*need[:i], need[i] - 1, *need[i + 1 :]), memo)
            for j in range(n):
                out[j] += after[j] / n
    memo[need] = tuple(out)
    return memo[need]


def fitted_standing(
    rules: Rules,
    totals: Sequence[int],
    legs: Sequence[int],
    seat: int,
    params: tuple[float, float, float] = FIT,
) -> float:
    """The alternative leaf value: ``softmax(beta * totals / target / sqrt(base + to_go * left))``
    for the current game (``left``: the share of the target still to go for the leader), the legs
    of a ``first-to`` match by recursion; other match kinds as :func:`standing_value`."""
    beta, base, to_go = params
    n = len(totals)
    target = float(rules.target)
    left = max(0.0, target - max(totals)) / target
    k = beta / math.sqrt(base + to_go * left) / target
    top = max(totals)
    e = [math.exp(k * (t - top)) for t in totals]
    p = [x / sum(e) for x in e]
    match = rules.match_rule
    if match.kind == "single":
        return p[seat]
    if match.kind != "first-to":
        return standing_value(rules, totals, legs, seat)
    need = tuple(match.count - won for won in legs)
    memo: dict[tuple[int, ...], tuple[float, ...]] = {}
    value = 0.0
    for i in range(n):
        if need[i] == 1:
            value += p[i] if i == seat else 0.0
        else:
            value += p[i] * _fresh_legs((*need[:i], need[i] - 1, *need[i + 1 :]), memo)[seat]
    return value


def scores(states: Sequence[State], value: Callable[[State], float]) -> tuple[float, float]:
    """Mean log-loss and Brier score of ``value`` on ``states``."""
    ll = br = 0.0
    for s in states:
        p = min(1 - 1e-6, max(1e-6, value(s)))
        y = s[3]
        ll -= math.log(p) if y else math.log(1 - p)
        br += (p - y) ** 2
    return ll / len(states), br / len(states)


def calibration(states: Sequence[State], value: Callable[[State], float], bins: int = 10) -> list[str]:
    """Per bin of the estimate: its mean, the share actually won, and the count."""
    groups: list[list[tuple[float, int]]] = [[] for _ in range(bins)]
    for s in states:
        p = value(s)
        groups[min(bins - 1, int(p * bins))].append((p, s[3]))
    lines = []
    for k, g in enumerate(groups):
        if g:
            mean = sum(p for p, _ in g) / len(g)
            won = sum(y for _, y in g) / len(g)
            low, high = k / bins, (k + 1) / bins
            lines.append(f"  {low:.1f}-{high:.1f}: estimate {mean:.3f}  won {won:.3f}  n={len(g)}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    """Play the games and print the leaf value's scores."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="marguerite")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--bots", default="expert")
    parser.add_argument("--fit", action="store_true", help="search the alternative's parameters on a grid")
    args = parser.parse_args(argv)
    rules = preset(args.rules)
    bots = args.bots.split(",")
    bots = (bots * args.players)[: args.players]
    start = time.perf_counter()
    states = collect(rules, args.players, args.games, args.seed, bots)
    spent = time.perf_counter() - start
    print(f"{args.rules}, {args.players} players, {args.games} games, {len(states)} states, {spent:.0f}s")
    current = lambda s: standing_value(rules, s[0], s[1], s[2])  # noqa: E731
    fair = lambda s: 1.0 / args.players  # noqa: E731
    fitted = lambda s: fitted_standing(rules, s[0], s[1], s[2])  # noqa: E731
    for name, f in (("standing_value", current), ("fitted", fitted), ("fair share", fair)):
        ll, br = scores(states, f)
        print(f"{name:>15}: log-loss {ll:.4f}  Brier {br:.4f}")
    for name, f in (("standing_value", current), ("fitted", fitted)):
        print(f"calibration of {name}:")
        print("\n".join(calibration(states, f)))
    if args.fit:
        grid = [
            (beta, base, to_go)
            for beta in (2.0, 2.5, 3.0, 3.5, 4.0, 4.5, 5.0, 6.0)
            for base in (0.5, 1.0, 1.5, 2.0)
            for to_go in (0.0, 0.5, 1.0, 2.0, 3.0, 4.0)
        ]

        def loss(g: tuple[float, float, float]) -> float:
            return scores(states, lambda s: fitted_standing(rules, s[0], s[1], s[2], g))[0]

        best = min(grid, key=loss)
        ll = loss(best)
        print(f"grid's best (beta, base, to_go) = {best}: log-loss {ll:.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
