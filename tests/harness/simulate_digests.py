"""The digests of a seeded simulate batch's records, pinned in tests/core/snapshots/simulate-digests.json."""

from __future__ import annotations

import hashlib
import io
import json
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import game_seeds, play_out
from roppyakken.cli import main
from roppyakken.engine import Game
from roppyakken.rules import load_rules_file, preset

GAMES = 20
"""Games per batch: enough for redeals, declarations, instant wins and matches on every preset."""
SEED = 13
HOUSE_RULES = {
    "house-optional-four": 'preset = "classic"\nhand_four = "optional"\n',
    "house-mixed": (
        'preset = "classic"\nhand_four = "optional"\ntable_four = "dealer_takes"\n'
        'joker_wild_on_table = "turned-up"\nauto_capture_higher = true\ninstant_win = "immediate"\n'
    ),
}
"""House rules no preset has: the redeal decision (R-3.4 ``optional``) and other options mixed."""
HOUSE_GAMES = 400
"""Games per batch of house rules: a hand of four, and so a redeal to decide, is rare."""
PURE_CASES = [("classic", 2), ("sanbyakuken", 3), ("house-mixed", 3), ("house-optional-four", 2)]
"""Cases replayed on the pure-Python modules too when this process runs the compiled ones."""


def digests(name: str, players: int, records: Path) -> dict[str, str]:
    """The digests of one case: summary, records, and the events of the driver's games."""
    records.parent.mkdir(parents=True, exist_ok=True)
    if name in HOUSE_RULES:
        rules_file = records.parent / f"{name}.toml"
        rules_file.write_text(HOUSE_RULES[name], encoding="utf-8")
        rules = load_rules_file(rules_file)
        choice = ["--rules-file", str(rules_file)]
    else:
        rules = preset(name)
        choice = ["--rules", name]
    games = HOUSE_GAMES if name in HOUSE_RULES else GAMES
    args = [*choice, "--players", str(players), "--games", str(games), "--seed", str(SEED)]
    summary = simulate(args)
    with_records = simulate([*args, "--records", str(records)])
    assert with_records == summary  # writing records changes nothing in the games
    files = sorted(records.glob("game-*.json"))
    assert len(files) == games
    events = []
    for seed in game_seeds(SEED, games):
        bots = [make_bot("random", seed + seat) for seat in range(players)]
        game = play_out(Game(rules, players, seed), bots)
        events.append(json.dumps([e.to_json() for e in game.events], separators=(",", ":")))
    return {
        "summary": digest(json.dumps(summary, sort_keys=True)),
        "records": digest(*(f.read_text(encoding="utf-8") for f in files)),
        "events": digest(*events),
    }


def simulate(args: list[str]) -> dict[str, object]:
    """``roppyakken simulate`` in this process; its JSON summary without the timing fields."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["simulate", *args, "--json"])
    assert code == 0, err.getvalue()
    doc: dict[str, object] = json.loads(out.getvalue())
    del doc["seconds"], doc["rounds_per_second"]
    return doc


def digest(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode()
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()
