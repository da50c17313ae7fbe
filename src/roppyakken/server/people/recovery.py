"""Ways back into an account, and the browsers it trusts: recovery codes, reset links, device cookies.

*Recovery codes* (:data:`CODES` of them, 16 characters of :data:`ALPHABET`, shown as
``xxxx-xxxx-xxxx-xxxx``) are made with an account that has a password and whenever its
owner asks for new ones (the old ones end); each is shown once, stored as its first
:data:`LOOKUP` characters (to find it) and an argon2id hash of the whole code, and
deleted when used: a code signs in once and sets a new password.  The hash uses lighter
argon2id parameters than a password's (:func:`code_hasher`: t=1, 8 MiB, p=1): a code
has 80 random bits, which no offline guessing reaches, and making ten of them at once
stays cheap.  A wrong name or code is checked against a dummy hash of the same
parameters, so both take the same time.

*Reset links* are issued by whoever runs the server (``roppyakken admin reset-link``):
a random token, stored as its SHA-256 with an expiry, deleted when used; the link
carries it in its fragment (``/#/reset/TOKEN``), which browsers send to no server.

*Device cookies* (OWASP's authentication cheat sheet, "device cookies"): each sign-in
gives the browser an ``rp_device`` cookie whose token (stored as its SHA-256) names the
account.  A password sign-in from a browser holding one for that account is not held
by the sign-in name's limit, which strangers' attempts empty (server/people/accounts.py): it
has a limit of its own.  An account keeps its :data:`DEVICES_KEPT` newest ones.
"""

from __future__ import annotations

import hashlib
import os
import secrets
from functools import cache
from typing import Final

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, delete, func, insert, select

from roppyakken.server.people import passwords
from roppyakken.server.store.tables import password_resets, recovery_codes, trusted_devices

CODES: Final = 10
"""Recovery codes an account is given at once."""
ALPHABET: Final = "0123456789abcdefghjkmnpqrstvwxyz"
"""Crockford's base 32: no i, l, o or u (typed ones are read as 1, 1, 0 and v)."""
CODE_LENGTH: Final = 16
"""Characters of a recovery code (80 random bits)."""
LOOKUP: Final = 4
"""The first characters of a code, stored in the clear to find its hash."""
RESET_TTL: Final = 86_400.0
"""Seconds a reset link lasts unless the operator says otherwise."""
DEVICE_COOKIE: Final = "rp_device"
DEVICE_TTL: Final = 400 * 86_400.0
"""Seconds a browser stays trusted after its last sign-in (the most a browser keeps a cookie)."""
DEVICES_KEPT: Final = 20
_TYPED: Final = str.maketrans({"i": "1", "l": "1", "o": "0", "u": "v", "-": None, " ": None})


def _sha(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


# --- recovery codes ------------------------------------------------------------------------------


def new_codes() -> list[str]:
    """:data:`CODES` fresh recovery codes, as shown (``xxxx-xxxx-xxxx-xxxx``)."""
    made = ["".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH)) for _ in range(CODES)]
    return ["-".join(code[i : i + 4] for i in range(0, CODE_LENGTH, 4)) for code in made]


def plain_code(value: str) -> str | None:
    """A typed recovery code as stored (lower case, no hyphens or spaces, lookalikes read), or None
    if it cannot be one."""
    code = value.strip().lower().translate(_TYPED)
    return code if len(code) == CODE_LENGTH and all(ch in ALPHABET for ch in code) else None


@cache
def code_hasher() -> PasswordHasher:
    """The argon2id hasher of recovery codes (cheaper still under the tests' setting, see
    server/people/passwords.py)."""
    if os.environ.get(passwords.SETTING) == "cheap":
        return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    return PasswordHasher(time_cost=1, memory_cost=8 * 1024, parallelism=1)


@cache
def dummy_code_hash() -> str:
    """A code hash of nothing anyone holds, checked when there is no code to check."""
    return code_hasher().hash(secrets.token_urlsafe(16))


def hashed_codes(codes: list[str]) -> list[tuple[str, str]]:
    """Each code's lookup and argon2id hash (some work: run it off the event loop)."""
    plain = [plain_code(code) or "" for code in codes]
    return [(code[:LOOKUP], code_hasher().hash(code)) for code in plain]


def check_code(stored: str | None, code: str) -> bool:
    """Whether ``code`` (as :func:`plain_code` gives it) matches ``stored`` (None: there is none;
    always False, after the same work)."""
    try:
        code_hasher().verify(dummy_code_hash() if stored is None else stored, code[:CODE_LENGTH])
    except (VerificationError, InvalidHashError):
        return False
    return stored is not None


def store_codes(conn: Connection, account_id: str, hashed: list[tuple[str, str]], now: float) -> None:
    """Replace the account's recovery codes with these (from :func:`hashed_codes`)."""
    conn.execute(delete(recovery_codes).where(recovery_codes.c.account_id == account_id))
    for lookup, code_hash in hashed:
        conn.execute(
            insert(recovery_codes).values(
                account_id=account_id, lookup=lookup, code_hash=code_hash, created_at=now
            )
        )


def codes_left(conn: Connection, account_id: str) -> int:
    """How many unused recovery codes the account has."""
    query = select(func.count()).select_from(recovery_codes).where(recovery_codes.c.account_id == account_id)
    return int(conn.execute(query).scalar() or 0)


def code_candidates(conn: Connection, account_id: str, code: str) -> list[tuple[int, str]]:
    """The account's unused codes that begin as ``code`` does: (id, hash)."""
    t = recovery_codes.c
    rows = conn.execute(
        select(t.id, t.code_hash).where(t.account_id == account_id, t.lookup == code[:LOOKUP])
    )
    return [(int(r[0]), str(r[1])) for r in rows]


def use_code(conn: Connection, code_id: int) -> bool:
    """Spend a recovery code; False if another request spent it first."""
    return bool(conn.execute(delete(recovery_codes).where(recovery_codes.c.id == code_id)).rowcount)


# --- reset links ---------------------------------------------------------------------------------


def issue_reset(conn: Connection, account_id: str, now: float, seconds: float, actor: str) -> str:
    """A new reset link's token for the account, valid ``seconds`` (stored hashed)."""
    token = secrets.token_urlsafe(32)
    conn.execute(delete(password_resets).where(password_resets.c.expires_at <= now))
    conn.execute(
        insert(password_resets).values(
            token_hash=_sha(token),
            account_id=account_id,
            created_at=now,
            expires_at=now + seconds,
            created_by=actor[:64],
        )
    )
    return token


def take_reset(conn: Connection, token: str, now: float) -> str | None:
    """The account of this reset token, which is deleted (used once); None if unknown, used or
    expired."""
    t = password_resets.c
    row = conn.execute(select(t.account_id, t.expires_at).where(t.token_hash == _sha(token))).first()
    if row is None or not conn.execute(delete(password_resets).where(t.token_hash == _sha(token))).rowcount:
        return None
    return str(row[0]) if now < float(row[1]) else None


def valid_reset_token(value: str) -> bool:
    """Whether ``value`` can be a reset token (what :func:`issue_reset` makes)."""
    return 20 <= len(value) <= 100 and all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in value)


# --- device cookies ------------------------------------------------------------------------------


def valid_device_token(value: str | None) -> str | None:
    """The device cookie's value if it can be a device token, else None."""
    if (
        not value
        or len(value) > 100
        or not all(ch.isascii() and (ch.isalnum() or ch in "-_") for ch in value)
    ):
        return None
    return value


def device_account(conn: Connection, token: str | None, now: float) -> str | None:
    """The account a device cookie's token was given by (None: none, or too old)."""
    if token is None:
        return None
    t = trusted_devices.c
    row = conn.execute(select(t.account_id, t.created_at).where(t.token_hash == _sha(token))).first()
    if row is None or now >= float(row[1]) + DEVICE_TTL:
        return None
    return str(row[0])


def device_bucket(token: str) -> str:
    """The rate-limit bucket of a trusted browser's password attempts (hashed: no token in it)."""
    return "signin-device:" + _sha(token)[:32]


def remember_device(conn: Connection, account_id: str, now: float) -> str:
    """Trust the browser that just signed in to the account: a new device token (stored hashed);
    the account's oldest ones past :data:`DEVICES_KEPT` are forgotten."""
    token = secrets.token_urlsafe(32)
    t = trusted_devices.c
    conn.execute(
        insert(trusted_devices).values(token_hash=_sha(token), account_id=account_id, created_at=now)
    )
    old = (
        select(t.token_hash)
        .where(t.account_id == account_id)
        .order_by(t.created_at.desc())
        .offset(DEVICES_KEPT)
    )
    stale = [str(r[0]) for r in conn.execute(old)]
    if stale:
        conn.execute(delete(trusted_devices).where(t.token_hash.in_(stale)))
    return token


def trust_device(conn: Connection, account_id: str, current: str | None, now: float) -> str:
    """The browser's device token for the account it just signed in to: the one it holds if that is
    the account's already (its limit carries on), else a new one (:func:`remember_device`)."""
    if current is not None and device_account(conn, current, now) == account_id:
        return current
    return remember_device(conn, account_id, now)
