"""The passkey endpoints (docs/PROTOCOL.md, "Passkeys") over server/people/passkeys.py.

=======================================  ===============================================================
``POST /api/passkeys/register/options``  ``{"name"?}``: begin making an account for this browser's guest
                                         (or adding a passkey to the signed-in account)
``POST /api/passkeys/register/verify``   ``{"ceremony", "credential"}``: finish it (a new account is
                                         signed in)
``POST /api/passkeys/signin/options``    ``{"login"?}``: begin a sign-in (no login: any passkey of the
                                         site, the browser offers the discoverable ones)
``POST /api/passkeys/signin/verify``     ``{"ceremony", "credential"}``: finish it: a new session
``GET /api/passkeys``                    the signed-in account's passkeys
``POST /api/passkeys/remove``            ``{"id"}``: remove one of them
=======================================  ===============================================================

Every body is checked against a declared model (one line for the first problem);
every change needs the ``X-CSRF-Token`` header (server/web/identity.py) and a page of
this site; the options and verify endpoints are rate-limited per address
(:data:`CEREMONY_SHARE`) on top of the server's own bounds.
"""

from __future__ import annotations

import time
from typing import Annotated, Any, Final, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

from roppyakken.errors import Phrase
from roppyakken.i18n import N_
from roppyakken.server.addresses import client_address
from roppyakken.server.limits import take_token
from roppyakken.server.people import passkeys, players, recovery
from roppyakken.server.web import identity
from roppyakken.server.web.api import ApiError, read_json_object
from roppyakken.server.web.guard import app_limiter
from roppyakken.server.web.session_routes import refuse_suspended
from roppyakken.server.wire import answers, text
from roppyakken.server.wire.protocol import what

CEREMONY_SHARE: Final = 20.0
"""The passkey options and verify requests one address may make per minute are the server's
``requests_per_minute`` divided by this (30 by default), at most a third of them at once (at least 5)."""
MAX_BODY: Final = 32_768

Base64url = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]*$")]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class RegisterOptionsBody(_Strict):
    """``POST /api/passkeys/register/options``."""

    name: str | None = Field(default=None, min_length=1, max_length=64, description="the passkey's label")


class SignInOptionsBody(_Strict):
    """``POST /api/passkeys/signin/options``."""

    login: str | None = Field(
        default=None, min_length=1, max_length=64, description="an account's login; none: any passkey"
    )


class AttestationResponse(_Strict):
    """What ``navigator.credentials.create`` answered (base64url fields)."""

    clientDataJSON: Annotated[Base64url, Field(min_length=1, max_length=4096)]
    attestationObject: Annotated[Base64url, Field(min_length=1, max_length=16_384)]
    transports: list[Annotated[str, Field(max_length=32)]] = Field(default_factory=list, max_length=8)


class AssertionResponse(_Strict):
    """What ``navigator.credentials.get`` answered (base64url fields)."""

    clientDataJSON: Annotated[Base64url, Field(min_length=1, max_length=4096)]
    authenticatorData: Annotated[Base64url, Field(min_length=37 * 4 // 3, max_length=4096)]
    signature: Annotated[Base64url, Field(min_length=1, max_length=1024)]
    userHandle: Annotated[Base64url, Field(max_length=128)] | None = None


CredentialId = Annotated[Base64url, Field(min_length=1, max_length=1400)]


class _Credential(_Strict):
    id: CredentialId
    rawId: CredentialId
    type: Literal["public-key"]
    authenticatorAttachment: Literal["platform", "cross-platform"] | None = None
    clientExtensionResults: dict[str, Any] = Field(default_factory=dict)


class RegistrationCredential(_Credential):
    """A new passkey, as the page sends it."""

    response: AttestationResponse


class AuthenticationCredential(_Credential):
    """A passkey's signature, as the page sends it."""

    response: AssertionResponse


Ceremony = Annotated[str, Field(pattern=r"^[A-Za-z0-9_-]{20,64}$")]


class RegisterVerifyBody(_Strict):
    """``POST /api/passkeys/register/verify``."""

    ceremony: Ceremony
    credential: RegistrationCredential


class SignInVerifyBody(_Strict):
    """``POST /api/passkeys/signin/verify``."""

    ceremony: Ceremony
    credential: AuthenticationCredential


class RemoveBody(_Strict):
    """``POST /api/passkeys/remove``."""

    id: CredentialId


_WHAT: Final = {
    "name": N_("a label of 1 to 64 characters"),
    "login": N_("a login of 1 to 64 characters"),
    "ceremony": N_("the ceremony id the options gave"),
    "credential": N_("the passkey's answer, its binary fields in base64url"),
    "id": N_("a passkey's id (base64url)"),
}


M = TypeVar("M", bound=BaseModel)


def check(model: type[M], data: dict[str, Any]) -> M:
    """``data`` as ``model``, or a 400 with one line naming the first problem."""
    try:
        return model.model_validate(data)
    except ValidationError as exc:
        first = exc.errors(include_url=False)[0]
        path = ".".join(str(part) for part in first.get("loc", ())) or "body"
        if first["type"] == "extra_forbidden":
            raise ApiError(400, text.UNKNOWN_FIELD, field=path) from None
        top = path.split(".", 1)[0]
        raise ApiError(400, text.FIELD_TYPE, field=path, what=what(top, _WHAT)) from None


async def _body(request: Request) -> dict[str, Any]:
    return await read_json_object(request, MAX_BODY)


async def _ceremony_start(request: Request) -> tuple[players.Player | None, passkeys.RelyingParty]:
    """The bounds every options and verify request passes: the rate, the CSRF check, the host."""
    limits = getattr(request.app.state, "limits", None)
    per_minute = (600.0 if limits is None else float(limits.requests_per_minute)) / CEREMONY_SHARE
    limiter = app_limiter(request.app, "passkey_limiter")
    key = f"passkey:{client_address(request.scope)}"
    wait = await take_token(limiter, key, per_minute, max(5.0, per_minute / 3))
    if wait:
        request.app.state.services.metrics.refuse("rate_limited")
        raise ApiError(429, text.RATE_LIMITED)
    player = await identity.current(request)
    identity.check_change(request, player)
    rp = passkeys.relying_party(
        request.headers.get("host"), identity.behind_tls(request), identity.allowed_origins(request)
    )
    if rp is None:
        raise ApiError(400, text.PASSKEY_NO_HOST)
    return player, rp


def _client(request: Request) -> tuple[str | None, str | None]:
    return (request.client.host if request.client else None), request.headers.get("user-agent")


def _signed_in(
    request: Request, signed: passkeys.SignedIn, device: str | None, db_answer: answers.PasskeySignedIn
) -> Response:
    response = JSONResponse(db_answer, headers={"Cache-Control": "no-store"})
    identity.set_session_cookie(response, request, signed.token)
    if device is not None:
        identity.set_device_cookie(response, request, device)
    return response


def _me_of(me: players.Player | None) -> answers.PasskeySignedIn:
    """What ``/api/me`` now says (the session was made in the same transaction: never None)."""
    if me is None:
        return answers.passkey_signed_in(None, None)
    return answers.passkey_signed_in(me.public(), me.csrf)


async def register_options(request: Request) -> Response:
    """``POST /api/passkeys/register/options``: the options for ``navigator.credentials.create``."""
    player, rp = await _ceremony_start(request)
    body = check(RegisterOptionsBody, await _body(request))
    if player is None:
        raise ApiError(400, text.NO_PLAYER)
    known = player
    answer = await identity.database(request).run(
        lambda c: passkeys.registration_options(
            c,
            rp,
            time.time(),
            player_id=known.id,
            player_name=known.name,
            account_id=known.account_id,
            name=body.name,
        )
    )
    if isinstance(answer, str | Phrase):
        raise ApiError(409, answer)
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


async def register_verify(request: Request) -> Response:
    """``POST /api/passkeys/register/verify``: store the passkey; a new account is signed in."""
    player, rp = await _ceremony_start(request)
    body = check(RegisterVerifyBody, await _body(request))
    db = identity.database(request)
    now = time.time()
    ceremony = await db.run(lambda c: passkeys.take(c, body.ceremony, passkeys.REGISTER, now))
    if ceremony is None:
        raise ApiError(400, text.PASSKEY_CEREMONY_GONE)
    # the browser that began it finishes it: the same guest, or the same account
    if player is None or (
        ceremony.player_id != player.id
        if ceremony.account_id is None
        else ceremony.account_id != player.account_id
    ):
        raise ApiError(403, text.PASSKEY_NOT_YOURS)
    new = passkeys.verify_registration(ceremony, rp, body.credential.model_dump(exclude_none=True))
    if isinstance(new, str | Phrase):
        raise ApiError(400, new)
    address, agent = _client(request)
    old = identity.session_token(request)
    current_device = identity.device_token(request)

    def store(
        conn: Any,
    ) -> tuple[passkeys.SignedIn | passkeys.Refusal | None, players.Player | None, str | None]:
        done = passkeys.finish_registration(
            conn, ceremony, new, now, old_token=old, address=address, agent=agent
        )
        if isinstance(done, passkeys.SignedIn):
            device = recovery.trust_device(conn, done.account_id, current_device, now)
            return done, players.identify(conn, done.token, None, now), device
        return done, None, None

    done, me, device = await db.run(store)
    if isinstance(done, str | Phrase):
        raise ApiError(409, done)
    if done is None:
        return JSONResponse(answers.passkey_added(), status_code=201)
    answer = _me_of(me)
    answer["added"] = True
    response = _signed_in(request, done, device, answer)
    response.status_code = 201
    return response


async def sign_in_options(request: Request) -> Response:
    """``POST /api/passkeys/signin/options``: the options for ``navigator.credentials.get``."""
    _, rp = await _ceremony_start(request)
    body = check(SignInOptionsBody, await _body(request))
    answer = await identity.database(request).run(
        lambda c: passkeys.sign_in_options(c, rp, time.time(), body.login)
    )
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


async def sign_in_verify(request: Request) -> Response:
    """``POST /api/passkeys/signin/verify``: check the signature; a new session (the old one ended)."""
    _, rp = await _ceremony_start(request)
    body = check(SignInVerifyBody, await _body(request))
    db = identity.database(request)
    now = time.time()
    try:  # the stored form: base64url without padding
        credential_id = bytes_to_base64url(base64url_to_bytes(body.credential.rawId))
    except ValueError:
        raise ApiError(
            400, text.FIELD_TYPE, field="credential.rawId", what=what("credential", _WHAT)
        ) from None

    def take(conn: Any) -> tuple[passkeys.Ceremony | None, passkeys.StoredPasskey | None]:
        return passkeys.take(conn, body.ceremony, passkeys.SIGN_IN, now), passkeys.stored(conn, credential_id)

    ceremony, stored = await db.run(take)
    if ceremony is None:
        raise ApiError(400, text.PASSKEY_CEREMONY_GONE)
    counter = passkeys.verify_sign_in(ceremony, rp, body.credential.model_dump(exclude_none=True), stored)
    if isinstance(counter, str | Phrase):
        raise ApiError(403 if counter == text.PASSKEY_OTHER_ACCOUNT else 400, counter)
    assert stored is not None
    passkey = stored
    await refuse_suspended(request, passkey.account_id)
    address, agent = _client(request)
    old = identity.session_token(request)
    current_device = identity.device_token(request)
    guest = request.cookies.get(players.COOKIE)

    def finish(
        conn: Any,
    ) -> tuple[passkeys.SignedIn | passkeys.Refusal, players.Player | None, str | None]:
        done = passkeys.finish_sign_in(
            conn, passkey, counter, now, old_token=old, guest_cookie=guest, address=address, agent=agent
        )
        if isinstance(done, str | Phrase):
            return done, None, None
        device = recovery.trust_device(conn, done.account_id, current_device, now)
        return done, players.identify(conn, done.token, None, now), device

    done, me, device = await db.run(finish)
    if isinstance(done, str | Phrase):
        raise ApiError(400, done)
    return _signed_in(request, done, device, _me_of(me))


async def list_passkeys(request: Request) -> Response:
    """``GET /api/passkeys``: whether this browser is signed in, and the account's passkeys."""
    player = await identity.current(request)
    if player is None or player.account_id is None:
        return JSONResponse(answers.passkeys(None, []), headers={"Cache-Control": "no-store"})
    account_id = player.account_id
    found = await identity.database(request).run(lambda c: passkeys.listing(c, account_id))
    return JSONResponse(
        answers.passkeys(player.public(), found),
        headers={"Cache-Control": "no-store"},
    )


async def remove_passkey(request: Request) -> Response:
    """``POST /api/passkeys/remove`` ``{"id"}``: remove one of the signed-in account's passkeys."""
    player = await identity.current(request)
    identity.check_change(request, player)
    body = check(RemoveBody, await _body(request))
    if player is None or player.account_id is None:
        raise ApiError(403, text.PASSKEY_SIGNED_OUT)
    account_id = player.account_id
    refused = await identity.database(request).run(lambda c: passkeys.remove(c, account_id, body.id))
    if refused is not None:
        raise ApiError(404 if refused == text.PASSKEY_NOT_FOUND else 409, refused)
    return JSONResponse(answers.passkey_removed(body.id))


def schemas() -> dict[str, Any]:
    """The JSON Schema of each passkey request body, by endpoint (published at ``/api/schema``)."""
    return {
        "POST /api/passkeys/register/options": RegisterOptionsBody.model_json_schema(),
        "POST /api/passkeys/register/verify": RegisterVerifyBody.model_json_schema(),
        "POST /api/passkeys/signin/options": SignInOptionsBody.model_json_schema(),
        "POST /api/passkeys/signin/verify": SignInVerifyBody.model_json_schema(),
        "POST /api/passkeys/remove": RemoveBody.model_json_schema(),
    }
