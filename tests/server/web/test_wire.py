"""Every message the wire modules declare is in the published schema, and each is sent through them."""

from __future__ import annotations

import re
import typing
from pathlib import Path
from types import ModuleType
from typing import Any, get_args

from pydantic import BaseModel
from typing_extensions import is_typeddict

from roppyakken.server.play.clocks import CONTROLS
from roppyakken.server.web.schema import published
from roppyakken.server.wire import client, lobby, server

SERVER = Path(__file__).resolve().parent.parent / "src" / "roppyakken" / "server"


def _kinds(schema: dict[str, Any]) -> set[str]:
    return set(schema["discriminator"]["mapping"])


def _declared(module: ModuleType, typed_dicts: bool) -> set[str]:
    """The ``type`` of every message class defined in ``module`` (TypedDicts or pydantic models)."""
    kinds: set[str] = set()
    for value in vars(module).values():
        if not isinstance(value, type) or value.__module__ != module.__name__:
            continue
        if typed_dicts and is_typeddict(value):
            hints = typing.get_type_hints(value)
        elif not typed_dicts and issubclass(value, BaseModel):
            hints = {name: field.annotation for name, field in value.model_fields.items()}
        else:
            continue
        if "type" in hints:
            kinds.update(get_args(hints["type"]))
    return kinds


def test_every_declared_message_is_published() -> None:
    schema = published()
    assert _declared(client, typed_dicts=False) == _kinds(schema["client_message"])
    assert _declared(server, typed_dicts=True) == _kinds(schema["server_message"])
    assert _declared(lobby, typed_dicts=False) == _kinds(schema["lobby_client_message"])
    assert _declared(lobby, typed_dicts=True) | {"error", "pong"} == _kinds(schema["lobby_server_message"])


def test_messages_are_built_only_by_the_wire_modules() -> None:
    """Outside server/wire/, no module writes a server message as a dict literal (``"type": "state"``)
    (the compact text of a message is read, or assembled from encoded parts, only where a test checks it):
    messages go through the builders, whose types the schema is made of."""
    kinds = _kinds(published()["server_message"]) | _kinds(published()["lobby_server_message"])
    alternatives = "|".join(map(re.escape, kinds))
    literal = re.compile(r"""["']type["']\s*:\s+["'](""" + alternatives + r""")["']""")
    found = []
    for path in SERVER.rglob("*.py"):
        if "wire" in path.relative_to(SERVER).parts:
            continue
        source = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(SERVER)}: {m.group(0)}" for m in literal.finditer(source)]
    assert found == []


def test_the_lobby_pools_time_controls_are_the_clocks() -> None:
    assert tuple(CONTROLS) == lobby.CONTROLS
