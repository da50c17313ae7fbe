"""Every bound the server keeps, with its default: one place, one ``serve`` option each.

:class:`Limits` is handed to :func:`~roppyakken.server.web.app.create_app`; the
defaults are documented in the README and bench/RESULTS-server.md.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from typing import Final

DEFAULT_WRITE_TIMEOUT: Final = 2.0
"""Seconds a write may wait for a lock held elsewhere before it fails (and the move is refused)."""

BROKEN_OFF_RETRIES: Final = 5
"""Times the database writer runs a transaction again that PostgreSQL broke off (a deadlock with
another member's transaction, SQLSTATE 40P01, or a serialization failure, 40001) before its work
fails: nothing of a broken-off transaction was stored, so it is run again whole."""

REPLICA_RETRY: Final = 5.0
"""Seconds the reads stay on the primary after the read replica failed (``--database-replica``),
before the replica is tried again."""
REPLICA_CONNECT_TIMEOUT: Final = 2
"""Seconds a connection to the read replica may take before the read goes to the primary."""
REPLICA_MAX_LAG: Final = 30.0
"""Seconds since the read replica last replayed a transaction of the primary past which its reads go
to the primary (a replica paused, cut off or far behind; on a primary idle that long, too)."""
READ_WORKERS: Final = 2
"""Threads (and replica connections) that run the lag-tolerant reads on the read replica."""


@dataclass(frozen=True, slots=True)
class Limits:
    """The server's bounds (see each field); all positive."""

    write_timeout: float = DEFAULT_WRITE_TIMEOUT
    """Seconds a database write may wait for a lock before the change is refused."""
    max_body: int = 65_536
    """Largest HTTP request body in bytes (refused on ``Content-Length`` or while reading)."""
    room_idle: float = 120.0
    """Seconds a room with nobody connected (and no bot thinking) stays in memory."""
    retention_days: float = 30.0
    """Days an unfinished room is kept restorable after its last activity (then it is gone)."""
    guest_days: float = 30.0
    """Days after which a guest player who never took a seat, has no account and was not seen is
    forgotten (server/people/guests.py)."""
    max_rooms: int = 5_000
    """Rooms held in memory at once (more: new rooms are refused with 503 until some go idle)."""
    rooms_per_minute: float = 20.0
    """Rooms one address may create per minute (burst: a third of it, at least 3)."""
    guests_per_hour: float = 30.0
    """New guest players (``POST /api/me`` without a player) one address may make per hour (burst: a
    third of it, at least 3)."""
    rated_same_address: bool = False
    """Whether players of one address (or one browser) may play each other rated: be paired together
    (server/club/pairing.py) or seated in one rated room (a club on one network); by default never."""
    rated_accounts_only: bool = False
    """Whether only players signed in to an account may play rated games (seek a game, take a seat in
    a rated room), as on lichess; by default guests may too."""
    requests_per_minute: float = 600.0
    """HTTP requests one address may make per minute (burst: a sixth of it)."""
    connections_per_address: int = 32
    """Websockets one address may hold open at once (and, apart, HTTP connections)."""
    max_connections: int = 4_000
    """Connections the server accepts at once (HTTP and websocket); more are answered 503."""
    header_timeout: float = 10.0
    """Seconds a connection has to send its request headers (and idle keep-alive connections live)."""
    send_timeout: float = 10.0
    """Seconds a websocket may take to accept a message before it counts as too slow and is dropped."""
    bot_workers: int = field(default_factory=lambda: max(1, os.cpu_count() or 1))
    """Processes thinking for bots (0: threads in the server process; tests)."""
    allowed_origins: tuple[str, ...] = ()
    """Extra websocket ``Origin`` values accepted besides the server's own address."""
    clock_scale: float = 1.0
    """Every time control's seconds are multiplied by this when a room is made, and so are the playban's
    durations and windows and pairing's rating window (tests, demonstrations)."""
    clock_horizon: float = 120.0
    """Seconds before a clock's deadline at which its room is loaded into memory (and kept there)."""
    hand_over_after: float = 60.0
    """Seconds a player of a room without a clock must be absent before the others may hand their seat
    to a bot."""
    abandon_after: float = 86_400.0
    """Seconds a game without a clock waits with no player connected before it ends as abandoned."""
    tournaments_per_day: int = 5
    """Tournaments one player (signed in to an account) may make in 24 hours."""
    open_tournaments: int = 200
    """Tournaments not over the server holds at once (made by players or by its schedules)."""
    tournament_entries: int = 500
    """Players one tournament takes."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses of reverse proxies (a balancer) whose ``X-Forwarded-For`` names the client: the
    per-address bounds count that client, and the proxy's own connections are not capped."""
    # --- clubs (server/club/clubs.py) ---
    clubs_per_owner: int = 3
    """Clubs one account may own at once (create, or be handed)."""
    clubs_per_player: int = 20
    """Clubs one account may belong to at once (as owner, leader or member)."""
    club_members: int = 500
    """Members one club may have."""
    club_pending: int = 100
    """Open requests and invitations one club may have at once (a leader answers them)."""
    club_chat_per_minute: int = 20
    """Lines one member may post to a club's chat a minute (counted in the database: the same on every
    member of a cluster); a club's chat carries at most six times as many, all members together."""
    club_chat_kept: int = 1_000
    """Lines of a club's chat kept (older ones are deleted as new ones come)."""
    # --- friends (server/people/follows.py, blocks.py, challenges.py) ---
    max_follows: int = 400
    """Players one player may follow (lichess's bound); a follow past it is refused."""
    max_blocks: int = 400
    """Players one player may block."""
    challenges_out: int = 5
    """Pending challenges one player may have sent at once."""
    challenges_in: int = 20
    """Pending challenges one player may have received at once (more are refused to the sender)."""
    challenges_per_minute: float = 6.0
    """Challenges one player may send a minute (burst: the same), and follows twice as many."""
    challenge_ttl: float = 120.0
    """Seconds a challenge waits for its answer before it expires."""
