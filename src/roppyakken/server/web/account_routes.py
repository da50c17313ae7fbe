"""The account (docs/PROTOCOL.md, "Accounts"), over server/people/accounts.py, recovery.py and erasure.py.

=================================  ==============================================================
``GET /api/account``               the account signed in, its player and its games
``POST /api/account``              ``{"login", "password"}``: make one; the browser is signed in
``DELETE /api/account``            ``{"password"}``: erase it; the browser is signed out
``GET /api/account/export``        everything the server holds about it, as a JSON download
``POST /api/account/password``     ``{"password", "new_password"}``: a new password
``POST /api/account/recovery-codes``  ``{"password"}``: new recovery codes
``POST /api/account/recover``      ``{"login", "code", "new_password"}``: back in with a code
``POST /api/account/reset``        ``{"token", "new_password"}``: back in with a reset link
=================================  ==============================================================

Every change needs the ``X-CSRF-Token`` header and a same-site origin
(server/web/identity.py); password attempts are rate-limited as a sign-in's
(server/web/session_routes.py).
"""

from __future__ import annotations

import asyncio
import json
import time
from typing import Any

from sqlalchemy import Connection
from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from roppyakken.server.addresses import client_address
from roppyakken.server.club import clubs
from roppyakken.server.people import accounts, erasure, history, passwords, players, recovery, sessions
from roppyakken.server.people.accounts import AccountRow
from roppyakken.server.store.database import StaleRoom
from roppyakken.server.web import identity
from roppyakken.server.web.api import ApiError
from roppyakken.server.web.session_routes import (
    check_attempt,
    check_password,
    no_store,
    read_body,
    refuse_suspended,
    sign_in,
    signed_in,
    text_field,
)
from roppyakken.server.wire import answers, text


def _new_password(data: dict[str, Any], field: str) -> str:
    password = text_field(data, field)
    assert password is not None
    if not passwords.acceptable(password):
        raise ApiError(400, text.PASSWORD_INVALID)
    return password


async def _recently_signed_in(request: Request, player: players.Player) -> bool:
    token, now = player.secret, time.time()
    found: bool = await identity.database(request).run(lambda c: accounts.recently_signed_in(c, token, now))
    return found


async def confirm(request: Request, player: players.Player, data: dict[str, Any]) -> AccountRow:
    """The signed-in account, after its owner confirmed: its password (rate-limited like a sign-in),
    or for an account without one a sign-in within
    :data:`~roppyakken.server.people.accounts.RECENT_SIGN_IN` seconds."""
    account_id = str(player.account_id)
    row = await identity.database(request).run(lambda c: accounts.find(c, account_id=account_id))
    if row is None:
        raise ApiError(401, text.NOT_SIGNED_IN)
    if row.password_hash is None:
        if not await _recently_signed_in(request, player):
            raise ApiError(403, text.CONFIRM_SIGN_IN, minutes=int(accounts.RECENT_SIGN_IN // 60))
        return row
    password = text_field(data, "password", required=False) or ""
    await check_attempt(request, accounts.account_bucket(account_id))
    if await check_password(row.password_hash, password) is passwords.Checked.WRONG:
        raise ApiError(403, text.PASSWORD_WRONG)
    return row


async def get_account(request: Request) -> Response:
    """``GET /api/account``: the account signed in, its player and its games (401 if none)."""
    player = await signed_in(request, change=False)
    account_id = str(player.account_id)

    def work(conn: Any) -> answers.AccountAnswer:
        row = accounts.find(conn, account_id=account_id)
        ids = accounts.player_ids(conn, account_id)
        info = answers.AccountInfo(
            id=account_id,
            login=None if row is None else row.login,
            created_at=None if row is None else history.iso(row.created_at),
            password=row is not None and row.password_hash is not None,
            recovery_codes=recovery.codes_left(conn, account_id),
        )
        return answers.account(info, player.public(), history.games(conn, ids))

    return no_store(await identity.database(request).run(work))


async def create(request: Request) -> Response:
    """``POST /api/account`` ``{"login", "password"}``: the browser's guest (or a new player named
    after the login) becomes an account's player; the browser is signed in (201)."""
    player = await identity.current(request)
    identity.check_change(request, player)
    data = await read_body(request)
    raw_login = text_field(data, "login")
    assert raw_login is not None
    login = accounts.fold_login(raw_login)
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
    display = raw_login.strip()[:24]  # a player's name has at most 24 characters
    now = time.time()
    try:
        account_id = await identity.database(request).run(
            lambda c: accounts.register(c, player, display, login, hashed, hashed_codes, now)
        )
    except StaleRoom:  # the same name taken at the same moment (the unique index)
        account_id = None
    if account_id is None:
        raise ApiError(409, text.LOGIN_TAKEN)
    return await sign_in(request, account_id, status_code=201, codes=codes)


async def change_password(request: Request) -> Response:
    """``POST /api/account/password`` ``{"password", "new_password"}``: a new password; every other
    session of the account ends."""
    player = await signed_in(request, change=True)
    account_id = str(player.account_id)
    data = await read_body(request)
    current = text_field(data, "password", required=False)
    fresh = _new_password(data, "new_password")
    db = identity.database(request)
    row = await db.run(lambda c: accounts.find(c, account_id=account_id))
    if row is None:
        raise ApiError(401, text.NOT_SIGNED_IN)
    if row.password_hash is not None:
        await check_attempt(request, accounts.account_bucket(account_id))
        checked = await check_password(row.password_hash, current or "")
        if checked is passwords.Checked.WRONG:
            raise ApiError(403, text.PASSWORD_WRONG)
    elif not await _recently_signed_in(request, player):
        raise ApiError(403, text.CONFIRM_SIGN_IN, minutes=int(accounts.RECENT_SIGN_IN // 60))
    hashed = await asyncio.to_thread(passwords.make, fresh)
    keep = player.secret
    await db.run(lambda c: accounts.change_password(c, account_id, hashed, keep))
    return no_store(answers.password_changed())


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
    await identity.database(request).run(lambda c: recovery.store_codes(c, row.id, hashed, now))
    return no_store(answers.recovery_codes(codes))


async def recover(request: Request) -> Response:
    """``POST /api/account/recover`` ``{"login", "code", "new_password"}``: a recovery code (spent) sets
    a new password; every session of the account ends and this browser is signed in.  A wrong name
    or code is answered alike, after the same argon2id verification."""
    identity.check_change(request, await identity.current(request))
    data = await read_body(request)
    raw_login, raw_code = text_field(data, "login"), text_field(data, "code")
    assert raw_login is not None and raw_code is not None
    fresh = _new_password(data, "new_password")
    typed = accounts.typed_name(raw_login)
    await check_attempt(request, accounts.pair_bucket(typed, client_address(request.scope)))
    code = recovery.plain_code(raw_code)
    db = identity.database(request)

    def look(conn: Any) -> tuple[AccountRow | None, list[tuple[int, str]]]:
        found = accounts.find_login(conn, raw_login)
        if found is None or code is None:
            return found, []
        return found, recovery.code_candidates(conn, found.id, code)

    row, found = await db.run(look)
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
    if not await db.run(lambda c: accounts.recover(c, account_id, spent, hashed)):
        raise ApiError(401, text.RECOVERY_FAILED)
    left = await db.run(lambda c: recovery.codes_left(c, account_id))
    return await sign_in(request, account_id, codes_left=left)


async def reset_password(request: Request) -> Response:
    """``POST /api/account/reset`` ``{"token", "new_password"}``: a reset link (used once) sets a new
    password; every session of the account ends and this browser is signed in."""
    identity.check_change(request, await identity.current(request))
    data = await read_body(request)
    token = text_field(data, "token")
    assert token is not None
    fresh = _new_password(data, "new_password")
    await check_attempt(request)
    if not recovery.valid_reset_token(token):
        raise ApiError(400, text.RESET_LINK_INVALID)
    hashed = await asyncio.to_thread(passwords.make, fresh)
    now = time.time()
    account_id = await identity.database(request).run(lambda c: accounts.reset(c, token, hashed, now))
    if account_id is None:
        raise ApiError(400, text.RESET_LINK_INVALID)
    return await sign_in(request, account_id)


async def export_account(request: Request) -> Response:
    """``GET /api/account/export``: :func:`~roppyakken.server.people.erasure.export` as a JSON
    download."""
    player = await signed_in(request, change=False)
    account_id = str(player.account_id)
    current = sessions.hash_token(player.secret)
    data = await identity.database(request).run(lambda c: erasure.export(c, account_id, current))
    if data is None:
        raise ApiError(401, text.NOT_SIGNED_IN)
    return Response(
        json.dumps(data, ensure_ascii=False, indent=1),
        media_type="application/json",
        headers={
            "Content-Disposition": f'attachment; filename="roppyakken-account-{account_id}.json"',
            "Cache-Control": "no-store",
        },
    )


def _erase(conn: Connection, account_id: str) -> str | None:
    """Erase the account (server/people/erasure.py) once its players have left their clubs."""
    clubs.forget(conn, accounts.player_ids(conn, account_id))
    return erasure.erase(conn, account_id)


async def delete_account(request: Request) -> Response:
    """``DELETE /api/account`` ``{"password"}``: :func:`~roppyakken.server.people.erasure.erase` the
    account signed in, once confirmed (:func:`confirm`); the browser is signed out."""
    player = await signed_in(request, change=True)
    data = await read_body(request)
    row = await confirm(request, player, data)
    label = await identity.database(request).run(lambda c: _erase(c, row.id))
    if label is None:
        raise ApiError(401, text.NOT_SIGNED_IN)
    response = JSONResponse(answers.account_deleted(label), headers={"Cache-Control": "no-store"})
    identity.clear_session_cookie(response, request)
    identity.clear_player_cookie(response, request)
    return response
