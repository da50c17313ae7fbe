"""The browser's declaring policy (static/js/declare.js) is the expert's (ai.expert.declare_choice):
the same reveal cost as the bot's weights, and the same choice on thousands of seeded hands.  Run in
Node (a test tool here: scripts/setup installs it; under CI=true a missing Node fails)."""

from __future__ import annotations

import random
from pathlib import Path

from roppyakken.ai.expert import declare_choice
from roppyakken.ai.weights import DEFAULT_WEIGHTS
from roppyakken.cards import SLUGS
from roppyakken.server.web.app import STATIC
from roppyakken.yaku import LUCKY_HAND_SLUGS
from tests.harness.support import run_node_module

SCRIPT = """
import { REVEAL_COST, expertDeclares } from %s;
import { readFileSync } from "node:fs";
const cases = JSON.parse(readFileSync(0, "utf8"));
console.log(JSON.stringify({ cost: REVEAL_COST, chosen: cases.map((held) => expertDeclares(held)) }));
"""


def _cases(count: int, seed: int) -> list[list[tuple[str, int, list[int]]]]:
    """Seeded sets of held lucky hands: 1 to 3 hands of 2 to 8 cards, overlapping, with points
    around the reveal cost times the cards shown (where the choice turns)."""
    rng = random.Random(seed)
    cost = int(DEFAULT_WEIGHTS.reveal_cost)
    out = []
    for _ in range(count):
        pool = rng.sample(range(48), 8)
        held = []
        for slug in rng.sample(sorted(LUCKY_HAND_SLUGS), rng.randint(1, 3)):
            cards = rng.sample(pool, rng.randint(2, 8))
            points = rng.choice(
                [0, 20, cost * len(cards), cost * len(cards) + 1, 200, 400, rng.randint(1, 80)]
            )
            held.append((slug, points, sorted(cards)))
        out.append(held)
    return out


def test_the_browser_declares_as_the_expert(tmp_path: Path) -> None:
    cases = _cases(3000, 11)
    hands = [[{"slug": s, "points": p, "cards": [SLUGS[c] for c in cs]} for s, p, cs in h] for h in cases]
    got = run_node_module(SCRIPT, STATIC / "js" / "declare.js", hands, tmp_path)
    assert got["cost"] == DEFAULT_WEIGHTS.reveal_cost
    want = [
        list(declare_choice([(s, p, sum(1 << c for c in cards)) for s, p, cards in held])) for held in cases
    ]
    assert got["chosen"] == want
    assert any(want) and not all(want), "the cases reach both sides of the choice"
