"""Accounts: a guest keeps their identity across devices by making one, then signs in anywhere.

For server/people/passkeys.py (a passkey verified, or a passkey-only account made):

* ``create_account(conn, player, login, password_hash) -> str | None``: the account of
  ``player`` (a :class:`~roppyakken.server.people.players.Player` or a player id), which
  becomes the account's player and points at it (``players.account_id``); ``login``
  folded by :func:`fold_login` or None (passkeys only), ``password_hash`` from
  :func:`roppyakken.server.people.passwords.make` or None.  Runs inside ``db.run``; None if
  the sign-in name is taken.
* ``async sign_in(request, account_id, *, status_code=200) -> JSONResponse``: the
  browser signed in as the account: its old session ended (rotation), its guest
  adopted if it has history and no account, a new session started, the
  ``rp_session`` cookie set; the answer is ``/api/me``'s (with the new CSRF token).

Routes (docs/PROTOCOL.md, "Accounts"): ``GET/POST/DELETE /api/account``,
``GET /api/account/export``, ``POST /api/account/password``,
``POST /api/account/recovery-codes``, ``POST /api/account/recover``,
``POST /api/account/reset``, ``POST/DELETE /api/session``, ``GET/DELETE /api/sessions``,
``DELETE /api/sessions/<id>``.  Every change needs the ``X-CSRF-Token`` header and a
same-site origin (players.check_change).

Sign-in names are normalized and checked for lookalikes by server/people/logins.py; recovery
codes, reset links and device cookies are server/people/recovery.py's.

Signing in with a password is rate-limited by attempts, right or wrong, in
:data:`WINDOW_MINUTES` (token buckets, refilled steadily; in a cluster they are the
shared Redis buckets, so every member counts the same attempts): :data:`ADDRESS_ATTEMPTS`
per address, and :data:`LOGIN_ATTEMPTS` per sign-in name and address.  A browser with
the account's device cookie (it signed in to it before) then has :data:`LOGIN_ATTEMPTS`
of its own; any other browser takes from the sign-in name's :data:`LOGIN_ATTEMPTS` too,
which strangers hammering the name from many addresses empty: they are slowed, the
owner on their own device is not held.  A recovery code is limited per address and per
name and address (it has 80 random bits).  A signed-in owner confirming with the
password (a new one, deletion, new recovery codes) counts in a bucket of the account's
own.  A name nobody has is limited and answered exactly as an account's: same status,
same line, and one argon2 verification against a dummy hash (server/people/passwords.py).
"""

from __future__ import annotations

import asyncio
import hashlib
import math
import re
import secrets
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final

from sqlalchemy import Connection, select, update
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.server.addresses import client_address
from roppyakken.server.club import history
from roppyakken.server.limits import RateLimiter, take_token
from roppyakken.server.people import enforcement, logins, moderation, passwords, players, recovery, sessions
from roppyakken.server.store.database import Database, StaleRoom
from roppyakken.server.store.tables import accounts, seat_players
from roppyakken.server.store.tables import players as players_table
from roppyakken.server.store.tables import sessions as sessions_table
from roppyakken.server.web.api import ApiError, me_answer, read_json_object
from roppyakken.server.web.guard import app_limiter
from roppyakken.server.wire import text, wording

LOGIN_ATTEMPTS: Final = 5
"""Password sign-ins (right or wrong) in :data:`WINDOW_MINUTES` for one sign-in name from one address,
for one name from browsers it does not know, and for one trusted browser."""
ADDRESS_ATTEMPTS: Final = 20
"""Password sign-ins (and accounts made) one address may take in :data:`WINDOW_MINUTES`."""
WINDOW_MINUTES: Final = 15.0
RECENT_SIGN_IN: Final = 600.0
"""Seconds after signing in during which an account without a password may be deleted."""
SWEEP_AT_SIGN_IN: Final = 100
HISTORY_LIMIT: Final = 200
MAX_BODY: Final = 16_384


@dataclass(frozen=True, slots=True)
class AccountRow:
    """An account as stored (the password hash never leaves the server)."""

    id: str
    login: str | None
    password_hash: str | None
    player_id: str
    created_at: datetime


def fold_login(value: str) -> str | None:
    """The stored form of a new sign-in name (server/people/logins.py), or None if it cannot be one."""
    return logins.fold(value)


def _player_id(player: players.Player | str) -> str:
    return player if isinstance(player, str) else player.id


def create_account(
    conn: Connection, player: players.Player | str, login: str | None, password_hash: str | None
) -> str | None:
    """A new account playing as ``player`` (which it adopts); its id, or None if ``login`` is taken
    (or looks like a login that is: :func:`login_taken`) or the guest belongs to an account already."""
    if login is not None and login_taken(conn, login):
        return None
    account_id = secrets.token_hex(8)
    player_id = _player_id(player)
    adopted = conn.execute(
        update(players_table)
        .where(players_table.c.id == player_id, players_table.c.account_id.is_(None))
        .values(account_id=account_id)
    ).rowcount
    if adopted != 1:  # the guest belongs to an account already (another tab made one meanwhile)
        return None
    conn.execute(
        accounts.insert().values(
            id=account_id,
            login=login,
            password_hash=password_hash,
            player_id=player_id,
            created_at=datetime.now(UTC),
            login_skeleton=None if login is None else logins.skeleton(login),
        )
    )
    return account_id


def login_taken(conn: Connection, login: str) -> bool:
    """Whether an account has the login ``login`` (folded), or one with the same skeleton."""
    same = (accounts.c.login == login) | (accounts.c.login_skeleton == logins.skeleton(login))
    return conn.execute(select(accounts.c.id).where(same).limit(1)).first() is not None


def find(conn: Connection, *, login: str | None = None, account_id: str | None = None) -> AccountRow | None:
    """The account of this sign-in name (folded) or id, or None."""
    query = select(
        accounts.c.id, accounts.c.login, accounts.c.password_hash, accounts.c.player_id, accounts.c.created_at
    )
    if login is not None:
        query = query.where(accounts.c.login == login)
    elif account_id is not None:
        query = query.where(accounts.c.id == account_id)
    else:
        return None
    row = conn.execute(query).first()
    if row is None:
        return None
    return AccountRow(str(row[0]), row[1], row[2], str(row[3]), row[4])


def find_login(conn: Connection, typed: str) -> AccountRow | None:
    """The account of a typed sign-in name: its stored form before normalization first (an account
    made before keeps its exact name), then its normalized one (server/people/logins.py)."""
    for login in logins.candidates(typed):
        row = find(conn, login=login)
        if row is not None:
            return row
    return None


def account_of_login(conn: Connection, typed: str) -> str | None:
    """The id of the account of a typed sign-in name (:func:`find_login`), or None."""
    row = find_login(conn, typed)
    return None if row is None else row.id


def set_password(conn: Connection, account_id: str, password_hash: str) -> None:
    """Store a new hash of the account's password."""
    conn.execute(update(accounts).where(accounts.c.id == account_id).values(password_hash=password_hash))


def player_ids(conn: Connection, account_id: str) -> list[str]:
    """The account's player and every guest it adopted."""
    own = conn.execute(select(accounts.c.player_id).where(accounts.c.id == account_id)).scalar()
    return history.player_ids(conn, "" if own is None else str(own), account_id)


def establish(
    conn: Connection,
    account_id: str,
    *,
    old_token: str | None,
    guest_cookie: str | None,
    now: float,
    address: str | None,
    agent: str | None,
) -> str:
    """Sign a browser in as the account: end its old session, adopt its guest (one with history and
    no account), start a new session; the new token.  Up to :data:`SWEEP_AT_SIGN_IN` sessions of
    anyone that ended (idle or too old) are deleted on the way: sign-ins keep the table small."""
    if old_token is not None:
        sessions.end(conn, old_token)
    sessions.sweep(conn, now, SWEEP_AT_SIGN_IN)
    parsed = players.parse_cookie(guest_cookie)
    guest = None if parsed is None else players.load(conn, parsed[0], parsed[1])
    if guest is not None:
        played = conn.execute(select(seat_players.c.room_id).where(seat_players.c.player_id == guest.id))
        if played.first() is not None:
            conn.execute(
                update(players_table)
                .where(players_table.c.id == guest.id, players_table.c.account_id.is_(None))
                .values(account_id=account_id)
            )
    return sessions.start(conn, account_id, now, address=address, agent=agent)


def _db(request: Request) -> Database:
    db: Database = request.app.state.services.db
    return db


async def refuse_suspended(
    request: Request, account_id: str | None = None, player_id: str | None = None
) -> None:
    """Raise the refusal (403) if the account, any of its players, the player or the request's address
    is suspended (server/people/moderation.py).  Sign-in asks it only once the account is proven (password or
    passkey checked), so a suspension tells nothing about accounts to whoever does not hold one."""
    address = client_address(request.scope)
    found = await _db(request).run(
        lambda c: moderation.suspended(c, account_id=account_id, player_id=player_id, address=address)
    )
    if found is not None:
        raise enforcement.suspension_barred(found)


async def sign_in(
    request: Request, account_id: str, *, status_code: int = 200, extra: dict[str, Any] | None = None
) -> JSONResponse:
    """Sign the browser in as the account (see :func:`establish`): ``/api/me``'s answer (and
    ``extra``), with the session cookie and a device cookie (server/people/recovery.py) set; refused if the
    account is suspended (:func:`refuse_suspended`)."""
    await refuse_suspended(request, account_id)
    old = sessions.from_cookie(request)
    cookie = request.cookies.get(players.COOKIE)
    current_device = recovery.device_token(request)
    address = client_address(request.scope)
    agent = request.headers.get("user-agent")
    now = time.time()

    def work(conn: Connection) -> tuple[str, str, players.Player | None, str | None]:
        token = establish(
            conn, account_id, old_token=old, guest_cookie=cookie, now=now, address=address, agent=agent
        )
        device = recovery.trust_device(conn, account_id, current_device, now)
        player = players.identify(conn, token, None, now)
        row = find(conn, account_id=account_id)
        return token, device, player, None if row is None else row.login

    token, device, player, login = await _db(request).run(work)
    answer = me_answer(player, login)
    answer.update(extra or {})
    response = JSONResponse(answer, status_code=status_code, headers={"Cache-Control": "no-store"})
    sessions.set_cookie(response, players.behind_tls(request), token)
    recovery.set_device_cookie(response, players.behind_tls(request), device)
    return response


# --- rate limits -------------------------------------------------------------------------------


async def _take(limiter: RateLimiter, key: str, attempts: float) -> float:
    return await take_token(limiter, key, attempts / WINDOW_MINUTES, attempts)


async def check_attempt(request: Request, *keys: str | None) -> None:
    """Count one password attempt from this address, then in each bucket of ``keys`` in turn (a sign-in
    name's, :func:`name_bucket`, a name's from this address, :func:`pair_bucket`, a trusted browser's,
    :func:`~roppyakken.server.people.recovery.device_bucket`, or an account's, :func:`account_bucket`),
    each of
    :data:`LOGIN_ATTEMPTS`: 429 with ``Retry-After`` and one line at the first one past its limit."""
    limiter = app_limiter(request.app, "signin_limiter")
    wait = await _take(limiter, f"signin-addr:{client_address(request.scope)}", ADDRESS_ATTEMPTS)
    for key in keys:
        if wait:
            break
        if key is not None:
            wait = await _take(limiter, key, LOGIN_ATTEMPTS)
    if wait:
        seconds = 3600 if math.isinf(wait) else max(1, math.ceil(wait))
        raise Limited(seconds)


def name_bucket(login: str) -> str:
    """The bucket of sign-ins with this name from browsers it does not know (hashed: the buckets never
    hold names)."""
    return "signin-login:" + hashlib.sha256(login.encode()).hexdigest()[:32]


def pair_bucket(login: str, address: str) -> str:
    """The bucket of sign-ins with this name from this address (hashed)."""
    return "signin-pair:" + hashlib.sha256(f"{login}\n{address}".encode()).hexdigest()[:32]


def _typed_name(raw_login: str) -> str:
    """The form of a typed name its buckets are counted under (whatever its case or width)."""
    return logins.normalize(raw_login)[: logins.MAX_TYPED]


def account_bucket(account_id: str) -> str:
    """The bucket of a signed-in account's password confirmations (a new password, deletion): apart
    from the sign-ins', so that strangers failing to sign in as it cannot stop its owner."""
    return f"confirm:{account_id}"


class Limited(ApiError):
    """Too many sign-in attempts: 429, with the seconds to wait."""

    def __init__(self, seconds: int) -> None:
        super().__init__(429, text.SIGN_IN_LIMITED, minutes=max(1, math.ceil(seconds / 60)))
        self.seconds = seconds


async def handle_limited(request: Request, exc: Exception) -> Response:
    """:class:`Limited` as a 429 ``{"error"}`` answer with ``Retry-After``."""
    seconds = exc.seconds if isinstance(exc, Limited) else 60
    said = exc if isinstance(exc, Limited) else str(exc)
    return JSONResponse(wording.answer(said), status_code=429, headers={"Retry-After": str(seconds)})


# --- requests ------------------------------------------------------------------------------------


async def read_body(request: Request) -> dict[str, Any]:
    """The request's JSON object (at most :data:`MAX_BODY` bytes), or an ApiError with one line."""
    return await read_json_object(request, MAX_BODY)


def _text(data: dict[str, Any], field: str, *, required: bool = True) -> str | None:
    value = data.get(field)
    if value is None and not required:
        return None
    if not isinstance(value, str):
        raise ApiError(400, text.FIELD_NOT_TEXT, field=field)
    return value


def _new_password(data: dict[str, Any], field: str) -> str:
    password = _text(data, field)
    assert password is not None
    if not passwords.acceptable(password):
        raise ApiError(400, text.PASSWORD_INVALID)
    return password


async def signed_in(request: Request, *, change: bool) -> players.Player:
    """The signed-in player (401 if none); for a change, after the CSRF check."""
    player = await players.current(request)
    if change:
        players.check_change(request, player)
    if player is None or player.account_id is None:
        raise ApiError(401, text.NOT_SIGNED_IN)
    return player


async def _check_password(stored: str | None, password: str) -> passwords.Checked:
    return await asyncio.to_thread(passwords.check, stored, password)


def _no_store(body: Any, status: int = 200) -> JSONResponse:
    return JSONResponse(body, status_code=status, headers={"Cache-Control": "no-store"})


# --- handlers ----------------------------------------------------------------------------------


async def get_account(request: Request) -> Response:
    """``GET /api/account``: the account signed in, its player and its games (401 if none)."""
    player = await signed_in(request, change=False)
    account_id = str(player.account_id)

    def work(conn: Connection) -> dict[str, Any]:
        row = find(conn, account_id=account_id)
        ids = player_ids(conn, account_id)
        return {
            "account": {
                "id": account_id,
                "login": None if row is None else row.login,
                "created_at": None if row is None else history.iso(row.created_at),
                "password": row is not None and row.password_hash is not None,
                "recovery_codes": recovery.codes_left(conn, account_id),
            },
            "player": player.public(),
            "games": history.games(conn, ids),
        }

    return _no_store(await _db(request).run(work))


async def create(request: Request) -> Response:
    """``POST /api/account`` ``{"login", "password"}``: the browser's guest (or a new player named
    after the login) becomes an account's player; the browser is signed in (201)."""
    player = await players.current(request)
    players.check_change(request, player)
    data = await read_body(request)
    raw_login = _text(data, "login")
    assert raw_login is not None
    login = fold_login(raw_login)
    if login is None:
        raise ApiError(400, text.LOGIN_INVALID)
    password = _new_password(data, "password")
    if player is not None and player.account_id is not None:
        raise ApiError(409, text.ALREADY_SIGNED_IN)
    await refuse_suspended(request, player_id=None if player is None else player.id)
    await check_attempt(request, None)
    hashed = await asyncio.to_thread(passwords.make, password)
    codes = recovery.new_codes()
    hashed_codes = await asyncio.to_thread(recovery.hashed_codes, codes)
    guest = player
    display = raw_login.strip()[:24]  # a player's name has at most 24 characters
    now = time.time()

    def work(conn: Connection) -> str | None:
        if login_taken(conn, login):
            return None
        owner = guest if guest is not None else players.create(conn, display)
        made = create_account(conn, owner, login, hashed)
        if made is not None:
            recovery.store_codes(conn, made, hashed_codes, now)
        return made

    try:
        account_id = await _db(request).run(work)
    except StaleRoom:  # the same name taken at the same moment (the unique index)
        account_id = None
    if account_id is None:
        raise ApiError(409, text.LOGIN_TAKEN)
    return await sign_in(request, account_id, status_code=201, extra={"recovery_codes": codes})


async def start_session(request: Request) -> Response:
    """``POST /api/session`` ``{"login", "password"}``: sign in (a new session; the old one ended)."""
    players.check_change(request, await players.current(request))
    data = await read_body(request)
    raw_login = _text(data, "login")
    password = _text(data, "password")
    assert raw_login is not None and password is not None
    typed = _typed_name(raw_login)
    address = client_address(request.scope)
    device = recovery.device_token(request)
    now = time.time()

    def look(conn: Connection) -> tuple[AccountRow | None, bool]:
        found = find_login(conn, raw_login)
        trusted = found is not None and recovery.device_account(conn, device, now) == found.id
        return found, trusted

    row, trusted = await _db(request).run(look)
    if trusted and device is not None:
        await check_attempt(request, recovery.device_bucket(device))
    else:
        await check_attempt(request, pair_bucket(typed, address), name_bucket(typed))
    stored = None if row is None else row.password_hash
    checked = await _check_password(stored, password)
    if row is None or checked is passwords.Checked.WRONG:
        raise ApiError(401, text.SIGN_IN_FAILED)
    if checked is passwords.Checked.RIGHT_REHASH:
        fresh = await asyncio.to_thread(passwords.make, password)
        account_id = row.id
        await _db(request).run(lambda c: set_password(c, account_id, fresh))
    return await sign_in(request, row.id)


async def end_session(request: Request) -> Response:
    """``DELETE /api/session``: sign out (this browser's session ends; its cookie is cleared)."""
    player = await players.current(request)
    players.check_change(request, player)
    token = sessions.from_cookie(request)
    if token is not None:
        await _db(request).run(lambda c: sessions.end(c, token))
    response = _no_store({"signed_in": False})
    sessions.clear_cookie(response, players.behind_tls(request))
    return response


async def list_sessions(request: Request) -> Response:
    """``GET /api/sessions``: the account's sessions (id, times, address, browser, this one)."""
    player = await signed_in(request, change=False)
    account_id = str(player.account_id)
    mine = sessions.hash_token(player.secret)

    def work(conn: Connection) -> list[dict[str, Any]]:
        return session_rows(conn, account_id, mine)

    return _no_store({"sessions": await _db(request).run(work)})


def session_rows(conn: Connection, account_id: str, current_hash: str | None) -> list[dict[str, Any]]:
    """The account's sessions, newest first; ``id`` is a prefix of the token's hash (never the token)."""
    rows = conn.execute(
        select(
            sessions_table.c.token_hash,
            sessions_table.c.created_at,
            sessions_table.c.seen_at,
            sessions_table.c.expires_at,
            sessions_table.c.address,
            sessions_table.c.agent,
        )
        .where(sessions_table.c.account_id == account_id)
        .order_by(sessions_table.c.created_at.desc())
    ).all()
    return [
        {
            "id": str(r[0])[:16],
            "created_at": history.iso(r[1]),
            "seen_at": history.iso(r[2]),
            "expires_at": history.iso(r[3]),
            "address": r[4],
            "agent": r[5],
            "current": r[0] == current_hash,
        }
        for r in rows
    ]


async def end_all_sessions(request: Request) -> Response:
    """``DELETE /api/sessions``: sign out everywhere (every session of the account, this one too)."""
    player = await signed_in(request, change=True)
    account_id = str(player.account_id)
    ended = await _db(request).run(lambda c: sessions.end_all(c, account_id))
    response = _no_store({"signed_in": False, "ended": ended})
    sessions.clear_cookie(response, players.behind_tls(request))
    return response


async def end_one_session(request: Request) -> Response:
    """``DELETE /api/sessions/<id>``: end one session of the account (its id from the list)."""
    player = await signed_in(request, change=True)
    account_id = str(player.account_id)
    wanted = str(request.path_params["session"])
    if not re.fullmatch(r"[0-9a-f]{16}", wanted):
        raise ApiError(404, text.NO_SESSION)

    def work(conn: Connection) -> int:
        found = conn.execute(
            sessions_table.delete().where(
                sessions_table.c.account_id == account_id,
                sessions_table.c.token_hash.like(f"{wanted}%"),
            )
        )
        return int(found.rowcount or 0)

    if not await _db(request).run(work):
        raise ApiError(404, text.NO_SESSION)
    return _no_store({"ended": 1})


async def change_password(request: Request) -> Response:
    """``POST /api/account/password`` ``{"password", "new_password"}``: a new password; every other
    session of the account ends."""
    player = await signed_in(request, change=True)
    account_id = str(player.account_id)
    data = await read_body(request)
    current = _text(data, "password", required=False)
    fresh = _new_password(data, "new_password")
    row = await _db(request).run(lambda c: find(c, account_id=account_id))
    if row is None:
        raise ApiError(401, text.NOT_SIGNED_IN)
    if row.password_hash is not None:
        await check_attempt(request, account_bucket(account_id))
        checked = await _check_password(row.password_hash, current or "")
        if checked is passwords.Checked.WRONG:
            raise ApiError(403, text.PASSWORD_WRONG)
    elif not await recently_signed_in(request, player):
        raise ApiError(403, text.CONFIRM_SIGN_IN, minutes=int(RECENT_SIGN_IN // 60))
    hashed = await asyncio.to_thread(passwords.make, fresh)
    keep = sessions.hash_token(player.secret)

    def work(conn: Connection) -> None:
        set_password(conn, account_id, hashed)
        conn.execute(
            sessions_table.delete().where(
                sessions_table.c.account_id == account_id, sessions_table.c.token_hash != keep
            )
        )

    await _db(request).run(work)
    return _no_store({"changed": True})


async def recently_signed_in(request: Request, player: players.Player) -> bool:
    """Whether the browser's session began less than :data:`RECENT_SIGN_IN` seconds ago."""
    token_hash = sessions.hash_token(player.secret)
    began = await _db(request).run(
        lambda c: c.execute(
            select(sessions_table.c.created_at).where(sessions_table.c.token_hash == token_hash)
        ).scalar()
    )
    return began is not None and time.time() - float(began) < RECENT_SIGN_IN


async def confirm(request: Request, player: players.Player, data: dict[str, Any]) -> AccountRow:
    """The signed-in account, after its owner confirmed: its password (rate-limited like a sign-in),
    or for an account without one a sign-in within :data:`RECENT_SIGN_IN` seconds."""
    account_id = str(player.account_id)
    row = await _db(request).run(lambda c: find(c, account_id=account_id))
    if row is None:
        raise ApiError(401, text.NOT_SIGNED_IN)
    if row.password_hash is None:
        if not await recently_signed_in(request, player):
            raise ApiError(403, text.CONFIRM_SIGN_IN, minutes=int(RECENT_SIGN_IN // 60))
        return row
    password = _text(data, "password", required=False) or ""
    await check_attempt(request, account_bucket(account_id))
    if await _check_password(row.password_hash, password) is passwords.Checked.WRONG:
        raise ApiError(403, text.PASSWORD_WRONG)
    return row


# --- recovery --------------------------------------------------------------------------------------


async def new_recovery_codes(request: Request) -> Response:
    """``POST /api/account/recovery-codes`` ``{"password"}``: new recovery codes for the signed-in
    account, once confirmed (:func:`confirm`); the old ones end.  The codes are in this answer only.
    An account without a sign-in name (passkeys only) has none: a code is used with the name."""
    player = await signed_in(request, change=True)
    data = await read_body(request)
    row = await confirm(request, player, data)
    if row.login is None:  # a code is used with the sign-in name
        raise ApiError(409, text.RECOVERY_NEEDS_LOGIN)
    codes = recovery.new_codes()
    hashed = await asyncio.to_thread(recovery.hashed_codes, codes)
    now = time.time()
    await _db(request).run(lambda c: recovery.store_codes(c, row.id, hashed, now))
    return _no_store({"recovery_codes": codes})


def _end_sessions_and_set(conn: Connection, account_id: str, password_hash: str) -> None:
    set_password(conn, account_id, password_hash)
    sessions.end_all(conn, account_id)


async def recover(request: Request) -> Response:
    """``POST /api/account/recover`` ``{"login", "code", "new_password"}``: a recovery code (spent) sets
    a new password; every session of the account ends and this browser is signed in.  A wrong name
    or code is answered alike, after the same argon2id verification."""
    players.check_change(request, await players.current(request))
    data = await read_body(request)
    raw_login, raw_code = _text(data, "login"), _text(data, "code")
    assert raw_login is not None and raw_code is not None
    fresh = _new_password(data, "new_password")
    typed = _typed_name(raw_login)
    await check_attempt(request, pair_bucket(typed, client_address(request.scope)))
    code = recovery.plain_code(raw_code)

    def look(conn: Connection) -> tuple[AccountRow | None, list[tuple[int, str]]]:
        found = find_login(conn, raw_login)
        if found is None or code is None:
            return found, []
        return found, recovery.code_candidates(conn, found.id, code)

    row, found = await _db(request).run(look)
    matched: int | None = None
    if not found:  # no such name or code: the same work as a real one
        await asyncio.to_thread(recovery.check_code, None, code or "")
    for code_id, code_hash in found:
        if await asyncio.to_thread(recovery.check_code, code_hash, code or ""):
            matched = code_id
    if row is None or matched is None:
        raise ApiError(401, text.RECOVERY_FAILED)
    await refuse_suspended(request, row.id)
    hashed = await asyncio.to_thread(passwords.make, fresh)
    account_id, spent = row.id, matched

    def work(conn: Connection) -> bool:
        if not recovery.use_code(conn, spent):
            return False
        _end_sessions_and_set(conn, account_id, hashed)
        return True

    if not await _db(request).run(work):
        raise ApiError(401, text.RECOVERY_FAILED)
    left = await _db(request).run(lambda c: recovery.codes_left(c, account_id))
    return await sign_in(request, account_id, extra={"recovery_codes_left": left})


async def reset_password(request: Request) -> Response:
    """``POST /api/account/reset`` ``{"token", "new_password"}``: a reset link (used once) sets a new
    password; every session of the account ends and this browser is signed in."""
    players.check_change(request, await players.current(request))
    data = await read_body(request)
    token = _text(data, "token")
    assert token is not None
    fresh = _new_password(data, "new_password")
    await check_attempt(request)
    if not recovery.valid_reset_token(token):
        raise ApiError(400, text.RESET_LINK_INVALID)
    hashed = await asyncio.to_thread(passwords.make, fresh)
    now = time.time()

    def work(conn: Connection) -> str | None:
        account_id = recovery.take_reset(conn, token, now)
        if account_id is not None and moderation.suspended(conn, account_id=account_id) is None:
            _end_sessions_and_set(conn, account_id, hashed)
        return account_id

    account_id = await _db(request).run(work)
    if account_id is None:
        raise ApiError(400, text.RESET_LINK_INVALID)
    return await sign_in(request, account_id)
