"""``simulate`` and the bot driver give the same games whatever is made faster.

For every preset and player count, a seeded ``roppyakken simulate --json`` batch with and
without ``--records`` (the summary, every record file byte for byte) and the events of
the same games played through :func:`roppyakken.ai.driver.play_out`, reduced to SHA-256
digests kept in ``tests/core/snapshots/simulate-digests.json``.  A faster driver, engine or
record must leave every digest as it is (``python -m tests.core.test_simulate_pinned`` prints
them); a digest that differs means a game, a record or a summary changed, which is a bug,
not a new snapshot.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from roppyakken import kernel
from roppyakken.ai.base import make_bot
from roppyakken.ai.driver import play_out
from roppyakken.engine import Game
from roppyakken.record import dumps, record_of
from roppyakken.rules import PRESETS, preset
from tests.harness.simulate_digests import (
    HOUSE_RULES,
    PURE_CASES,
    digests,
)
from tests.harness.support import COMPILED_MISSING, require, run_python

SNAPSHOT = Path(__file__).parent / "snapshots" / "simulate-digests.json"


CASES = [(name, players) for name in [*PRESETS, *HOUSE_RULES] for players in (2, 3)]
CASES = [(name, n) for name, n in CASES if name in HOUSE_RULES or n in preset(name).players]


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


def test_the_pure_modules_give_the_pinned_games_too(tmp_path: Path) -> None:
    """The compiled group (with the loop of indexed decisions) and the pure reference agree."""
    require(kernel.COMPILED, COMPILED_MISSING)
    program = (
        "import json, sys\nfrom pathlib import Path\nfrom roppyakken import kernel\n"
        "from tests.harness.simulate_digests import PURE_CASES, digests\n"
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
