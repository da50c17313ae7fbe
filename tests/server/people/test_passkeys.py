"""Passkeys (server/people/passkeys.py, server/web/passkey_routes.py) through the real server, on SQLite
and on PostgreSQL, with a software authenticator (tests/harness/soft_authenticator.py): a guest makes an
account with a passkey and signs in on another device with the same history; a wrong origin, a
replayed or expired challenge, a signature counter that went back, another account's passkey and a
ceremony finished by another browser are refused, each in one line, and nothing changes."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import select, update

from roppyakken.server.people import passkeys, sessions
from roppyakken.server.store.database import Database
from roppyakken.server.store.tables import accounts, webauthn_challenges
from roppyakken.server.store.tables import passkeys as passkeys_table
from roppyakken.server.store.tables import players as players_table
from tests.harness.server_harness import ServerThread, limits_for_tests, running_server
from tests.harness.soft_authenticator import SoftAuthenticator, b64url


@pytest.fixture
def database_server(database: str) -> Iterator[ServerThread]:
    """The server over that database."""
    with running_server(database) as running:
        yield running


class Browser:
    """One browser profile: its cookies, and the CSRF token its page got from ``/api/me``."""

    def __init__(self, server: ServerThread) -> None:
        self.server = server
        self.origin = server.url
        self.http = httpx.Client(base_url=server.url, timeout=10)
        self.csrf = "new"

    def post(self, path: str, body: Any, *, csrf: str | None = None) -> httpx.Response:
        token = self.csrf if csrf is None else csrf
        headers = {"X-CSRF-Token": token} if token else {}
        return self.http.post(path, json=body, headers=headers)

    def me(self) -> dict[str, Any]:
        answer: dict[str, Any] = self.http.get("/api/me").json()
        self.csrf = answer["csrf"] or "new"
        return answer

    def become(self, name: str) -> dict[str, Any]:
        """A guest player named ``name`` (``POST /api/me``)."""
        answer: dict[str, Any] = self.post("/api/me", {"name": name}).json()
        self.csrf = answer["csrf"]
        return answer

    def make_account(self, key: SoftAuthenticator, *, origin: str | None = None) -> httpx.Response:
        options = self.post("/api/passkeys/register/options", {"name": "laptop"})
        assert options.status_code == 200, options.text
        answer = options.json()
        credential = key.create(answer["publicKey"], origin or self.origin)
        done = self.post(
            "/api/passkeys/register/verify", {"ceremony": answer["ceremony"], "credential": credential}
        )
        if done.status_code == 201 and "csrf" in done.json():
            self.csrf = done.json()["csrf"]
        return done

    def sign_in(self, key: SoftAuthenticator, *, login: str | None = None, **how: Any) -> httpx.Response:
        body = {} if login is None else {"login": login}
        options = self.post("/api/passkeys/signin/options", body)
        assert options.status_code == 200, options.text
        answer = options.json()
        origin = how.pop("origin", self.origin)
        credential = key.get(answer["publicKey"], origin, **how)
        done = self.post(
            "/api/passkeys/signin/verify", {"ceremony": answer["ceremony"], "credential": credential}
        )
        if done.status_code == 200:
            self.csrf = done.json()["csrf"]
        return done

    def close(self) -> None:
        self.http.close()


@contextmanager
def browsers(server: ServerThread, count: int) -> Iterator[list[Browser]]:
    made = [Browser(server) for _ in range(count)]
    try:
        yield made
    finally:
        for b in made:
            b.close()


def _bot_game(browser: Browser, name: str) -> str:
    answer = browser.post("/api/rooms", {"name": name, "players": 2, "bots": {"1": "random"}, "seed": 7})
    assert answer.status_code == 201, answer.text
    return str(answer.json()["room"])


def _one_line(response: httpx.Response) -> str:
    message = response.json()["error"]
    assert isinstance(message, str) and "\n" not in message and message
    return message


def _count(db: Database, table: Any) -> int:
    return len(db.run_now(lambda c: c.execute(select(table)).all()))


def test_a_guest_makes_a_passkey_account_and_signs_in_on_another_device(
    database_server: ServerThread,
) -> None:
    key = SoftAuthenticator()
    with browsers(database_server, 3) as (laptop, phone, thief):
        guest = laptop.become("Ann")["player"]
        room = _bot_game(laptop, "Ann")
        assert [g["room"] for g in laptop.http.get("/api/me/games").json()["games"]] == [room]
        made = laptop.make_account(key)
        assert made.status_code == 201, made.text
        assert made.json()["player"] == guest  # the guest became the account's player
        first_session = laptop.http.cookies.get(sessions.COOKIE)
        assert first_session and made.json()["csrf"] != guest.get("csrf")
        listed = laptop.http.get("/api/passkeys").json()
        assert listed["signed_in"] and [p["name"] for p in listed["passkeys"]] == ["laptop"]

        # another device: nothing but the passkey; the same player, the same history
        assert phone.me()["player"] is None
        assert phone.http.get("/api/me/games").json()["games"] == []
        signed = phone.sign_in(key)
        assert signed.status_code == 200, signed.text
        assert signed.json()["player"] == guest
        assert phone.me()["player"] == guest
        assert [g["room"] for g in phone.http.get("/api/me/games").json()["games"]] == [room]
        # a change with the session needs the session's CSRF token
        assert phone.post("/api/me", {"name": "Ann K"}, csrf="wrong").status_code == 403
        assert phone.post("/api/me", {"name": "Ann K"}).status_code == 200

        # signing in again rotates: a new token, the old one ended on the server
        old = phone.http.cookies.get(sessions.COOKIE)
        thief.http.cookies.set(sessions.COOKIE, str(old))
        assert thief.me()["player"] == {"id": guest["id"], "name": "Ann K"}
        assert phone.sign_in(key).status_code == 200
        new = phone.http.cookies.get(sessions.COOKIE)
        assert new and new != old
        assert thief.me()["player"] is None
        assert phone.me()["player"]["id"] == guest["id"]
        # the first device's session is another one, untouched
        assert laptop.me()["player"]["id"] == guest["id"]


def test_signing_in_adopts_the_browsers_guest_if_it_played(database_server: ServerThread) -> None:
    key = SoftAuthenticator()
    with browsers(database_server, 3) as (laptop, phone, idle):
        laptop.become("Ivo")
        first = _bot_game(laptop, "Ivo")
        assert laptop.make_account(key).status_code == 201
        phone.become("Ivo on the phone")
        second = _bot_game(phone, "Ivo on the phone")
        idle.become("Nobody")  # a guest who never played stays apart
        assert phone.sign_in(key).status_code == 200
        assert idle.sign_in(key).status_code == 200
        for device in (laptop, phone, idle):
            games = device.http.get("/api/me/games").json()["games"]
            assert sorted(g["room"] for g in games) == sorted([first, second])


def test_a_wrong_origin_is_refused_at_registration_and_sign_in(database_server: ServerThread) -> None:
    db = Database(database_server.database)
    key = SoftAuthenticator()
    with browsers(database_server, 2) as (laptop, phone):
        laptop.become("Bo")
        refused = laptop.make_account(key, origin="https://evil.example")
        assert refused.status_code == 400 and "origin" in _one_line(refused)
        assert _count(db, accounts) == 0 and _count(db, passkeys_table) == 0
        assert laptop.http.cookies.get(sessions.COOKIE) is None
        # a passkey of another relying party (its id's hash differs) is refused too
        other = SoftAuthenticator()
        options = laptop.post("/api/passkeys/register/options", {}).json()
        credential = other.create(options["publicKey"], laptop.origin, rp_id="evil.example")
        answer = laptop.post(
            "/api/passkeys/register/verify", {"ceremony": options["ceremony"], "credential": credential}
        )
        assert answer.status_code == 400 and "RP ID" in _one_line(answer)
        assert laptop.make_account(key).status_code == 201
        refused = phone.sign_in(key, origin="http://localhost:1")
        assert refused.status_code == 400 and "origin" in _one_line(refused)
        assert phone.http.cookies.get(sessions.COOKIE) is None
        # the refused answer's counter was never recorded: the real one still signs in
        assert phone.sign_in(key).status_code == 200
    db.engine.dispose()


def test_a_challenge_is_used_once_and_expires(database_server: ServerThread) -> None:
    db = Database(database_server.database)
    key = SoftAuthenticator()
    with browsers(database_server, 2) as (laptop, phone):
        laptop.become("Cy")
        assert laptop.make_account(key).status_code == 201
        options = phone.post("/api/passkeys/signin/options", {}).json()
        credential = key.get(options["publicKey"], phone.origin)
        body = {"ceremony": options["ceremony"], "credential": credential}
        first = phone.post("/api/passkeys/signin/verify", body)
        assert first.status_code == 200
        phone.csrf = first.json()["csrf"]
        replayed = phone.post("/api/passkeys/signin/verify", body)
        assert replayed.status_code == 400 and "already used" in _one_line(replayed)
        # a fresh challenge, but the answer signed for the old one: refused, and that challenge is gone
        fresh = phone.post("/api/passkeys/signin/options", {}).json()
        stale = key.get(options["publicKey"], phone.origin)
        answer = phone.post(
            "/api/passkeys/signin/verify", {"ceremony": fresh["ceremony"], "credential": stale}
        )
        assert answer.status_code == 400 and "challenge" in _one_line(answer)
        again = key.get(fresh["publicKey"], phone.origin)
        answer = phone.post(
            "/api/passkeys/signin/verify", {"ceremony": fresh["ceremony"], "credential": again}
        )
        assert answer.status_code == 400 and "already used" in _one_line(answer)
        # a registration's ceremony does not finish a sign-in
        laptop_options = laptop.post("/api/passkeys/register/options", {}).json()
        answer = phone.post(
            "/api/passkeys/signin/verify",
            {
                "ceremony": laptop_options["ceremony"],
                "credential": key.get(laptop_options["publicKey"], phone.origin),
            },
        )
        assert answer.status_code == 400 and "already used" in _one_line(answer)
        # an expired one is refused
        late = phone.post("/api/passkeys/signin/options", {}).json()
        db.run_now(
            lambda c: c.execute(
                update(webauthn_challenges)
                .where(webauthn_challenges.c.id == late["ceremony"])
                .values(expires_at=1.0)
            )
        )
        answer = phone.post(
            "/api/passkeys/signin/verify",
            {"ceremony": late["ceremony"], "credential": key.get(late["publicKey"], phone.origin)},
        )
        assert answer.status_code == 400 and "expired" in _one_line(answer)
    db.engine.dispose()


def test_a_signature_counter_that_goes_back_is_refused(database_server: ServerThread) -> None:
    db = Database(database_server.database)
    key = SoftAuthenticator()
    with browsers(database_server, 2) as (laptop, phone):
        laptop.become("Dee")
        assert laptop.make_account(key).status_code == 201
        assert phone.sign_in(key, counter=5).status_code == 200
        for cloned in (5, 3):  # the same counter again, or lower: a copy of the authenticator
            refused = phone.sign_in(key, counter=cloned)
            assert refused.status_code == 400 and "counter" in _one_line(refused)
        stored = db.run_now(lambda c: c.execute(select(passkeys_table.c.sign_count)).scalar())
        assert stored == 5
        assert phone.sign_in(key, counter=6).status_code == 200
    db.engine.dispose()


def test_another_accounts_passkey_is_refused(database_server: ServerThread) -> None:
    db = Database(database_server.database)
    ann_key, bo_key = SoftAuthenticator(), SoftAuthenticator()
    with browsers(database_server, 3) as (ann, bo, phone):
        ann.become("Ann")
        bo.become("Bo")
        assert ann.make_account(ann_key).status_code == 201
        assert bo.make_account(bo_key).status_code == 201
        ann_player = ann.me()["player"]
        ann_account = db.run_now(
            lambda c: c.execute(
                select(accounts.c.id).where(accounts.c.player_id == ann_player["id"])
            ).scalar()
        )
        db.run_now(
            lambda c: c.execute(update(accounts).where(accounts.c.id == ann_account).values(login="ann"))
        )
        # signing in as "Ann" (the login, any case) with Bo's passkey
        refused = phone.sign_in(bo_key, login="ANN")
        assert refused.status_code == 403 and _one_line(refused) == "this passkey belongs to another account"
        assert phone.http.cookies.get(sessions.COOKIE) is None
        signed = phone.sign_in(ann_key, login="Ann")
        assert signed.status_code == 200 and signed.json()["player"]["id"] == ann_player["id"]
        # an unknown login is answered alike, and no passkey fits it
        refused = bo.sign_in(bo_key, login="nobody")
        assert refused.status_code == 403
        # Bo's passkey answering with Ann's user handle: refused
        options = phone.post("/api/passkeys/signin/options", {}).json()
        forged = bo_key.get(options["publicKey"], phone.origin)
        forged["response"]["userHandle"] = ann_key.user_handle
        answer = phone.post(
            "/api/passkeys/signin/verify", {"ceremony": options["ceremony"], "credential": forged}
        )
        assert answer.status_code == 403
        # a passkey this site never registered
        stranger = SoftAuthenticator(rp_id="127.0.0.1")
        refused = phone.sign_in(stranger)
        assert refused.status_code == 400 and "not registered" in _one_line(refused)
    db.engine.dispose()


def _shape(answer: httpx.Response) -> tuple[Any, ...]:
    """What a sign-in options answer shows, its fresh random values (ceremony, challenge) masked:
    status, headers, fields and their lengths."""
    body = answer.json()
    public = dict(body["publicKey"])
    masked = json.dumps({**public, "challenge": len(public["challenge"])}, sort_keys=True)
    headers = tuple(sorted((k, v) for k, v in answer.headers.items() if k.lower() != "date"))
    return answer.status_code, headers, tuple(sorted(body)), len(body["ceremony"]), masked


def test_sign_in_options_tell_nothing_of_who_has_an_account_or_a_passkey(
    database_server: ServerThread,
) -> None:
    pk_key, other_key = SoftAuthenticator(), SoftAuthenticator()
    with browsers(database_server, 4) as (pk, pw, attacker, other):
        pk.become("Pk")
        made = pk.post("/api/account", {"login": "pkey", "password": "correct horse battery"})
        assert made.status_code == 201, made.text
        pk.csrf = made.json()["csrf"]
        assert pk.make_account(pk_key).status_code == 201  # a passkey added to the password account
        assert len(pk.http.get("/api/passkeys").json()["passkeys"]) == 1
        pw.become("Pw")
        assert (
            pw.post("/api/account", {"login": "pword", "password": "correct horse battery"}).status_code
            == 201
        )
        other.become("Other")
        assert other.make_account(other_key).status_code == 201
        attacker.become("Mallory")
        # the attacker asks for each login's options, twice, in any case
        seen: dict[str, list[tuple[Any, ...]]] = {}
        for login in ("pkey", "PKEY", "pword", "ghost", "pkey", "pword", "ghost"):
            answer = attacker.post("/api/passkeys/signin/options", {"login": login})
            assert answer.status_code == 200
            assert answer.json()["publicKey"]["allowCredentials"] == [], login
            assert pk_key.credential_id is not None
            assert b64url(pk_key.credential_id) not in answer.text
            seen.setdefault(login.lower(), []).append(_shape(answer))
        shapes = {shape for found in seen.values() for shape in found}
        assert len(shapes) == 1, shapes  # the same answer, whoever the login names
        assert _shape(attacker.post("/api/passkeys/signin/options", {})) in shapes  # and as no login
        # the passkey still signs in to its own account named by its login, and to no other
        with browsers(database_server, 1) as (phone,):
            refused = phone.sign_in(other_key, login="pkey")
            assert (
                refused.status_code == 403 and _one_line(refused) == "this passkey belongs to another account"
            )
            for login in ("pword", "ghost"):
                assert phone.sign_in(pk_key, login=login).status_code == 403, login
            signed = phone.sign_in(pk_key, login="PKEY")
            assert signed.status_code == 200, signed.text
            assert signed.json()["player"]["name"] == "Pk"


def test_a_registration_is_finished_by_the_browser_that_began_it(database_server: ServerThread) -> None:
    db = Database(database_server.database)
    key = SoftAuthenticator()
    with browsers(database_server, 2) as (ann, eve):
        ann.become("Ann")
        eve.become("Eve")
        options = ann.post("/api/passkeys/register/options", {}).json()
        credential = key.create(options["publicKey"], ann.origin)
        stolen = eve.post(
            "/api/passkeys/register/verify", {"ceremony": options["ceremony"], "credential": credential}
        )
        assert stolen.status_code == 403 and "another browser" in _one_line(stolen)
        assert _count(db, accounts) == 0
        # without the CSRF token, or from another site, nothing starts
        assert ann.post("/api/passkeys/register/options", {}, csrf="").status_code == 403
        other_site = ann.http.post(
            "/api/passkeys/signin/options",
            json={},
            headers={"X-CSRF-Token": ann.csrf, "Origin": "https://evil.example"},
        )
        assert other_site.status_code == 403
        # a browser with no player cannot make an account
        with browsers(database_server, 1) as (nobody,):
            answer = nobody.post("/api/passkeys/register/options", {})
            assert answer.status_code == 400 and "POST /api/me" in _one_line(answer)
    db.engine.dispose()


def test_a_signed_in_account_adds_lists_and_removes_passkeys(database_server: ServerThread) -> None:
    first, second = SoftAuthenticator(), SoftAuthenticator()
    with browsers(database_server, 2) as (laptop, phone):
        laptop.become("Fay")
        assert laptop.make_account(first).status_code == 201
        session = laptop.http.cookies.get(sessions.COOKIE)
        added = laptop.make_account(second)
        assert added.status_code == 201 and added.json() == {"added": True, "signed_in": True}
        assert laptop.http.cookies.get(sessions.COOKIE) == session  # adding does not sign in anew
        # the same authenticator again: the options exclude it, a browser would refuse; the server too
        again = laptop.make_account(second)
        assert again.status_code == 409 and "already registered" in _one_line(again)
        listed = laptop.http.get("/api/passkeys").json()["passkeys"]
        assert len(listed) == 2
        assert phone.sign_in(second).status_code == 200
        assert phone.me()["player"] == laptop.me()["player"]
        assert laptop.post("/api/passkeys/remove", {"id": listed[0]["id"]}).status_code == 200
        last = laptop.post("/api/passkeys/remove", {"id": listed[1]["id"]})
        assert last.status_code == 409 and "only way to sign in" in _one_line(last)
        gone = laptop.post("/api/passkeys/remove", {"id": listed[0]["id"]})
        assert gone.status_code == 404
        # the removed passkey no longer signs in
        with browsers(database_server, 1) as (other,):
            assert other.sign_in(first).status_code == 400
            assert other.http.get("/api/passkeys").json() == {"signed_in": False, "passkeys": []}
            assert other.post("/api/passkeys/remove", {"id": listed[1]["id"]}).status_code == 403


@pytest.mark.parametrize(
    ("path", "body", "names"),
    [
        ("/api/passkeys/register/options", {"name": ""}, "'name'"),
        ("/api/passkeys/register/options", {"nme": "x"}, "unknown field 'nme'"),
        ("/api/passkeys/signin/options", {"login": 7}, "'login'"),
        ("/api/passkeys/signin/verify", {"ceremony": "x" * 30}, "'credential'"),
        ("/api/passkeys/signin/verify", {"ceremony": "!", "credential": {}}, "'ceremony'"),
        (
            "/api/passkeys/signin/verify",
            {
                "ceremony": "x" * 30,
                "credential": {"id": "a", "rawId": "a", "type": "public-key", "response": {}},
            },
            "'credential.response.clientDataJSON'",
        ),
        (
            "/api/passkeys/register/verify",
            {"ceremony": "x" * 30, "credential": {"id": "a+b", "rawId": "a", "type": "public-key"}},
            "'credential.id'",
        ),
        ("/api/passkeys/remove", {"id": "a/b"}, "'id'"),
    ],
)
def test_bad_bodies_get_one_line_naming_the_field(
    tmp_path: Path, path: str, body: dict[str, Any], names: str
) -> None:
    with running_server(f"sqlite:///{tmp_path / 'b.sqlite3'}") as server, browsers(server, 1) as (web,):
        web.become("Gil")
        answer = web.post(path, body)
        assert answer.status_code == 400
        assert names in _one_line(answer)


def test_the_ceremonies_are_rate_limited_per_address(tmp_path: Path) -> None:
    limits = limits_for_tests(requests_per_minute=600.0)  # 30 ceremonies a minute, 10 at once
    with (
        running_server(f"sqlite:///{tmp_path / 'r.sqlite3'}", limits=limits) as server,
        browsers(server, 1) as (web,),
    ):
        codes = [web.post("/api/passkeys/signin/options", {}).status_code for _ in range(14)]
        assert codes[:10] == [200] * 10 and codes[-1] == 429
        assert "too many requests" in _one_line(web.post("/api/passkeys/signin/options", {}))
        assert web.http.get("/api/passkeys").status_code == 200  # listing is not a ceremony


def test_take_deletes_the_challenge_and_refuses_another_purpose(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 't.sqlite3'}")
    db.open()
    rp = passkeys.RelyingParty("localhost", ("http://localhost:8600",))
    options = db.run_now(lambda c: passkeys.sign_in_options(c, rp, 1000.0, None))
    ceremony_id = options["ceremony"]
    assert db.run_now(lambda c: passkeys.take(c, ceremony_id, passkeys.REGISTER, 1001.0)) is None
    assert db.run_now(lambda c: passkeys.take(c, ceremony_id, passkeys.SIGN_IN, 1001.0)) is None  # taken
    options = db.run_now(lambda c: passkeys.sign_in_options(c, rp, 1000.0, None))
    taken = db.run_now(lambda c: passkeys.take(c, options["ceremony"], passkeys.SIGN_IN, 1001.0))
    assert taken is not None and taken.purpose == passkeys.SIGN_IN and not taken.scoped
    # expired ones are swept when the next ceremony begins
    db.run_now(lambda c: passkeys.sign_in_options(c, rp, 1000.0, None))
    db.run_now(lambda c: passkeys.sign_in_options(c, rp, 1000.0 + passkeys.CHALLENGE_TTL + 1, None))
    assert _count(db, webauthn_challenges) == 1
    db.engine.dispose()


def test_the_relying_party_is_the_pages_address() -> None:
    assert passkeys.relying_party("localhost:8600", False, ()) == passkeys.RelyingParty(
        "localhost", ("http://localhost:8600",)
    )
    rp = passkeys.relying_party("play.example.org", True, ("https://www.example.org", "*"))
    assert rp == passkeys.RelyingParty(
        "play.example.org", ("https://play.example.org", "https://www.example.org")
    )
    assert passkeys.relying_party("[::1]:8600", False, ()) == passkeys.RelyingParty(
        "::1", ("http://[::1]:8600",)
    )
    for bad in (None, "", "a b", "evil.example/x", "user@host"):
        assert passkeys.relying_party(bad, False, ()) is None


def test_an_adopted_guests_cookie_no_longer_acts_and_the_account_keeps_its_player(
    database_server: ServerThread,
) -> None:
    db = Database(database_server.database)
    with browsers(database_server, 1) as (laptop,):
        guest = laptop.become("Hal")["player"]
        cookie = laptop.http.cookies.get("rp_player")
        assert laptop.make_account(SoftAuthenticator()).status_code == 201
        adopted = db.run_now(
            lambda c: c.execute(
                select(players_table.c.account_id).where(players_table.c.id == guest["id"])
            ).scalar()
        )
        assert adopted is not None
        with browsers(database_server, 1) as (copy,):
            copy.http.cookies.set("rp_player", str(cookie))
            assert copy.me()["player"] is None
    db.engine.dispose()


def test_the_passkey_bodies_are_published_with_the_schema(tmp_path: Path) -> None:
    with running_server(f"sqlite:///{tmp_path / 's.sqlite3'}") as server:
        published = server.get("/api/schema").json()["http"]
    verify = published["POST /api/passkeys/signin/verify"]
    assert set(verify["properties"]) == {"ceremony", "credential"} and verify["additionalProperties"] is False
    assert set(published["POST /api/passkeys/register/options"]["properties"]) == {"name"}
    assert "POST /api/rooms" in published
