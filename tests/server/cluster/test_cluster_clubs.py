"""Clubs in a cluster: two ``serve --redis`` members on one PostgreSQL and one Redis are one set of
clubs.  A club made on one member is joined on the other; a chat line posted on one member is read on
the other (the database is the truth: readers ask it again, no relay between members), and so is a
line hidden there; the chat's rate is counted over both members."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest

from roppyakken.server.config import Limits
from roppyakken.server.people import passwords
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
            database = services.new_database(pg, "clubs")
            with services.members(database, rd, 2) as started:
                yield started


def _call(client: httpx.Client, method: str, url: str, address: str, body: object = None) -> httpx.Response:
    base = url.split("/api/", 1)[0]
    token = client.get(base + "/api/me", headers={"X-Forwarded-For": address}).json()["csrf"] or "new"
    return client.request(method, url, json=body, headers={"X-Forwarded-For": address, CSRF: token})


def _texts(client: httpx.Client, url: str) -> list[str]:
    answer = client.get(url)
    assert answer.status_code == 200, answer.text
    return [line["text"] for line in answer.json()["lines"]]


def test_a_club_and_its_chat_are_one_across_members(pair: list[services.Member]) -> None:
    one, two = (m.url for m in pair)
    with httpx.Client(timeout=30) as ann, httpx.Client(timeout=30) as bob:
        for client, base, login, where in (
            (ann, one, "annclub", "10.7.0.1"),
            (bob, two, "bobclub", "10.7.0.2"),
        ):
            made = _call(client, "POST", base + "/api/account", where, {"login": login, "password": PASSWORD})
            assert made.status_code == 201, made.text
        club = _call(ann, "POST", one + "/api/clubs", "10.7.0.1", {"name": "Two Servers"}).json()["club"]
        joined = _call(bob, "POST", f"{two}/api/clubs/{club}/join", "10.7.0.2")
        assert joined.json()["status"] == "member", joined.text
        hello = _call(ann, "POST", f"{one}/api/clubs/{club}/chat", "10.7.0.1", {"text": "hello from one"})
        assert hello.status_code == 201, hello.text
        assert _texts(bob, f"{two}/api/clubs/{club}/chat") == ["hello from one"]
        reply = _call(bob, "POST", f"{two}/api/clubs/{club}/chat", "10.7.0.2", {"text": "hello from two"})
        assert _texts(ann, f"{one}/api/clubs/{club}/chat") == ["hello from one", "hello from two"]
        line = reply.json()["id"]
        hidden = _call(ann, "POST", f"{one}/api/clubs/{club}/chat/{line}/hide", "10.7.0.1")
        assert hidden.status_code == 200, hidden.text
        assert _texts(bob, f"{two}/api/clubs/{club}/chat") == ["hello from one"]
        # the rate is the database's: lines posted on either member count together
        refused = None
        for i in range(Limits().club_chat_per_minute + 1):
            base = (one, two)[i % 2]
            answer = _call(bob, "POST", f"{base}/api/clubs/{club}/chat", "10.7.0.2", {"text": f"line {i}"})
            if answer.status_code != 201:
                refused = (i, answer.status_code)
                break
        assert refused == (Limits().club_chat_per_minute - 1, 429)  # the first reply counted too
    for member in pair:
        assert member.errors() == []
