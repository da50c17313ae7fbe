"""Accounts: a guest keeps their identity across devices by making one, then signs in anywhere.

For server/people/passkeys.py (a passkey verified, or a passkey-only account made):
``create_account(conn, player, login, password_hash) -> str | None``: the account of
``player`` (a :class:`~roppyakken.server.people.players.Player` or a player id), which
becomes the account's player and points at it (``players.account_id``); ``login``
folded by :func:`fold_login` or None (passkeys only), ``password_hash`` from
:func:`roppyakken.server.people.passwords.make` or None.  Runs inside ``db.run``; None if
the sign-in name is taken.  :func:`establish` signs a browser in (its old session ended,
its guest adopted if it has history and no account, a new session started).

The routes (docs/PROTOCOL.md, "Accounts") are server/web/account_routes.py's and
server/web/session_routes.py's.  Sign-in names are normalized and checked for lookalikes
by server/people/logins.py; recovery codes, reset links and device cookies are
server/people/recovery.py's.

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

import hashlib
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Final

from sqlalchemy import Connection, select, update

from roppyakken.server.people import history, logins, moderation, players, recovery, sessions
from roppyakken.server.store import tables

LOGIN_ATTEMPTS: Final = 5
"""Password sign-ins (right or wrong) in :data:`WINDOW_MINUTES` for one sign-in name from one address,
for one name from browsers it does not know, and for one trusted browser."""
ADDRESS_ATTEMPTS: Final = 20
"""Password sign-ins (and accounts made) one address may take in :data:`WINDOW_MINUTES`."""
WINDOW_MINUTES: Final = 15.0
RECENT_SIGN_IN: Final = 600.0
"""Seconds after signing in during which an account without a password may be deleted."""
SWEEP_AT_SIGN_IN: Final = 100

_a = tables.accounts.c


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
        update(tables.players)
        .where(tables.players.c.id == player_id, tables.players.c.account_id.is_(None))
        .values(account_id=account_id)
    ).rowcount
    if adopted != 1:  # the guest belongs to an account already (another tab made one meanwhile)
        return None
    conn.execute(
        tables.accounts.insert().values(
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
    same = (_a.login == login) | (_a.login_skeleton == logins.skeleton(login))
    return conn.execute(select(_a.id).where(same).limit(1)).first() is not None


def find(conn: Connection, *, login: str | None = None, account_id: str | None = None) -> AccountRow | None:
    """The account of this sign-in name (folded) or id, or None."""
    query = select(_a.id, _a.login, _a.password_hash, _a.player_id, _a.created_at)
    if login is not None:
        query = query.where(_a.login == login)
    elif account_id is not None:
        query = query.where(_a.id == account_id)
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
    conn.execute(update(tables.accounts).where(_a.id == account_id).values(password_hash=password_hash))


def player_ids(conn: Connection, account_id: str) -> list[str]:
    """The account's player and every guest it adopted."""
    own = conn.execute(select(_a.player_id).where(_a.id == account_id)).scalar()
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
        played = conn.execute(
            select(tables.seat_players.c.room_id).where(tables.seat_players.c.player_id == guest.id)
        )
        if played.first() is not None:
            conn.execute(
                update(tables.players)
                .where(tables.players.c.id == guest.id, tables.players.c.account_id.is_(None))
                .values(account_id=account_id)
            )
    return sessions.start(conn, account_id, now, address=address, agent=agent)


@dataclass(frozen=True, slots=True)
class SignedInBrowser:
    """A browser just signed in (:func:`sign_in`): its session and device tokens (for its cookies),
    the player it acts as now and the account's sign-in name."""

    token: str
    device: str
    player: players.Player | None
    login: str | None


def sign_in(
    conn: Connection,
    account_id: str,
    *,
    old_token: str | None,
    guest_cookie: str | None,
    device: str | None,
    now: float,
    address: str | None,
    agent: str | None,
) -> SignedInBrowser:
    """Sign a browser in as the account (:func:`establish`) and trust it
    (:func:`~roppyakken.server.people.recovery.trust_device`; ``device``: the device token it holds)."""
    token = establish(
        conn,
        account_id,
        old_token=old_token,
        guest_cookie=guest_cookie,
        now=now,
        address=address,
        agent=agent,
    )
    trusted = recovery.trust_device(conn, account_id, device, now)
    player = players.identify(conn, token, None, now)
    row = find(conn, account_id=account_id)
    return SignedInBrowser(token, trusted, player, None if row is None else row.login)


def register(
    conn: Connection,
    guest: players.Player | None,
    display: str,
    login: str,
    password_hash: str,
    hashed_codes: list[tuple[str, str]],
    now: float,
) -> str | None:
    """A new account with a password and recovery codes (from
    :func:`~roppyakken.server.people.recovery.hashed_codes`), playing as ``guest`` or, without one, as a
    new player named ``display``; its id, or None if ``login`` is taken (:func:`create_account`)."""
    if login_taken(conn, login):
        return None
    owner = guest if guest is not None else players.create(conn, display)
    made = create_account(conn, owner, login, password_hash)
    if made is not None:
        recovery.store_codes(conn, made, hashed_codes, now)
    return made


def change_password(conn: Connection, account_id: str, password_hash: str, keep_token: str) -> None:
    """The account's owner set a new password: stored, and every other session of the account ends
    (the one of ``keep_token`` stays)."""
    set_password(conn, account_id, password_hash)
    sessions.end_others(conn, account_id, keep_token)


def replace_password(conn: Connection, account_id: str, password_hash: str) -> None:
    """A new password set by a way back in (a recovery code, a reset link): stored, and every session of
    the account ends."""
    set_password(conn, account_id, password_hash)
    sessions.end_all(conn, account_id)


def recover(conn: Connection, account_id: str, code_id: int, password_hash: str) -> bool:
    """Spend the recovery code ``code_id`` to set a new password (:func:`replace_password`); False if
    another request spent it first."""
    if not recovery.use_code(conn, code_id):
        return False
    replace_password(conn, account_id, password_hash)
    return True


def reset(conn: Connection, token: str, password_hash: str, now: float) -> str | None:
    """Take a reset link's token (used once) to set a new password (:func:`replace_password`, unless
    the account is suspended); the account's id, or None if the token is unknown, used or expired."""
    account_id = recovery.take_reset(conn, token, now)
    if account_id is not None and moderation.suspended(conn, account_id=account_id) is None:
        replace_password(conn, account_id, password_hash)
    return account_id


def recently_signed_in(conn: Connection, token: str, now: float) -> bool:
    """Whether the session of ``token`` began less than :data:`RECENT_SIGN_IN` seconds before ``now``."""
    began = sessions.started_at(conn, token)
    return began is not None and now - began < RECENT_SIGN_IN


# --- rate limits -------------------------------------------------------------------------------


def name_bucket(login: str) -> str:
    """The bucket of sign-ins with this name from browsers it does not know (hashed: the buckets never
    hold names)."""
    return "signin-login:" + hashlib.sha256(login.encode()).hexdigest()[:32]


def pair_bucket(login: str, address: str) -> str:
    """The bucket of sign-ins with this name from this address (hashed)."""
    return "signin-pair:" + hashlib.sha256(f"{login}\n{address}".encode()).hexdigest()[:32]


def typed_name(raw_login: str) -> str:
    """The form of a typed name its buckets are counted under (whatever its case or width)."""
    return logins.normalize(raw_login)[: logins.MAX_TYPED]


def account_bucket(account_id: str) -> str:
    """The bucket of a signed-in account's password confirmations (a new password, deletion): apart
    from the sign-ins', so that strangers failing to sign in as it cannot stop its owner."""
    return f"confirm:{account_id}"
