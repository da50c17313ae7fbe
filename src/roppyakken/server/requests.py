"""The HTTP request bodies of docs/PROTOCOL.md, checked: a clear one-line error for anything wrong."""

from __future__ import annotations

import tomllib
import unicodedata
from dataclasses import dataclass
from typing import Any, Final

from roppyakken.ai.base import BOT_LEVELS
from roppyakken.errors import RoppyakkenError
from roppyakken.rules import Rules, preset, rules_from_mapping
from roppyakken.server import text

MAX_NAME: Final = 24
MAX_TOML: Final = 16_384
MAX_SEED: Final = 2**63 - 1


class RequestError(RoppyakkenError):
    """A malformed request body (HTTP 400)."""


@dataclass(frozen=True, slots=True)
class CreateRoom:
    """``POST /api/rooms``: the creator's name, the table and the bots of other seats."""

    name: str
    players: int
    rules: Rules
    seed: int | None
    bots: dict[int, str]


def _only(data: dict[str, Any], allowed: set[str]) -> None:
    extra = set(data) - allowed
    if extra:
        raise RequestError(text.UNKNOWN_FIELD.format(field=sorted(extra)[0]))


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def player_name(value: Any) -> str:
    """A player's name: 1 to 24 printable characters, trimmed."""
    if not isinstance(value, str):
        raise RequestError(text.NAME_RULE.format(max=MAX_NAME))
    name = " ".join(value.split())
    if not 0 < len(name) <= MAX_NAME or any(unicodedata.category(ch).startswith("C") for ch in name):
        raise RequestError(text.NAME_RULE.format(max=MAX_NAME))
    return name


def rules_of(value: Any) -> Rules:
    """``{"preset": NAME}`` or ``{"toml": HOUSE_RULES}`` as rules (RULES.md R-10)."""
    if not isinstance(value, dict) or len(value) != 1:
        raise RequestError(text.RULES_FORM)
    if "preset" in value:
        if not isinstance(value["preset"], str):
            raise RequestError(text.RULES_FORM)
        return preset(value["preset"])
    if "toml" in value:
        source = value["toml"]
        if not isinstance(source, str):
            raise RequestError(text.RULES_FORM)
        if len(source) > MAX_TOML:
            raise RequestError(text.TOML_TOO_LARGE)
        try:
            data = tomllib.loads(source)
        except tomllib.TOMLDecodeError as exc:
            raise RequestError(text.TOML_INVALID.format(reason=exc)) from None
        return rules_from_mapping(data)
    raise RequestError(text.RULES_FORM)


def bot_level(value: Any) -> str:
    """A registered bot level."""
    if not isinstance(value, str) or value not in BOT_LEVELS:
        raise RequestError(text.UNKNOWN_BOT.format(level=value, known=", ".join(BOT_LEVELS)))
    return value


def create_room(data: dict[str, Any]) -> CreateRoom:
    """Check a ``POST /api/rooms`` body."""
    _only(data, {"name", "players", "rules", "seed", "bots"})
    name = player_name(data.get("name"))
    players = data.get("players", 2)
    if not _is_int(players) or players not in (2, 3):
        raise RequestError(text.PLAYERS_RULE)
    rules = rules_of(data.get("rules", {"preset": "classic"}))
    rules.check_players(players)
    seed = data.get("seed")
    if seed is not None and (not _is_int(seed) or not 0 <= seed <= MAX_SEED):
        raise RequestError(text.SEED_RULE)
    raw_bots = data.get("bots") or {}
    if not isinstance(raw_bots, dict):
        raise RequestError(text.FIELD_TYPE.format(field="bots", what='an object like {"1": "random"}'))
    bots: dict[int, str] = {}
    for key, level in raw_bots.items():
        seat = int(key) if isinstance(key, str) and key.isdigit() else -1
        if not 1 <= seat < players:
            raise RequestError(text.BOT_SEAT.format(seat=key, last=players - 1))
        bots[seat] = bot_level(level)
    if seed is not None and len(bots) != players - 1:
        raise RequestError(text.SEED_SOLO_ONLY)
    return CreateRoom(name, players, rules, seed, bots)


def join_room(data: dict[str, Any]) -> str:
    """Check a ``POST /api/rooms/<room>/join`` body; the player's name."""
    _only(data, {"name"})
    return player_name(data.get("name"))


def score_request(data: dict[str, Any]) -> tuple[Rules, dict[str, Any]]:
    """Split a ``POST /api/score`` body into the rules and the FORMATS.md §1 input."""
    rules = rules_of(data.get("rules", {"preset": "classic"}))
    return rules, {k: v for k, v in data.items() if k != "rules"}
