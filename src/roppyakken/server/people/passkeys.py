"""Passkeys (WebAuthn, checked by py_webauthn): making an account with one, adding one, signing in.

Every ceremony has two steps. *Options*: the server draws a challenge, stores it in
``webauthn_challenges`` (so that any member of a cluster can finish it) and gives
the browser the options for ``navigator.credentials``; *verify*: the browser sends
the authenticator's answer with the ceremony's id, and the server takes the
challenge (deleting it at once, whatever the outcome: single-use), refuses it past
:data:`CHALLENGE_TTL`, and checks the answer against the relying party.

The relying party is the address the page was loaded from: its id is the host
name of the request's ``Host`` (without the port), and the origins accepted are
that address (``https`` when the browser came over TLS) and every
``--allow-origin``. Browsers take ``localhost`` or a domain name as an id, not an
IP address.

An account is made for the browser's current guest (who becomes the account's
player, their games its history), or a passkey is added to the signed-in
account. A sign-in checks the authenticator's signature counter (an answer whose
counter did not grow, a cloned authenticator's, is refused) and starts a new
session, ending the one the browser had (rotation); the browser's guest, if it
played, is adopted too.

The two account functions, :func:`_account_for_guest` and :func:`_sign_in`, are
this module's own small versions of what server/people/accounts.py does for passwords.

The functions taking a :class:`~sqlalchemy.Connection` return refusals as text
(never raise them): a piece of database work that raises is rolled back, and the
challenge must stay taken.
"""

from __future__ import annotations

import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import urlsplit

from sqlalchemy import Connection, delete, func, insert, select, update
from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url, parse_authenticator_data
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from roppyakken.errors import Phrase
from roppyakken.server.people import accounts
from roppyakken.server.store import tables
from roppyakken.server.wire import text
from roppyakken.server.wire.answers import PasskeyEntry, PasskeyOptions, passkey_options

CHALLENGE_TTL: Final = 300.0
"""Seconds a ceremony may take from its options to its answer."""
TIMEOUT_MS: Final = 120_000
"""What the options tell the browser to give the person (less than :data:`CHALLENGE_TTL`)."""
RP_NAME: Final = "Roppyakken"
REGISTER: Final = "register"
SIGN_IN: Final = "signin"
MAX_PASSKEYS: Final = 20
"""Passkeys one account may hold."""
TRANSPORTS: Final = frozenset(t.value for t in AuthenticatorTransport)


Refusal = Phrase | str
"""Why a ceremony step was refused (a server message, maybe with its fields)."""


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Who the passkeys are for: the id (a host name) and the page origins accepted."""

    id: str
    origins: tuple[str, ...]


def relying_party(host: str | None, tls: bool, allowed: Sequence[str]) -> RelyingParty | None:
    """The relying party of a request to ``host`` (its ``Host`` header), or None without a usable one."""
    if not host or any(ch in host for ch in " /\\@?#"):
        return None
    scheme = "https" if tls else "http"
    try:
        name = urlsplit(f"{scheme}://{host}").hostname
    except ValueError:
        return None
    if not name:
        return None
    extra = tuple(origin for origin in allowed if origin != "*")
    return RelyingParty(name, (f"{scheme}://{host}", *extra))


@dataclass(frozen=True, slots=True)
class Ceremony:
    """An open ceremony as stored: its id, challenge and what it was begun for."""

    id: str
    challenge: bytes
    purpose: str
    expires_at: float
    account_id: str | None = None
    """The account a passkey is added to, or a sign-in is limited to."""
    scoped: bool = False
    """A sign-in limited to ``account_id`` (None there: the login named no account, nothing fits)."""
    player_id: str | None = None
    """The guest who began a registration that makes an account."""
    user_handle: str | None = None
    name: str | None = None


def _begin(conn: Connection, now: float, purpose: str, **fields: Any) -> Ceremony:
    conn.execute(delete(tables.webauthn_challenges).where(tables.webauthn_challenges.c.expires_at <= now))
    ceremony = Ceremony(
        secrets.token_urlsafe(32), secrets.token_bytes(32), purpose, now + CHALLENGE_TTL, **fields
    )
    conn.execute(
        insert(tables.webauthn_challenges).values(
            id=ceremony.id,
            challenge=bytes_to_base64url(ceremony.challenge),
            purpose=purpose,
            account_id=ceremony.account_id,
            scoped=ceremony.scoped,
            player_id=ceremony.player_id,
            user_handle=ceremony.user_handle,
            name=ceremony.name,
            expires_at=ceremony.expires_at,
        )
    )
    return ceremony


def take(conn: Connection, ceremony_id: str, purpose: str, now: float) -> Ceremony | None:
    """The open ceremony of this id and purpose, deleted (so it is used once), or None (unknown, already
    taken, of another purpose, or expired)."""
    t = tables.webauthn_challenges.c
    row = conn.execute(
        select(
            t.challenge, t.purpose, t.expires_at, t.account_id, t.scoped, t.player_id, t.user_handle, t.name
        ).where(t.id == ceremony_id)
    ).first()
    if row is None:
        return None
    if conn.execute(delete(tables.webauthn_challenges).where(t.id == ceremony_id)).rowcount != 1:
        return None  # another request took it meanwhile
    if row.purpose != purpose or now >= float(row.expires_at):
        return None
    return Ceremony(
        ceremony_id,
        base64url_to_bytes(row.challenge),
        row.purpose,
        float(row.expires_at),
        row.account_id,
        bool(row.scoped),
        row.player_id,
        row.user_handle,
        row.name,
    )


def _handle_of(conn: Connection, account_id: str) -> str | None:
    query = select(tables.passkeys.c.user_handle).where(tables.passkeys.c.account_id == account_id).limit(1)
    found = conn.execute(query).scalar()
    return None if found is None else str(found)


def _credential_ids(conn: Connection, account_id: str) -> list[str]:
    query = select(tables.passkeys.c.credential_id).where(tables.passkeys.c.account_id == account_id)
    return [str(r) for r in conn.execute(query).scalars()]


def registration_options(
    conn: Connection,
    rp: RelyingParty,
    now: float,
    *,
    player_id: str,
    player_name: str,
    account_id: str | None,
    name: str | None,
) -> PasskeyOptions | Refusal:
    """Begin a registration: for a new account of the guest ``player_id`` (``account_id`` None), or
    another passkey of ``account_id``. ``{"ceremony", "publicKey"}`` for the browser, or a refusal."""
    excluded: list[str] = []
    handle: str | None = None
    if account_id is not None:
        excluded = _credential_ids(conn, account_id)
        if len(excluded) >= MAX_PASSKEYS:
            return Phrase(text.PASSKEY_TOO_MANY, max=MAX_PASSKEYS)
        handle = _handle_of(conn, account_id)
    handle = handle or bytes_to_base64url(secrets.token_bytes(32))
    ceremony = _begin(
        conn,
        now,
        REGISTER,
        account_id=account_id,
        player_id=player_id if account_id is None else None,
        user_handle=handle,
        name=name,
    )
    options = generate_registration_options(
        rp_id=rp.id,
        rp_name=RP_NAME,
        user_id=base64url_to_bytes(handle),
        user_name=player_name,
        user_display_name=player_name,
        challenge=ceremony.challenge,
        timeout=TIMEOUT_MS,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.PREFERRED,
        ),
        exclude_credentials=[PublicKeyCredentialDescriptor(id=base64url_to_bytes(c)) for c in excluded],
    )
    return passkey_options(ceremony.id, json.loads(options_to_json(options)))


def sign_in_options(conn: Connection, rp: RelyingParty, now: float, login: str | None) -> PasskeyOptions:
    """Begin a sign-in: with any passkey of this site (``login`` None), or with one of the account of
    ``login``. The options are the same whoever ``login`` names, an account with passkeys, one
    without, or nobody: ``allowCredentials`` is always empty (every passkey of this site is made
    discoverable, so the browser offers the ones it holds), and only the ceremony, on the server,
    remembers the account; a passkey of another account, or any for an unknown login, is refused at
    the answer."""
    account_id = None if login is None else accounts.account_of_login(conn, login)
    ceremony = _begin(conn, now, SIGN_IN, account_id=account_id, scoped=login is not None)
    options = generate_authentication_options(
        rp_id=rp.id,
        challenge=ceremony.challenge,
        timeout=TIMEOUT_MS,
        allow_credentials=[],
        user_verification=UserVerificationRequirement.PREFERRED,
    )
    return passkey_options(ceremony.id, json.loads(options_to_json(options)))


@dataclass(frozen=True, slots=True)
class NewPasskey:
    """A passkey whose registration was verified, ready to store."""

    credential_id: str
    public_key: bytes
    sign_count: int
    transports: tuple[str, ...]


def _reason(exc: Exception) -> str:
    line = " ".join(str(exc).split())
    return line[:200] or type(exc).__name__


def verify_registration(
    ceremony: Ceremony, rp: RelyingParty, credential: dict[str, Any]
) -> NewPasskey | Refusal:
    """Check a registration's answer against its ceremony; the passkey, or a refusal."""
    try:
        verified = verify_registration_response(
            credential=credential,
            expected_challenge=ceremony.challenge,
            expected_rp_id=rp.id,
            expected_origin=list(rp.origins),
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        return Phrase(text.PASSKEY_REFUSED, reason=_reason(exc))
    transports = credential.get("response", {}).get("transports") or []
    return NewPasskey(
        bytes_to_base64url(verified.credential_id),
        verified.credential_public_key,
        verified.sign_count,
        tuple(t for t in transports if t in TRANSPORTS),
    )


@dataclass(frozen=True, slots=True)
class StoredPasskey:
    """A stored passkey, as a sign-in checks it."""

    credential_id: str
    account_id: str
    user_handle: str
    public_key: bytes
    sign_count: int


def stored(conn: Connection, credential_id: str) -> StoredPasskey | None:
    """The passkey of this credential id (base64url), or None."""
    p = tables.passkeys.c
    row = conn.execute(
        select(p.account_id, p.user_handle, p.public_key, p.sign_count).where(
            p.credential_id == credential_id
        )
    ).first()
    if row is None:
        return None
    return StoredPasskey(credential_id, str(row[0]), str(row[1]), bytes(row[2]), int(row[3]))


def verify_sign_in(
    ceremony: Ceremony, rp: RelyingParty, credential: dict[str, Any], passkey: StoredPasskey | None
) -> int | Refusal:
    """Check a sign-in's answer against its ceremony and the stored passkey; the authenticator's new
    signature counter, or a refusal."""
    if passkey is None:
        return text.PASSKEY_UNKNOWN
    if ceremony.scoped and passkey.account_id != ceremony.account_id:
        return text.PASSKEY_OTHER_ACCOUNT
    response = credential.get("response", {})
    handle = response.get("userHandle")
    if handle and handle != passkey.user_handle:
        return text.PASSKEY_OTHER_ACCOUNT
    try:
        counter = parse_authenticator_data(base64url_to_bytes(response["authenticatorData"])).sign_count
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        return Phrase(text.PASSKEY_REFUSED, reason=_reason(exc))
    if (counter or passkey.sign_count) and counter <= passkey.sign_count:
        return text.PASSKEY_CLONED
    try:
        verified = verify_authentication_response(
            credential=credential,
            expected_challenge=ceremony.challenge,
            expected_rp_id=rp.id,
            expected_origin=list(rp.origins),
            credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count,
        )
    except (WebAuthnException, ValueError, KeyError, TypeError) as exc:
        return Phrase(text.PASSKEY_REFUSED, reason=_reason(exc))
    return int(verified.new_sign_count)


def _insert_passkey(
    conn: Connection, account_id: str, handle: str, new: NewPasskey, name: str | None, now: float
) -> None:
    conn.execute(
        insert(tables.passkeys).values(
            credential_id=new.credential_id,
            account_id=account_id,
            user_handle=handle,
            public_key=new.public_key,
            sign_count=new.sign_count,
            transports=json.dumps(list(new.transports)),
            name=name,
            created_at=now,
            last_used_at=None,
        )
    )


@dataclass(frozen=True, slots=True)
class SignedIn:
    """A session started for an account: the token for the cookie."""

    account_id: str
    token: str


def _sign_in(
    conn: Connection,
    account_id: str,
    now: float,
    *,
    old_token: str | None,
    guest_cookie: str | None,
    address: str | None,
    agent: str | None,
) -> SignedIn:
    """Sign the browser in as the account (server/people/accounts.py :func:`establish`: rotation,
    adoption)."""
    token = accounts.establish(
        conn,
        account_id,
        old_token=old_token,
        guest_cookie=guest_cookie,
        now=now,
        address=address,
        agent=agent,
    )
    return SignedIn(account_id, token)


def finish_registration(
    conn: Connection,
    ceremony: Ceremony,
    new: NewPasskey,
    now: float,
    *,
    old_token: str | None,
    address: str | None,
    agent: str | None,
) -> SignedIn | Refusal | None:
    """Store a verified passkey: on a new account of the ceremony's guest, signed in (the session
    returned), or on the ceremony's account (None); or a refusal."""
    if stored(conn, new.credential_id) is not None:
        return text.PASSKEY_TAKEN
    handle = ceremony.user_handle or bytes_to_base64url(secrets.token_bytes(32))
    if ceremony.account_id is not None:
        _insert_passkey(conn, ceremony.account_id, handle, new, ceremony.name, now)
        return None
    if ceremony.player_id is None:
        return text.PASSKEY_CEREMONY_GONE
    account_id = accounts.create_account(conn, ceremony.player_id, None, None)
    if account_id is None:
        return text.PASSKEY_GUEST_TAKEN
    _insert_passkey(conn, account_id, handle, new, ceremony.name, now)
    return _sign_in(
        conn, account_id, now, old_token=old_token, guest_cookie=None, address=address, agent=agent
    )


def finish_sign_in(
    conn: Connection,
    passkey: StoredPasskey,
    counter: int,
    now: float,
    *,
    old_token: str | None,
    guest_cookie: str | None,
    address: str | None,
    agent: str | None,
) -> SignedIn | str:
    """Record the passkey's use (its counter moved from the value the check saw, else refused: two
    answers raced) and start a session of its account (:func:`_sign_in`)."""
    p = tables.passkeys.c
    moved = conn.execute(
        update(tables.passkeys)
        .where(p.credential_id == passkey.credential_id, p.sign_count == passkey.sign_count)
        .values(sign_count=counter, last_used_at=now)
    ).rowcount
    if moved != 1:
        return text.PASSKEY_CLONED
    return _sign_in(
        conn,
        passkey.account_id,
        now,
        old_token=old_token,
        guest_cookie=guest_cookie,
        address=address,
        agent=agent,
    )


def listing(conn: Connection, account_id: str) -> list[PasskeyEntry]:
    """The account's passkeys for its owner: id, name, when made and last used (epoch seconds)."""
    p = tables.passkeys.c
    rows = conn.execute(
        select(p.credential_id, p.name, p.created_at, p.last_used_at)
        .where(p.account_id == account_id)
        .order_by(p.created_at, p.credential_id)
    )
    return [PasskeyEntry(id=r[0], name=r[1], created_at=r[2], last_used_at=r[3]) for r in rows]


def remove(conn: Connection, account_id: str, credential_id: str) -> str | None:
    """Remove one of the account's passkeys; None, or a refusal (not the account's, or its last way
    to sign in)."""
    p = tables.passkeys.c
    mine = p.account_id == account_id
    if conn.execute(select(p.credential_id).where(mine, p.credential_id == credential_id)).first() is None:
        return text.PASSKEY_NOT_FOUND
    count = int(conn.execute(select(func.count()).select_from(tables.passkeys).where(mine)).scalar() or 0)
    password = conn.execute(
        select(tables.accounts.c.password_hash).where(tables.accounts.c.id == account_id)
    ).scalar()
    if count <= 1 and password is None:
        return text.PASSKEY_LAST
    conn.execute(delete(tables.passkeys).where(mine, p.credential_id == credential_id))
    return None
