"""Accounts over HTTP, on SQLite and on PostgreSQL: a guest makes an account and signs in elsewhere with
its history, sessions rotate and are revoked, sign-ins are rate-limited per name and per address, a
wrong name is answered as a wrong password (the same verifier runs), the export holds what the server
knows, and deleting an account anonymises its games while every record still replays and verifies."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from argon2 import PasswordHasher
from sqlalchemy import Connection

from roppyakken.record import committed, replay
from roppyakken.server.people import accounts, passwords, sessions
from roppyakken.server.people import players as players_module
from roppyakken.server.people.players import COOKIE
from roppyakken.server.people.sessions import COOKIE as SESSION_COOKIE
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import chat, players, rooms, seats
from roppyakken.server.store.tables import sessions as sessions_table
from roppyakken.server.wire import text
from tests.harness.server_harness import Player, ServerThread, limits_for_tests, play_to_end, running_server
from tests.harness.support import run_cli

CSRF = "X-CSRF-Token"
PASSWORD = "correct horse battery"


@pytest.fixture(autouse=True)
def cheap_argon2(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The cheap argon2id parameters (passwords.SETTING), for this test only."""
    monkeypatch.setenv(passwords.SETTING, "cheap")
    passwords.hasher.cache_clear()
    passwords.dummy_hash.cache_clear()
    yield
    passwords.hasher.cache_clear()
    passwords.dummy_hash.cache_clear()


def _csrf(client: httpx.Client) -> str:
    token = client.get("/api/me").json()["csrf"]
    return str(token) if token else "new"


def _become(client: httpx.Client, name: str) -> str:
    made = client.post("/api/me", json={"name": name}, headers={CSRF: "new"})
    assert made.status_code == 201, made.text
    return str(made.json()["csrf"])


def _send(client: httpx.Client, method: str, path: str, body: Any = None) -> httpx.Response:
    return client.request(method, path, json=body, headers={CSRF: _csrf(client)})


def _sign_in(client: httpx.Client, login: str, password: str = PASSWORD) -> httpx.Response:
    return _send(client, "POST", "/api/session", {"login": login, "password": password})


def _game(server: ServerThread, client: httpx.Client, say: str | None = None) -> str:
    """A finished game (deals committed) the client's player took seat 0 of, against a bot."""
    made = client.post(
        "/api/rooms",
        json={"name": "x", "bots": {"1": "random"}, "public": True},
        headers={CSRF: _csrf(client)},
    )
    assert made.status_code == 201, made.text
    room, token = made.json()["room"], made.json()["token"]

    async def scenario() -> None:
        me = await Player.join(server, room, token)
        if say is not None:
            await me.send({"type": "chat", "text": say, "id": "c1"})
            await me.expect("chat")
        await play_to_end([me], seed=5)
        await me.close()

    asyncio.run(scenario())
    return str(room)


def test_an_account_keeps_the_guests_games_and_signs_in_on_another_device(database: str) -> None:
    with running_server(database) as server:
        with httpx.Client(base_url=server.url, timeout=30) as first:
            _become(first, "Hana")
            room = _game(server, first)
            made = _send(first, "POST", "/api/account", {"login": "Hana", "password": PASSWORD})
            assert made.status_code == 201, made.text
            assert made.json()["account"]["login"] == "hana"
            assert made.json()["player"]["name"] == "Hana"
            cookie = made.headers["set-cookie"].lower()
            assert SESSION_COOKIE in cookie and "httponly" in cookie and "samesite=lax" in cookie
            me = first.get("/api/me").json()
            assert me["account"] == made.json()["account"] and me["csrf"] == made.json()["csrf"]
            assert [g["room"] for g in first.get("/api/account").json()["games"]] == [room]
            # the same name, whatever its case, is taken
            with httpx.Client(base_url=server.url, timeout=30) as other:
                taken = _send(other, "POST", "/api/account", {"login": "HANA", "password": PASSWORD})
                assert taken.status_code == 409 and taken.json()["error"] == text.LOGIN_TAKEN

        # another device: a guest with a game of its own signs in; both histories are the account's
        with httpx.Client(base_url=server.url, timeout=30) as second:
            _become(second, "Hana on the phone")
            other_room = _game(server, second)
            guest_cookie = second.cookies[COOKIE]
            signed = _sign_in(second, "HANA")
            assert signed.status_code == 200, signed.text
            assert signed.json()["player"]["name"] == "Hana"
            games = {g["room"] for g in second.get("/api/account").json()["games"]}
            assert games == {room, other_room}
            # the adopted guest's own cookie no longer acts
            with httpx.Client(base_url=server.url, timeout=30) as thief:
                thief.cookies.set(COOKIE, guest_cookie)
                assert thief.get("/api/me").json()["player"] is None

            # signing in again rotates the session: the old token is dead
            old = second.cookies[SESSION_COOKIE]
            assert _sign_in(second, "hana").status_code == 200
            assert second.cookies[SESSION_COOKIE] != old
            with httpx.Client(base_url=server.url, timeout=30) as replayed:
                replayed.cookies.set(SESSION_COOKIE, old)
                assert replayed.get("/api/me").json()["account"] is None
                assert replayed.get("/api/account").status_code == 401


def test_sessions_listed_revoked_one_by_one_and_everywhere(database: str) -> None:
    with running_server(database) as server:
        devices = [httpx.Client(base_url=server.url, timeout=30) for _ in range(3)]
        try:
            one, two, three = devices
            assert (
                _send(one, "POST", "/api/account", {"login": "ren", "password": PASSWORD}).status_code == 201
            )
            assert _sign_in(two, "ren").status_code == 200
            assert _sign_in(three, "ren").status_code == 200
            listed = one.get("/api/sessions").json()["sessions"]
            assert len(listed) == 3 and sum(s["current"] for s in listed) == 1
            assert all(s["address"] == "127.0.0.1" and len(s["id"]) == 16 for s in listed)
            # end the third device's session from the first
            third = next(s["id"] for s in three.get("/api/sessions").json()["sessions"] if s["current"])
            assert _send(one, "DELETE", f"/api/sessions/{third}").status_code == 200
            assert three.get("/api/me").json()["account"] is None
            assert _send(one, "DELETE", "/api/sessions/0123456789abcdef").status_code == 404
            # sign out everywhere: every session, this one too
            ended = _send(two, "DELETE", "/api/sessions")
            assert ended.status_code == 200 and ended.json()["ended"] == 2
            assert one.get("/api/me").json()["account"] is None
            assert two.get("/api/me").json()["account"] is None
            # sign out: this session only
            assert _sign_in(one, "ren").status_code == 200
            assert _sign_in(two, "ren").status_code == 200
            assert _send(one, "DELETE", "/api/session").status_code == 200
            assert one.get("/api/me").json()["account"] is None
            assert two.get("/api/me").json()["account"]["login"] == "ren"
        finally:
            for client in devices:
                client.close()


def test_a_new_password_needs_the_old_one_and_ends_the_other_sessions(tmp_path: Path) -> None:
    with (
        running_server(f"sqlite:///{tmp_path / 'p.sqlite3'}") as server,
        httpx.Client(base_url=server.url, timeout=30) as one,
        httpx.Client(base_url=server.url, timeout=30) as two,
    ):
        assert _send(one, "POST", "/api/account", {"login": "rin", "password": PASSWORD}).status_code == 201
        assert _sign_in(two, "rin").status_code == 200
        short = _send(one, "POST", "/api/account/password", {"password": PASSWORD, "new_password": "short"})
        assert short.status_code == 400 and short.json()["error"] == text.PASSWORD_INVALID
        wrong = _send(one, "POST", "/api/account/password", {"password": "nope", "new_password": "x" * 9})
        assert wrong.status_code == 403
        changed = _send(
            one, "POST", "/api/account/password", {"password": PASSWORD, "new_password": "n" * 12}
        )
        assert changed.status_code == 200, changed.text
        assert two.get("/api/me").json()["account"] is None
        assert one.get("/api/me").json()["account"]["login"] == "rin"
        assert _sign_in(two, "rin").status_code == 401
        assert _sign_in(two, "rin", "n" * 12).status_code == 200


def test_changes_need_the_csrf_token_and_this_sites_origin(tmp_path: Path) -> None:
    with (
        running_server(f"sqlite:///{tmp_path / 'c.sqlite3'}") as server,
        httpx.Client(base_url=server.url, timeout=30) as client,
    ):
        body = {"login": "sora", "password": PASSWORD}
        assert client.post("/api/account", json=body).status_code == 403  # no header
        made = _send(client, "POST", "/api/account", body)
        assert made.status_code == 201
        refused = [
            client.delete("/api/sessions"),
            client.delete("/api/sessions", headers={CSRF: "not-it"}),
            client.request(
                "DELETE",
                "/api/sessions",
                headers={CSRF: _csrf(client), "Origin": "https://evil.example"},
            ),
            client.post(
                "/api/session", json=body, headers={CSRF: _csrf(client), "Sec-Fetch-Site": "cross-site"}
            ),
        ]
        assert [r.status_code for r in refused] == [403, 403, 403, 403]
        assert client.get("/api/me").json()["account"]["login"] == "sora"


def _from(client: httpx.Client, address: str, path: str, body: Any) -> httpx.Response:
    """POST as a browser at ``address`` (the test server trusts 127.0.0.1 as a reverse proxy)."""
    seen = {"X-Forwarded-For": address}
    token = client.get("/api/me", headers=seen).json()["csrf"] or "new"
    return client.post(path, json=body, headers={**seen, CSRF: token})


def test_strangers_hammering_a_name_are_slowed_and_its_owner_on_their_device_is_not(
    tmp_path: Path,
) -> None:
    limits = limits_for_tests(trusted_proxies=("127.0.0.1",))
    with (
        running_server(f"sqlite:///{tmp_path / 'r.sqlite3'}", limits=limits) as server,
        httpx.Client(base_url=server.url, timeout=30) as owner,
        httpx.Client(base_url=server.url, timeout=30) as attacker,
        httpx.Client(base_url=server.url, timeout=30) as new_phone,
    ):
        home = "10.5.0.1"
        made = _from(owner, home, "/api/account", {"login": "kai", "password": PASSWORD})
        assert made.status_code == 201
        device = next(c for c in made.headers.get_list("set-cookie") if c.startswith("rp_device="))
        assert "httponly" in device.lower() and "samesite=lax" in device.lower()
        owner.request("DELETE", "/api/session", headers={CSRF: _csrf(owner), "X-Forwarded-For": home})
        assert owner.get("/api/me").json()["account"] is None
        # the attacker, from a new address each time: the name's own limit slows them
        wrong = {"login": "kai", "password": "wrong password"}
        answers = [
            _from(attacker, f"10.6.0.{i}", "/api/session", wrong).status_code
            for i in range(accounts.LOGIN_ATTEMPTS)
        ]
        assert answers == [401] * accounts.LOGIN_ATTEMPTS
        for i in range(3):  # still hammering: held, even with the right password
            limited = _from(attacker, f"10.6.1.{i}", "/api/session", {"login": "KAI", "password": PASSWORD})
            assert limited.status_code == 429
            assert limited.json()["error"] == text.SIGN_IN_LIMITED.format(minutes=3)
            assert int(limited.headers["retry-after"]) > 60
        # a browser that never signed in to it is held too...
        held = _from(new_phone, home, "/api/session", {"login": "kai", "password": PASSWORD})
        assert held.status_code == 429
        # ...but the owner's, with its device cookie, signs in, whatever the name's case or width
        signed = _from(owner, home, "/api/session", {"login": "ＫＡＩ", "password": PASSWORD})
        assert signed.status_code == 200, signed.text
        assert signed.json()["account"]["login"] == "kai"
        # the device has a limit of its own: its wrong passwords hold it, not the others
        mine = [
            _from(owner, home, "/api/session", wrong).status_code for _ in range(accounts.LOGIN_ATTEMPTS - 1)
        ]
        assert mine == [401] * (accounts.LOGIN_ATTEMPTS - 1)
        assert _from(owner, home, "/api/session", wrong).status_code == 429
        # a device cookie of another account does not let a browser past the name's limit
        with httpx.Client(base_url=server.url, timeout=30) as other:
            assert _from(other, "10.7.0.1", "/api/account", {"login": "ren", "password": PASSWORD}).is_success
            assert (
                _from(other, "10.7.0.1", "/api/session", {"login": "kai", "password": PASSWORD}).status_code
                == 429
            )


def test_sign_ins_are_limited_per_address_and_the_owners_confirmations_apart(tmp_path: Path) -> None:
    with (
        running_server(f"sqlite:///{tmp_path / 'r.sqlite3'}") as server,
        httpx.Client(base_url=server.url, timeout=30) as client,
        httpx.Client(base_url=server.url, timeout=30) as owner,
    ):
        assert _send(owner, "POST", "/api/account", {"login": "kai", "password": PASSWORD}).status_code == 201
        answers = [
            _sign_in(client, "kai", "wrong password").status_code for _ in range(accounts.LOGIN_ATTEMPTS)
        ]
        assert answers == [401] * accounts.LOGIN_ATTEMPTS
        assert _sign_in(client, "kai").status_code == 429
        # strangers' attempts do not stop the signed-in owner confirming with the password
        fresh = {"password": PASSWORD, "new_password": "another password"}
        assert _send(owner, "POST", "/api/account/password", fresh).status_code == 200
        # another name from this address still signs in, until the address's own limit
        made = 1 + accounts.LOGIN_ATTEMPTS + 1 + 1
        left = accounts.ADDRESS_ATTEMPTS - made
        others = [_sign_in(client, f"user{i}", "whatever1").status_code for i in range(left)]
        assert others == [401] * left
        assert _sign_in(client, "someone-else").status_code == 429


def test_an_unknown_name_is_answered_as_a_wrong_password_after_the_same_verification(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    verified: list[str] = []
    real = PasswordHasher.verify

    def counting(self: PasswordHasher, hash: str | bytes, password: str | bytes) -> bool:
        verified.append(str(hash))
        return real(self, hash, password)

    monkeypatch.setattr(PasswordHasher, "verify", counting)
    with (
        running_server(f"sqlite:///{tmp_path / 'e.sqlite3'}") as server,
        httpx.Client(base_url=server.url, timeout=30) as client,
    ):
        assert (
            _send(client, "POST", "/api/account", {"login": "mio", "password": PASSWORD}).status_code == 201
        )
        _send(client, "DELETE", "/api/session")
        verified.clear()
        answers = {}
        for login in ("mio", "nobody-here", "!!"):
            answer = _sign_in(client, login, "not the password")
            answers[login] = (answer.status_code, answer.json())
            assert len(verified) == 1, login  # one argon2 verification for each, known or not
            assert verified.pop().startswith("$argon2id$")
        assert len(set(map(json.dumps, answers.values()))) == 1
        assert answers["mio"][0] == 401 and answers["mio"][1]["error"] == text.SIGN_IN_FAILED


def test_a_hash_made_with_other_parameters_is_made_again_at_sign_in(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'h.sqlite3'}"
    with running_server(url) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        _send(client, "POST", "/api/account", {"login": "old", "password": PASSWORD})
    db = Database(url)
    older = PasswordHasher(time_cost=2, memory_cost=16, parallelism=1).hash(PASSWORD)
    try:
        db.run_now(lambda c: accounts.set_password(c, accounts.find(c, login="old").id, older))  # type: ignore[union-attr]
    finally:
        db.engine.dispose()
    with running_server(url) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        assert _sign_in(client, "old").status_code == 200
    db = Database(url)
    try:
        stored = db.run_now(lambda c: accounts.find(c, login="old"))
    finally:
        db.engine.dispose()
    assert stored is not None and stored.password_hash != older
    assert not passwords.hasher().check_needs_rehash(str(stored.password_hash))


def test_production_parameters_are_the_librarys_defaults(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(passwords.SETTING)
    passwords.hasher.cache_clear()
    ph = passwords.hasher()
    default = PasswordHasher()
    assert (ph.time_cost, ph.memory_cost, ph.parallelism) == (
        default.time_cost,
        default.memory_cost,
        default.parallelism,
    )
    assert ph.memory_cost >= 65536  # RFC 9106's low-memory profile (64 MiB)


def test_export_holds_what_the_server_knows_and_delete_anonymises_games(
    database: str, tmp_path: Path
) -> None:
    with running_server(database) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        _become(client, "Yuki")
        room = _game(server, client, say="hello from Yuki")
        assert (
            _send(client, "POST", "/api/account", {"login": "yuki", "password": PASSWORD}).status_code == 201
        )
        exported = client.get("/api/account/export")
        assert exported.status_code == 200
        assert "attachment" in exported.headers["content-disposition"]
        data = exported.json()
        assert data["format"] == "roppyakken-account-export/1"
        assert data["account"]["login"] == "yuki" and data["account"]["password"] is True
        assert [p["name"] for p in data["players"]] == ["Yuki"]
        assert [(g["room"], g["seat"], g["status"]) for g in data["games"]] == [(room, 0, "over")]
        assert data["games"][0]["record"] == f"/api/games/{room}/record"
        assert [line["text"] for line in data["chat"]] == ["hello from Yuki"]
        assert len(data["sessions"]) == 1 and data["sessions"][0]["current"]
        assert {"ratings", "rating_history"} <= set(data)
        raw = exported.text
        assert PASSWORD not in raw and "argon2" not in raw and "secret_hash" not in raw
        assert client.cookies[SESSION_COOKIE] not in raw

        # deleting needs the password
        wrong = _send(client, "DELETE", "/api/account", {"password": "not it at all"})
        assert wrong.status_code == 403
        deleted = _send(client, "DELETE", "/api/account", {"password": PASSWORD})
        assert deleted.status_code == 200, deleted.text
        label = deleted.json()["label"]
        assert label.startswith("deleted-")
        assert client.get("/api/me").json() == {"player": None, "csrf": None, "account": None}
        assert _sign_in(client, "yuki").status_code == 401
        record = client.get(f"/api/games/{room}/record").json()
        listed = client.get("/api/games").json()["games"]
    assert record["players"] == [label, "bot:random"]
    assert committed(record) is not None  # the deal commitment is still there, and still proves the deals
    game, names = replay(record)
    assert game.over and names == [label, "bot:random"]
    saved = tmp_path / "record.json"
    saved.write_text(json.dumps(record))
    code, _out, err = run_cli(["replay", str(saved)])
    assert code == 0, err
    assert [g["players"] for g in listed if g["room"] == room] == [[label, "bot:random"]]
    db = Database(database)
    try:
        dump = db.run_now(
            lambda c: (
                [r[0] for r in c.execute(players.select().with_only_columns(players.c.name))],
                [r[0] for r in c.execute(seats.select().with_only_columns(seats.c.name))],
                [r[0] for r in c.execute(chat.select().with_only_columns(chat.c.text))],
                c.execute(sessions_table.select()).all(),
                [r[0] for r in c.execute(rooms.select().with_only_columns(rooms.c.record))],
            )
        )
    finally:
        db.engine.dispose()
    names_left, seat_names, lines, sessions_left, records = dump
    assert "Yuki" not in names_left and label in names_left
    assert "Yuki" not in seat_names and label in seat_names
    assert "hello from Yuki" not in lines and sessions_left == []
    assert all("Yuki" not in (r or "") for r in records)


def test_the_password_check_does_the_same_work_whatever_it_is_given(monkeypatch: pytest.MonkeyPatch) -> None:
    verified: list[str] = []
    real = PasswordHasher.verify

    def counting(self: PasswordHasher, hash: str | bytes, password: str | bytes) -> bool:
        verified.append(str(hash))
        return real(self, hash, password)

    monkeypatch.setattr(PasswordHasher, "verify", counting)
    stored = passwords.make("x" * passwords.MAX_LENGTH)
    assert passwords.check(stored, "x" * passwords.MAX_LENGTH) is passwords.Checked.RIGHT
    assert passwords.check(stored, "x" * (passwords.MAX_LENGTH + 1)) is passwords.Checked.WRONG
    assert passwords.check(None, "anything") is passwords.Checked.WRONG
    assert passwords.check(stored, "y") is passwords.Checked.WRONG
    assert len(verified) == 4
    assert verified[1] == verified[2] == passwords.dummy_hash() != stored
    older = PasswordHasher(time_cost=2, memory_cost=16, parallelism=1).hash("pw")
    assert passwords.check(older, "pw") is passwords.Checked.RIGHT_REHASH


def test_a_sign_in_sweeps_sessions_that_ended(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'w.sqlite3'}")
    db.open()
    try:
        now = 1_900_000_000.0

        def make(conn: Connection) -> tuple[str, str]:
            guest = players_module.create(conn, "Ayu")
            account_id = accounts.create_account(conn, guest, "ayu", None)
            assert account_id is not None
            stale = sessions.start(conn, account_id, now - sessions.IDLE_TTL - 1, address=None, agent=None)
            return account_id, stale

        account_id, stale = db.run_now(make)
        fresh = db.run_now(
            lambda c: accounts.establish(
                c, account_id, old_token=None, guest_cookie=None, now=now, address="::1", agent="test"
            )
        )
        hashes = db.run_now(lambda c: c.execute(sessions_table.select()).all())
        assert [r.token_hash for r in hashes] == [sessions.hash_token(fresh)] != [sessions.hash_token(stale)]
        assert db.run_now(lambda c: accounts.find(c, login="ayu")) is not None
    finally:
        db.engine.dispose()


def test_a_passkey_only_account_is_exported_and_deleted_after_a_recent_sign_in(tmp_path: Path) -> None:
    from roppyakken.server.store.tables import passkeys

    url = f"sqlite:///{tmp_path / 'k.sqlite3'}"
    with running_server(url) as server:
        db = Database(url)
        try:

            def make(conn: Connection) -> tuple[str, str, str]:
                guest = players_module.create(conn, "Kei")
                account_id = accounts.create_account(conn, guest, None, None)
                assert account_id is not None
                conn.execute(
                    passkeys.insert().values(
                        credential_id="cred-1",
                        account_id=account_id,
                        user_handle="handle-1",
                        public_key=b"\x01\x02\x03",
                        sign_count=7,
                        created_at=1.0,
                    )
                )
                now = time.time()
                old = accounts.establish(
                    conn,
                    account_id,
                    old_token=None,
                    guest_cookie=None,
                    now=now - 3600,
                    address=None,
                    agent=None,
                )
                fresh = accounts.establish(
                    conn, account_id, old_token=None, guest_cookie=None, now=now, address=None, agent=None
                )
                return account_id, old, fresh

            account_id, old, fresh = db.run_now(make)
            with (
                httpx.Client(base_url=server.url, timeout=30) as stale,
                httpx.Client(base_url=server.url, timeout=30) as recent,
            ):
                stale.cookies.set(SESSION_COOKIE, old)
                recent.cookies.set(SESSION_COOKIE, fresh)
                data = recent.get("/api/account/export").json()
                assert data["account"] == {**data["account"], "login": None, "password": False}
                assert [(k["credential_id"], k["public_key"], k["sign_count"]) for k in data["passkeys"]] == [
                    ("cred-1", "AQID", 7)
                ]
                refused = _send(stale, "DELETE", "/api/account", {})
                assert refused.status_code == 403
                assert refused.json()["error"] == text.CONFIRM_SIGN_IN.format(minutes=10)
                # no sign-in name: no recovery codes, which go with one
                assert recent.get("/api/account").json()["account"]["recovery_codes"] == 0
                codes = _send(recent, "POST", "/api/account/recovery-codes", {})
                assert codes.status_code == 409 and codes.json()["error"] == text.RECOVERY_NEEDS_LOGIN
                assert _send(recent, "DELETE", "/api/account", {}).status_code == 200
            left = db.run_now(
                lambda c: (c.execute(passkeys.select()).all(), accounts.find(c, account_id=account_id))
            )
            assert left == ([], None)
        finally:
            db.engine.dispose()


def test_a_suspended_account_cannot_sign_in_and_a_wrong_password_says_nothing_of_it(tmp_path: Path) -> None:
    """Sign-in asks the moderation store once the password is proven: a suspended account gets the
    suspension's line, a wrong password the usual one (so a suspension reveals no account)."""
    from roppyakken.server.people import moderation

    path = tmp_path / "s.sqlite3"
    with (
        running_server(f"sqlite:///{path}") as server,
        httpx.Client(base_url=server.url, timeout=30) as one,
        httpx.Client(base_url=server.url, timeout=30) as two,
    ):
        assert _send(one, "POST", "/api/account", {"login": "sol", "password": PASSWORD}).status_code == 201
        account_id = one.get("/api/me").json()["account"]["id"]
        db = Database(f"sqlite:///{path}")
        db.run_now(
            lambda c: moderation.add_sanction(
                c, moderation.SUSPEND, actor="test", now=time.time(), account_id=account_id, seconds=3600
            )
        )
        refused = _sign_in(two, "sol")
        assert refused.status_code == 403, refused.text
        assert "suspended" in refused.json()["error"] and two.cookies.get(SESSION_COOKIE) is None
        wrong = _sign_in(two, "sol", "not the password")
        assert (wrong.status_code, wrong.json()["error"]) == (401, text.SIGN_IN_FAILED)
        db.run_now(lambda c: moderation.clear_sanction(c, 1, actor="test", now=time.time()))
        assert _sign_in(two, "sol").status_code == 200
