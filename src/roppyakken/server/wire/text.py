"""Every English line the web server says itself (errors, start-up), kept in one place.

Each message is marked ``N_``: it is a message id of the catalogs, translated into every
language (``python -m roppyakken.devtools.i18n``; the browser's catalog has them too).  A
message with fields is never filled here: it is raised or sent with its fields
(``ProtocolError(text.NO_ROOM, msg_id, room=room)``, ``ApiError(404, text.NO_ROOM,
room=room)``, ``Phrase(text.X, ...)`` for words inside another message), so that the error
carries its template and fields beside the English line and each client says it in its own
language (server/wire/wording.py, docs/PROTOCOL.md "Errors").  Fields are named (``{room}``, never
``{room!r}`` or ``{n:g}``: the browser fills plain names only); quote them in the template.

Messages from the engine (an illegal action's reason, a bad house rule) are passed through
with their own templates and fields.
"""

from __future__ import annotations

from typing import Final

from roppyakken.i18n import N_

SERVING: Final = N_("Roppyakken is being served at {url}  (press Ctrl-C to stop)")
STOPPED: Final = N_("the server has stopped; every game is saved")
DATABASE_IN_USE: Final = N_("games are stored in {database}")
NEEDS_WEB_EXTRAS: Final = N_("the web server needs the 'web' extra: {install}")
PORT_IN_USE: Final = N_("cannot listen on {host}:{port}: {reason} (choose another --port)")
BAD_DATABASE_URL: Final = N_(
    "unsupported database URL '{url}' (use sqlite:///FILE, a file path or postgresql://…)"
)
DATABASE_UNREACHABLE: Final = N_("cannot open the database {url}: {reason}")
BAD_POOLER: Final = N_("unsupported pooler '{pooler}' in the database URL (use ?pooler={modes})")
REPLICA_NEEDS_POSTGRESQL: Final = N_(
    "a read replica needs a PostgreSQL database and a postgresql:// replica URL (--database-replica)"
)
NO_CLIENT: Final = N_("the browser client is missing from this installation (static/index.html)")

# HTTP errors
BODY_NOT_JSON: Final = N_("the request body is not valid JSON")
BODY_TOO_LARGE: Final = N_("the request body is too large")
BODY_NOT_JSON_TYPE: Final = N_("the request body must be JSON (Content-Type: application/json)")
BAD_CONTENT_LENGTH: Final = N_("the Content-Length header is not a number")
BODY_NOT_OBJECT: Final = N_("the request body must be a JSON object")
UNKNOWN_FIELD: Final = N_("unknown field '{field}'")
FIELD_TYPE: Final = N_("'{field}' must be {what}")
NAME_RULE: Final = N_("'name' must be 1 to {max} characters, not only spaces, without control characters")
PLAYERS_RULE: Final = N_("'players' must be 2 or 3")
RULES_FORM: Final = N_('\'rules\' must be {"preset": NAME} or {"toml": HOUSE_RULES}')
TOML_TOO_LARGE: Final = N_("the house rules are too long")
TOML_INVALID: Final = N_("the house rules are not valid TOML: {reason}")
TOML_TOO_DEEP: Final = N_("the house rules nest too deeply")
NAME_NOT_BOT: Final = N_("'name' must not look like a bot's ('bot:…')")
SEED_RULE: Final = N_("'seed' must be an integer from 0 to 2**63-1")
SEED_SOLO_ONLY: Final = N_(
    "'seed' can be chosen only for a game against bots (every other seat a bot); "
    "with other people the server draws the deal in secret and commits to it"
)
BOT_SEAT: Final = N_("'bots' names seat '{seat}', but the bots' seats are 1 to {last}")
UNKNOWN_BOT: Final = N_("unknown bot level '{level}' (known: {known})")
NO_ROOM: Final = N_("there is no room '{room}'")
ROOM_FULL: Final = N_("room '{room}' has no empty seat")
ROOM_STARTED: Final = N_("the game in room '{room}' has already started")
NO_RECORD: Final = N_("the game in room '{room}' is not finished, so it has no record yet")
NOT_FOUND: Final = N_("not found")
CSRF_REFUSED: Final = N_(
    "refused: a change made with the player cookie needs the X-CSRF-Token header from /api/me, "
    "from a page of this site"
)
CHAT_TEXT_RULE: Final = N_("a chat line must be 1 to {max} characters of text, without control characters")
CHAT_TOO_FAST: Final = N_("too many chat lines: wait a moment")
CHAT_TOO_MANY_MUTED: Final = N_("at most {max} authors can be muted at once")
NO_PLAYER: Final = N_("no player: make one first with POST /api/me")

# websocket errors (to the sender only; nothing changed)
MESSAGE_TOO_LARGE: Final = N_("the message is too large (at most {max} bytes)")
MESSAGE_BINARY: Final = N_("messages must be JSON text, not binary")
MESSAGE_NOT_JSON: Final = N_("the message is not valid JSON")
MESSAGE_NOT_OBJECT: Final = N_("a message must be a JSON object")
MESSAGE_NO_TYPE: Final = N_("a message needs a 'type' (hello, act, seat, start, ping, hint or hand_over)")
MESSAGE_UNKNOWN_TYPE: Final = N_(
    "unknown message type {type} (hello, act, seat, start, ping, hint or hand_over)"
)
MESSAGE_FIELD: Final = N_("{type}: {problem}")
MESSAGE_ID: Final = N_("'id' must be a string of at most 64 characters")
HELLO_FIRST: Final = N_("the first message must be hello")
HELLO_AGAIN: Final = N_("this connection has already said hello")
HELLO_TIMEOUT: Final = N_("no hello received in time")
BAD_VERSION: Final = N_("protocol version {v} is not supported (this server speaks version {ours})")
BAD_TOKEN: Final = N_("this seat token does not belong to room '{room}'")
SPECTATOR_CANNOT_ACT: Final = N_("spectators cannot act")
HINT_SPECTATOR: Final = N_("spectators cannot ask for hints")
HINTS_OFF: Final = N_(
    "hints are off in this room (a game with other people has them only if its room was made with hints on)"
)
HINT_NOT_YOUR_TURN: Final = N_("a hint is for your own turn to play or take a card")
HINT_FAILED: Final = N_("the hint could not be worked out; try again")
HINT_BUSY: Final = N_("a hint is already being worked out for your seat")
HINT_TOO_MANY: Final = N_("too many hints asked for: at most {n} a minute")
NOT_STARTED: Final = N_("the game has not started")
GAME_OVER: Final = N_("the game is over")
STALE_ACT: Final = N_("the game has moved on (your move was for state {seq}, it is now at {now}); look again")
HOST_ONLY: Final = N_("only the host (seat 0) can do that")
ONLY_BEFORE_START: Final = N_("seats can only be changed before the game starts")
SEAT_RANGE: Final = N_("seat {seat} is not one of seats 1 to {last}")
SEATS_EMPTY: Final = N_("every seat needs a player or a bot before the game can start (empty: {seats})")
SEAT_GIVEN_AWAY: Final = N_("the host gave your seat away")
SLOW_CLIENT: Final = N_("the connection fell too far behind")

WRITE_FAILED: Final = N_(
    "the move could not be saved (the database is busy or unavailable); nothing changed, try again"
)
STORAGE_UNAVAILABLE: Final = N_("the database is busy or unavailable; nothing changed, try again")
RESTORE_GAP: Final = N_("room '{room}' cannot be restored: its stored move {index} is missing")
RESTORE_BAD_MOVE: Final = N_(
    "room '{room}' cannot be restored: its stored move {index} does not apply ({reason})"
)
CONNECTION_CAP: Final = N_("at most {cap} connections at once: the process may open {descriptors} files")
RATE_LIMITED: Final = N_("too many requests from your address; try again in a moment")
TOO_MANY_CONNECTIONS: Final = N_("too many connections from your address")
ORIGIN_REFUSED: Final = N_("this page's origin may not connect to this server")
TOO_MANY_ROOMS: Final = N_("the server holds as many rooms as it may; try again in a moment")
RESTARTING: Final = N_("the server is restarting; your game is saved, reconnecting…")
MOVE_IN_FLIGHT: Final = N_(
    "the server holding this game went away before your move was confirmed; "
    "it was made only if the next state shows it — otherwise send it again"
)
MOVE_UNANSWERED: Final = N_(
    "the server holding this game did not answer in time; "
    "your move was made only if the next state shows it — otherwise send it again"
)
REDIS_NEEDS_POSTGRESQL: Final = N_(
    "--redis needs a shared --database postgresql://…: a SQLite file belongs to one machine"
)
REDIS_UNREACHABLE: Final = N_("cannot reach Redis at {url}: {reason}")
BAD_REDIS_URL: Final = N_(
    "unsupported Redis URL '{url}' (use redis://HOST:PORT/DB, rediss://… or redis+cluster://HOST:PORT,…)"
)
BAD_TRUSTED_PROXY: Final = N_(
    "--trusted-proxy '{value}' is not an IP address or network (e.g. 127.0.0.1 or 10.0.0.0/24); "
    "a proxy named otherwise would let clients choose the address their limits count"
)
TIME_UP: Final = N_("your time ran out: the clock played this move for you")
SEAT_ABANDONED: Final = N_("your seat was handed to a bot for the rest of this game")
HAND_OVER_CLOCKED: Final = N_("this room has a clock: it hands over absent players by itself")
HAND_OVER_SEAT: Final = N_("seat {seat} is not another player's seat that can be handed to a bot")
HAND_OVER_PRESENT: Final = N_("the player of seat {seat} is connected")
HAND_OVER_WAIT: Final = N_("the player of seat {seat} has been away less than {after} s; wait {wait} s more")

# accounts and sessions (server/people/accounts.py, server/people/erasure.py): API errors
LOGIN_INVALID: Final = N_(
    "a sign-in name has 3 to 32 characters: letters, digits, '.', '-' and '_', "
    "starting with a letter or digit"
)
PASSWORD_INVALID: Final = N_("a password has 8 to 1024 characters")
FIELD_NOT_TEXT: Final = N_("'{field}' must be text")
LOGIN_TAKEN: Final = N_("this sign-in name is taken; choose another")
ALREADY_SIGNED_IN: Final = N_("you are signed in already; sign out first to make another account")
SIGN_IN_FAILED: Final = N_("wrong sign-in name or password")
SIGN_IN_LIMITED: Final = N_("too many sign-in attempts; try again in {minutes} min")
NOT_SIGNED_IN: Final = N_("you are not signed in")
PASSWORD_WRONG: Final = N_("wrong password")
RECOVERY_FAILED: Final = N_("wrong sign-in name or recovery code")
RECOVERY_NEEDS_LOGIN: Final = N_("recovery codes go with a sign-in name, and this account has none")
RESET_LINK_INVALID: Final = N_("this reset link is unknown, used or expired: ask for a new one")
NO_PASSWORD: Final = N_("this account has no password (it signs in with passkeys)")
CONFIRM_SIGN_IN: Final = N_("sign in again (within the last {minutes} min) to delete this account")
NO_SESSION: Final = N_("no such session of your account")

# passkeys (server/people/passkeys.py, server/web/passkey_routes.py)
PASSKEY_CEREMONY_GONE: Final = N_("this passkey request has expired or was already used; start again")
PASSKEY_NOT_YOURS: Final = N_("this passkey request was begun by another browser or account; start again")
PASSKEY_REFUSED: Final = N_("the passkey's answer was refused: {reason}")
PASSKEY_UNKNOWN: Final = N_("this passkey is not registered on this site")
PASSKEY_OTHER_ACCOUNT: Final = N_("this passkey belongs to another account")
PASSKEY_CLONED: Final = N_(
    "the passkey's signature counter did not move forward (a copied authenticator?); sign-in refused"
)
PASSKEY_TAKEN: Final = N_("this passkey is already registered")
PASSKEY_GUEST_TAKEN: Final = N_("this player already belongs to an account: sign in instead")
PASSKEY_TOO_MANY: Final = N_("an account may hold at most {max} passkeys")
PASSKEY_SIGNED_OUT: Final = N_("sign in first")
PASSKEY_NOT_FOUND: Final = N_("the signed-in account has no such passkey")
PASSKEY_LAST: Final = N_(
    "this is the account's only way to sign in: add another passkey or a password before removing it"
)
PASSKEY_NO_HOST: Final = N_(
    "the request names no usable host, so passkeys cannot be used (send a Host header)"
)

# fair play and moderation (server/people/playban.py, server/people/moderation.py,
# server/people/enforcement.py,
# server/people/reporting.py)
PLAYBAN: Final = N_("you left {recent} rated games recently: you may play rated games again in {wait} min")
SUSPENDED: Final = N_("a moderator suspended you from playing on this server")
SUSPENDED_UNTIL: Final = N_("a moderator suspended you from playing on this server until {when} UTC")
ADDRESS_SUSPENDED: Final = N_("a moderator suspended your address on this server")
ADDRESS_SUSPENDED_UNTIL: Final = N_("a moderator suspended your address on this server until {when} UTC")
MUTED: Final = N_("a moderator muted you: your chat lines are not sent")
MUTED_UNTIL: Final = N_("a moderator muted you until {when} UTC: your chat lines are not sent")
REPORT_TOO_MANY: Final = N_("you made too many reports in the last hour; try again later")
REPORT_AGAIN: Final = N_("you reported this already; a moderator will read it")
REPORT_NO_LINE: Final = N_("there is no chat line {idx} that you could see in this room")
REPORT_NO_SEAT: Final = N_("seat {seat} of this room has no player to report")
REPORT_SELF: Final = N_("you cannot report yourself")
REPORT_WHAT: Final = N_('report either a chat line ("message") or a seat ("seat"), not both')
GUESTS_LIMITED: Final = N_("too many new players from your address; try again in {minutes} min")
RATED_ACCOUNTS_ONLY: Final = N_("on this server only players signed in to an account play rated games")
RATED_SAME_ORIGIN: Final = N_(
    "a player of this rated game plays from your address or browser: a rated game is between different people"
)
RATED_TOURNAMENT_SAME_ORIGIN: Final = N_(
    "a player of this rated tournament joined from your address or browser: "
    "a rated game is between different people"
)

# ratings (server/club/ratings)
RATED_NEEDS_PUBLIC_CLOCK: Final = N_(
    "a rated game must be public and have a clock (public: true and a clock)"
)
RATED_PEOPLE_ONLY: Final = N_("a rated game is between people: no bots and no chosen seed")
RATED_PRESET_ONLY: Final = N_("a rated game uses a preset's rules, not house rules")

# leaderboards and profiles (server/web/profile_routes.py)
NO_POOL: Final = N_("there is no rating pool '{pool}' (pools: {known})")
NO_PLAYER_ID: Final = N_("there is no player '{player}'")

# tournaments (server/web/tournament_routes.py)
NO_TOURNAMENT: Final = N_("there is no tournament '{tournament}'")
TOURNAMENT_NEEDS_ACCOUNT: Final = N_("sign in to an account to make a tournament")
TOURNAMENTS_PER_DAY: Final = N_("you may make {count} tournaments a day; try again later")
TOURNAMENTS_FULL: Final = N_("this server runs {count} tournaments already; try again later")
TOURNAMENT_FULL: Final = N_("this tournament is full ({count} players)")
TOURNAMENT_CLOSED: Final = N_("this tournament takes no more players")
TOURNAMENT_NOT_ENTERED: Final = N_("you are not in this tournament")
TOURNAMENT_CLUB_ONLY: Final = N_("only the members of its club may join this tournament")
TOURNAMENT_CLUB_LEADERS: Final = N_("only a club's owner and leaders make its tournaments")
TOURNAMENT_ABANDONED: Final = N_("you abandoned two games of this tournament: you may not join it again")
TOURNAMENT_PAUSE_ARENA: Final = N_("only an arena's players may pause")
TOURNAMENT_SHAPE: Final = N_(
    "an arena needs 'minutes' (its duration), a Swiss tournament 'rounds', a round robin neither"
)
TOURNAMENT_PRESET: Final = N_("there is no preset '{preset}' for tournaments (presets: {known})")
TOURNAMENT_SCHEDULE: Final = N_("tournament schedule {number} ('{name}'): {problem}")
TOURNAMENT_SCHEDULES_FILE: Final = N_("the tournament schedules are not valid TOML: {reason}")
# clubs (server/club/clubs.py, server/web/club_routes.py)
CLUB_NONE: Final = N_("there is no club '{club}'")
CLUB_NAME_RULE: Final = N_("a club's name must be {min} to {max} characters of text")
CLUB_NAME_TAKEN: Final = N_("a club with this name, or one that looks like it, exists already")
CLUB_DESCRIPTION_RULE: Final = N_("a club's description must be at most {max} characters")
CLUB_OWNS_TOO_MANY: Final = N_("you own {max} clubs already, the most one player may")
CLUB_JOINED_TOO_MANY: Final = N_("this player belongs to {max} clubs already, the most one player may")
CLUB_FULL: Final = N_("this club has {max} members, the most a club may have")
CLUB_TOO_MANY_PENDING: Final = N_(
    "this club has {max} open requests and invitations; its leaders must answer some first"
)
CLUB_ALREADY_MEMBER: Final = N_("this player is a member of this club already")
CLUB_ALREADY_PENDING: Final = N_("this player has asked to join or was invited already")
CLUB_BY_INVITATION: Final = N_("this club takes new members by invitation only")
CLUB_MEMBERS_ONLY: Final = N_("only the club's members may do this")
CLUB_LEADERS_ONLY: Final = N_("only the club's owner and leaders may do this")
CLUB_OWNER_ONLY: Final = N_("only the club's owner may do this")
CLUB_NOT_MEMBER: Final = N_("this player is not a member of this club")
CLUB_NOT_PENDING: Final = N_("this player has neither asked to join this club nor been invited")
CLUB_OWNER_STAYS: Final = N_(
    "the club's owner cannot be removed or demoted; the owner may hand the club over"
)
CLUB_NO_ACCOUNT: Final = N_("there is no player '{player}' with an account")
CLUB_NO_LINE: Final = N_("there is no chat line {line} in this club")

# friends: follows, blocks, challenges (server/people/follows.py, blocks.py, challenges.py)
FRIEND_SELF: Final = N_("you cannot do that to yourself")
FOLLOWS_FULL: Final = N_("you follow {max} players already, the most one may follow")
BLOCKS_FULL: Final = N_("you block {max} players already, the most one may block")
FOLLOW_REFUSED: Final = N_("you cannot follow this player")
CHALLENGE_REFUSED: Final = N_("you cannot challenge this player")
TABLE_REFUSED: Final = N_("you cannot join this table")
ROUND_ROBIN_REFUSED: Final = N_("you cannot join this round robin")
YOU_BLOCK: Final = N_("you block this player: unblock them first")
CHALLENGES_OUT_FULL: Final = N_("you have {max} challenges waiting already; cancel one or wait for an answer")
CHALLENGES_IN_FULL: Final = N_("this player has too many challenges waiting; try again later")
CHALLENGE_AGAIN: Final = N_("you have challenged this player already; wait for their answer")
CHALLENGE_TOO_FAST: Final = N_("you are sending too many challenges or follows; try again in a minute")
CHALLENGE_RATED_ACCOUNTS: Final = N_("a rated challenge is between two players signed in to an account")
CHALLENGE_RATED_CLOCK: Final = N_("a rated challenge needs a clock and a preset with ratings")
CHALLENGE_TWO_PLAYERS: Final = N_("a challenge is a game of two players")
NO_CHALLENGE: Final = N_("there is no challenge '{challenge}' waiting for you")
