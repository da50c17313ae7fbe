"""``roppyakken admin`` on a SQLite database: each action is stored and logged with its actor, the
listings show what moderators need, and bad input gets one line and exit code 2, changing nothing."""

from __future__ import annotations

import getpass
import json
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy import Connection, insert, select, update

from roppyakken.server.people import moderation
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import abandonments, moderation_log, players, reports, sanctions
from tests.harness.support import run_cli


@pytest.fixture
def database(tmp_path: Path) -> str:
    """A migrated database with one player, ``p1``, who abandoned two rated games just now."""
    url = f"sqlite:///{tmp_path / 'admin.sqlite3'}"
    db = Database(url)
    db.open()
    now = time.time()

    def fill(c: Connection) -> None:
        c.execute(insert(players).values(id="p1", secret_hash="x", name="pat", created_at=datetime.now(UTC)))
        for i in range(2):
            c.execute(
                insert(abandonments).values(
                    player_id="p1", room_id=f"r{i}", seat=1, at=now - 60 + i, cause="timeout"
                )
            )
        c.execute(
            insert(reports).values(
                at=now,
                reporter_id="p2",
                room_id="r0",
                kind="message",
                channel="players",
                chat_idx=3,
                seat=1,
                player_id="p1",
                name="pat",
                text="rude words",
                reason="abuse",
                status="open",
            )
        )

    db.run_now(fill)
    db.engine.dispose()
    return url


def _admin(database: str, *args: str) -> tuple[int, str, str]:
    return run_cli(["admin", "--database", database, *args])


def _rows(database: str, table: object) -> list[object]:
    db = Database(database)
    try:
        return list(db.run_now(lambda c: c.execute(select(table)).all()))  # type: ignore[call-overload]
    finally:
        db.engine.dispose()


def test_mute_suspend_clear_and_the_log(database: str) -> None:
    code, out, err = _admin(database, "--as", "ann", "mute", "p1", "--for", "30m", "--reason", "insults")
    assert code == 0 and err == "" and out.startswith("sanction #1: mute player:p1 until ")
    code, out, _ = _admin(
        database, "suspend", "--address", "203.0.113.9/24", "--as", "bo"
    )  # options after too
    assert code == 0 and "suspend address:203.0.113.0/24 until cleared" in out
    stored = _rows(database, sanctions)
    assert [(s.kind, s.player_id, s.address, s.created_by) for s in stored] == [  # type: ignore[attr-defined]
        ("mute", "p1", None, "ann"),
        ("suspend", None, "203.0.113.0/24", "bo"),
    ]
    assert stored[0].expires_at - stored[0].created_at == pytest.approx(1800)  # type: ignore[attr-defined]
    code, out, _ = _admin(database, "--json", "sanctions")
    listed = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and [s["target"] for s in listed] == ["player:p1", "address:203.0.113.0/24"]
    assert _admin(database, "clear", "1")[0] == 0
    assert [s["id"] for s in map(json.loads, _admin(database, "--json", "sanctions")[1].splitlines())] == [2]
    assert "cleared" in _admin(database, "sanctions", "--all")[1]
    code, out, _ = _admin(database, "log")
    lines = out.splitlines()
    me = getpass.getuser()
    assert len(lines) == 3
    assert f" {me} clear player:p1 #1 (mute)" in lines[0]  # the default actor: the OS user
    assert " bo suspend address:203.0.113.0/24 #2" in lines[1]
    assert " ann mute player:p1 #1 for 1800 s: insults" in lines[2]


def test_reports_and_playbans(database: str) -> None:
    code, out, _ = _admin(database, "reports")
    assert code == 0 and "“rude words”" in out and out.startswith("#1 ") and "pat (player p1)" in out
    assert _admin(database, "close-report", "1") == (0, "report #1 closed\n", "")
    assert _admin(database, "reports")[1] == ""
    assert "rude words" in _admin(database, "reports", "--all")[1]
    code, out, _ = _admin(database, "playban", "p1")
    assert code == 0 and "room r1 seat 1 timeout" in out and "playban until" in out
    code, out, _ = _admin(database, "--as", "ann", "playban", "p1", "--forgive")
    assert code == 0 and "2 abandoned games of p1 forgiven" in out and "playban until" not in out
    assert all(r.forgiven for r in _rows(database, abandonments))  # type: ignore[attr-defined]
    actions = [(r.actor, r.action, r.target) for r in _rows(database, moderation_log)]  # type: ignore[attr-defined]
    assert actions[-1] == ("ann", "forgive", "player:p1")


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["mute", "nobody"], "there is no player 'nobody'"),
        (["suspend", "--account", "acc"], "there is no account 'acc'"),
        (["suspend", "--address", "not-an-ip"], "'not-an-ip' is not an IP address or network"),
        (["mute", "p1", "--for", "3 days"], "'3 days' is not a duration"),
        (["mute", "p1", "--for", "0m"], "'0m' is not a duration"),
        (["clear", "7"], "there is no sanction #7"),
        (["clear", "x"], "'x' is not a positive whole number"),
        (["close-report", "9"], "there is no report #9"),
        (["suspend"], "one of the arguments --player --account --address is required"),
        (["suspend", "--player", "p1", "--address", "10.0.0.1"], "not allowed with argument"),
    ],
)
def test_bad_input_is_one_line_and_changes_nothing(database: str, args: list[str], words: str) -> None:
    code, out, err = _admin(database, *args)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1 and "Traceback" not in err
    assert _rows(database, sanctions) == [] and _rows(database, moderation_log) == []


def test_a_sanction_cleared_twice_is_refused(database: str) -> None:
    assert _admin(database, "mute", "p1")[0] == 0
    assert _admin(database, "clear", "1")[0] == 0
    code, _, err = _admin(database, "clear", "1")
    assert code == 2 and "sanction #1 is not in effect" in err


def test_suspended_answers_for_a_player_its_account_and_an_address(database: str) -> None:
    """What sign-in asks (server.moderation.suspended): an account's suspension covers its players."""
    from roppyakken.server.store.tables import accounts

    db = Database(database)
    db.open()

    def adopt(c: Connection) -> None:
        c.execute(insert(accounts).values(id="acc", player_id="p1", created_at=datetime.now(UTC)))
        c.execute(update(players).where(players.c.id == "p1").values(account_id="acc"))

    db.run_now(adopt)
    assert db.run_now(lambda c: moderation.suspended(c, player_id="p1")) is None
    assert _admin(database, "suspend", "--account", "acc", "--for", "1h")[0] == 0
    assert _admin(database, "suspend", "--address", "198.51.100.0/24")[0] == 0
    by_player = db.run_now(lambda c: moderation.suspended(c, player_id="p1"))
    by_account = db.run_now(lambda c: moderation.suspended(c, account_id="acc"))
    by_address = db.run_now(lambda c: moderation.suspended(c, address="198.51.100.20"))
    assert by_player is not None and by_player.target == "account:acc" and by_account == by_player
    assert by_address is not None and by_address.target == "address:198.51.100.0/24"
    assert db.run_now(lambda c: moderation.suspended(c, address="198.51.101.20")) is None
    # a suspension of the account's player stops the account's sign-in too
    assert _admin(database, "clear", "1")[0] == 0
    assert _admin(database, "suspend", "--player", "p1")[0] == 0
    by_its_player = db.run_now(lambda c: moderation.suspended(c, account_id="acc"))
    assert by_its_player is not None and by_its_player.target == "player:p1"
    assert _admin(database, "clear", "3")[0] == 0
    assert _admin(database, "suspend", "--account", "acc", "--for", "1h")[0] == 0
    later = time.time() + 2 * 3600  # the account's suspension has ended by then; the address's has not
    assert db.run_now(lambda c: moderation.suspended(c, player_id="p1", now=later)) is None
    assert db.run_now(lambda c: moderation.suspended(c, address="198.51.100.20", now=later)) is not None
    db.engine.dispose()
