"""Where one bot's points a round come from against another: cards, yaku, lucky hands.

Plays the duplicate deals of a batch seed (each deal from both seats, as the arena
does) and prints, per round, what each bot scored in card points, in each yaku and in
lucky hands, with the first bot's difference, so that one sees which part of the game
an edge comes from (and where a bot gives points away)::

    nice -n 10 .venv/bin/python bench/bench_yaku.py expert greedy --rules marguerite --deals 300
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import game_seeds, play_out
from roppyakken.engine import Game
from roppyakken.rules import preset


def breakdown(rules_name: str, levels: tuple[str, str], deals: int, seed: int) -> list[str]:
    """The report's lines: per round, card points, lucky hands and each yaku of both bots."""
    rules = preset(rules_name)
    yaku: list[Counter[str]] = [Counter(), Counter()]
    cards = [0, 0]
    lucky = [0, 0]
    finals = [0, 0]
    rounds = voids = 0
    for deal in game_seeds(seed, deals):
        for first in (0, 1):
            seating = [first, 1 - first]  # seating[seat] is the bot's index in ``levels``
            bots = [make_bot(levels[i], deal * 7 + i) for i in seating]
            game = play_out(Game(rules, 2, deal), bots)
            for log in game.history:
                score = log.score
                if score is None:
                    continue
                rounds += 1
                voids += score.fuke
                for seat, player in enumerate(score.players):
                    who = seating[seat]
                    cards[who] += player.card_points
                    finals[who] += player.final
                    lucky[who] += sum(v for _, v in player.lucky_hands)
                    for slug, v in player.yaku:
                        yaku[who][slug] += v
    r = max(1, rounds)
    out = [
        f"{levels[0]} vs {levels[1]}, {rules_name}, {deals} deals x 2 seatings, seed {seed}: "
        f"{rounds} rounds ({voids} void)",
        "",
        f"| a round | {levels[0]} | {levels[1]} | difference |",
        "| --- | ---: | ---: | ---: |",
    ]

    def row(label: str, a: float, b: float) -> None:
        out.append(f"| {label} | {a / r:.1f} | {b / r:.1f} | {(a - b) / r:+.1f} |")

    row("final score", finals[0], finals[1])
    row("card points", cards[0], cards[1])
    row("lucky hands", lucky[0], lucky[1])
    for slug in sorted(set(yaku[0]) | set(yaku[1]), key=lambda s: -(abs(yaku[0][s] - yaku[1][s]))):
        row(f"`{slug}`", yaku[0][slug], yaku[1][slug])
    return out


def main(argv: list[str] | None = None) -> int:
    """Play the deals; print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("bots", nargs=2, help="two bot levels, the first measured")
    parser.add_argument("--rules", default="marguerite")
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=29)
    args = parser.parse_args(argv)
    for text in breakdown(args.rules, (args.bots[0], args.bots[1]), args.deals, args.seed):
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
