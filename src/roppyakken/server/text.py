"""Every English line the web server says itself (errors, start-up), kept in one place.

The start-up lines printed by ``roppyakken serve`` are translated (marked ``N_``);
the API's error messages are part of the protocol and stay English.

Messages from the engine (an illegal action's reason, a bad house rule) are passed
through as they are; they come from the engine's own one-line errors.
"""

from __future__ import annotations

from typing import Final

from roppyakken.i18n import N_

SERVING: Final = N_("Roppyakken is being served at {url}  (press Ctrl-C to stop)")
STOPPED: Final = N_("the server has stopped; every game is saved")
DATABASE_IN_USE: Final = N_("games are stored in {database}")
NEEDS_WEB_EXTRAS: Final = N_(
    "the web server needs the 'web' extras: run ./scripts/setup, or pip install 'roppyakken[web]'"
)
PORT_IN_USE: Final = N_("cannot listen on {host}:{port}: {reason} (choose another --port)")
BAD_DATABASE_URL: Final = N_(
    "unsupported database URL '{url}' (use sqlite:///FILE, a file path or postgresql://…)"
)
DATABASE_UNREACHABLE: Final = N_("cannot open the database {url}: {reason}")
NO_CLIENT: Final = "the browser client is missing from this installation (static/index.html)"

# HTTP errors
BODY_NOT_JSON: Final = "the request body is not valid JSON"
BODY_TOO_LARGE: Final = "the request body is too large"
BODY_NOT_JSON_TYPE: Final = "the request body must be JSON (Content-Type: application/json)"
BAD_CONTENT_LENGTH: Final = "the Content-Length header is not a number"
BODY_NOT_OBJECT: Final = "the request body must be a JSON object"
UNKNOWN_FIELD: Final = "unknown field {field!r}"
FIELD_TYPE: Final = "{field!r} must be {what}"
NAME_RULE: Final = "'name' must be 1 to {max} characters, not only spaces, without control characters"
PLAYERS_RULE: Final = "'players' must be 2 or 3"
RULES_FORM: Final = '\'rules\' must be {"preset": NAME} or {"toml": HOUSE_RULES}'
TOML_TOO_LARGE: Final = "the house rules are too long"
TOML_INVALID: Final = "the house rules are not valid TOML: {reason}"
TOML_TOO_DEEP: Final = "the house rules nest too deeply"
NAME_NOT_BOT: Final = "'name' must not look like a bot's ('bot:…')"
SEED_RULE: Final = "'seed' must be an integer from 0 to 2**63-1"
SEED_SOLO_ONLY: Final = (
    "'seed' can be chosen only for a game against bots (every other seat a bot); "
    "with other people the server draws the deal in secret and commits to it"
)
BOT_SEAT: Final = "'bots' names seat {seat!r}, but the bots' seats are 1 to {last}"
UNKNOWN_BOT: Final = "unknown bot level {level!r} (known: {known})"
NO_ROOM: Final = "there is no room {room!r}"
ROOM_FULL: Final = "room {room!r} has no empty seat"
ROOM_STARTED: Final = "the game in room {room!r} has already started"
NO_RECORD: Final = "the game in room {room!r} is not finished, so it has no record yet"
NOT_FOUND: Final = "not found"
CSRF_REFUSED: Final = (
    "refused: a change made with the player cookie needs the X-CSRF-Token header from /api/me, "
    "from a page of this site"
)
CHAT_TEXT_RULE: Final = "a chat line must be 1 to {max} characters of text, without control characters"
CHAT_TOO_FAST: Final = "too many chat lines: wait a moment"
CHAT_TOO_MANY_MUTED: Final = "at most {max} authors can be muted at once"
NO_PLAYER: Final = "no player: make one first with POST /api/me"

# websocket errors (to the sender only; nothing changed)
MESSAGE_TOO_LARGE: Final = "the message is too large (at most {max} bytes)"
MESSAGE_BINARY: Final = "messages must be JSON text, not binary"
MESSAGE_NOT_JSON: Final = "the message is not valid JSON"
MESSAGE_NOT_OBJECT: Final = "a message must be a JSON object"
MESSAGE_NO_TYPE: Final = "a message needs a 'type' (hello, act, seat, start, ping, hint or hand_over)"
MESSAGE_UNKNOWN_TYPE: Final = (
    "unknown message type {type!r} (hello, act, seat, start, ping, hint or hand_over)"
)
MESSAGE_FIELD: Final = "{type}: {problem}"
MESSAGE_ID: Final = "'id' must be a string of at most 64 characters"
HELLO_FIRST: Final = "the first message must be hello"
HELLO_AGAIN: Final = "this connection has already said hello"
HELLO_TIMEOUT: Final = "no hello received in time"
BAD_VERSION: Final = "protocol version {v!r} is not supported (this server speaks version {ours})"
BAD_TOKEN: Final = "this seat token does not belong to room {room!r}"
SPECTATOR_CANNOT_ACT: Final = "spectators cannot act"
HINT_SPECTATOR: Final = "spectators cannot ask for hints"
HINTS_OFF: Final = (
    "hints are off in this room (a game with other people has them only if its room was made with hints on)"
)
HINT_NOT_YOUR_TURN: Final = "a hint is for your own turn to play or take a card"
HINT_FAILED: Final = "the hint could not be worked out; try again"
HINT_BUSY: Final = "a hint is already being worked out for your seat"
HINT_TOO_MANY: Final = "too many hints asked for: at most {n} a minute"
NOT_STARTED: Final = "the game has not started"
GAME_OVER: Final = "the game is over"
STALE_ACT: Final = "the game has moved on (your move was for state {seq}, it is now at {now}); look again"
HOST_ONLY: Final = "only the host (seat 0) can do that"
ONLY_BEFORE_START: Final = "seats can only be changed before the game starts"
SEAT_RANGE: Final = "seat {seat} is not one of seats 1 to {last}"
SEATS_EMPTY: Final = "every seat needs a player or a bot before the game can start (empty: {seats})"
SEAT_GIVEN_AWAY: Final = "the host gave your seat away"
SLOW_CLIENT: Final = "the connection fell too far behind"

WRITE_FAILED: Final = (
    "the move could not be saved (the database is busy or unavailable); nothing changed, try again"
)
STORAGE_UNAVAILABLE: Final = "the database is busy or unavailable; nothing changed, try again"
RESTORE_GAP: Final = "room {room!r} cannot be restored: its stored move {index} is missing"
RESTORE_BAD_MOVE: Final = (
    "room {room!r} cannot be restored: its stored move {index} does not apply ({reason})"
)
CONNECTION_CAP: Final = "at most {cap} connections at once: the process may open {descriptors} files"
RATE_LIMITED: Final = "too many requests from your address; try again in a moment"
TOO_MANY_CONNECTIONS: Final = "too many connections from your address"
ORIGIN_REFUSED: Final = "this page's origin may not connect to this server"
TOO_MANY_ROOMS: Final = "the server holds as many rooms as it may; try again in a moment"
RESTARTING: Final = "the server is restarting; your game is saved, reconnecting…"
MOVE_IN_FLIGHT: Final = (
    "the server holding this game went away before your move was confirmed; "
    "it was made only if the next state shows it — otherwise send it again"
)
MOVE_UNANSWERED: Final = (
    "the server holding this game did not answer in time; "
    "your move was made only if the next state shows it — otherwise send it again"
)
REDIS_NEEDS_POSTGRESQL: Final = N_(
    "--redis needs a shared --database postgresql://…: a SQLite file belongs to one machine"
)
REDIS_UNREACHABLE: Final = N_("cannot reach Redis at {url}: {reason}")
BAD_REDIS_URL: Final = N_("unsupported Redis URL '{url}' (use redis://HOST:PORT/DB or rediss://…)")
BAD_TRUSTED_PROXY: Final = N_(
    "--trusted-proxy '{value}' is not an IP address or network (e.g. 127.0.0.1 or 10.0.0.0/24); "
    "a proxy named otherwise would let clients choose the address their limits count"
)
TIME_UP: Final = "your time ran out: the clock played this move for you"
SEAT_ABANDONED: Final = "your seat was handed to a bot for the rest of this game"
HAND_OVER_CLOCKED: Final = "this room has a clock: it hands over absent players by itself"
HAND_OVER_SEAT: Final = "seat {seat} is not another player's seat that can be handed to a bot"
HAND_OVER_PRESENT: Final = "the player of seat {seat} is connected"
HAND_OVER_WAIT: Final = "the player of seat {seat} has been away less than {after:g} s; wait {wait} s more"

# leaderboards and profiles (server/profiles_api.py)
NO_POOL: Final = "there is no rating pool {pool!r} (pools: {known})"
NO_PLAYER_ID: Final = "there is no player {player!r}"
