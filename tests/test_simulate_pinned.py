"""``simulate`` and the bot driver give the same games whatever is made faster.

For every preset and player count, a seeded ``roppyakken simulate --json`` batch with and
without ``--records`` (the summary, every record file byte for byte) and the events of
the same games played through :func:`roppyakken.ai.driver.play_out`, reduced to SHA-256
digests kept in ``tests/snapshots/simulate-digests.json``.  A faster driver, engine or
record must leave every digest as it is (``python -m tests.test_simulate_pinned`` prints
them); a digest that differs means a game, a record or a summary changed, which is a bug,
not a new snapshot.
"""

from __future__ import annotations

import hashlib
import io
import json
import sys
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import pytest

from roppyakken import kernel
from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import game_seeds, play_out
from roppyakken.cli import main
from roppyakken.engine import Game
from roppyakken.record import dumps, record_of
from roppyakken.rules import PRESETS, load_rules_file, preset
from tests.support import COMPILED_MISSING, require, run_python

SNAPSHOT = Path(__file__).parent / "snapshots" / "simulate-digests.json"
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

CASES = [(name, players) for name in [*PRESETS, *HOUSE_RULES] for players in (2, 3)]
CASES = [(name, n) for name, n in CASES if name in HOUSE_RULES or n in preset(name).players]


def _simulate(args: list[str]) -> dict[str, object]:
    """``roppyakken simulate`` in this process; its JSON summary without the timing fields."""
    out, err = io.StringIO(), io.StringIO()
    with redirect_stdout(out), redirect_stderr(err):
        code = main(["simulate", *args, "--json"])
    assert code == 0, err.getvalue()
    doc: dict[str, object] = json.loads(out.getvalue())
    del doc["seconds"], doc["rounds_per_second"]
    return doc


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        data = part.encode()
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


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
    summary = _simulate(args)
    with_records = _simulate([*args, "--records", str(records)])
    assert with_records == summary  # writing records changes nothing in the games
    files = sorted(records.glob("game-*.json"))
    assert len(files) == games
    events = []
    for seed in game_seeds(SEED, games):
        bots = [make_bot("random", seed + seat) for seat in range(players)]
        game = play_out(Game(rules, players, seed), bots)
        events.append(json.dumps([e.to_json() for e in game.events], separators=(",", ":")))
    return {
        "summary": _digest(json.dumps(summary, sort_keys=True)),
        "records": _digest(*(f.read_text(encoding="utf-8") for f in files)),
        "events": _digest(*events),
    }


@pytest.mark.parametrize(("name", "players"), CASES)
def test_simulate_gives_the_pinned_games(name: str, players: int, tmp_path: Path) -> None:
    pinned = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert digests(name, players, tmp_path / "records") == pinned[f"{name} {players}"]


@pytest.mark.parametrize("name", ["classic", "sanbyakuken", "changara"])
def test_a_game_without_events_keeps_the_same_records(name: str) -> None:
    """``Game(events=False)`` (what simulate plays) logs the same record and keeps no event."""
    rules = preset(name)
    for players in rules.players:
        for seed in range(6):
            levels = ["random", "greedy", "random"][:players]
            games = []
            for events in (True, False):
                bots = [make_bot(level, seed + i) for i, level in enumerate(levels)]
                games.append(play_out(Game(rules, players, seed, events=events), bots))
            with_events, without = games
            assert dumps(record_of(without)) == dumps(record_of(with_events))
            assert with_events.events and without.events == []
    game = Game(rules, 2, 1, events=False)
    assert game.apply(game.legal_actions()[0]) == []


PURE_CASES = [("classic", 2), ("sanbyakuken", 3), ("house-mixed", 3), ("house-optional-four", 2)]
"""Cases replayed on the pure-Python modules too when this process runs the compiled ones."""


def test_the_pure_modules_give_the_pinned_games_too(tmp_path: Path) -> None:
    """The compiled group (with the loop of indexed decisions) and the pure reference agree."""
    require(kernel.COMPILED, COMPILED_MISSING)
    program = (
        "import json, sys\nfrom pathlib import Path\nfrom roppyakken import kernel\n"
        "from tests.test_simulate_pinned import PURE_CASES, digests\n"
        "assert not kernel.COMPILED\n"
        "tmp = Path(sys.argv[1])\n"
        "out = {f'{n} {p}': digests(n, p, tmp / f'{n}-{p}' / 'records') for n, p in PURE_CASES}\n"
        "print(json.dumps(out))\n"
    )
    out = run_python(program, str(tmp_path), pure=True, timeout=600)
    pinned = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert json.loads(out) == {f"{n} {p}": pinned[f"{n} {p}"] for n, p in PURE_CASES}


def test_every_case_is_pinned() -> None:
    pinned = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    assert set(pinned) == {f"{name} {players}" for name, players in CASES}


if __name__ == "__main__":  # print the digests (written once, by the code before the change)
    import tempfile

    table = {}
    for name, players in CASES:
        with tempfile.TemporaryDirectory() as tmp:
            table[f"{name} {players}"] = digests(name, players, Path(tmp) / "records")
    json.dump(table, sys.stdout, indent=1, sort_keys=True)
    print()
