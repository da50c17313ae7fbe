"""The clubs' HTTP API (server/web/club_routes.py) on a real server: accounts only, the CSRF check,
one-line refusals of bad input, privacy, the chat's moderation, an erased account's clubs."""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from roppyakken.server.people import moderation
from roppyakken.server.store.database import Database
from roppyakken.server.wire import text
from tests.harness.poll import until
from tests.harness.server_harness import ServerThread

PASSWORD = "a long enough password"


class Browser:
    """One browser: its cookies, and the CSRF token its changes carry."""

    def __init__(self, server: ServerThread) -> None:
        self.http = httpx.Client(base_url=server.url, timeout=30)
        self.csrf = "new"

    def send(self, method: str, path: str, body: Any = None) -> httpx.Response:
        return self.http.request(method, path, json=body, headers={"X-CSRF-Token": self.csrf})

    def sign_up(self, login: str) -> str:
        """Make an account (signed in here) whose login starts with ``login``; its player's id."""
        unique = f"{login}{secrets.token_hex(3)}"
        made = self.send("POST", "/api/account", {"login": unique, "password": PASSWORD})
        assert made.status_code == 201, made.text
        self.csrf = made.json()["csrf"]
        player_id: str = self.http.get("/api/me").json()["player"]["id"]
        return player_id


@pytest.fixture
def browsers(server: ServerThread) -> Iterator[list[Browser]]:
    made = [Browser(server) for _ in range(3)]
    try:
        yield made
    finally:
        for browser in made:
            browser.http.close()


def error(response: httpx.Response, status: int) -> str:
    """The one line of an error answer of ``status``."""
    assert response.status_code == status, response.text
    said: str = response.json()["error"]
    assert "\n" not in said and "Traceback" not in said
    return said


def test_only_accounts_make_or_join_clubs_and_changes_need_the_csrf_token(
    server: ServerThread, browsers: list[Browser]
) -> None:
    ann, guest, _ = browsers
    assert guest.send("POST", "/api/me", {"name": "guest"}).status_code == 201
    guest.csrf = guest.http.get("/api/me").json()["csrf"]
    assert error(guest.send("POST", "/api/clubs", {"name": "Guests"}), 401) == "you are not signed in"
    ann.sign_up("annapi")
    forged = ann.http.post("/api/clubs", json={"name": "Forged"}, headers={"X-CSRF-Token": "wrong"})
    error(forged, 403)
    club = ann.send("POST", "/api/clubs", {"name": "Real Club"}).json()["club"]
    assert error(guest.send("POST", f"/api/clubs/{club}/join"), 401) == "you are not signed in"
    # reading needs no account
    assert server.get(f"/api/clubs/{club}").json()["club"]["name"] == "Real Club"


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"name": "ab"}, "a club's name must be 3 to 40 characters of text"),
        ({"name": "x" * 41}, "a club's name must be 3 to 40 characters of text"),
        ({"name": "\u3164\u3164\u3164"}, "a club's name must be 3 to 40 characters of text"),
        ({"name": "Good", "admission": "anyone"}, "'admission' must be open, request or invitation"),
        ({"name": "Good", "private": "yes"}, "'private' must be true or false"),
        ({"name": "Good", "language": "xx"}, "'language' must be en, ja, ko, fr, pt-BR, es, de, zh-Hant"),
        ({"name": "Good", "owner": "me"}, "unknown field 'owner'"),
        ({"name": "Good", "description": "d" * 1001}, "a club's description must be at most 1000 characters"),
    ],
)
def test_bad_bodies_get_one_line(server: ServerThread, browsers: list[Browser], body: Any, said: str) -> None:
    ann = browsers[0]
    ann.sign_up("bad")
    assert error(ann.send("POST", "/api/clubs", body), 400) == said


def test_a_by_request_club_chat_and_its_moderation_over_http(
    server: ServerThread, browsers: list[Browser]
) -> None:
    ann, bob, cat = browsers
    ann.sign_up("annchat")
    bob_id = bob.sign_up("bobchat")
    cat.sign_up("catchat")
    club = ann.send("POST", "/api/clubs", {"name": "Chatters", "admission": "request"}).json()["club"]
    at = f"/api/clubs/{club}"
    assert bob.send("POST", f"{at}/join").json()["status"] == "requested"
    assert (
        error(bob.send("POST", f"{at}/chat", {"text": "may I?"}), 403)
        == "only the club's members may do this"
    )
    assert (
        error(cat.send("POST", f"{at}/accept", {"player": bob_id}), 403)
        == "only the club's members may do this"
    )
    assert ann.send("POST", f"{at}/accept", {"player": bob_id}).json()["status"] == "member"
    hello = ann.send("POST", f"{at}/chat", {"text": "  welcome,\n bob  "}).json()
    assert hello["text"] == "welcome, bob"
    rude = bob.send("POST", f"{at}/chat", {"text": "rude words"}).json()
    error(bob.send("POST", f"{at}/chat", {"text": "\u202eevil"}), 400)
    error(bob.send("POST", f"{at}/chat", {"text": "x" * 201}), 400)
    assert (
        error(bob.send("POST", f"{at}/chat/{hello['id']}/hide"), 403)
        == "only the club's owner and leaders may do this"
    )
    assert ann.send("POST", f"{at}/chat/{rude['id']}/hide").json() == {"hidden": rude["id"]}
    for reader in (ann, bob):
        assert [line["text"] for line in reader.http.get(f"{at}/chat").json()["lines"]] == ["welcome, bob"]
    error(cat.http.get(f"{at}/chat"), 403)
    error(ann.send("POST", f"{at}/chat/abc/hide"), 404)
    error(ann.http.get("/api/clubs/no-such-club!"), 404)
    error(ann.http.get("/api/clubs/ffffffffffff"), 404)


def test_a_private_club_is_not_found_by_outsiders(server: ServerThread, browsers: list[Browser]) -> None:
    ann, bob, _ = browsers
    ann.sign_up("annprivate")
    bob_id = bob.sign_up("bobprivate")
    club = ann.send("POST", "/api/clubs", {"name": "Secret Garden", "private": True}).json()["club"]
    assert error(server.get(f"/api/clubs/{club}"), 404) == f"there is no club '{club}'"
    error(bob.http.get(f"/api/clubs/{club}"), 404)
    assert club not in [c["id"] for c in bob.http.get("/api/clubs?q=secret").json()["clubs"]]
    ann.send("POST", f"/api/clubs/{club}/invite", {"player": bob_id})
    assert [c["id"] for c in bob.http.get("/api/clubs").json()["invitations"]] == [club]
    assert bob.send("POST", f"/api/clubs/{club}/join").json()["status"] == "member"


def test_an_erased_account_hands_its_club_over(server: ServerThread, browsers: list[Browser]) -> None:
    ann, bob, _ = browsers
    ann.sign_up("annerased")
    bob_id = bob.sign_up("boberased")
    club = ann.send("POST", "/api/clubs", {"name": "Handed Over"}).json()["club"]
    bob.send("POST", f"/api/clubs/{club}/join")
    assert ann.send("DELETE", "/api/account", {"password": PASSWORD}).status_code == 200
    members = server.get(f"/api/clubs/{club}").json()["members"]
    assert [(m["player"], m["role"]) for m in members] == [(bob_id, "owner")]


def test_a_muted_member_posts_nothing(server: ServerThread, browsers: list[Browser]) -> None:
    ann = browsers[0]
    ann_id = ann.sign_up("annmuted")
    club = ann.send("POST", "/api/clubs", {"name": "Quiet Corner"}).json()["club"]
    assert ann.send("POST", f"/api/clubs/{club}/chat", {"text": "before"}).status_code == 201
    db = Database(server.database)
    try:
        db.run_now(
            lambda c: moderation.add_sanction(
                c, moderation.MUTE, actor="test", now=time.time(), player_id=ann_id, seconds=3600
            )
        )
    finally:
        db.engine.dispose()
    answers: list[httpx.Response] = []

    def refused() -> bool:
        answers.append(ann.send("POST", f"/api/clubs/{club}/chat", {"text": "after"}))
        return answers[-1].status_code == 403

    until(refused, moderation.REFRESH + 5, "the mute refusing club chat lines", every=0.5)
    assert answers[-1].json()["text"]["template"] == text.MUTED_UNTIL
    lines = ann.http.get(f"/api/clubs/{club}/chat").json()["lines"]
    assert [line["text"] for line in lines] == ["before"] + ["after"] * (len(answers) - 1)
