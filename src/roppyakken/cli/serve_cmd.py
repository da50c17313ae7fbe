"""``roppyakken serve``: the web server — play in the browser, against bots or online with friends."""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import re
import signal
import socket
from pathlib import Path
from typing import Any

from roppyakken.i18n import N_, _, install_extra, os_reason


def register(sub: Any, help_text: str) -> None:
    """Add the ``serve`` subcommand (``help_text``: its line in ``roppyakken --help``)."""
    p = sub.add_parser(
        "serve",
        help=help_text,
        description=_(
            "Start the web server and print its address; open it in a browser to play "
            "against bots or online with friends (docs/PROTOCOL.md)."
        ),
    )
    p.add_argument("--host", default="127.0.0.1", help=_("address to listen on (127.0.0.1; 0.0.0.0 for all)"))
    p.add_argument("--port", type=int, default=8600, help=_("port to listen on (8600; 0 picks a free one)"))
    p.add_argument(
        "--database",
        metavar="URL",
        help=_(
            "sqlite:///FILE, a file path, or postgresql://USER:PASSWORD@HOST/DB "
            "(default: a SQLite file in the user's data directory)"
        ),
    )
    p.add_argument(
        "--database-replica",
        metavar="URL",
        help=_(
            "postgresql://…: a streaming replica of the PostgreSQL --database for the reads that "
            "tolerate a little lag (leaderboards, profiles, histories, finished games); see docs/DEPLOY.md"
        ),
    )
    p.add_argument(
        "--redis",
        metavar="URL",
        help=_(
            "redis://HOST:PORT/DB, or redis+cluster://HOST:PORT,HOST:PORT… for a Redis Cluster: "
            "run as one member of a cluster sharing this Redis and the --database (PostgreSQL); "
            "see docs/DEPLOY.md"
        ),
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        default=0.6,
        metavar="SECONDS",
        help=_("pause before each bot move, so people can follow (0.6)"),
    )
    p.add_argument(
        "--log-level",
        default="warning",
        choices=("critical", "error", "warning", "info", "debug"),
        help=_("server log level (warning)"),
    )
    p.add_argument(
        "--log-format",
        default="text",
        choices=("text", "json"),
        help="log lines as text or one JSON object each",
    )
    bounds = p.add_argument_group("bounds (docs/PROTOCOL.md, 'Bounds')")
    defaults = _defaults()
    for name, kind, meta, text in BOUNDS:
        shown = f"{text} ({defaults[name]})" if name in defaults else text
        bounds.add_argument("--" + name.replace("_", "-"), type=kind, metavar=meta, help=shown)
    bounds.add_argument(
        "--allow-origin",
        action="append",
        default=[],
        metavar="ORIGIN",
        help="also accept websockets from pages of this origin (e.g. https://example.org); repeatable",
    )
    bounds.add_argument(
        "--trusted-proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy's address or network (e.g. 127.0.0.1 for nginx on this machine): its "
        "X-Forwarded-For names the client the per-address bounds count; repeatable",
    )
    rated = p.add_argument_group("rated games (docs/PROTOCOL.md, 'Ratings')")
    rated.add_argument(
        "--rated-same-address",
        action="store_true",
        help="let players of one address or one browser play each other rated (paired, or in one "
        "rated room): a club on one network; off by default",
    )
    rated.add_argument(
        "--rated-accounts-only",
        action="store_true",
        help="only players signed in to an account play rated games (seek, rated rooms); off by default",
    )
    p.add_argument(
        "--tournaments",
        metavar="FILE",
        help=_("recurring tournaments to run (TOML: docs/TOURNAMENTS.md, 'Running tournaments')"),
    )
    p.set_defaults(run=run)


BOUNDS: list[tuple[str, type, str, str]] = [
    ("write_timeout", float, "SECONDS", "a write waits this long for a lock before the move is refused"),
    ("max_body", int, "BYTES", "largest request body"),
    ("room_idle", float, "SECONDS", "an idle room leaves memory after this long (it stays stored)"),
    ("retention_days", float, "DAYS", "unfinished rooms are forgotten this long after their creation"),
    ("guest_days", float, "DAYS", "guests without a game or an account, unseen this long, are forgotten"),
    ("max_rooms", int, "N", "rooms held in memory at once"),
    ("rooms_per_minute", float, "N", "rooms one address may create per minute"),
    ("guests_per_hour", float, "N", "new guest players one address may make per hour"),
    ("requests_per_minute", float, "N", "API requests one address may make per minute"),
    ("connections_per_address", int, "N", "websockets (and, apart, HTTP connections) one address may hold"),
    ("max_connections", int, "N", "connections the server accepts at once"),
    ("header_timeout", float, "SECONDS", "time to send request headers; idle keep-alive limit"),
    ("send_timeout", float, "SECONDS", "a websocket that takes no message for this long is dropped"),
    ("bot_workers", int, "N", "processes thinking for bots; 0: threads"),
    (
        "clock_scale",
        float,
        "FACTOR",
        "the seconds of time controls, playbans and pairing's rating window are multiplied by this (tests)",
    ),
    ("clock_horizon", float, "SECONDS", "a room is loaded this long before its clock's deadline"),
    ("hand_over_after", float, "SECONDS", "absence after which the others may hand a seat to a bot"),
    ("abandon_after", float, "SECONDS", "a game without a clock and with nobody connected ends this late"),
    ("tournaments_per_day", int, "N", "tournaments one player may make in 24 hours"),
    ("open_tournaments", int, "N", "tournaments not over the server holds at once"),
    ("tournament_entries", int, "N", "players one tournament takes"),
    # clubs (server/club/clubs.py)
    ("clubs_per_owner", int, "N", "clubs one account may own"),
    ("clubs_per_player", int, "N", "clubs one account may belong to"),
    ("club_members", int, "N", "members one club may have"),
    ("club_pending", int, "N", "open requests and invitations one club may have"),
    ("club_chat_per_minute", int, "N", "lines one member may post to a club's chat a minute"),
    ("club_chat_kept", int, "N", "lines of a club's chat kept"),
    # friends (docs/PROTOCOL.md "Friends")
    ("max_follows", int, "N", "players one player may follow"),
    ("max_blocks", int, "N", "players one player may block"),
    ("challenges_out", int, "N", "pending challenges one player may have sent"),
    ("challenges_in", int, "N", "pending challenges one player may have received"),
    ("challenges_per_minute", float, "N", "challenges one player may send a minute (follows: twice as many)"),
    ("challenge_ttl", float, "SECONDS", "a challenge not answered within this long expires"),
]


def _defaults() -> dict[str, str]:
    """The bounds' defaults as shown in the help; none when the web extras are not installed."""
    try:
        from roppyakken.server.config import Limits
    except ImportError:
        return {}
    limits = Limits()
    return {name: str(getattr(limits, name)) for name, *_ in BOUNDS}


def _listen(host: str, port: int) -> socket.socket:
    from roppyakken.errors import RoppyakkenError
    from roppyakken.server.wire import text

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise RoppyakkenError(text.PORT_IN_USE, host=host, port=port, reason=os_reason(exc)) from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def _raise_file_limit(wanted: int) -> int | None:
    """Let the process hold ``wanted`` descriptors if the hard limit allows; the limit now (None: unknown)."""
    try:
        import resource

        soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        if soft != resource.RLIM_INFINITY and soft < target:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
        return None if soft == resource.RLIM_INFINITY else int(soft)
    except (ImportError, ValueError, OSError):
        return None


def _check_redis(url: str, dialect: str) -> None:
    """Refuse ``--redis`` with SQLite, a URL that is not Redis's, or a Redis that does not answer."""
    import redis
    from redis.cluster import ClusterNode, RedisCluster
    from redis.exceptions import RedisClusterException

    from roppyakken.errors import RoppyakkenError
    from roppyakken.server.cluster.link import check_url
    from roppyakken.server.cluster.redislink import cluster_address, is_cluster
    from roppyakken.server.wire import text

    if dialect != "postgresql":
        raise RoppyakkenError(text.REDIS_NEEDS_POSTGRESQL)
    check_url(url)
    try:
        if is_cluster(url):
            address = cluster_address(url)
            cluster = RedisCluster(
                startup_nodes=[
                    ClusterNode(host, port)  # type: ignore[no-untyped-call]
                    for host, port in address.nodes
                ],
                username=address.username,
                password=address.password,
                ssl=address.ssl,
                socket_connect_timeout=5,
                socket_timeout=5,
            )
            cluster.ping()
            cluster.close()
        else:
            client = redis.Redis.from_url(url, socket_connect_timeout=5, socket_timeout=5)
            client.ping()
            client.close()
    except (redis.RedisError, RedisClusterException, OSError, ValueError) as exc:
        shown = re.sub(r"//[^@/]*@", "//***@", url)  # no password in messages
        raise RoppyakkenError(text.REDIS_UNREACHABLE, url=shown, reason=exc) from None


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken serve`` until interrupted."""
    from roppyakken.errors import RoppyakkenError

    try:
        import uvicorn  # noqa: F401  (the web extras are installed)

        from roppyakken.server.store.database import Database
        from roppyakken.server.store.engines import display_url
        from roppyakken.server.web.app import create_app
        from roppyakken.server.wire import text
    except ImportError:
        from roppyakken.server.wire import text

        raise RoppyakkenError(text.NEEDS_WEB_EXTRAS, install=install_extra("web")) from None
    if not 0 <= args.port <= 65535:
        raise RoppyakkenError(N_("--port must be from 0 to 65535"))
    if args.bot_delay < 0:
        raise RoppyakkenError(N_("--bot-delay must not be negative"))
    from roppyakken.server.config import Limits
    from roppyakken.server.web.serving import Server, uvicorn_config

    given = {name: getattr(args, name) for name, *_ in BOUNDS if getattr(args, name) is not None}
    for name, value in given.items():
        if value < 0 or (value == 0 and name != "bot_workers"):
            raise RoppyakkenError(N_("--{option} must be more than 0"), option=name.replace("_", "-"))
    limits = Limits(
        **given,
        allowed_origins=tuple(args.allow_origin),
        trusted_proxies=tuple(args.trusted_proxy),
        rated_same_address=args.rated_same_address,
        rated_accounts_only=args.rated_accounts_only,
    )
    from roppyakken.server.addresses import proxy_networks

    proxy_networks(limits.trusted_proxies)  # refused in one line before anything starts
    scheduled = _schedules(args.tournaments)
    descriptors = _raise_file_limit(limits.max_connections + 256)
    capped = descriptors is not None and descriptors - 64 < limits.max_connections
    if capped and descriptors is not None:
        # the cap must bind before the descriptors run out, or every new request fails
        limits = dataclasses.replace(limits, max_connections=max(16, descriptors - 64))
    db = Database(args.database, write_timeout=limits.write_timeout, replica=args.database_replica)
    if args.redis is not None:
        _check_redis(args.redis, db.dialect)
    db.open()
    sock = _listen(args.host, args.port)
    port = sock.getsockname()[1]
    shown = args.host
    if args.host in ("0.0.0.0", "::"):
        shown = socket.gethostname()
    if ":" in shown:
        shown = f"[{shown}]"
    print(_(text.SERVING).format(url=f"http://{shown}:{port}/"), flush=True)
    print(_(text.DATABASE_IN_USE).format(database=display_url(db.url)), flush=True)
    if capped:
        print(_(text.CONNECTION_CAP).format(cap=limits.max_connections, descriptors=descriptors), flush=True)
    app = create_app(db, bot_delay=args.bot_delay, limits=limits, redis=args.redis, tournaments=scheduled)
    config = uvicorn_config(app, limits, log_level=args.log_level, log_format=args.log_format)
    # uvicorn handles SIGTERM like Ctrl-C (a clean stop), then raises the signal again once it is
    # done: a no-op handler lets the stop end here, with the message below and status 0.
    signal.signal(signal.SIGTERM, lambda *_: None)
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn re-raises Ctrl-C once it has shut down cleanly
        Server(config, app).run(sockets=[sock])
    print(_(text.STOPPED), flush=True)
    return 0


def _schedules(path: str | None) -> list[Any]:
    """The recurring tournaments of ``serve --tournaments FILE`` (one line naming a problem)."""
    if path is None:
        return []
    from roppyakken.errors import RoppyakkenError
    from roppyakken.server.club.tournaments import schedules

    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RoppyakkenError(
            N_("cannot read the tournament schedules {path}: {reason}"), path=path, reason=exc
        ) from None
    return list(schedules.parse(text))
