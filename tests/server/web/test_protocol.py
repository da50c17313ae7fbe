"""Client messages of the websocket protocol: each kind parsed, every malformed one refused in one line."""

from __future__ import annotations

import json
import sys
from typing import Any

import pytest

from roppyakken.actions import CallRedeal, Declare, Play, Take
from roppyakken.cards import card_id, mask_of
from roppyakken.nesting import nesting_depth
from roppyakken.server.wire import client, jsonsafe
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire.client import (
    Act,
    Hello,
    Ping,
    SetSeat,
    Start,
    parse_client_message,
)
from roppyakken.server.wire.protocol import ProtocolError
from tests.harness.said import said_in_english


def _parse(message: dict[str, Any]) -> client.ClientMessage:
    return parse_client_message(json.dumps(message))


def test_each_kind_of_message() -> None:
    assert _parse({"type": "hello", "v": 1, "token": "abc"}) == Hello("abc")
    assert _parse({"type": "hello", "v": 1, "token": None, "id": "1"}) == Hello(None, "1")
    assert _parse({"type": "hello", "v": 1}) == Hello(None)
    play = {"type": "play", "card": "pine-crane", "target": ["pine-chaff-1"]}
    assert _parse({"type": "act", "action": play}) == Act(
        Play(card_id("pine-crane"), mask_of([card_id("pine-chaff-1")]))
    )
    assert _parse({"type": "act", "action": {"type": "take", "target": []}}) == Act(Take(0))
    assert _parse({"type": "act", "action": {"type": "declare", "hands": ["hand-three"]}}) == Act(
        Declare(("hand-three",))
    )
    assert _parse({"type": "act", "action": {"type": "redeal", "call": True}, "id": "r"}) == Act(
        CallRedeal(True), "r"
    )
    assert _parse({"type": "seat", "seat": 2, "kind": "bot", "level": "random"}) == SetSeat(
        2, "bot", "random"
    )
    assert _parse({"type": "seat", "seat": 1, "kind": "empty"}) == SetSeat(1, "empty", None)
    assert _parse({"type": "start", "id": "s"}) == Start("s")
    assert _parse({"type": "ping"}) == Ping()


BAD: list[tuple[str, str]] = [
    ("", "not valid JSON"),
    ("{", "not valid JSON"),
    ("[" * 4000 + "]" * 4000, "not valid JSON"),
    ("x" * (client.MAX_MESSAGE_BYTES + 1), "too large"),
    ("[]", "JSON object"),
    ("42", "JSON object"),
    ('{"id": "a"}', "needs a 'type'"),
    ('{"type": "dance"}', "unknown message type 'dance'"),
    ('{"type": 7}', "unknown message type 7"),
    ('{"type": "ping", "id": 5}', "'id'"),
    ('{"type": "ping", "id": "' + "i" * 65 + '"}', "'id'"),
    ('{"type": "ping", "x": 1}', "unknown field 'x'"),
    ('{"type": "hello", "v": 2, "token": null}', "version 2"),
    ('{"type": "hello", "v": true, "token": null}', "version True"),
    ('{"type": "hello", "token": null}', "version None"),
    ('{"type": "hello", "v": 1, "token": 5}', "'token'"),
    ('{"type": "hello", "v": 1, "token": ""}', "'token'"),
    ('{"type": "act"}', "'action'"),
    ('{"type": "act", "action": "play"}', "JSON object"),
    ('{"type": "act", "action": {"type": "play", "card": "nope"}}', "nope"),
    ('{"type": "act", "action": {"type": "play", "card": 3}}', "'card'"),
    ('{"type": "act", "action": {"type": "take", "target": "pine-crane"}}', "'target'"),
    ('{"type": "act", "action": {"type": "redeal", "call": "yes"}}', "'call'"),
    ('{"type": "act", "action": {"type": "declare", "hands": "hand-three"}}', "'hands'"),
    ('{"type": "seat", "seat": "1", "kind": "bot"}', "'seat'"),
    ('{"type": "seat", "seat": true, "kind": "bot"}', "'seat'"),
    ('{"type": "seat", "seat": 1, "kind": "human"}', "'kind'"),
    ('{"type": "seat", "seat": 1, "kind": "empty", "level": "random"}', "'level'"),
    ('{"type": "seat", "seat": 1, "kind": "bot", "level": 3}', "'level'"),
]


@pytest.mark.parametrize(("raw", "part"), BAD)
def test_malformed_messages_are_refused_in_one_line(raw: str, part: str) -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message(raw)
    message = str(caught.value)
    assert part in message and "\n" not in message


@pytest.mark.parametrize("limit", [1_000, 100_000])
def test_deep_json_is_refused_whatever_the_recursion_limit(limit: int) -> None:
    """A library may raise the recursion limit (mypy does): deep JSON is refused all the same."""
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(limit)
    try:
        with pytest.raises(ProtocolError, match="not valid JSON"):
            parse_client_message("[" * 4000 + "]" * 4000)
        with pytest.raises(ProtocolError, match="not valid JSON"):
            parse_client_message('{"type": "ping", "x": ' + "[" * 33 + "]" * 33 + "}")
    finally:
        sys.setrecursionlimit(before)
    assert nesting_depth('{"a": [1, {"b": "[[[[\\"]]"}]}') == 3
    assert jsonsafe.loads('{"type": "ping", "x": ' + "[" * 30 + "]" * 30 + "}")["type"] == "ping"


def test_errors_echo_a_valid_id() -> None:
    with pytest.raises(ProtocolError) as caught:
        parse_client_message('{"type": "act", "id": "m7", "action": {"type": "fly"}}')
    assert caught.value.msg_id == "m7"
    answer = json.loads(to_client.error(caught.value, caught.value.msg_id))
    assert answer == {"type": "error", "message": str(caught.value), "text": answer["text"], "id": "m7"}
    assert said_in_english(answer["text"]) == answer["message"]
    assert json.loads(to_client.pong()) == {"type": "pong"}
