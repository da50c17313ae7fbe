"""Accounts in a cluster: two ``serve --redis`` members on one PostgreSQL and one Redis see one session
store (signed in on one, signed in on the other; signed out everywhere on one, out on both) and count
sign-in attempts together, per name and per address (the shared Redis buckets), while the owner's browser,
with its device cookie, is not held by strangers' attempts on the name on either member."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from roppyakken.server.people import accounts, passwords
from tests.harness import services

pytestmark = pytest.mark.slow

CSRF = "X-CSRF-Token"
PASSWORD = "a long enough password"


@pytest.fixture(scope="module")
def pair() -> Iterator[list[services.Member]]:
    """Two members (cheap argon2id parameters) on a fresh PostgreSQL database and Redis."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(passwords.SETTING, "cheap")
        with services.postgres() as pg, services.redis_server() as rd:
            database = services.new_database(pg, "accounts")
            with services.members(database, rd, 2) as started:
                yield started


def _csrf(client: httpx.Client, base: str, address: str) -> str:
    token = client.get(base + "/api/me", headers={"X-Forwarded-For": address}).json()["csrf"]
    return str(token) if token else "new"


def _call(client: httpx.Client, method: str, url: str, address: str, body: object = None) -> httpx.Response:
    base = url.split("/api/", 1)[0]
    headers = {"X-Forwarded-For": address, CSRF: _csrf(client, base, address)}
    return client.request(method, url, json=body, headers=headers)


def test_a_session_made_on_one_member_acts_on_the_other(pair: list[services.Member]) -> None:
    one, two = (m.url for m in pair)
    where = "10.1.0.1"
    with httpx.Client(timeout=30) as browser, httpx.Client(timeout=30) as phone:
        made = _call(browser, "POST", one + "/api/account", where, {"login": "akira", "password": PASSWORD})
        assert made.status_code == 201, made.text
        # the browser's cookie, read by the other member
        assert browser.get(two + "/api/account").json()["account"]["login"] == "akira"
        signed = _call(phone, "POST", two + "/api/session", where, {"login": "akira", "password": PASSWORD})
        assert signed.status_code == 200, signed.text
        listed = phone.get(one + "/api/sessions").json()["sessions"]
        assert len(listed) == 2
        # signed out everywhere on the first member: out on both
        assert _call(phone, "DELETE", one + "/api/sessions", where).status_code == 200
        assert browser.get(two + "/api/me").json()["account"] is None
        assert browser.get(one + "/api/me").json()["account"] is None
        assert phone.get(two + "/api/account").status_code == 401
    for member in pair:
        assert member.errors() == []


def test_sign_in_limits_are_counted_across_members(pair: list[services.Member]) -> None:
    one, two = (m.url for m in pair)
    with httpx.Client(timeout=30) as client:
        made = _call(
            client, "POST", one + "/api/account", "10.2.0.1", {"login": "sayo", "password": PASSWORD}
        )
        assert made.status_code == 201
        _call(client, "DELETE", one + "/api/session", "10.2.0.1")
        client.cookies.clear()  # a stranger's browser from here on (the maker's has its device cookie)
        # per name: five wrong attempts from five addresses, alternating members, and the name is limited
        for i in range(accounts.LOGIN_ATTEMPTS):
            base = (one, two)[i % 2]
            answer = _call(
                client, "POST", base + "/api/session", f"10.2.1.{i}", {"login": "sayo", "password": "x"}
            )
            assert answer.status_code == 401, answer.text
        for base in (one, two):
            limited = _call(
                client, "POST", base + "/api/session", "10.2.2.1", {"login": "SAYO", "password": PASSWORD}
            )
            assert limited.status_code == 429 and "Retry-After" in limited.headers
            assert limited.json()["error"].startswith("too many sign-in attempts")
        # per address: its attempts on both members together, whatever the names
        address = "10.3.0.1"
        for i in range(accounts.ADDRESS_ATTEMPTS):
            base = (one, two)[i % 2]
            answer = _call(
                client, "POST", base + "/api/session", address, {"login": f"n{i}x", "password": "y" * 8}
            )
            assert answer.status_code == 401, (i, answer.text)
        for base in (one, two):
            limited = _call(
                client, "POST", base + "/api/session", address, {"login": "fresh", "password": "z" * 8}
            )
            assert limited.status_code == 429
        # another address is not limited by it
        other = _call(
            client, "POST", two + "/api/session", "10.3.0.2", {"login": "fresh", "password": "z" * 8}
        )
        assert other.status_code == 401


def test_the_owners_device_is_not_held_by_strangers_on_any_member(pair: list[services.Member]) -> None:
    one, two = (m.url for m in pair)
    home = "10.4.0.1"
    with httpx.Client(timeout=30) as owner, httpx.Client(timeout=30) as attacker:
        made = _call(owner, "POST", one + "/api/account", home, {"login": "umi", "password": PASSWORD})
        assert made.status_code == 201
        assert "rp_device" in owner.cookies
        _call(owner, "DELETE", one + "/api/session", home)
        wrong = {"login": "umi", "password": "not it at all"}
        answers = [
            _call(attacker, "POST", (one, two)[i % 2] + "/api/session", f"10.4.1.{i}", wrong).status_code
            for i in range(accounts.LOGIN_ATTEMPTS + 2)
        ]
        assert answers == [401] * accounts.LOGIN_ATTEMPTS + [429, 429]  # slowed on both members
        for base in (two, one):  # the owner, on either member, from home
            signed = _call(owner, "POST", base + "/api/session", home, {"login": "UMI", "password": PASSWORD})
            assert signed.status_code == 200, signed.text
        # the device's own limit is shared by the members too
        mine = [
            _call(owner, "POST", (one, two)[i % 2] + "/api/session", home, wrong).status_code
            for i in range(accounts.LOGIN_ATTEMPTS - 1)
        ]
        assert mine == [401] * (accounts.LOGIN_ATTEMPTS - 2) + [429]
