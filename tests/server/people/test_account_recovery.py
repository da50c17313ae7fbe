"""A way back into an account, and sign-in names that cannot pass for another: recovery codes (shown
once, stored as argon2id hashes, each used once, made anew by the owner), reset links an operator
issues with ``roppyakken admin reset-link`` (stored hashed, used once, expiring), and logins normalized
(NFKC, case fold) with lookalikes of an existing login refused (UTS #39 skeletons), while logins stored
before keep working after the migration."""

from __future__ import annotations

import re
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx
import pytest
from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, select, text, update
from sqlalchemy.exc import IntegrityError

from roppyakken.server.people import accounts, logins, passwords, recovery
from roppyakken.server.people import players as players_module
from roppyakken.server.store.database import Database, migrate
from roppyakken.server.store.tables import accounts as accounts_table
from roppyakken.server.store.tables import password_resets, recovery_codes, sessions
from roppyakken.server.wire import text as server_text
from tests.harness.server_harness import running_server
from tests.harness.support import run_cli

CSRF = "X-CSRF-Token"
PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def cheap_argon2(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The cheap argon2id parameters (passwords.SETTING), for this test only."""
    monkeypatch.setenv(passwords.SETTING, "cheap")
    caches = (passwords.hasher, passwords.dummy_hash, recovery.code_hasher, recovery.dummy_code_hash)
    for cached in caches:
        cached.cache_clear()
    yield
    for cached in caches:
        cached.cache_clear()


def _send(client: httpx.Client, method: str, path: str, body: Any = None) -> httpx.Response:
    token = client.get("/api/me").json()["csrf"] or "new"
    return client.request(method, path, json=body, headers={CSRF: str(token)})


def _make(client: httpx.Client, login: str) -> httpx.Response:
    return _send(client, "POST", "/api/account", {"login": login, "password": PASSWORD})


# --- sign-in names -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("admin", "ＡＤＭＩＮ"),  # fullwidth
        ("admin", "аdmin"),  # Cyrillic а
        ("paypal", "paypa1"),
        ("bob", "b0b"),
        ("hana", "һаnа"),  # Cyrillic һ and а
        ("kirin", "kırın"),  # dotless ı
    ],
)
def test_lookalike_logins_have_the_same_skeleton(one: str, other: str) -> None:
    folded = logins.fold(other)
    assert folded is not None
    assert logins.skeleton(folded) == logins.skeleton(logins.fold(one) or "")


def test_different_logins_keep_different_skeletons() -> None:
    names = ["hana", "hanna", "kai", "kei", "mio", "ren", "sayo", "aki"]
    assert len({logins.skeleton(n) for n in names}) == len(names)


def test_a_login_is_stored_normalized_and_its_lookalikes_are_refused(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'n.sqlite3'}") as server:
        with httpx.Client(base_url=server.url, timeout=30) as first:
            made = _make(first, "ＡＤＭＩＮ")
            assert made.status_code == 201, made.text
            assert made.json()["account"]["login"] == "admin"
        for lookalike in ("admin", "Admin", "аdmin", "ａｄｍｉｎ", "аdmіn"):
            with httpx.Client(base_url=server.url, timeout=30) as other:
                refused = _make(other, lookalike)
                assert refused.status_code == 409, lookalike
                assert refused.json()["error"] == server_text.LOGIN_TAKEN
        with httpx.Client(base_url=server.url, timeout=30) as other:
            assert _make(other, "admins").status_code == 201
        # any width or case signs in to it
        with httpx.Client(base_url=server.url, timeout=30) as phone:
            signed = _send(phone, "POST", "/api/session", {"login": "Ａdmin", "password": PASSWORD})
            assert signed.status_code == 200 and signed.json()["account"]["login"] == "admin"


def _migrate_to(db: Database, revision: str) -> None:
    config = Config()
    config.set_main_option("script_location", str(Path(migrate.__code__.co_filename).parent / "migrations"))
    with db.engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, revision)


def test_logins_stored_before_the_normalization_keep_working(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'old.sqlite3'}"
    db = Database(url)
    hashed = passwords.make(PASSWORD)
    try:
        _migrate_to(db, "0006_accounts")
        with db.engine.begin() as conn:  # two accounts the old rules let in, side by side
            for number, login in enumerate(("admin", "ａｄｍｉｎ")):
                conn.execute(
                    text(
                        "INSERT INTO players (id, secret_hash, name, created_at) VALUES"
                        " (:p, 'x', :n, CURRENT_TIMESTAMP)"
                    ),
                    {"p": f"p{number}", "n": login},
                )
                conn.execute(
                    text(
                        "INSERT INTO accounts (id, login, password_hash, player_id, created_at) VALUES"
                        " (:a, :l, :h, :p, CURRENT_TIMESTAMP)"
                    ),
                    {"a": f"a{number}", "l": login, "h": hashed, "p": f"p{number}"},
                )
        db.open()  # to the head
        stored = db.run_now(
            lambda c: c.execute(text("SELECT id, login, login_skeleton FROM accounts ORDER BY id")).all()
        )
        # kept as they were; the skeleton is unique: the older of two lookalikes has it
        assert [tuple(r) for r in stored] == [
            ("a0", "admin", logins.skeleton("admin")),
            ("a1", "ａｄｍｉｎ", None),
        ]
    finally:
        db.engine.dispose()
    with running_server(url) as server:
        for typed, account in (("admin", "a0"), ("ａｄｍｉｎ", "a1"), ("ADMIN", "a0")):
            with httpx.Client(base_url=server.url, timeout=30) as client:
                signed = _send(client, "POST", "/api/session", {"login": typed, "password": PASSWORD})
                assert signed.status_code == 200, (typed, signed.text)
                assert signed.json()["account"]["id"] == account, typed
        with httpx.Client(base_url=server.url, timeout=30) as client:
            assert _make(client, "аdmin").status_code == 409


# --- recovery codes ------------------------------------------------------------------------------


def test_recovery_codes_are_shown_once_stored_hashed_and_each_used_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'c.sqlite3'}"
    db = Database(url)
    with running_server(url) as server, httpx.Client(base_url=server.url, timeout=30) as owner:
        made = _make(owner, "tomo")
        assert made.status_code == 201
        codes = made.json()["recovery_codes"]
        assert len(codes) == recovery.CODES == len(set(codes))
        assert all(re.fullmatch(r"[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}", c) for c in codes)
        account = _send(owner, "GET", "/api/account").json()["account"]
        assert account["recovery_codes"] == recovery.CODES and "codes" not in str(account).replace(
            "recovery_codes", ""
        )
        rows = db.run_now(lambda c: c.execute(select(recovery_codes)).all())
        assert len(rows) == recovery.CODES
        for row in rows:  # hashes only: no code, nor its part past the lookup, in the database
            assert row.code_hash.startswith("$argon2id$")
            assert not any(c.replace("-", "")[4:] in str(tuple(row)) for c in codes)
        # the export leaves the codes out
        exported = owner.get("/api/account/export").text
        assert "$argon2id$" not in exported and not any(c.replace("-", "")[:4] in exported for c in codes)

        with httpx.Client(base_url=server.url, timeout=30) as lost:
            # a wrong code, or a right code for another name, is refused alike, and changes nothing
            wrong = {"login": "tomo", "code": "0000-0000-0000-0000", "new_password": "a new password"}
            nobody = {**wrong, "login": "nobody", "code": codes[0]}
            answers = [_send(lost, "POST", "/api/account/recover", body) for body in (wrong, nobody)]
            assert {(a.status_code, a.json()["error"]) for a in answers} == {
                (401, server_text.RECOVERY_FAILED)
            }
            # the right one, typed loosely: a new password, every session ended, this browser signed in
            typed = codes[3].upper().replace("-", " ").replace("1", "l")
            body = {"login": "TOMO", "code": typed, "new_password": "a new password"}
            used = _send(lost, "POST", "/api/account/recover", body)
            assert used.status_code == 200, used.text
            assert used.json()["account"]["login"] == "tomo" and used.json()["recovery_codes_left"] == 9
            assert owner.get("/api/account").status_code == 401  # the other session ended
            assert (
                _send(lost, "POST", "/api/session", {"login": "tomo", "password": PASSWORD}).status_code
                == 401
            )
            again = _send(lost, "POST", "/api/session", {"login": "tomo", "password": "a new password"})
            assert again.status_code == 200
            # used once
            reused = _send(lost, "POST", "/api/account/recover", {**body, "new_password": "yet another one"})
            assert reused.status_code == 401
            # new codes, once confirmed with the password: the old ones end
            assert (
                _send(lost, "POST", "/api/account/recovery-codes", {"password": "wrong"}).status_code == 403
            )
            fresh = _send(lost, "POST", "/api/account/recovery-codes", {"password": "a new password"})
            assert fresh.status_code == 200 and len(fresh.json()["recovery_codes"]) == recovery.CODES
            stale = {"login": "tomo", "code": codes[5], "new_password": "one more password"}
            assert _send(lost, "POST", "/api/account/recover", stale).status_code == 401
            ok = {**stale, "code": fresh.json()["recovery_codes"][0]}
            assert _send(lost, "POST", "/api/account/recover", ok).status_code == 200
        # not signed in: no new codes
        with httpx.Client(base_url=server.url, timeout=30) as stranger:
            assert _send(stranger, "POST", "/api/account/recovery-codes", {}).status_code == 401
    db.engine.dispose()


def test_recovery_codes_are_rate_limited_per_name_and_address(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 'l.sqlite3'}") as server:
        with httpx.Client(base_url=server.url, timeout=30) as owner:
            codes = _make(owner, "yui").json()["recovery_codes"]
        with httpx.Client(base_url=server.url, timeout=30) as guesser:
            guess = {"login": "yui", "code": "0000-0000-0000-0000", "new_password": "a new password"}
            answers = [
                _send(guesser, "POST", "/api/account/recover", guess).status_code
                for _ in range(accounts.LOGIN_ATTEMPTS)
            ]
            assert answers == [401] * accounts.LOGIN_ATTEMPTS
            held = _send(guesser, "POST", "/api/account/recover", {**guess, "code": codes[0]})
            assert held.status_code == 429 and "retry-after" in held.headers


# --- reset links ---------------------------------------------------------------------------------


def _reset_link(database: str, login: str, *more: str) -> tuple[int, str, str]:
    return run_cli(["admin", "reset-link", login, "--database", database, "--as", "ops", *more])


def test_an_operator_issues_a_reset_link_used_once(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'r.sqlite3'}"
    with running_server(url) as server, httpx.Client(base_url=server.url, timeout=30) as owner:
        assert _make(owner, "nao").status_code == 201
        code, out, err = _reset_link(url, "NAO", "--site", server.url + "/")
        assert code == 0, err
        found = re.search(r"(http://\S+/#/reset/([A-Za-z0-9_-]+))", out)
        assert found is not None and "nao" in out and "\n" not in out.strip()
        token = found.group(2)
        db = Database(url)
        rows = db.run_now(lambda c: c.execute(select(password_resets)).all())
        db.engine.dispose()
        assert len(rows) == 1 and token not in str(tuple(rows[0])) and rows[0].created_by == "ops"
        logged = run_cli(["admin", "log", "--database", url])[1]
        assert "ops reset-link account:" in logged and token not in logged
        with httpx.Client(base_url=server.url, timeout=30) as locked_out:
            body = {"token": token, "new_password": "brand new password"}
            done = _send(locked_out, "POST", "/api/account/reset", body)
            assert done.status_code == 200, done.text
            assert done.json()["account"]["login"] == "nao"
            assert owner.get("/api/account").status_code == 401  # every other session ended
            again = _send(locked_out, "POST", "/api/account/reset", body)
            assert again.status_code == 400 and again.json()["error"] == server_text.RESET_LINK_INVALID
            signed = _send(
                locked_out, "POST", "/api/session", {"login": "nao", "password": "brand new password"}
            )
            assert signed.status_code == 200
        # an expired link
        code, out, _ = _reset_link(url, "nao", "--for", "1s")
        token = out.split("/#/reset/")[1].split()[0]
        db = Database(url)
        db.run_now(lambda c: c.execute(update(password_resets).values(expires_at=time.time() - 1)))
        db.engine.dispose()
        with httpx.Client(base_url=server.url, timeout=30) as late:
            expired = _send(late, "POST", "/api/account/reset", {"token": token, "new_password": "x" * 12})
            assert expired.status_code == 400
            forged = _send(late, "POST", "/api/account/reset", {"token": "a" * 43, "new_password": "x" * 12})
            assert forged.status_code == 400 and "\n" not in forged.json()["error"]


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["nobody"], "there is no account with the sign-in name 'nobody'"),
        (["nao", "--for", "soon"], "'soon' is not a duration"),
        (["nao", "--site", "not a site"], "'not a site' is not a site address"),
    ],
)
def test_a_reset_link_for_a_bad_request_is_one_line(tmp_path: Path, args: list[str], words: str) -> None:
    url = f"sqlite:///{tmp_path / 'b.sqlite3'}"
    with running_server(url) as server, httpx.Client(base_url=server.url, timeout=30) as owner:
        assert _make(owner, "nao").status_code == 201
    code, out, err = _reset_link(url, *args)
    assert code != 0 and out == ""
    assert words in err and len(err.strip().splitlines()) <= 2 and "Traceback" not in err


def test_erasing_an_account_takes_its_codes_links_and_devices(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'e.sqlite3'}"
    with running_server(url) as server, httpx.Client(base_url=server.url, timeout=30) as owner:
        assert _make(owner, "eri").status_code == 201
        assert _reset_link(url, "eri")[0] == 0
        assert _send(owner, "DELETE", "/api/account", {"password": PASSWORD}).status_code == 200
    db = Database(url)
    counts = db.run_now(
        lambda c: [
            c.execute(text(f"SELECT count(*) FROM {t}")).scalar()
            for t in ("recovery_codes", "password_resets", "trusted_devices")
        ]
    )
    assert counts == [0, 0, 0]
    assert db.run_now(lambda c: c.execute(select(sessions)).all()) == []
    db.engine.dispose()


def test_lookalike_logins_made_at_once_leave_one_account(database: str) -> None:
    """Eight browsers make ``admin`` and lookalikes of it at the same moment: one account is made, every
    other answer is 409."""
    names = ["admin", "ＡＤＭＩＮ", "аdmin", "admіn", "Admin", "ａｄｍｉｎ", "аdmіn", "ADMIN"]
    with running_server(database) as server:
        clients = [httpx.Client(base_url=server.url, timeout=60) for _ in names]
        try:
            tokens = [
                str(c.post("/api/me", json={"name": "x"}, headers={CSRF: "new"}).json()["csrf"])
                for c in clients
            ]
            barrier = threading.Barrier(len(names))

            def make(i: int) -> int:
                barrier.wait()
                body = {"login": names[i], "password": PASSWORD}
                return clients[i].post("/api/account", json=body, headers={CSRF: tokens[i]}).status_code

            with ThreadPoolExecutor(len(names)) as pool:
                answers = sorted(pool.map(make, range(len(names))))
        finally:
            for c in clients:
                c.close()
    assert answers == [201] + [409] * (len(names) - 1)


def test_the_skeleton_is_unique_in_the_database_too(database: str) -> None:
    """Where two members of a cluster check a new login at the same moment, the unique index on the
    skeleton refuses the second row."""
    db = Database(database)
    db.open()
    try:

        def make(conn: Connection, name: str, login: str) -> None:
            player = players_module.create(conn, name)
            conn.execute(
                accounts_table.insert().values(
                    id=name,
                    login=login,
                    password_hash=None,
                    player_id=player.id,
                    created_at=datetime.now(UTC),
                    login_skeleton=logins.skeleton(login),
                )
            )

        db.run_now(lambda c: make(c, "first", "admin"))
        with pytest.raises(IntegrityError):
            db.run_now(lambda c: make(c, "second", "аdmin"))
    finally:
        db.engine.dispose()


def test_the_new_requests_need_the_csrf_token_and_bad_bodies_get_one_line(tmp_path: Path) -> None:
    with (
        running_server(f"sqlite:///{tmp_path / 'x.sqlite3'}") as server,
        httpx.Client(base_url=server.url, timeout=30) as client,
    ):
        assert _make(client, "kana").status_code == 201
        recover = {"login": "kana", "code": "0000-0000-0000-0000", "new_password": "a new password"}
        reset = {"token": "a" * 43, "new_password": "a new password"}
        for path, body in (
            ("/api/account/recover", recover),
            ("/api/account/reset", reset),
            ("/api/account/recovery-codes", {"password": PASSWORD}),
        ):
            assert client.post(path, json=body).status_code == 403, path  # no header
            cross = {CSRF: client.get("/api/me").json()["csrf"], "Sec-Fetch-Site": "cross-site"}
            assert client.post(path, json=body, headers=cross).status_code == 403, path
        bad: list[tuple[str, Any, str]] = [
            ("/api/account/recover", {**recover, "code": 7}, "'code'"),
            ("/api/account/recover", {**recover, "new_password": "short"}, "8 to 1024"),
            ("/api/account/reset", {"new_password": "a new password"}, "'token'"),
            ("/api/account/reset", {**reset, "token": "../../etc"}, "reset link"),
            ("/api/account/recovery-codes", [1], "JSON object"),
        ]
        for path, wrong, words in bad:
            answer = _send(client, "POST", path, wrong)
            error = answer.json()["error"]
            assert answer.status_code == 400 and words in error and "\n" not in error, (path, error)
