"""The replay page's deal check (static/js/fairdeal.js) agrees with the engine: run in Node.

Node is a test tool here (scripts/setup installs it); under CI=true a missing Node fails.
"""

from __future__ import annotations

import copy
import hashlib
import json
from pathlib import Path
from typing import Any

from roppyakken.cards import SLUGS
from roppyakken.engine import Game
from roppyakken.record import deal_commitment, dumps, record_of
from roppyakken.rules import preset, rules_from_mapping
from roppyakken.server.web.app import STATIC
from tests.harness.committed_games import SALT, played
from tests.harness.support import run_node_module

SCRIPT = """
import { verifyDeals, sha256Hex, shake128 } from %s;
import { readFileSync } from "node:fs";
const input = JSON.parse(readFileSync(0, "utf8"));
const hex = (b) => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
console.log(JSON.stringify({
  verdicts: input.records.map((r) => verifyDeals(r, input.slugs)),
  sha: input.labels.map(sha256Hex),
  shake: input.labels.map((l) => hex(shake128(l, 192))),
}));
"""


def _node(payload: dict[str, Any], tmp_path: Path) -> dict[str, Any]:
    out: dict[str, Any] = run_node_module(SCRIPT, STATIC / "js" / "fairdeal.js", payload, tmp_path)
    return out


def test_the_browser_check_agrees_with_the_engine(tmp_path: Path) -> None:
    honest = json.loads(dumps(record_of(played(preset("classic"), 2**52 + 17), ["a", "b"], salt=SALT)))
    three = played(preset("classic"), 91, players=3)
    honest3 = json.loads(dumps(record_of(three, ["a", "b", "c"], salt=SALT)))
    optional = rules_from_mapping({"preset": "classic", "hand_four": "optional", "target": 200})
    redealt = next(
        g
        for g in (played(optional, s, call_redeals=True) for s in range(400))
        if any(type(e).__name__ == "Redealt" for e in g.events)
    )
    with_redeal = json.loads(dumps(record_of(redealt, ["a", "b"], salt=SALT)))
    wrong_salt = {**honest, "salt": "ab" * 16}
    rigged = copy.deepcopy(honest)  # another seed's commitment over these deals
    dealer = honest["rounds"][0]["dealer"]
    rigged["seed"] = next(s for s in range(5, 10**6) if Game(preset("classic"), 2, s).dealer == dealer)
    rigged["commitment"] = deal_commitment(rigged["seed"], SALT)
    old = {k: v for k, v in honest.items() if k not in ("commitment", "salt")}
    labels = ["", "roppyakken:1:0:0", "x" * 100, "日本"]
    out = _node(
        {
            "records": [honest, honest3, with_redeal, wrong_salt, rigged, old],
            "slugs": list(SLUGS),
            "labels": labels,
        },
        tmp_path,
    )
    verdicts = out["verdicts"]
    assert [v and v["ok"] for v in verdicts] == [True, True, True, False, False, None]
    assert "do not match the commitment" in verdicts[3]["message"]
    assert "round 1's deal is not one the revealed seed gives" in verdicts[4]["message"]
    assert out["sha"] == [hashlib.sha256(s.encode()).hexdigest() for s in labels]
    assert out["shake"] == [hashlib.shake_128(s.encode()).hexdigest(192) for s in labels]
