"""What joins clubs to friends and tournaments, over HTTP: a blocked member's chat lines never
reach the member who blocks them; a club's tournaments on its page."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.harness.server_harness import ServerThread
from tests.server.club.test_clubs_api import Browser


@pytest.fixture
def members(server: ServerThread) -> Iterator[list[Browser]]:
    made = [Browser(server) for _ in range(3)]
    try:
        yield made
    finally:
        for browser in made:
            browser.http.close()


def test_a_blocked_members_chat_lines_never_reach_the_blocker(members: list[Browser]) -> None:
    ann, bob, cat = members
    ann.sign_up("annblock")
    bob_id = bob.sign_up("bobblock")
    cat.sign_up("catblock")
    club = ann.send("POST", "/api/clubs", {"name": "Blockers", "admission": "open"}).json()["club"]
    at = f"/api/clubs/{club}"
    for joiner in (bob, cat):
        assert joiner.send("POST", f"{at}/join").json()["status"] == "member"
    for who, line in ((ann, "hello"), (bob, "from bob"), (cat, "from cat"), (bob, "bob again")):
        assert who.send("POST", f"{at}/chat", {"text": line}).status_code == 201
    assert ann.send("POST", "/api/blocks", {"player": bob_id}).status_code == 200

    def read(reader: Browser) -> list[str]:
        return [line["text"] for line in reader.http.get(f"{at}/chat").json()["lines"]]

    assert read(ann) == ["hello", "from cat"]
    assert read(cat) == ["hello", "from bob", "from cat", "bob again"]  # only the blocker is spared
    assert read(bob) == ["hello", "from bob", "from cat", "bob again"]
    assert ann.send("DELETE", f"/api/blocks/{bob_id}").status_code == 200
    assert read(ann) == ["hello", "from bob", "from cat", "bob again"]


def test_a_clubs_tournaments_are_on_its_page_and_not_in_the_public_list(members: list[Browser]) -> None:
    ann, bob, cat = members
    ann.sign_up("anncup")
    bob.sign_up("bobcup")
    cat.sign_up("catcup")
    club = ann.send("POST", "/api/clubs", {"name": "Cuppers", "admission": "open"}).json()["club"]
    hidden = ann.send("POST", "/api/clubs", {"name": "Hush", "admission": "open", "private": True}).json()[
        "club"
    ]
    assert bob.send("POST", f"/api/clubs/{club}/join").json()["status"] == "member"

    def make(who: Browser, name: str, starts_in: float, **more: object) -> str:
        body = {
            "name": name,
            "format": "arena",
            "minutes": 5,
            "clock": "15+60",
            "starts_in": starts_in,
            **more,
        }
        made = who.send("POST", "/api/tournaments", body)
        assert made.status_code == 201, made.text
        tid: str = made.json()["id"]
        return tid

    later = make(ann, "Later cup", 900, visibility="club", club=club)
    sooner = make(ann, "Sooner cup", 600, visibility="club", club=club)
    public = make(ann, "Open cup", 600)
    secret = make(ann, "Hush cup", 600, visibility="club", club=hidden)
    refused = bob.send("POST", "/api/tournaments", {"name": "Mine", "format": "arena", "minutes": 5,
                                                    "clock": "15+60", "starts_in": 600, "visibility": "club",
                                                    "club": club})  # fmt: skip
    assert refused.status_code == 403, refused.text  # a member who does not lead the club makes none
    for reader in (ann, bob, cat):  # a public club's tournaments are on its page for anyone
        listed = reader.http.get(f"/api/clubs/{club}").json()["tournaments"]
        assert [(t["id"], t["name"], t["visibility"], t["status"]) for t in listed] == [
            (sooner, "Sooner cup", "club", "scheduled"),
            (later, "Later cup", "club", "scheduled"),
        ]
        assert listed[0]["page"] == f"/#/tournament/{sooner}"
        # the global list holds public tournaments only, as lichess keeps team tournaments to the team page
        everywhere = {t["id"] for t in reader.http.get("/api/tournaments").json()["tournaments"]}
        assert public in everywhere and not everywhere & {sooner, later, secret}
    assert [t["id"] for t in ann.http.get(f"/api/clubs/{hidden}").json()["tournaments"]] == [secret]
    assert ann.http.get(f"/api/clubs/{club}").json()["tournaments"][0]["entries"] == 0
    assert bob.send("POST", f"/api/tournaments/{sooner}/join", {}).status_code == 200
    assert ann.http.get(f"/api/clubs/{club}").json()["tournaments"][0]["entries"] == 1
    # a club tournament's page names its club, unless the club is private
    page = cat.http.get(f"/api/tournaments/{sooner}").json()
    assert (page["club"], page["club_name"]) == (club, "Cuppers")
    page = cat.http.get(f"/api/tournaments/{secret}").json()
    assert (page["club"], page["club_name"]) == (hidden, None)
    page = cat.http.get(f"/api/tournaments/{public}").json()
    assert (page["club"], page["club_name"]) == (None, None)
