"""The database tables (SQLAlchemy 2 Core): rooms, their seats, and every applied action.

The schema is created and changed only by the Alembic migrations in
``migrations/versions``; these definitions are what the code queries with and
must match the newest migration (a test checks that).
"""

from __future__ import annotations

from typing import Final

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
    false,
    literal_column,
    text,
)

metadata = MetaData()

rooms = Table(
    "rooms",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("players", Integer, nullable=False),
    Column("preset", String(64), nullable=False),
    Column("options", Text, nullable=False),  # rules.options() as JSON
    Column("seed", BigInteger, nullable=False),
    Column("status", String(16), nullable=False),  # waiting, playing, over
    Column("salt", String(64), nullable=True),  # the deal commitment's salt (null: a chosen seed)
    Column("finished_at", DateTime(timezone=True), nullable=True),
    Column("winner", Integer, nullable=True),
    Column("record", Text, nullable=True),  # FORMATS.md §3, once over
    # the holder epoch: raised by each server that takes the room; its writes check it (fencing)
    Column("epoch", Integer, nullable=False, server_default="0"),
    Column("public", Boolean, nullable=False, server_default=false()),  # listed in finished games
    Column("clock", Text, nullable=True),  # server/play/clocks.py Clock.to_json() as JSON (null: no clock)
    Column("clock_deadline", Float, nullable=True),  # the clock's next deadline (epoch seconds), if any
    Column("rated", Boolean, nullable=False, server_default=false()),  # its result moves ratings
    Index("ix_rooms_status_finished", "status", "finished_at"),
    Index("ix_rooms_clock_deadline", "clock_deadline"),
)
"""One row per room; ``record`` holds the finished game's record, ``epoch`` the holder epoch
(server/store/room_store.py, :func:`~roppyakken.server.store.room_store.fence`)."""

seats = Table(
    "seats",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),  # human, bot, empty
    Column("name", String(64), nullable=True),
    Column("level", String(32), nullable=True),
    Column("token_hash", String(64), nullable=True),  # sha256 of the seat token
)
"""One row per seat of a room; tokens are stored only as hashes."""

actions = Table(
    "actions",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),  # action.to_json() as JSON
)
"""Every applied action of a room's game, in order: replaying them rebuilds the game."""

players = Table(
    "players",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("secret_hash", String(64), nullable=False),  # sha256 of the cookie's secret, never the secret
    Column("name", String(64), nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("account_id", String(32), nullable=True),  # the account that adopted this guest, if any
)
"""One row per player (a visitor, without sign-up): the browser holds the secret in a cookie."""

seat_players = Table(
    "seat_players",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), nullable=False),
    # where a rated room's seat was taken from, hashed: one address or browser counts once
    Column("address_hash", String(64), nullable=True),
    Column("browser_hash", String(64), nullable=True),
    Index("ix_seat_players_player", "player_id"),
)
"""Which player took which seat (a player's history; an account adopts it through ``players``)."""

pairing = Table(
    "pairing",
    metadata,
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("pool", String(96), nullable=False),  # preset:players:clock
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=False),  # the seat token the player will hold, hashed
    Column("joined_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),  # the player's member's last heartbeat
    Column("room_id", String(32), nullable=True),  # set when claimed into a game
    Column("seat", Integer, nullable=True),
    Column("claimed_at", Float, nullable=True),
    Column("ready", Boolean, nullable=False, server_default=false()),  # the claimed game exists
    # where the seek came from, hashed: rows of one address or one browser are never paired together
    Column("address_hash", String(64), nullable=True),
    Column("browser_hash", String(64), nullable=True),
    Index("ix_pairing_pool_joined", "pool", "joined_at"),
)
"""The quick-pairing pool: one row per waiting player, shared by every member of a cluster."""

chat = Table(
    "chat",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("channel", String(16), nullable=False),  # PLAYERS_CHANNEL or SPECTATORS_CHANNEL
    Column("at", Float, nullable=False),
    Column("author", String(32), nullable=False),  # who wrote it (a player id or seat/spectator key)
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=True),
    Column("phrase", String(32), nullable=True),  # a quick phrase's id instead of text
)
"""Each room's chat, kept with the room and removed with it."""

PLAYERS_CHANNEL: Final = "players"
"""The ``chat.channel`` of the lines the seated players read."""
SPECTATORS_CHANNEL: Final = "spectators"
"""The ``chat.channel`` of the lines the spectators read."""

# --- accounts and sessions ----------------------------------------------------------------------

accounts = Table(
    "accounts",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("login", String(64), nullable=True, unique=True),  # the sign-in name, case-folded; null: none
    Column("password_hash", String(256), nullable=True),  # argon2id; null: passkeys only
    Column("player_id", ForeignKey("players.id"), nullable=False),  # the player it plays as
    Column("created_at", DateTime(timezone=True), nullable=False),
    Column("login_skeleton", String(256), nullable=True),  # UTS #39 skeleton of the login (logins.py)
    Index("ix_accounts_login_skeleton", "login_skeleton", unique=True),
)
"""One row per account: a player who can sign in on any device (their guest players point here)."""

recovery_codes = Table(
    "recovery_codes",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("account_id", ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("lookup", String(8), nullable=False),  # the code's first characters, to find its hash
    Column("code_hash", String(256), nullable=False),  # argon2id of the rest; deleted once used
    Column("created_at", Float, nullable=False),
    Index("ix_recovery_codes_account", "account_id", "lookup"),
)
"""An account's unused recovery codes (server/people/recovery.py)."""

password_resets = Table(
    "password_resets",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # sha256 of the link's token
    Column("account_id", ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("created_by", String(64), nullable=False),  # who ran roppyakken admin reset-link
    Index("ix_password_resets_account", "account_id"),
)
"""Open password-reset links an operator issued (server/people/recovery.py); each is deleted when used."""

trusted_devices = Table(
    "trusted_devices",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # sha256 of the device cookie's token
    Column("account_id", ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
    Index("ix_trusted_devices_account", "account_id"),
)
"""Browsers that signed in to an account (server/people/recovery.py): not held by its sign-in name's limit."""

sessions = Table(
    "sessions",
    metadata,
    Column("token_hash", String(64), primary_key=True),  # sha256 of the session cookie's token
    Column("account_id", ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("created_at", Float, nullable=False),
    Column("seen_at", Float, nullable=False),
    Column("expires_at", Float, nullable=False),
    Column("address", String(64), nullable=True),
    Column("agent", String(200), nullable=True),
    Index("ix_sessions_account", "account_id"),
)
"""Signed-in sessions, server-side so that each can be revoked (server/people/sessions.py)."""

# --- passkeys -----------------------------------------------------------------------------------

passkeys = Table(
    "passkeys",
    metadata,
    Column("credential_id", String(1400), primary_key=True),  # base64url of the credential's id
    Column("account_id", ForeignKey("accounts.id", ondelete="CASCADE"), nullable=False),
    Column("user_handle", String(64), nullable=False),  # base64url of the WebAuthn user.id (per account)
    Column("public_key", LargeBinary, nullable=False),  # the credential's COSE public key
    Column("sign_count", BigInteger, nullable=False),  # the authenticator's counter last seen (0..2**32-1)
    Column("transports", String(200), nullable=True),  # JSON list the browser gave ("internal", "usb"…)
    Column("name", String(64), nullable=True),  # the owner's label for it
    Column("created_at", Float, nullable=False),
    Column("last_used_at", Float, nullable=True),
    Index("ix_passkeys_account", "account_id"),
)
"""Each account's passkeys (WebAuthn credentials), checked by server/people/passkeys.py."""

webauthn_challenges = Table(
    "webauthn_challenges",
    metadata,
    Column("id", String(64), primary_key=True),  # the ceremony's id the browser sends back
    Column("challenge", String(128), nullable=False),  # base64url of the random challenge
    Column("purpose", String(16), nullable=False),  # register or signin
    Column("account_id", ForeignKey("accounts.id", ondelete="CASCADE"), nullable=True),
    Column("scoped", Boolean, nullable=False),  # a sign-in limited to account_id (none: no passkey fits)
    Column("player_id", String(32), nullable=True),  # the guest who began a registration
    Column("user_handle", String(64), nullable=True),  # the user.id a registration offered
    Column("name", String(64), nullable=True),  # the label a registration asked for
    Column("expires_at", Float, nullable=False),
    Index("ix_webauthn_challenges_expires", "expires_at"),
)
"""Open passkey ceremonies: in the database so that any member of a cluster can finish one another
began; each is taken (deleted) by the first answer to it, and ends at ``expires_at``."""

# --- ratings ------------------------------------------------------------------------------------

rating_games = Table(
    "rating_games",
    metadata,
    Column("seq", Integer, primary_key=True, autoincrement=True),  # the order ratings were updated in
    Column("room_id", String(32), nullable=False, unique=True),
    Column("pool", String(32), nullable=False),
    Column("finished_at", DateTime(timezone=True), nullable=False),
    Column("result", Text, nullable=False),  # JSON: the finishing order fed to the rating model
)
"""Every rated game's result in the order it moved the ratings: replaying it rebuilds them."""

ratings = Table(
    "ratings",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("pool", String(32), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("games", Integer, nullable=False),
    Column("last_seq", Integer, nullable=False),
    Column("last_played", DateTime(timezone=True), nullable=False),
    Index("ix_ratings_pool", "pool"),
)
"""Each player's current rating in each pool."""

rating_history = Table(
    "rating_history",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("pool", String(32), primary_key=True),
    Column("seq", Integer, primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("place", Integer, nullable=False),
)
"""Each player's rating after each rated game (the profile's chart)."""

# --- fair play and moderation -------------------------------------------------------------------

abandonments = Table(
    "abandonments",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("player_id", String(32), nullable=False),
    Column("room_id", String(32), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("at", Float, nullable=False),  # epoch seconds
    Column("cause", String(16), nullable=False),  # timeout (the clock gave the seat up), handed
    Column("forgiven", Boolean, nullable=False, server_default=false()),  # cleared by a moderator
    Index("ix_abandonments_player_at", "player_id", "at"),
    Index("ux_abandonments_room_seat", "room_id", "seat", unique=True),
)
"""Every seat of a rated game given up (server/people/playban.py): the playban ladder is computed from
them."""

sanctions = Table(
    "sanctions",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("kind", String(16), nullable=False),  # mute, suspend
    Column("player_id", String(32), nullable=True),
    Column("account_id", String(32), nullable=True),
    Column("address", String(64), nullable=True),  # an IP address or network
    Column("reason", Text, nullable=True),
    Column("created_at", Float, nullable=False),
    Column("created_by", String(64), nullable=False),
    Column("expires_at", Float, nullable=True),  # null: until cleared
    Column("cleared_at", Float, nullable=True),
    Column("cleared_by", String(64), nullable=True),
    Index("ix_sanctions_active", "cleared_at", "expires_at"),
)
"""Mutes and suspensions set by moderators (server/people/moderation.py), each of one player, account or
address."""

reports = Table(
    "reports",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("reporter_id", String(32), nullable=False),
    Column("reporter_address", String(64), nullable=True),
    Column("room_id", String(32), nullable=False),  # no foreign key: a report outlives its room
    Column("kind", String(16), nullable=False),  # message, player
    Column("channel", String(16), nullable=True),
    Column("chat_idx", Integer, nullable=True),
    Column("seat", Integer, nullable=True),
    Column("player_id", String(32), nullable=True),  # the reported player, when known
    Column("name", String(64), nullable=True),  # the reported name, as shown then
    Column("text", Text, nullable=True),  # the reported line's text, as it was
    Column("phrase", String(32), nullable=True),
    Column("reason", String(16), nullable=False),
    Column("status", String(8), nullable=False),  # open, closed
    Column("closed_at", Float, nullable=True),
    Column("closed_by", String(64), nullable=True),
    Index("ix_reports_status_at", "status", "at"),
    Index("ix_reports_reporter_at", "reporter_id", "at"),
)
"""Players' reports of a chat line or a player, with a snapshot of what was reported."""

moderation_log = Table(
    "moderation_log",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("at", Float, nullable=False),
    Column("actor", String(64), nullable=False),
    Column("action", String(24), nullable=False),
    Column("target", String(128), nullable=False),
    Column("detail", Text, nullable=True),
)
"""Every moderation action (``roppyakken admin``), with who made it."""

# --- guests -------------------------------------------------------------------------------------

# a guest's last use (epoch seconds, refreshed at most hourly); null: not used since the column came
players.append_column(Column("seen_at", Float, nullable=True))
# an open public table's host was last seen there (epoch seconds): the lobby lists it
# (server/club/open_tables.py)
rooms.append_column(Column("host_seen_at", Float, nullable=True))
Index("ix_players_seen_at", players.c.seen_at)

heartbeats = Table(
    "heartbeats",
    metadata,
    Column("server", String(64), primary_key=True),
    Column("seen_at", Float, nullable=False),  # epoch seconds
)
"""A single server's last sign of life, written every second and removed on a clean stop: found at
the next start, it says the server died, and since when its running clocks had nobody to serve them
(server/play/downtime.py)."""

# --- profiles -----------------------------------------------------------------------------------

game_seats = Table(
    "game_seats",
    metadata,
    Column("room_id", String(32), ForeignKey("rooms.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("player_id", String(32), nullable=True),  # the seat's player (seat_players); null: a bot's
    # the room's, copied so that a profile reads no room row (fixed once the game is over)
    Column("finished_at", DateTime(timezone=True), nullable=False),
    Column("preset", String(64), nullable=False),
    Column("public", Boolean, nullable=False),
    Column("rated", Boolean, nullable=False),
    Column("place", Integer, nullable=True),  # 1 first, ties share; null: the game ended without a winner
    Column("rounds", Integer, nullable=False),  # the rounds scored
    Column("points", BigInteger, nullable=False),  # the sum of those rounds' final points
    Column("points_sq", Float, nullable=False),  # the sum of their squares (for the interval)
    Column("abandoned", Boolean, nullable=False),  # the clock gave the seat to a bot
    Column("yaku", Text, nullable=False),  # JSON {yaku slug: rounds it was made in}
    Column("lucky", Text, nullable=False),  # JSON {lucky-hand slug: rounds it scored in}
)
"""One row per seat of each finished game: what a profile adds up (server/club/profiles.py), written when the
game ends so that a profile never reads the records themselves."""

Index(
    "ix_game_seats_player",
    game_seats.c.player_id,
    game_seats.c.finished_at,
    game_seats.c.public,
    game_seats.c.place,
    game_seats.c.rounds,
    game_seats.c.points,
    game_seats.c.points_sq,
    game_seats.c.abandoned,
    game_seats.c.yaku,
    game_seats.c.lucky,
)
"""One player's games in time order with every column their profile adds up: a profile's totals read
this index alone, a few of its pages in a row."""

BOARD_ORDINAL = ratings.c.mu - literal_column("3.0") * ratings.c.sigma
"""The conservative rating ``mu - 3 sigma`` the display rating grows with (a literal, not a bound
parameter, so that a query's expression is the index's)."""

Index(
    "ix_ratings_board",
    ratings.c.pool,
    text("(mu - 3.0 * sigma) DESC"),  # BOARD_ORDINAL, written as PostgreSQL shows it back
    ratings.c.player_id,
    ratings.c.last_played,
    ratings.c.games,
    ratings.c.sigma,
    ratings.c.mu,
)
"""A leaderboard page walks this index in rank order and its count scans it: both read only the index."""

Index("ix_players_account", players.c.account_id)
"""An account's adopted guests (a profile's games, and the guests a leaderboard leaves out)."""

# --- offline games ------------------------------------------------------------------------------

offline_games = Table(
    "offline_games",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("uploaded_at", DateTime(timezone=True), nullable=False),
    Column("digest", String(64), nullable=False),  # sha256 of the record as stored: one upload per game
    Column("preset", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("seat", Integer, nullable=False),  # the uploader's seat (every other is a bot)
    Column("opponents", Text, nullable=False),  # JSON: the bots' levels, in seat order
    Column("winner", Integer, nullable=True),
    Column("rounds", Integer, nullable=False),
    Column("totals", Text, nullable=False),  # JSON: each seat's final total
    Column("record", Text, nullable=False),  # the record (FORMATS.md §3), checked by replaying it
)
"""Games a player played offline in the browser against bots and uploaded (server/web/offline_games.py):
shown on the player's profile, never rated."""

Index("ix_offline_games_player", offline_games.c.player_id, offline_games.c.uploaded_at)
Index("ux_offline_games_digest", offline_games.c.player_id, offline_games.c.digest, unique=True)

# --- tournaments --------------------------------------------------------------------------------

tournaments = Table(
    "tournaments",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("format", String(16), nullable=False),  # arena, swiss, round_robin (club/tournaments/model.py)
    Column("preset", String(64), nullable=False),
    Column("players", Integer, nullable=False),  # players a table: 2 or 3
    Column("clock", String(16), nullable=False),  # a play/clocks.py CONTROLS name
    Column("rated", Boolean, nullable=False),
    Column("visibility", String(8), nullable=False),  # public, club, private (only with its link)
    Column("club_id", String(32), nullable=True),  # club-only: the club whose members may join
    Column("creator", String(32), nullable=True),  # the player who made it (null: the server's schedule)
    Column("schedule", String(64), nullable=True),  # the recurring schedule that made it, if any
    Column("created_at", Float, nullable=False),  # epoch seconds, like every time of a tournament
    Column("starts_at", Float, nullable=False),
    Column("duration", Float, nullable=True),  # arena: seconds of pairing from its start
    Column("rounds", Integer, nullable=True),  # swiss: rounds; round robin: set at its start
    Column("round", Integer, nullable=False, server_default="0"),  # swiss, round robin: the round paired last
    Column("status", String(12), nullable=False),  # scheduled, running, finished, cancelled
    Column("finished_at", Float, nullable=True),
    # the director's lease: who pairs now, until when; every write of the director checks the epoch
    Column("director", String(64), nullable=True),
    Column("director_epoch", Integer, nullable=False, server_default="0"),
    Column("director_until", Float, nullable=False, server_default="0"),
    Index("ix_tournaments_status_start", "status", "starts_at"),
    Index("ix_tournaments_creator", "creator", "created_at"),
    Index("ix_tournaments_club", "club_id", "status", "starts_at"),
)
"""One row per tournament (server/club/tournaments/store.py)."""

tournament_entries = Table(
    "tournament_entries",
    metadata,
    Column("tournament_id", String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("name", String(64), nullable=False),
    Column("rating", Float, nullable=False),  # display points when they joined (seeds pairings)
    Column("token_hash", String(64), nullable=False),  # the seat token of every table they get, hashed
    Column("joined_at", Float, nullable=False),
    Column("free_since", Float, nullable=False),  # arena: when they last became free to be paired
    Column("paused", Boolean, nullable=False, server_default=false()),
    Column("withdrawn", Boolean, nullable=False, server_default=false()),
    Column("abandonments", Integer, nullable=False, server_default="0"),
)
"""A player in a tournament."""

tournament_tables = Table(
    "tournament_tables",
    metadata,
    Column("tournament_id", String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("number", Integer, primary_key=True),  # 1, 2, ... in the order paired
    Column("round", Integer, nullable=False),  # 0 in an arena
    Column("players", Text, nullable=False),  # JSON: player ids in seat order
    Column("paired_at", Float, nullable=False),
    Column("room_id", String(32), nullable=True),  # set in the transaction that makes the room
    Column("finished_at", Float, nullable=True),
    Column("places", Text, nullable=True),  # JSON: each seat's place (1 first), written with the game's end
    Column("abandoned", Text, nullable=True),  # JSON: the player ids who abandoned
    Index("ux_tournament_tables_room", "room_id", unique=True),
)
"""A table a tournament paired, and once its game ended, its result."""

tournament_byes = Table(
    "tournament_byes",
    metadata,
    Column("tournament_id", String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True),
    Column("round", Integer, primary_key=True),
    Column("player_id", String(32), primary_key=True),
)
"""A Swiss or round-robin round's byes."""

# --- clubs --------------------------------------------------------------------------------------

clubs = Table(
    "clubs",
    metadata,
    Column("id", String(16), primary_key=True),
    Column("name", String(64), nullable=False),  # as its owner typed it (spaces collapsed)
    # the name's UTS #39 skeleton after NFKC and case folding (people/logins.py): alike names are one
    Column("name_key", String(256), nullable=False, unique=True),
    Column("description", Text, nullable=False),
    Column("language", String(16), nullable=False),  # a client language code (roppyakken.i18n)
    Column("admission", String(16), nullable=False),  # open, request, invitation
    Column("private", Boolean, nullable=False, server_default=false()),  # shown to its members only
    Column("created_at", Float, nullable=False),
)
"""One row per club (server/club/clubs.py); its owner is the ``club_members`` row of role owner."""

club_members = Table(
    "club_members",
    metadata,
    Column("club_id", String(16), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),  # an account's player
    Column("role", String(8), nullable=False),  # owner, leader, member
    Column("joined_at", Float, nullable=False),
    Index("ix_club_members_player", "player_id"),
)
"""Who belongs to which club, and as what."""

club_pending = Table(
    "club_pending",
    metadata,
    Column("club_id", String(16), ForeignKey("clubs.id", ondelete="CASCADE"), primary_key=True),
    Column("player_id", String(32), ForeignKey("players.id"), primary_key=True),
    Column("kind", String(12), nullable=False),  # request (the player asked), invitation (a leader did)
    Column("by_player", String(32), nullable=True),  # the leader who invited
    Column("at", Float, nullable=False),
    Index("ix_club_pending_player", "player_id"),
)
"""Open requests to join a club and invitations to one, until answered."""

club_chat = Table(
    "club_chat",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    Column("club_id", String(16), ForeignKey("clubs.id", ondelete="CASCADE"), nullable=False),
    Column("player_id", String(32), nullable=False),  # its author
    Column("text", Text, nullable=False),
    Column("at", Float, nullable=False),
    Column("hidden_by", String(32), nullable=True),  # the leader who hid it: then nobody reads it
    Index("ix_club_chat_club", "club_id", "id"),
    Index("ix_club_chat_player_at", "player_id", "at"),
)
"""Each club's chat, removed with the club."""


# --- friends: follows, blocks, challenges, presence ---------------------------------------------

follows = Table(
    "follows",
    metadata,
    Column("follower", String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("followed", String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("since", Float, nullable=False),  # epoch seconds
    Index("ix_follows_followed", "followed", "follower"),
)
"""Who follows whom (server/people/follows.py): the followed player sees their followers."""

blocks = Table(
    "blocks",
    metadata,
    Column("blocker", String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("blocked", String(32), ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("since", Float, nullable=False),
    Index("ix_blocks_blocked", "blocked", "blocker"),
)
"""Who blocks whom (server/people/blocks.py): never paired, no chat, no challenge, no follow."""

challenges = Table(
    "challenges",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("from_id", String(32), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("to_id", String(32), ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("preset", String(64), nullable=False),
    Column("players", Integer, nullable=False),  # 2 (server/people/challenges.py)
    Column("clock", String(16), nullable=False),  # a time control of server/play/clocks.py, or none
    Column("rated", Boolean, nullable=False),
    # pending, accepted, declined, cancelled, expired, refused (a block came between them)
    Column("status", String(16), nullable=False),
    Column("created", Float, nullable=False),
    Column("expires", Float, nullable=False),
    Column("answered", Float, nullable=True),
    Column("room_id", String(32), nullable=True),  # the room made when accepted
    Column("token_hash", String(64), nullable=False),  # the challenger's seat token, hashed
    # where a rated challenge came from, hashed (server/people/players.py origin): kept apart
    Column("address_hash", String(64), nullable=True),
    Column("browser_hash", String(64), nullable=True),
    Index("ix_challenges_to_status", "to_id", "status"),
    Index("ix_challenges_from_status", "from_id", "status"),
)
"""Direct challenges (server/people/challenges.py): pending until accepted, declined, cancelled or
expired; kept a while after so that the challenger's page learns the answer."""

presence = Table(
    "presence",
    metadata,
    Column("player_id", String(32), primary_key=True),
    Column("seen_at", Float, nullable=False),  # refreshed by the player's member while a socket is open
    Index("ix_presence_seen", "seen_at"),
)
"""Players with a lobby or room socket open on some member (server/people/follows.py ``online``)."""

tournament_entry_origins = Table(
    "tournament_entry_origins",
    metadata,
    Column("tournament_id", String(32), primary_key=True),
    Column("player_id", String(32), primary_key=True),
    # where the entrant joined a rated tournament from, hashed (server/people/players.py origin)
    Column("address_hash", String(64), nullable=True),
    Column("browser_hash", String(64), nullable=True),
    ForeignKeyConstraint(
        ["tournament_id", "player_id"],
        ["tournament_entries.tournament_id", "tournament_entries.player_id"],
        ondelete="CASCADE",
    ),
)
"""Where each entrant of a rated tournament joined from (server/club/tournaments/origins.py): one
address or browser enters a rated tournament once."""

GONE_WITH_THE_PLAYER: Final = frozenset({"follows", "blocks", "challenges", "presence"})
"""Tables whose rows naming a player do not keep a forgotten guest (server/people/guests.py): they go
with it (a foreign key that cascades, or a presence row that ages out)."""
