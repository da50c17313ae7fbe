"""The browser client's TypeScript declarations of the wire protocol, generated from its JSON Schema.

``python -m roppyakken.devtools.wiretypes`` writes ``server/static/js/wire.d.ts`` from the schema that
``GET /api/schema`` publishes (:func:`published`); ``--check`` only says whether the file is current.
The client imports the types in JSDoc (``import("./wire").StateMessage``); ``tsc --checkJs`` reads them.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any, Final

from starlette.requests import Request

from roppyakken.server.web import schema as schema_route

TARGET: Final = Path(__file__).resolve().parents[1] / "server" / "static" / "js" / "wire.d.ts"
COMMAND: Final = "python -m roppyakken.devtools.wiretypes"

# The schema's sections of websocket messages, each a tagged union, and the name of that union.
UNIONS: Final = (
    ("client_message", "ClientMessage", ""),
    ("server_message", "ServerMessage", ""),
    ("lobby_client_message", "LobbyClientMessage", "Lobby"),
    ("lobby_server_message", "LobbyServerMessage", "Lobby"),
    ("tournament_client_message", "TournamentClientMessage", "Tournament"),
    ("tournament_server_message", "TournamentServerMessage", "Tournament"),
)

# What an object of open shape (``dict[str, Any]`` in a model) is to the client.
OPEN_OBJECT: Final = "JsonObject"

_SIMPLE: Final = {
    "string": "string",
    "integer": "number",
    "number": "number",
    "boolean": "boolean",
    "null": "null",
}
_IDENTIFIER: Final = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


def published() -> dict[str, Any]:
    """The protocol's JSON Schema: the body the ``GET /api/schema`` route (server/web/schema.py) answers."""
    request = Request(
        {"type": "http", "method": "GET", "path": "/api/schema", "headers": [], "query_string": b""}
    )
    response = asyncio.run(schema_route.schema(request))
    body: dict[str, Any] = json.loads(bytes(response.body))
    return body


class _Writer:
    """Turns schema definitions into TypeScript declarations, one name per distinct definition."""

    def __init__(self) -> None:
        self.blocks: list[str] = []
        self.defined: dict[str, Any] = {}

    def name_for(self, name: str, schema: Any, prefix: str) -> str:
        """The declared name of definition ``name``: its own, or prefixed if taken by another shape."""
        if name in self.defined and self.defined[name] != schema:
            return prefix + name
        return name

    def declare(self, name: str, schema: dict[str, Any], refs: dict[str, str]) -> None:
        """Declare ``name`` for ``schema`` unless that very shape already has it."""
        if name in self.defined:
            return
        self.defined[name] = schema
        doc = _doc(schema.get("description"), "")
        if schema.get("type") == "object" and "properties" in schema:
            self.blocks.append(f"{doc}export interface {name} {self.object_body(schema, refs, '')}\n")
        else:
            self.blocks.append(f"{doc}export type {name} = {self.expr(schema, refs, '')};\n")

    def declare_once(self, name: str, schema: dict[str, Any], refs: dict[str, str]) -> None:
        """Declare ``name`` for ``schema``; a name already declared must have that very shape."""
        if name in self.defined and self.defined[name] != schema:
            raise ValueError(f"wiretypes: two shapes are named {name}")
        self.declare(name, schema, refs)

    def object_body(self, schema: dict[str, Any], refs: dict[str, str], indent: str) -> str:
        """The ``{ ... }`` of an object with declared properties."""
        required = set(schema.get("required", ()))
        inner = indent + "  "
        lines = ["{"]
        for prop, sub in schema.get("properties", {}).items():
            key = prop if _IDENTIFIER.match(prop) else json.dumps(prop)
            optional = "" if prop in required else "?"
            lines.append(_doc(sub.get("description"), inner).rstrip("\n"))
            lines.append(f"{inner}{key}{optional}: {self.expr(sub, refs, inner)};")
        extra = schema.get("additionalProperties", False)
        if extra is True or (extra is not False and extra is not None):
            value = "unknown" if extra is True else self.expr(extra, refs, inner)
            lines.append(f"{inner}[field: string]: {value};")
        lines.append(indent + "}")
        return "\n".join(line for line in lines if line)

    def expr(self, schema: Any, refs: dict[str, str], indent: str) -> str:
        """The TypeScript type of one schema."""
        if schema is True or schema == {}:
            return "unknown"
        if "$ref" in schema:
            return refs[schema["$ref"].rsplit("/", 1)[-1]]
        if "const" in schema:
            return json.dumps(schema["const"], ensure_ascii=False)
        if "enum" in schema:
            return " | ".join(json.dumps(v, ensure_ascii=False) for v in schema["enum"])
        for key in ("anyOf", "oneOf"):
            if key in schema:
                parts = [self.expr(s, refs, indent) for s in schema[key]]
                return " | ".join(_parenthesised(p) for p in parts)
        kind = schema.get("type")
        if isinstance(kind, list):
            return " | ".join(self.expr({**schema, "type": k}, refs, indent) for k in kind)
        if kind == "array":
            items = self.expr(schema.get("items", {}), refs, indent)
            return f"{_parenthesised(items)}[]"
        if kind == "object":
            if "properties" in schema:
                return self.object_body(schema, refs, indent)
            extra = schema.get("additionalProperties", True)
            patterns = schema.get("patternProperties")
            if patterns:
                values = [self.expr(s, refs, indent) for s in patterns.values()]
                return f"{{ [field: string]: {' | '.join(values)} }}"
            if extra is True or extra == {}:
                return OPEN_OBJECT
            return f"{{ [field: string]: {self.expr(extra, refs, indent)} }}"
        simple = {
            "string": "string",
            "integer": "number",
            "number": "number",
            "boolean": "boolean",
            "null": "null",
        }
        if kind in simple:
            return simple[kind]
        raise ValueError(f"wiretypes: no TypeScript for the schema {json.dumps(schema)}")


def _parenthesised(expr: str) -> str:
    return f"({expr})" if " | " in expr and not expr.startswith("{") else expr


def _doc(text: str | None, indent: str) -> str:
    if not text:
        return ""
    lines = text.strip().splitlines()
    if len(lines) == 1:
        return f"{indent}/** {lines[0].replace('*/', '*∕')} */\n"
    body = "".join(f"{indent} * {line.replace('*/', '*∕')}".rstrip() + "\n" for line in lines)
    return f"{indent}/**\n{body}{indent} */\n"


def _http_name(route: str, schema: dict[str, Any]) -> str:
    title = schema.get("title")
    if isinstance(title, str) and _IDENTIFIER.match(title):
        return title
    words = re.findall(r"[A-Za-z0-9]+", route)
    return "".join(w.capitalize() for w in words) + "Body"


def render(schema: dict[str, Any]) -> str:
    """The text of wire.d.ts for ``schema`` (the shape :func:`published` returns)."""
    writer = _Writer()
    unions: list[str] = []
    for section, union, prefix in UNIONS:
        part = schema[section]
        defs: dict[str, Any] = part.get("$defs", {})
        refs = {name: writer.name_for(name, sub, prefix) for name, sub in defs.items()}
        for name, sub in defs.items():
            writer.declare(refs[name], sub, refs)
        members = [writer.expr(s, refs, "") for s in part["oneOf"]]
        doc = _doc(f"Every message of the schema's ``{section}``, told apart by ``type``.", "")
        unions.append(
            f"{doc}export type {union} =\n" + "".join(f"  | {m}\n" for m in members).rstrip("\n") + ";\n"
        )
    bodies: list[str] = []
    for route, sub in schema["http"].items():
        name = _http_name(route, sub)
        refs = {n: n for n in sub.get("$defs", {})}
        for n, s in sub.get("$defs", {}).items():
            writer.declare(n, s, refs)
        writer.declare(name, {k: v for k, v in sub.items() if k != "$defs"}, refs)
        bodies.append(f"  {json.dumps(route)}: {name};")
    answers: list[str] = []
    for route, sub in {**schema["http_answers"], "error": schema["http_error"]}.items():
        name = str(sub["title"])
        refs = {n: n for n in sub.get("$defs", {})}
        for n, s in sub.get("$defs", {}).items():
            writer.declare_once(n, s, refs)
        writer.declare_once(name, {k: v for k, v in sub.items() if k != "$defs"}, refs)
        if route != "error":
            answers.append(f"  {json.dumps(route)}: {name};")
    head = (
        f"// Generated by `{COMMAND}` from the protocol's JSON Schema (GET /api/schema); do not edit.\n"
        f"// The client's types of every declared websocket message, request body and HTTP answer\n"
        f"// (docs/PROTOCOL.md).\n"
        "\n"
        f"/** The protocol version these types describe. */\n"
        f"export type ProtocolVersion = {json.dumps(schema['protocol_version'])};\n"
        "\n"
        f"/** An object the schema leaves open (``dict[str, Any]``): any fields. */\n"
        f"export type {OPEN_OBJECT} = {{ [field: string]: unknown }};\n"
    )
    requests_map = (
        "/** Each declared HTTP request's JSON body, by method and route. */\n"
        "export interface RequestBodies {\n" + "\n".join(bodies) + "\n}\n"
    )
    answers_map = (
        "/** Each declared HTTP answer's JSON body, by method and route (errors: ErrorAnswer). */\n"
        "export interface Answers {\n" + "\n".join(answers) + "\n}\n"
    )
    return "\n".join([head, *writer.blocks, *unions, requests_map, answers_map])


def main(argv: list[str] | None = None) -> int:
    """Write wire.d.ts (or with ``--check``, exit 1 if it is not what the schema gives)."""
    parser = argparse.ArgumentParser(prog=COMMAND, description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only check that the file is current")
    args = parser.parse_args(argv)
    text = render(published())
    current = TARGET.read_text(encoding="utf-8") if TARGET.exists() else None
    if args.check:
        if current != text:
            print(f"{TARGET} is stale: run {COMMAND}", file=sys.stderr)
            return 1
        return 0
    if current != text:
        TARGET.write_text(text, encoding="utf-8")
        print(f"wrote {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
