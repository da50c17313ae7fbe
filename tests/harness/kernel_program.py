"""The program that plays seeded games of every preset and prints their digests: run on the pure and on the
compiled modules."""

from __future__ import annotations

import textwrap

PROGRAM = textwrap.dedent(
    """
    import hashlib, json, random, sys
    from roppyakken import kernel
    from roppyakken.ai.playout import Playout, greedy_index, yaku_index
    from roppyakken.engine import Game
    from roppyakken.game_end import round_result
    from roppyakken.record import dumps, record_of
    from roppyakken.rules import PRESETS, preset

    games = int(sys.argv[1])
    digests = {}
    count = 0
    for name in PRESETS:
        rules = preset(name)
        for players in rules.players:
            h = hashlib.sha256()
            put = lambda x: h.update(repr(x).encode())
            for seed in range(games):
                count += 1
                rng = random.Random(seed)
                if seed % 4 == 0:  # logged: the record and the events
                    g = Game(rules, players, seed)
                    while not g.over:
                        g.playout(rng)
                    put(dumps(record_of(g, ["a"] * players)))
                    put([repr(e) for e in g.events])
                elif seed % 4 == 1:  # the public API
                    g = Game(rules, players, seed, log=False)
                    while not g.over:
                        actions = g.legal_actions()
                        put(len(actions))
                        g.apply(actions[rng.randrange(len(actions))])
                else:
                    g = Game(rules, players, seed, log=False)
                    while not g.over:
                        g.playout(rng)
                put((g.winner, g.end_reason, g.totals, g.legs, g.round, g.captures, g.orders))
                base = Game(rules, players, seed, log=False)
                base.stop_at_round_end = True
                copy = base.clone()
                copy.playout(rng)
                put((copy.winner, copy.totals, copy.legs, copy.phase, copy.captures, copy.orders))
                while base.phase not in ("play", "over"):
                    actions = base.legal_actions()
                    base.apply(actions[rng.randrange(len(actions))])
                if base.phase == "play":
                    p = Playout.from_game(base)
                    index = yaku_index(rules)
                    while not p.ended:
                        moves = p.moves()
                        put(moves)
                        put(greedy_index(p, moves, index))
                        p.copy().step(*moves[0])
                        p.step(*moves[rng.randrange(len(moves))])
                    put((p.score, p.instant, p.captures, p.orders))
                    put(round_result(rules, p.score, base.totals, base.legs, base.dealer, base.round))
            digests[f"{name}-{players}p"] = h.hexdigest()
    print(json.dumps({"compiled": kernel.COMPILED, "games": count, "digests": digests}))
    """
)
