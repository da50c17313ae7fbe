"""What the server holds about an account: exported as JSON, or erased.

:func:`export` gathers, for the account and every player it plays as (its own and
the guests it adopted): the account (never a hash), the players, the games they
took a seat in (with links to each room and record), the chat lines their seats
wrote, their sessions, their place in the pairing pool, and every row of any
other table keyed by their player id (ratings, rating history, …) or by the
account id (passkeys, …), hashes and secrets left out.

:func:`erase` deletes the account, its sessions, passkeys, open passkey ceremonies, recovery codes,
reset links and trusted devices, and the chat
lines its players' seats wrote; the players stay (their seats and ratings refer
to them) but are renamed to one anonymous label ``deleted-<8 hex digits>``, their
cookie secrets replaced so no browser acts as them again.  The label replaces
their name in each seat (``seats.name``) and in each stored game record
(``players[seat]`` of FORMATS.md §3): nothing a record's deal commitment or its
replay checks depends on the names, so every record stays valid and verifiable.
Ratings stay under the now anonymous player id.  A game still being played in a
server's memory when the account is erased keeps the name it started with for the
rest of that game; its stored seat is renamed.
"""

from __future__ import annotations

import base64
import json
import secrets
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Connection, Table, select, update

from roppyakken.record import dumps
from roppyakken.server.people import accounts, blocks, history, sessions
from roppyakken.server.people.players import hash_secret
from roppyakken.server.store import tables

FORMAT: Final = "roppyakken-account-export/1"
LABEL_PREFIX: Final = "deleted-"
_COVERED: Final = {
    "accounts",
    "players",
    "sessions",
    "seat_players",
    "seats",
    "chat",
    "pairing",
    "rooms",
    "follows",
    "blocks",
    "challenges",
}
_SECRET_WORDS: Final = ("hash", "secret", "token", "challenge", "lookup")


def _plain(value: Any) -> Any:
    if isinstance(value, datetime):
        moment = value if value.tzinfo is not None else value.replace(tzinfo=UTC)
        return moment.astimezone(UTC).isoformat().replace("+00:00", "Z")
    if isinstance(value, bytes | bytearray | memoryview):
        return base64.urlsafe_b64encode(bytes(value)).decode().rstrip("=")
    return value


def _rows(conn: Connection, table: Table, column: str, keys: list[str]) -> list[dict[str, Any]]:
    if not keys:
        return []
    shown = [c for c in table.columns if not any(word in c.name for word in _SECRET_WORDS)]
    result = conn.execute(select(*shown).where(table.c[column].in_(keys)))
    return [{c.name: _plain(v) for c, v in zip(shown, row, strict=True)} for row in result]


def _seats_of(conn: Connection, ids: list[str]) -> list[tuple[str, int]]:
    if not ids:
        return []
    c = tables.seat_players.c
    rows = conn.execute(select(c.room_id, c.seat).where(c.player_id.in_(ids)))
    return [(str(r[0]), int(r[1])) for r in rows]


def _chat_lines(conn: Connection, taken: list[tuple[str, int]]) -> list[dict[str, Any]]:
    lines: list[dict[str, Any]] = []
    c = tables.chat.c
    for room_id, seat in taken:
        rows = conn.execute(
            select(c.room_id, c.idx, c.channel, c.at, c.name, c.text, c.phrase)
            .where(c.room_id == room_id, c.author == f"seat:{seat}")
            .order_by(c.idx)
        )
        for r in rows:
            lines.append(
                {
                    "room": r[0],
                    "idx": r[1],
                    "channel": r[2],
                    "at": _plain(datetime.fromtimestamp(float(r[3]), UTC)),
                    "name": r[4],
                    "text": r[5],
                    "phrase": r[6],
                }
            )
    return lines


def export(conn: Connection, account_id: str, current_hash: str | None) -> dict[str, Any] | None:
    """Everything the server holds about the account and its players (None: no such account)."""
    row = accounts.find(conn, account_id=account_id)
    if row is None:
        return None
    ids = accounts.player_ids(conn, account_id)
    other: dict[str, list[dict[str, Any]]] = {}
    for name, table in sorted(tables.metadata.tables.items()):
        if name in _COVERED:
            continue
        if "player_id" in table.c:
            other[name] = _rows(conn, table, "player_id", ids)
        elif "account_id" in table.c:
            other[name] = _rows(conn, table, "account_id", [account_id])
    return {
        "format": FORMAT,
        "exported_at": _plain(datetime.now(UTC)),
        "account": {
            "id": row.id,
            "login": row.login,
            "created_at": _plain(row.created_at),
            "password": row.password_hash is not None,
        },
        "players": _rows(conn, tables.players, "id", ids),
        "games": history.games(conn, ids, limit=1_000_000),
        "chat": _chat_lines(conn, _seats_of(conn, ids)),
        "sessions": sessions.listing(conn, account_id, current_hash),
        "pairing": _rows(conn, tables.pairing, "player_id", ids),
        **other,
        # friends (server/people/follows.py, blocks.py, challenges.py): both sides of each
        "follows": _rows(conn, tables.follows, "follower", ids)
        + _rows(conn, tables.follows, "followed", ids),
        "blocks": _rows(conn, tables.blocks, "blocker", ids),
        "challenges": _rows(conn, tables.challenges, "from_id", ids)
        + _rows(conn, tables.challenges, "to_id", ids),
    }


def anonymous_label() -> str:
    """A fresh anonymous name for an erased account's players."""
    return LABEL_PREFIX + secrets.token_hex(4)


def rename_in_record(record: str, seat: int, label: str) -> str:
    """A stored FORMATS.md §3 record with seat ``seat``'s name replaced by ``label``."""
    fields = json.loads(record)
    names = fields.get("players")
    if isinstance(names, list) and 0 <= seat < len(names):
        names[seat] = label
    return dumps(fields)


def erase(conn: Connection, account_id: str, label: str | None = None) -> str | None:
    """Erase the account (see the module's docstring); the players' anonymous label, or None if there
    was no such account."""
    if accounts.find(conn, account_id=account_id) is None:
        return None
    label = label or anonymous_label()
    ids = accounts.player_ids(conn, account_id)
    taken = _seats_of(conn, ids)
    for room_id, seat in taken:
        conn.execute(
            update(tables.seats)
            .where(
                tables.seats.c.room_id == room_id, tables.seats.c.seat == seat, tables.seats.c.kind == "human"
            )
            .values(name=label)
        )
        conn.execute(
            tables.chat.delete().where(
                tables.chat.c.room_id == room_id, tables.chat.c.author == f"seat:{seat}"
            )
        )
        stored = conn.execute(select(tables.rooms.c.record).where(tables.rooms.c.id == room_id)).scalar()
        if stored:
            conn.execute(
                update(tables.rooms)
                .where(tables.rooms.c.id == room_id)
                .values(record=rename_in_record(stored, seat, label))
            )
    if ids:
        conn.execute(tables.pairing.delete().where(tables.pairing.c.player_id.in_(ids)))
        blocks.forget(conn, ids)
        for player_id in ids:
            conn.execute(
                update(tables.players)
                .where(tables.players.c.id == player_id)
                .values(name=label, account_id=None, secret_hash=hash_secret(secrets.token_urlsafe(32)))
            )
    for name in ("passkeys", "webauthn_challenges", "recovery_codes", "password_resets", "trusted_devices"):
        table = tables.metadata.tables.get(name)
        if table is not None and "account_id" in table.c:
            conn.execute(table.delete().where(table.c.account_id == account_id))
        if table is not None and "player_id" in table.c and ids:
            conn.execute(table.delete().where(table.c.player_id.in_(ids)))
    conn.execute(tables.sessions.delete().where(tables.sessions.c.account_id == account_id))
    conn.execute(tables.accounts.delete().where(tables.accounts.c.id == account_id))
    return label
