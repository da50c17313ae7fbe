"""``roppyakken admin``: moderation on the server's database — reports, mutes, suspensions, the log —
and a password-reset link for a player locked out of their account.

Each subcommand opens the database ``serve`` uses (``--database``, the same
default), does its work in one transaction and writes the action to the
moderation log with its actor (``--as``, default the operating-system user).
Servers see a new or cleared sanction within
:data:`~roppyakken.server.people.moderation.REFRESH` seconds.
"""

from __future__ import annotations

import argparse
import getpass
import json
import re
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, TypeVar

from roppyakken.errors import RoppyakkenError
from roppyakken.i18n import N_, _, fill, install_extra

T = TypeVar("T")

DURATION = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*([smhdw])\s*$")
UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "d": 86_400.0, "w": 7 * 86_400.0}


def duration(value: str) -> float:
    """Seconds of a duration such as ``90s``, ``30m``, ``12h``, ``7d`` or ``2w``."""
    found = DURATION.match(value)
    if found is None or float(found.group(1)) <= 0:
        raise argparse.ArgumentTypeError(
            fill(N_("'{value}' is not a duration (e.g. 30m, 12h, 7d, 2w)"), value=value)
        )
    return float(found.group(1)) * UNITS[found.group(2)]


def _positive(value: str) -> int:
    if not value.isdigit() or int(value) <= 0:
        raise argparse.ArgumentTypeError(fill(N_("'{value}' is not a positive whole number"), value=value))
    return int(value)


def _shared_arguments(parser: argparse.ArgumentParser, default: Any) -> None:
    """``--database``, ``--as`` and ``--json`` (``default``: SUPPRESS on an action, which must not
    overwrite the same option given before it)."""
    parser.add_argument(
        "--database",
        metavar="URL",
        default=default,
        help=_("the server's database: sqlite:///FILE, a file path or postgresql://… (default: serve's)"),
    )
    parser.add_argument(
        "--as",
        dest="actor",
        metavar="NAME",
        default=default,
        help=_("who is acting, for the log (default: the operating-system user)"),
    )
    parser.add_argument(
        "--json",
        action="store_true",
        default=False if default is None else default,
        help=_("print JSON, one object a line"),
    )


NEEDS_WEB = N_("roppyakken admin works on the server's database and needs the 'web' extra: {install}")


def register(sub: Any, help_text: str) -> None:
    """Add the ``admin`` subcommand and its own subcommands."""
    p = sub.add_parser(
        "admin",
        help=help_text,
        description=_(
            "Moderate the server on its database: read the players' reports, mute or suspend a player, "
            "an account or an address, clear a sanction; every action is logged with who made it."
        ),
    )
    _shared_arguments(p, None)
    shared = argparse.ArgumentParser(add_help=False)
    _shared_arguments(shared, argparse.SUPPRESS)  # also accepted after the action
    actions = p.add_subparsers(dest="action", metavar="ACTION")
    actions.required = True

    reports = actions.add_parser(
        "reports", parents=[shared], help=_("list the reports (open ones by default)")
    )
    shown = reports.add_mutually_exclusive_group()
    shown.add_argument("--closed", action="store_true", help=_("closed reports only"))
    shown.add_argument("--all", action="store_true", help=_("open and closed reports"))
    reports.add_argument("--limit", type=_positive, default=100, help=_("at most this many (100)"))

    mute = actions.add_parser("mute", parents=[shared], help=_("refuse a player's chat lines"))
    mute.add_argument("player", metavar="PLAYER", help=_("the player's id"))
    mute.add_argument("--for", dest="seconds", type=duration, metavar="DURATION", help=_("e.g. 30m, 12h, 7d"))
    mute.add_argument("--reason", help=_("why, for the log and the player"))

    suspend = actions.add_parser(
        "suspend", parents=[shared], help=_("bar a player, an account or an address")
    )
    target = suspend.add_mutually_exclusive_group(required=True)
    target.add_argument("--player", metavar="ID", help=_("a player's id"))
    target.add_argument("--account", metavar="ID", help=_("an account's id (every player of it)"))
    target.add_argument("--address", metavar="IP", help=_("an IP address or network (e.g. 203.0.113.0/24)"))
    suspend.add_argument(
        "--for", dest="seconds", type=duration, metavar="DURATION", help=_("e.g. 30m, 12h, 7d")
    )
    suspend.add_argument("--reason", help=_("why, for the log and the player"))

    sanctions = actions.add_parser("sanctions", parents=[shared], help=_("list the sanctions in effect"))
    sanctions.add_argument("--all", action="store_true", help=_("ended and cleared ones too"))

    clear = actions.add_parser("clear", parents=[shared], help=_("end a sanction now"))
    clear.add_argument("sanction", type=_positive, metavar="SANCTION_ID")

    close = actions.add_parser(
        "close-report", parents=[shared], help=_("close a report once it is dealt with")
    )
    close.add_argument("report", type=_positive, metavar="ID")

    playban = actions.add_parser(
        "playban", parents=[shared], help=_("a player's abandoned rated games and playban")
    )
    playban.add_argument("player", metavar="PLAYER", help=_("the player's id"))
    playban.add_argument("--forgive", action="store_true", help=_("forget them: the playban ends"))

    reset = actions.add_parser(
        "reset-link",
        parents=[shared],
        help=_("a one-time link that lets an account's owner set a new password"),
    )
    reset.add_argument("login", metavar="LOGIN", help=_("the account's sign-in name"))
    reset.add_argument(
        "--for",
        dest="seconds",
        type=duration,
        metavar="DURATION",
        default=None,
        help=_("how long the link works (default 24h)"),
    )
    reset.add_argument(
        "--site",
        metavar="URL",
        default="http://127.0.0.1:8600",
        help=_("the address players open the site at (default http://127.0.0.1:8600)"),
    )

    tours = actions.add_parser(
        "tournaments",
        parents=[shared],
        help=_("the tournaments not over; make a schedule's next ones, or cancel one"),
    )
    tours.add_argument(
        "--schedule",
        metavar="FILE",
        help=_("make the tournaments of this schedule file (TOML, as serve --tournaments) starting soon"),
    )
    tours.add_argument(
        "--ahead",
        type=duration,
        metavar="DURATION",
        default=3600.0,
        help=_("with --schedule: those starting within this (default 1h)"),
    )
    tours.add_argument(
        "--cancel", metavar="ID", help=_("cancel this tournament (its games already paired go on)")
    )

    log = actions.add_parser("log", parents=[shared], help=_("the moderation log, newest first"))
    log.add_argument("--limit", type=_positive, default=100, help=_("at most this many (100)"))
    p.set_defaults(run=run)


def _when(at: float | None) -> str:
    if at is None:
        return "-"
    return datetime.fromtimestamp(at, UTC).strftime("%Y-%m-%d %H:%M:%S")


def _actor(args: argparse.Namespace) -> str:
    if args.actor:
        return str(args.actor)
    try:
        return getpass.getuser()
    except (KeyError, OSError):
        return "unknown"


def run(args: argparse.Namespace) -> int:
    """Run one admin action."""
    try:
        from roppyakken.server.people import moderation, playban
        from roppyakken.server.store.database import Database
    except ImportError:
        raise RoppyakkenError(NEEDS_WEB, install=install_extra("web")) from None

    db = Database(args.database)
    db.open()
    actor, now = _actor(args), time.time()

    def do(op: Callable[[Any], T]) -> T:
        return db.run_now(op)

    out: list[dict[str, Any]] = []
    lines: list[str] = []
    try:
        action = args.action
        if action == "reports":
            status = None if args.all else (moderation.CLOSED if args.closed else moderation.OPEN)
            for r in do(lambda c: moderation.list_reports(c, status, args.limit)):
                out.append(r)
                what = f"“{r['text']}”" if r["text"] else (f"[{r['phrase']}]" if r["phrase"] else "")
                lines.append(
                    f"#{r['id']} {_when(r['at'])} {r['status']} {r['reason']} room {r['room_id']} "
                    f"{r['kind']} {r['name'] or '?'} (player {r['player_id'] or '?'}) {what} "
                    f"— by {r['reporter_id']}"
                )
        elif action == "mute":
            player = args.player
            if not do(lambda c: moderation.player_known(c, player)):
                raise RoppyakkenError(N_("there is no player '{player}'"), player=player)
            made = do(
                lambda c: moderation.add_sanction(
                    c,
                    moderation.MUTE,
                    actor=actor,
                    now=now,
                    player_id=player,
                    seconds=args.seconds,
                    reason=args.reason,
                )
            )
            out.append(made.to_json())
            lines.append(_made(made))
        elif action == "suspend":
            if args.player is not None and not do(lambda c: moderation.player_known(c, args.player)):
                raise RoppyakkenError(N_("there is no player '{player}'"), player=args.player)
            if args.account is not None and not do(lambda c: moderation.account_known(c, args.account)):
                raise RoppyakkenError(N_("there is no account '{account}'"), account=args.account)
            made = do(
                lambda c: moderation.add_sanction(
                    c,
                    moderation.SUSPEND,
                    actor=actor,
                    now=now,
                    player_id=args.player,
                    account_id=args.account,
                    address=args.address,
                    seconds=args.seconds,
                    reason=args.reason,
                )
            )
            out.append(made.to_json())
            lines.append(_made(made))
        elif action == "sanctions":
            found = do(
                lambda c: moderation.all_sanctions(c) if args.all else moderation.sanctions_in_effect(c, now)
            )
            for s in found:
                out.append(s.to_json())
                state = "" if s.active(now) else (" cleared" if s.cleared_at is not None else " ended")
                lines.append(
                    f"#{s.id} {s.kind} {s.target} {_when(s.created_at)} by {s.created_by}, until "
                    f"{_when(s.expires_at)}{state}" + (f": {s.reason}" if s.reason else "")
                )
        elif action == "clear":
            cleared = do(lambda c: moderation.clear_sanction(c, args.sanction, actor=actor, now=now))
            out.append(cleared.to_json())
            lines.append(fill(N_("sanction #{id} cleared"), id=cleared.id))
        elif action == "close-report":
            do(lambda c: moderation.close_report(c, args.report, actor=actor, now=now))
            out.append({"report": args.report, "status": moderation.CLOSED})
            lines.append(fill(N_("report #{id} closed"), id=args.report))
        elif action == "playban":
            player = args.player
            if not do(lambda c: moderation.player_known(c, player)):
                raise RoppyakkenError(N_("there is no player '{player}'"), player=player)
            if args.forgive:
                count = do(lambda c: moderation.forgive(c, player, actor=actor, now=now))
                lines.append(
                    fill(N_("{count} abandoned games of {player} forgiven"), count=count, player=player)
                )
                out.append({"player": player, "forgiven": count})
            games = do(lambda c: moderation.abandoned_games(c, player))
            ban = do(lambda c: playban.current(c, player, now))
            for g in games:
                out.append(g)
                lines.append(
                    f"{_when(g['at'])} room {g['room_id']} seat {g['seat']} {g['cause']}"
                    + (" (forgiven)" if g["forgiven"] else "")
                )
            if ban is not None:
                out.append({"player": player, "playban": ban.to_json(now)})
                lines.append(fill(N_("playban until {until} UTC"), until=_when(ban.until)))
        elif action == "reset-link":
            out_line = _reset_link(args, do, actor, now)
            out.append(out_line)
            lines.append(
                fill(
                    N_("reset link for {login}, usable once until {until} UTC: {url}"),
                    login=out_line["login"],
                    until=_when(out_line["expires_at"]),
                    url=out_line["url"],
                )
            )
        elif action == "tournaments":
            _tournaments(args, do, now, out, lines)
        else:  # log
            for entry in do(lambda c: moderation.log_lines(c, args.limit)):
                out.append(entry)
                lines.append(
                    f"{_when(entry['at'])} {entry['actor']} {entry['action']} {entry['target']}"
                    + (f" {entry['detail']}" if entry["detail"] else "")
                )
    finally:
        db.engine.dispose()
    if args.json:
        for item in out:
            print(json.dumps(item, ensure_ascii=False, sort_keys=True))
    else:
        for line in lines:
            print(line)
    return 0


def _tournaments(
    args: argparse.Namespace,
    do: Callable[[Callable[[Any], Any]], Any],
    now: float,
    out: list[dict[str, Any]],
    lines: list[str],
) -> None:
    """``admin tournaments``: make a schedule's next tournaments, cancel one, list those not over."""
    from pathlib import Path

    from sqlalchemy import select, update

    from roppyakken.server.club.tournaments import schedules, store
    from roppyakken.server.store.tables import tournaments

    if args.schedule is not None:
        try:
            text = Path(args.schedule).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise RoppyakkenError(
                N_("cannot read the tournament schedules {path}: {reason}"), path=args.schedule, reason=exc
            ) from None
        wanted = schedules.parse(text)
        made = do(lambda c: schedules.make_due(c, wanted, now, args.ahead))
        lines.append(fill(N_("{count} scheduled tournaments made"), count=len(made)))
    if args.cancel is not None:
        cancelled = do(
            lambda c: (
                c.execute(
                    update(tournaments)
                    .where(tournaments.c.id == args.cancel, tournaments.c.status.in_(store.OPEN))
                    .values(status=store.CANCELLED, finished_at=now)
                ).rowcount
            )
        )
        if not cancelled:
            raise RoppyakkenError(
                N_("there is no tournament '{tournament}' not over"), tournament=args.cancel
            )
        lines.append(fill(N_("tournament {tournament} cancelled"), tournament=args.cancel))
    query = (
        select(
            tournaments.c.id,
            tournaments.c.name,
            tournaments.c.format,
            tournaments.c.status,
            tournaments.c.starts_at,
            tournaments.c.schedule,
        )
        .where(tournaments.c.status.in_(store.OPEN))
        .order_by(tournaments.c.starts_at)
    )
    for row in do(lambda c: [dict(r._mapping) for r in c.execute(query)]):
        out.append(row)
        lines.append(
            f"{row['id']} {_when(row['starts_at'])} {row['format']} {row['status']} {row['name']}"
            + (f" (schedule: {row['schedule']})" if row["schedule"] else "")
        )


def _made(s: Any) -> str:
    """The line that tells a new sanction."""
    if s.expires_at is None:
        return fill(
            N_("sanction #{id}: {kind} {target} until cleared"), id=s.id, kind=s.kind, target=s.target
        )
    return fill(
        N_("sanction #{id}: {kind} {target} until {until} UTC"),
        id=s.id,
        kind=s.kind,
        target=s.target,
        until=_when(s.expires_at),
    )


def _reset_link(
    args: argparse.Namespace, do: Callable[[Callable[[Any], Any]], Any], actor: str, now: float
) -> dict[str, Any]:
    """Issue a reset link for ``args.login`` (server/people/recovery.py): what to print."""
    from roppyakken.server.people import accounts, moderation, recovery

    site = str(args.site).rstrip("/")
    if not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", site):
        raise RoppyakkenError(N_("'{site}' is not a site address (e.g. https://example.org)"), site=site)
    seconds = recovery.RESET_TTL if args.seconds is None else float(args.seconds)

    def work(conn: Any) -> tuple[str, str] | None:
        row = accounts.find_login(conn, args.login)
        if row is None or row.login is None:
            return None
        token = recovery.issue_reset(conn, row.id, now, seconds, actor)
        until = datetime.fromtimestamp(now + seconds, UTC).strftime("%Y-%m-%d %H:%M:%S")
        moderation.log_action(conn, actor, "reset-link", f"account:{row.id}", f"until {until} UTC", now)
        return row.login, token

    found = do(work)
    if found is None:
        raise RoppyakkenError(N_("there is no account with the sign-in name '{login}'"), login=args.login)
    login, token = found
    return {"login": login, "url": f"{site}/#/reset/{token}", "expires_at": now + seconds}
