"""Sessions (server/people/sessions.py): a signed-in browser acts as its account's player until the session
ends, idles out or is revoked; an adopted guest's own cookie no longer acts."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial
from pathlib import Path

from sqlalchemy import insert, select, update

from roppyakken.server.people import players, sessions
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import accounts
from roppyakken.server.store.tables import players as players_table
from roppyakken.server.store.tables import sessions as sessions_table

NOW = 1_800_000_000.0


def _db(tmp_path: Path) -> Database:
    db = Database(f"sqlite:///{tmp_path / 's.sqlite3'}")
    db.open()
    return db


def _account(db: Database, name: str) -> tuple[players.Player, str]:
    """A guest who made an account: the guest is the account's player and points at it."""

    def work(conn: object) -> tuple[players.Player, str]:
        from sqlalchemy import Connection

        assert isinstance(conn, Connection)
        guest = players.create(conn, name)
        account_id = "acct" + guest.id
        conn.execute(
            insert(accounts).values(
                id=account_id,
                login=name.lower(),
                password_hash=None,
                player_id=guest.id,
                created_at=datetime.now(UTC),
            )
        )
        conn.execute(
            update(players_table).where(players_table.c.id == guest.id).values(account_id=account_id)
        )
        return guest, account_id

    return db.run_now(work)


def test_a_session_acts_as_the_accounts_player_and_its_csrf_comes_from_the_token(tmp_path: Path) -> None:
    db = _db(tmp_path)
    guest, account_id = _account(db, "Ann")
    token = db.run_now(lambda c: sessions.start(c, account_id, NOW, address="127.0.0.1", agent="test"))
    acting = db.run_now(lambda c: players.identify(c, token, None, NOW + 1))
    assert acting is not None
    assert (acting.id, acting.name, acting.account_id) == (guest.id, "Ann", account_id)
    assert acting.csrf == players.csrf_token(token) != players.csrf_token(guest.secret)
    stored = db.run_now(lambda c: c.execute(select(sessions_table.c.token_hash)).scalars().all())
    assert stored == [sessions.hash_token(token)] and token not in stored
    # the adopted guest's own cookie no longer acts: only a session acts for an account
    assert db.run_now(lambda c: players.identify(c, None, f"{guest.id}.{guest.secret}", NOW)) is None
    assert db.run_now(lambda c: players.reload(c, acting)) is not None


def test_sessions_end_one_by_one_all_at_once_idle_and_old(tmp_path: Path) -> None:
    db = _db(tmp_path)
    _, account_id = _account(db, "Bo")
    first = db.run_now(lambda c: sessions.start(c, account_id, NOW, address=None, agent=None))
    second = db.run_now(lambda c: sessions.start(c, account_id, NOW, address=None, agent=None))
    assert first != second and db.run_now(lambda c: sessions.count(c, account_id)) == 2
    assert db.run_now(lambda c: sessions.end(c, first))
    assert db.run_now(lambda c: sessions.load(c, first, NOW)) is None
    assert db.run_now(lambda c: sessions.load(c, second, NOW)) is not None
    third = db.run_now(lambda c: sessions.start(c, account_id, NOW, address=None, agent=None))
    assert db.run_now(lambda c: sessions.end_all(c, account_id)) == 2
    assert db.run_now(lambda c: sessions.load(c, third, NOW)) is None
    # idle: used within IDLE_TTL keeps it (seen_at moves), past it ends it
    idle = db.run_now(lambda c: sessions.start(c, account_id, NOW, address=None, agent=None))
    later = NOW + sessions.IDLE_TTL - 1
    assert db.run_now(lambda c: sessions.load(c, idle, later)) is not None
    assert db.run_now(lambda c: sessions.load(c, idle, later + sessions.IDLE_TTL - 2)) is not None
    assert db.run_now(lambda c: sessions.load(c, idle, later + 3 * sessions.IDLE_TTL)) is None
    # too old, however often used
    old = db.run_now(lambda c: sessions.start(c, account_id, NOW, address=None, agent=None))
    t = NOW
    while t < NOW + sessions.MAX_TTL - sessions.IDLE_TTL:
        t += sessions.IDLE_TTL / 2
        assert db.run_now(partial(sessions.load, token=old, now=t)) is not None
    assert db.run_now(lambda c: sessions.load(c, old, NOW + sessions.MAX_TTL)) is None


def test_sweep_deletes_only_ended_sessions(tmp_path: Path) -> None:
    db = _db(tmp_path)
    _, account_id = _account(db, "Cy")
    db.run_now(lambda c: sessions.start(c, account_id, NOW, address=None, agent=None))
    fresh = db.run_now(
        lambda c: sessions.start(c, account_id, NOW + sessions.IDLE_TTL, address=None, agent=None)
    )
    assert db.run_now(lambda c: sessions.sweep(c, NOW + sessions.IDLE_TTL + 1)) == 1
    assert db.run_now(lambda c: sessions.load(c, fresh, NOW + sessions.IDLE_TTL + 2)) is not None


def test_bad_session_cookies_are_not_tokens() -> None:
    assert sessions.valid_token(None) is None
    assert sessions.valid_token("") is None
    assert sessions.valid_token("a;b") is None
    assert sessions.valid_token("x" * 101) is None
    assert sessions.valid_token("abc-_9") == "abc-_9"
