"""``roppyakken serve``: the web server — play in the browser, against bots or online with friends."""

from __future__ import annotations

import argparse
import contextlib
import socket
from typing import Any

from roppyakken.i18n import _


def register(sub: Any) -> None:
    """Add the ``serve`` subcommand."""
    p = sub.add_parser(
        "serve",
        help=_("start the web server: play in the browser"),
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
    p.set_defaults(run=run)


def _listen(host: str, port: int) -> socket.socket:
    from roppyakken.errors import RoppyakkenError
    from roppyakken.server import text

    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise RoppyakkenError(text.PORT_IN_USE.format(host=host, port=port, reason=exc.strerror)) from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def run(args: argparse.Namespace) -> int:
    """Run ``roppyakken serve`` until interrupted."""
    from roppyakken.errors import RoppyakkenError

    try:
        import uvicorn

        from roppyakken.server import text
        from roppyakken.server.app import create_app
        from roppyakken.server.db import Database, display_url
    except ImportError:
        from roppyakken.server import text

        raise RoppyakkenError(text.NEEDS_WEB_EXTRAS) from None
    if not 0 <= args.port <= 65535:
        raise RoppyakkenError("--port must be from 0 to 65535")
    if args.bot_delay < 0:
        raise RoppyakkenError("--bot-delay must not be negative")
    db = Database(args.database)
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
    config = uvicorn.Config(
        create_app(db, bot_delay=args.bot_delay),
        log_level=args.log_level,
        access_log=args.log_level in ("info", "debug"),
        ws_max_size=65_536,
        lifespan="on",
        timeout_graceful_shutdown=3,
    )
    with contextlib.suppress(KeyboardInterrupt):  # uvicorn re-raises Ctrl-C once it has shut down cleanly
        uvicorn.Server(config).run(sockets=[sock])
    print(_(text.STOPPED), flush=True)
    return 0
