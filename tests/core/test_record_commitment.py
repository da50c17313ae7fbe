"""Commit–reveal deals in records (docs/FORMATS-EXTENSIONS.md): the seed is proven, every deal re-derived."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from roppyakken.engine import Game
from roppyakken.errors import RecordError
from roppyakken.record import deal_commitment, dumps, record_of, replay
from roppyakken.rules import preset, rules_from_mapping
from tests.harness.committed_games import SALT, played


def committed_record(game: Game) -> dict[str, Any]:
    names = ["a", "b", "c"][: game.players]
    record: dict[str, Any] = json.loads(dumps(record_of(game, names, salt=SALT)))
    return record


def test_the_commitment_is_the_sha256_of_the_seed_and_salt() -> None:
    import hashlib

    assert deal_commitment(42, SALT) == hashlib.sha256(f"roppyakken-deal/1:42:{SALT}".encode()).hexdigest()
    assert deal_commitment(42, SALT) != deal_commitment(43, SALT) != deal_commitment(42, "1f" * 16)


def test_a_committed_record_verifies_and_old_records_still_read() -> None:
    game = played(preset("classic"), 7)
    record = committed_record(game)
    assert record["commitment"] == deal_commitment(7, SALT) and record["salt"] == SALT
    replayed, _ = replay(record)
    assert replayed.winner == game.winner
    old = {k: v for k, v in record.items() if k not in ("commitment", "salt")}
    assert replay(old)[0].winner == game.winner


def test_a_redeal_called_by_a_player_is_followed() -> None:
    rules = rules_from_mapping({"preset": "classic", "hand_four": "optional", "target": 200})
    for seed in range(400):
        game = played(rules, seed, call_redeals=True)
        if any(type(e).__name__ == "Redealt" for e in game.events):
            break
    else:
        pytest.fail("no seed gave a redeal call")
    replay(committed_record(game))


def _claim_other_seed(record: dict[str, Any]) -> dict[str, Any]:
    """A rigged record: the deals of one seed, claimed to come from another (its commitment made to fit)."""
    rigged = copy.deepcopy(record)
    dealer = record["rounds"][0]["dealer"]
    rules = preset("classic")
    rigged["seed"] = next(s for s in range(record["seed"] + 1, 10**6) if Game(rules, 2, s).dealer == dealer)
    rigged["commitment"] = deal_commitment(rigged["seed"], SALT)
    return rigged


def _claim_seed_of_other_dealer(record: dict[str, Any]) -> dict[str, Any]:
    """A rigged record: its deals claimed to come from a seed that draws the other first dealer."""
    rigged = copy.deepcopy(record)
    dealer = record["rounds"][0]["dealer"]
    rules = preset("classic")
    rigged["seed"] = next(s for s in range(record["seed"] + 1, 10**6) if Game(rules, 2, s).dealer != dealer)
    rigged["commitment"] = deal_commitment(rigged["seed"], SALT)
    return rigged


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda r: r.update(commitment="0" * 64), "do not match the commitment"),
        (lambda r: r.update(salt="ab" * 16), "do not match the commitment"),
        (lambda r: r.update(seed=r["seed"] + 1), "do not match the commitment"),
        (lambda r: r.update(commitment="XYZ"), "64 lowercase hex"),
        (lambda r: r.pop("salt"), "'salt'"),
        # rounds numbered from 1, as the replay shows them (and as its other errors say)
        (_claim_other_seed, "^round 1: the deal is not the one the revealed seed gives$"),
        (_claim_seed_of_other_dealer, "^round 1: the dealer is seat [12], the seed draws seat [12]$"),
    ],
)
def test_a_record_whose_deals_are_not_the_committed_seeds_is_refused(change: Any, message: str) -> None:
    record = committed_record(played(preset("classic"), 11))
    changed = change(record)
    record = changed if isinstance(changed, dict) and "rounds" in changed else record
    with pytest.raises(RecordError, match=message):
        replay(record)


def test_the_replay_command_says_the_deal_was_verified(tmp_path: Path) -> None:
    game = played(preset("classic"), 3)
    path = tmp_path / "r.json"
    path.write_text(dumps(record_of(game, ["a", "b"], salt=SALT)))
    code = "from roppyakken.cli import main; raise SystemExit(main())"
    done = subprocess.run(
        [sys.executable, "-c", code, "replay", "--quiet", str(path)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert (
        f"fair deal verified: the revealed seed matches commitment {deal_commitment(3, SALT)}" in done.stdout
    )
    rigged = _claim_other_seed(json.loads(path.read_text()))
    path.write_text(json.dumps(rigged))
    done = subprocess.run([sys.executable, "-c", code, "replay", str(path)], capture_output=True, text=True)
    assert (
        done.returncode != 0
        and "not the one the revealed seed gives" in done.stderr
        and done.stderr.count("\n") == 1
    )
