"""Programs that print the expert's values and the master's choices in seeded games, as JSON: run on the
pure and on the compiled modules, and pinned."""

from __future__ import annotations

VALUES = """
import hashlib, json, random, sys
from roppyakken.actions import Play, Take
from roppyakken.ai.base import make_bot
from roppyakken.ai.expert import DEFAULT_WEIGHTS, Weights, best_move, expert_rollout, move_values
from roppyakken.ai.playout import Playout, yaku_index
from roppyakken.ai.position import Position
from roppyakken.engine import Game
from roppyakken.kernel import COMPILED
from roppyakken.rules import PRESETS, preset
from roppyakken.view import view_of

games = int(sys.argv[1])
other = Weights(draw=0.5, hold=0.7, exposure=1.1, fuke_cards=6)
digests = {}
count = 0
for name in PRESETS:
    rules = preset(name)
    index = yaku_index(rules)
    for players in rules.players:
        h = hashlib.sha256()
        for seed in range(games):
            rng = random.Random(seed)
            game = Game(rules, players, seed=seed, log=False)
            bots = [make_bot("expert", seed + s) for s in range(players)]
            while not game.over:
                seat = game.to_act
                view = view_of(game, seat)
                legal = view.legal
                action = None
                if len(legal) > 1 and isinstance(legal[0], Play | Take):
                    if isinstance(legal[0], Take):
                        moves = [(view.turned, a.target) for a in legal if isinstance(a, Take)]
                    else:
                        moves = [(a.card, a.target) for a in legal if isinstance(a, Play)]
                    pos = Position.of_view(view)
                    from_hand = view.phase == "play"
                    h.update(repr(move_values(pos, moves, from_hand)).encode())
                    h.update(repr(move_values(pos, moves, from_hand, other)).encode())
                    h.update(repr(best_move(pos, moves, from_hand, DEFAULT_WEIGHTS)).encode())
                    count += 1
                    if count % 4 == 0:  # a rollout from here, the expert then points-now
                        p = Playout.from_game(game)
                        expert_rollout(p, game.totals, DEFAULT_WEIGHTS, index, count % 12)
                        h.update(repr((p.captures, p.orders, p.score)).encode())
                    if rng.random() < 0.3:  # off the expert's path now and then
                        action = legal[rng.randrange(len(legal))]
                game.apply(action if action is not None else bots[seat].choose(view))
        digests[f"{name}-{players}p"] = h.hexdigest()
print(json.dumps({"compiled": COMPILED, "positions": count, "digests": digests}))
"""


MASTER = """
import hashlib, json, sys
from roppyakken.ai.base import make_bot
from roppyakken.engine import Game
from roppyakken.kernel import COMPILED
from roppyakken.rules import preset
from roppyakken.view import view_of

games, level = int(sys.argv[1]), sys.argv[2]
digests = {}
for name, players in (("classic", 2), ("classic", 3), ("marguerite", 2), ("lightning", 2), ("fuke", 3)):
    h = hashlib.sha256()
    for seed in range(games):
        game = Game(preset(name), players, seed=seed, log=False)
        bots = [make_bot(level if s == 0 else "expert", seed + s) for s in range(players)]
        while not game.over:
            action = bots[game.to_act].choose(view_of(game, game.to_act))
            h.update(repr(action).encode())
            game.apply(action)
        h.update(repr((game.totals, game.legs, game.winner)).encode())
    digests[f"{name}-{players}p"] = h.hexdigest()
print(json.dumps({"compiled": COMPILED, "digests": digests}))
"""
