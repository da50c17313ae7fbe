"""A room's seats and their tokens, a room's statuses, and what a connected client is to a room."""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from typing import Final, Protocol

from roppyakken.ai.base import BOT_LEVELS
from roppyakken.server.store import room_store

WAITING: Final = "waiting"
PLAYING: Final = "playing"
OVER: Final = "over"
HUMAN: Final = "human"
BOT: Final = "bot"
EMPTY: Final = "empty"


def default_bot_level() -> str:
    """The level a seat gets when the host adds a bot without naming one."""
    for level in ("greedy", "random"):
        if level in BOT_LEVELS:
            return level
    return next(iter(BOT_LEVELS))


def new_token() -> str:
    """A fresh unguessable seat token."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> str:
    """What is stored of a seat token: its SHA-256."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def new_salt() -> str:
    """A fresh salt for a deal commitment (128 random bits as hex)."""
    return secrets.token_hex(16)


def new_room_id() -> str:
    """A fresh unguessable room id (the invite link's part)."""
    return secrets.token_urlsafe(9)


class Client(Protocol):
    """A connected client of a room: a seat (or ``None``, a spectator) and a way to send to it."""

    seat: int | None

    def send(self, message: str) -> None:
        """Queue one message (JSON text) for this client; never blocks."""
        ...

    def close(self, code: int, reason: str) -> None:
        """Close the connection once queued messages are sent."""
        ...


@dataclass(slots=True)
class Seat:
    """A seat: a human (name, token hash), a bot (level) or empty."""

    kind: str
    name: str | None = None
    level: str | None = None
    token_hash: str | None = None

    @property
    def display_name(self) -> str:
        """The name in records and views: the player's, ``bot:LEVEL``, or empty."""
        if self.kind == BOT:
            return f"bot:{self.level}"
        return self.name or ""

    def row(self, index: int) -> room_store.SeatRow:
        """The seat as stored."""
        return room_store.SeatRow(index, self.kind, self.name, self.level, self.token_hash)
