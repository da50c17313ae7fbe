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
