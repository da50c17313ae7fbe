"""Hostile input gets a clear 4xx in one line, never a 500: bodies, numbers, keys, house rules, names.

Also the declared protocol: the published JSON Schema (``/api/schema``) and
docs/PROTOCOL.md's message tables agree.
"""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from roppyakken.server.wire import protocol
from roppyakken.server.wire import server as to_client
from roppyakken.server.wire.client import parse_client_message
from roppyakken.server.wire.protocol import ProtocolError
from tests.harness.said import said_in_english
from tests.harness.server_harness import ServerThread
from tests.harness.support import ROOT

DOCS = ROOT / "docs" / "PROTOCOL.md"
JSON = {"Content-Type": "application/json"}


def _error(answer: httpx.Response, status: int) -> str:
    assert answer.status_code == status, answer.text
    body = answer.json()
    assert set(body) == {"error", "text"} and "\n" not in body["error"], body
    assert said_in_english(body["text"]) == body["error"]  # the template and fields say the same
    message: str = body["error"]
    return message


def _raw(server: ServerThread, head: bytes, body: bytes = b"", timeout: float = 5.0) -> bytes:
    """Send bytes on a fresh connection and return what comes back within ``timeout``."""
    with socket.create_connection(("127.0.0.1", server.port), timeout=timeout) as sock:
        sock.sendall(head + body)
        sock.settimeout(timeout)
        answer = b""
        try:
            while b"\r\n\r\n" not in answer:
                chunk = sock.recv(4096)
                if not chunk:
                    break
                answer += chunk
        except TimeoutError:
            pass
    return answer


def test_an_oversized_body_is_refused_before_it_is_read(server: ServerThread) -> None:
    head = (
        b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 400000000\r\n\r\n"
    )
    began = time.monotonic()
    answer = _raw(server, head, b"{" * 1000)
    assert answer.startswith(b"HTTP/1.1 413"), answer[:80]
    assert time.monotonic() - began < 3

    def chunks() -> Iterator[bytes]:
        for _ in range(100):
            yield b" " * 65_536

    streamed = httpx.post(server.url + "/api/rooms", content=chunks(), headers=JSON, timeout=10)
    assert "too large" in _error(streamed, 413)


def test_json_bodies_only(server: ServerThread) -> None:
    for headers in (
        {},
        {"Content-Type": "text/plain"},
        {"Content-Type": "application/x-www-form-urlencoded"},
    ):
        answer = httpx.post(server.url + "/api/rooms", content=b'{"name": "a"}', headers=headers, timeout=10)
        assert "application/json" in _error(answer, 415)


def test_numbers_keys_and_limits_that_used_to_crash(server: ServerThread) -> None:
    big = b'{"name": "a", "players": ' + b"9" * 5000 + b"}"
    assert "not valid JSON" in _error(httpx.post(server.url + "/api/rooms", content=big, headers=JSON), 400)
    bots = server.post("/api/rooms", {"name": "a", "bots": {"²": "random"}})
    assert "seat '²'" in _error(bots, 400)
    assert "'limit'" in _error(server.get("/api/games?limit=²"), 400)
    assert "'limit'" in _error(server.get("/api/games?limit=" + "9" * 5000), 400)


@pytest.mark.parametrize(
    ("toml", "part"),
    [
        ("x = " + "[" * 900 + "]" * 900, "nest too deeply"),
        ('match = "rounds ²"', "option 'match'"),
        ("lucky_cache = {}", "unknown rule option 'lucky_cache'"),
        ("joker_card = 5", "unknown rule option 'joker_card'"),
        ("target = " + "1" + "0" * 100, "'target' must be at most 10000"),
        ("win_margin = " + "1" + "0" * 30, "'win_margin' must be at most 10000"),
        ('match = "rounds 1000000000"', "'rounds N' allows N of at most 100"),
    ],
)
def test_house_rules_that_used_to_crash_or_never_end(server: ServerThread, toml: str, part: str) -> None:
    for path, body in (
        ("/api/rooms", {"name": "a", "rules": {"toml": toml}}),
        ("/api/score", {"players": [{"captures": []}, {"captures": []}], "rules": {"toml": toml}}),
    ):
        assert part in _error(server.post(path, body), 400), path


@pytest.mark.parametrize(
    "toml", ["lucky_cache = {}", "joker_card = 5", 'match = "rounds ²"', "x = " + "[" * 900 + "]" * 900]
)
def test_the_rules_command_refuses_them_in_one_line(tmp_path: Path, toml: str) -> None:
    path = tmp_path / "house.toml"
    path.write_text(toml + "\n")
    code = "from roppyakken.cli import main; raise SystemExit(main())"
    done = subprocess.run(
        [sys.executable, "-c", code, "rules", "--rules-file", str(path)], capture_output=True, text=True
    )
    assert done.returncode == 2 and done.stderr.count("\n") == 1, done.stderr


@pytest.mark.parametrize("name", ["bot:expert", "BOT : random", "\u3164", "\u2800\u2800", " \u3164 "])
def test_names_that_impersonate_bots_or_look_blank(server: ServerThread, name: str) -> None:
    assert "'name'" in _error(server.post("/api/rooms", {"name": name}), 400)
    room = server.post("/api/rooms", {"name": "host"}).json()["room"]
    assert "'name'" in _error(server.post(f"/api/rooms/{room}/join", {"name": name}), 400)


def test_a_websocket_number_too_long_to_convert_is_refused() -> None:
    with pytest.raises(ProtocolError, match="not valid JSON"):
        parse_client_message('{"type": "seat", "seat": ' + "9" * 4500 + ', "kind": "bot"}')


# ------------------------------------------------------------------ the declared protocol


def _table(section: str) -> dict[str, set[str]]:
    """A PROTOCOL.md message table: each type and the field names its row lists."""
    text = DOCS.read_text(encoding="utf-8")
    body = text.split(section, 1)[1].split("\n\n", 2)[1]
    rows: dict[str, set[str]] = {}
    for line in body.splitlines()[2:]:
        cells = [c.strip() for c in line.replace("\\|", "/").strip("|").split("|")]
        kind = cells[0].strip("`")
        fields = cells[1]
        while re.search(r"\([^()]*\)", fields):
            fields = re.sub(r"\([^()]*\)", "", fields)
        rows[kind] = set(re.findall(r"`([a-z_]+)`", fields))
    return rows


def _properties(schema: dict[str, Any]) -> dict[str, set[str]]:
    defs = schema["$defs"]
    out = {}
    for ref in schema["discriminator"]["mapping"].values():
        model = defs[ref.rsplit("/", 1)[1]]
        out[model["properties"]["type"]["const"]] = set(model["properties"]) - {"type"}
    return out


CLIENT_MESSAGES = [
    '{"type":"ping"}',
    '{"type":"ping","id":"a"}',
    '{"type":"start"}',
    '{"type":"hello","v":1,"token":null}',
    '{"type":"hello","v":1,"token":"abc"}',
    '{"type":"hint","id":"x"}',
    '{"type":"seat","seat":1,"kind":"bot","level":"random"}',
    '{"type":"hand_over","seat":2}',
    '{"type":"chat","text":"hi"}',
    '{"type":"nonesuch"}',
    '{"type":"ping","extra":1}',
    '{"type":"ping","id":5}',
    '{"type":"hello"}',
    '{"type":"hello","v":"1","token":null}',
    '{"type":"act","seq":3}',
    '{"type":"seat","seat":"x","kind":"bot","level":"random"}',
    '{"type":"hand_over"}',
]
"""Client messages of each kind, taken and refused by the server's parser."""


def _parses(raw: str) -> bool:
    """Whether the server's parser takes ``raw``."""
    try:
        parse_client_message(raw)
    except ProtocolError:
        return False
    return True


def test_the_schema_is_published_and_matches_protocol_md(server: ServerThread) -> None:
    published = server.get("/api/schema").json()
    assert published["protocol_version"] == protocol.VERSION
    parts = ["client_message", "server_message", "lobby_client_message", "lobby_server_message"]
    parts += ["tournament_client_message", "tournament_server_message"]
    assert set(published) == {"protocol_version", "http", "http_answers", "http_error", *parts}
    answers = [*published["http_answers"].values(), published["http_error"]]
    for schema in [*(published[p] for p in parts), *published["http"].values(), *answers]:
        Draft202012Validator.check_schema(schema)  # each part is a JSON Schema
    # the published schema holds a message to what the server's own parser does: it takes the
    # messages the parser takes and refuses those the parser refuses
    client_schema = Draft202012Validator(published["client_message"])
    for raw in CLIENT_MESSAGES:
        assert client_schema.is_valid(json.loads(raw)) == _parses(raw), raw
    server_schema = Draft202012Validator(published["server_message"])
    for sent in (
        to_client.pong(),
        to_client.pong("a"),
        to_client.handed(2, [0], False),
        to_client.timeout(1, 5, True),
    ):
        assert server_schema.is_valid(json.loads(sent)), sent
    client = _properties(published["client_message"])
    documented = _table("### Client → server")
    assert set(client) == set(documented)
    for kind, fields in documented.items():
        assert client[kind] - {"id"} == fields, kind
    server_side = _properties(published["server_message"])
    documented = _table("### Server → client")
    assert set(server_side) == set(documented)
    for kind, fields in documented.items():
        assert server_side[kind] == fields, kind
    create = published["http"]["POST /api/rooms"]
    assert set(create["properties"]) == {
        "name",
        "players",
        "rules",
        "seed",
        "bots",
        "hints",
        "clock",
        "public",
        "rated",
    }
    assert create["additionalProperties"] is False
