"""Every error the server sends can be said in the reader's language (server/wire/wording.py).

Each message of server/wire/text.py is a msgid of every catalog (and of the browser's) with the
same placeholders; an error carries its template and fields, nested ones nested; and an
illegal move sent over a real websocket comes back with a template whose French rendering
leaves no English word.
"""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.catalog import Catalog

from roppyakken import i18n
from roppyakken.cards import SLUGS
from roppyakken.devtools import i18n as build
from roppyakken.errors import IllegalActionError, Phrase
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire import text, wording
from roppyakken.server.wire.client import parse_client_message
from roppyakken.server.wire.protocol import ProtocolError
from tests.harness.said import phrase, said_in, said_in_english
from tests.harness.server_harness import Player, ServerThread
from tests.harness.support import ROOT

SERVER = ROOT / "src" / "roppyakken" / "server"
FIELD = re.compile(r"\{([^{}]*)\}")
KOREAN_FALLBACKS = ("이(가)", "을(를)", "은(는)", "과(와)", "(으)로")


@pytest.fixture(autouse=True)
def english_after() -> Iterator[None]:
    yield
    i18n.set_language("en")


@pytest.fixture(scope="module")
def template() -> Catalog:
    return build.extract()


def _server_messages() -> dict[str, str]:
    """Every message constant of server/wire/text.py, by name."""
    return {name: value for name, value in vars(text).items() if name.isupper() and isinstance(value, str)}


def _fields(message: str) -> list[str]:
    return sorted(FIELD.findall(message))


def test_every_server_message_is_a_msgid_of_every_catalog_with_its_placeholders(template: Catalog) -> None:
    messages = _server_messages()
    assert len(messages) > 80
    marked = {m.id for m in template if any(where == "server/wire/text.py" for where, _ in m.locations)}
    browser = set(build.browser_messages(template))
    catalogs = {lang: build.translations(build.read_catalog(lang)) for lang in build.TRANSLATED}
    for name, message in messages.items():
        assert message in marked, f"text.{name} is not marked N_"
        assert message in browser, f"text.{name} is not in the browser's catalog"
        for field in FIELD.findall(message):
            # the browser fills {name} fields only: no conversion, no format spec
            assert re.fullmatch(r"\w+", field) or field.startswith('"'), f"text.{name}: {{{field}}}"
        for lang, found in catalogs.items():
            assert message in found, f"{lang}: text.{name} is not translated"
            assert _fields(found[message]) == _fields(message), f"{lang}: text.{name} -> {found[message]!r}"


def test_the_engines_reasons_are_in_the_browsers_catalog(template: Catalog) -> None:
    browser = set(build.browser_messages(template))
    assert "it is seat {to_act}'s turn, not seat {seat}'s" in browser
    assert "not the time to play a card: {waiting}" in browser and "seat {seat} is to play a card" in browser


def test_no_server_module_fills_a_message_before_sending_it() -> None:
    """``text.X.format(...)`` would send English only: a message is raised with its fields."""
    for path in sorted(SERVER.glob("*.py")):
        source = path.read_text(encoding="utf-8")
        found = re.findall(r"text\.[A-Z_]+\.format\(", source)
        assert not found, f"{path.name}: {found} (raise the message with its fields instead)"


def test_an_error_carries_its_template_and_nested_fields() -> None:
    waiting = Phrase(i18n.N_("seat {seat} is to play a card"), seat=1)
    illegal = IllegalActionError(i18n.N_("not the time to play a card: {waiting}"), waiting=waiting)
    answer = json.loads(to_client.error(ProtocolError.of(illegal, "m1"), "m1"))
    assert answer["message"] == "not the time to play a card: seat 1 is to play a card"
    assert answer["text"] == {
        "template": "not the time to play a card: {waiting}",
        "fields": {"waiting": {"template": "seat {seat} is to play a card", "fields": {"seat": 1}}},
    }
    assert said_in_english(answer["text"]) == answer["message"]
    assert (
        said_in("fr", answer["text"])
        == "ce n'est pas le moment de jouer une carte : la place 1 doit jouer une carte"
    )


def test_a_malformed_message_is_said_with_its_field_words_translated() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message('{"type": "seat", "seat": 1, "kind": "robot"}')
    said = wording.as_json(caught.value)
    assert said["template"] == text.MESSAGE_FIELD
    problem = said["fields"]["problem"]
    assert (
        problem["template"] == text.FIELD_TYPE and problem["fields"]["what"]["template"] == "'bot' or 'empty'"
    )
    assert said_in_english(said) == str(caught.value) == "seat: 'kind' must be 'bot' or 'empty'"
    assert said_in("ja", said) == "seat：'kind' は 'bot' か 'empty' でなければならない"


def test_text_from_another_member_is_read_back_or_left_english() -> None:
    said = wording.as_json(Phrase(text.NO_ROOM, room="abc"))
    assert str(wording.from_json(said, "x")) == "there is no room 'abc'"
    for bad in (
        None,
        "text",
        {"template": 3},
        {"template": "{a}", "fields": {"b": 1}},
        {"template": "a", "fields": 1},
    ):
        assert wording.from_json(bad, "english line") == "english line"


def test_korean_particles_are_chosen_in_a_server_error() -> None:
    said = wording.as_json(Phrase(text.NO_ROOM, room="abc"))
    shown = said_in("ko", said)
    assert shown.startswith("방 'abc'") and shown.endswith(" 없습니다")
    assert not any(form in shown for form in KOREAN_FALLBACKS)


# ---------------------------------------------------------------- over a real websocket

SLUG = re.compile(
    r"(?<![A-Za-z])[a-z]+(?:-[a-z0-9]+)+(?![A-Za-z0-9])"
)  # a slug, even with a particle after it


def _words(line: str) -> set[str]:
    """The words of three letters or more of ``line`` (card slugs and quoted ids left out)."""
    return {w.lower() for w in re.findall(r"[A-Za-z]{3,}", SLUG.sub("", line))}


def test_an_illegal_move_over_a_websocket_is_said_in_french(fresh_server: ServerThread) -> None:
    created = fresh_server.post("/api/rooms", {"name": "alice", "players": 2}).json()
    room = created["room"]
    joined = fresh_server.post(f"/api/rooms/{room}/join", {"name": "bob"}).json()
    answers: list[dict[str, Any]] = []

    async def refused(player: Player, message: dict[str, Any]) -> None:
        await player.send(message)
        answer = await player.recv()
        assert answer["type"] == "error" and answer["id"] == message["id"], answer
        answers.append(answer)

    async def scenario() -> None:
        alice = await Player.join(fresh_server, room, created["token"])
        bob = await Player.join(fresh_server, room, joined["token"])
        await alice.quiet()
        await bob.quiet()
        await alice.send({"type": "start"})
        for p in (alice, bob):
            await p.expect("state")
        assert alice.last_state is not None
        view = alice.last_state["view"]
        mover, other = (alice, bob) if view["to_act"] == 0 else (bob, alice)
        assert mover.last_state is not None
        legal = mover.last_state["view"]["legal"]
        hand = set(mover.last_state["view"]["hand"])
        # (the deal is drawn in secret: a hand may hold all four of the first named)
        not_mine = next(
            c for c in ("pine-crane", "plum-warbler", "cherry-curtain", "maple-deer", *SLUGS) if c not in hand
        )
        await refused(other, {"type": "act", "action": legal[0], "id": "turn"})
        await refused(
            mover, {"type": "act", "action": {"type": "play", "card": not_mine, "target": []}, "id": "c"}
        )
        await refused(mover, {"type": "act", "action": {"type": "take", "target": []}, "id": "take"})
        for p in (alice, bob):
            await p.close()

    asyncio.run(scenario())
    nested = 0
    for answer in answers:
        said = answer["text"]
        assert said_in_english(said) == answer["message"]
        nested += any(isinstance(v, dict) for v in said["fields"].values())
        french = said_in("fr", said)
        assert french != answer["message"]
        left = _words(answer["message"]) & _words(french)
        assert not left, f"English left in French: {left} ({french!r})"
        for lang in ("ja", "ko"):
            assert not re.search(r"[A-Za-z]{3,}", SLUG.sub("", said_in(lang, said))), (lang, said)
    assert answers[0]["text"]["template"] == "it is seat {to_act}'s turn, not seat {seat}'s"
    assert nested, "the take out of its phase says what the game waits for, as nested words"
    assert phrase(answers[2]["text"]).template == "no turned-up card waits for a target: {waiting}"
