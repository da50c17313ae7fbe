"""A software passkey authenticator for the tests: an EC P-256 key made with ``cryptography``, and the
answers of ``navigator.credentials.create`` (attestation "none") and ``.get`` built by hand
(clientDataJSON, authenticatorData, signature), as a browser would send them."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec

UP, UV, AT = 0x01, 0x04, 0x40
"""authenticatorData flags: user present, user verified, attested credential data included."""


def b64url(data: bytes) -> str:
    """base64url without padding, as WebAuthn's JSON forms use."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    """The bytes of a base64url string (padding optional)."""
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class SoftAuthenticator:
    """One passkey (a discoverable credential) of one relying party; ``counter`` is its signature
    counter, raised by each assertion unless told otherwise."""

    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    credential_id: bytes = field(default_factory=lambda: os.urandom(16))
    counter: int = 0
    user_handle: str | None = None
    rp_id: str | None = None

    def cose_key(self) -> bytes:
        """The public key as a COSE_Key (EC2, ES256)."""
        numbers = self.key.public_key().public_numbers()
        return bytes(
            cbor2.dumps(
                {1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")}
            )
        )

    def _client_data(self, kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}
        ).encode()

    def create(self, options: dict[str, Any], origin: str, *, rp_id: str | None = None) -> dict[str, Any]:
        """The answer to registration ``options`` (the server's ``publicKey``) on a page of ``origin``."""
        self.rp_id = rp_id or options["rp"]["id"]
        self.user_handle = options["user"]["id"]
        assert self.rp_id is not None
        client_data = self._client_data("webauthn.create", options["challenge"], origin)
        auth_data = (
            hashlib.sha256(self.rp_id.encode()).digest()
            + bytes([UP | UV | AT])
            + struct.pack(">I", self.counter)
            + bytes(16)  # AAGUID: none
            + struct.pack(">H", len(self.credential_id))
            + self.credential_id
            + self.cose_key()
        )
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": auth_data})
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": {
                "clientDataJSON": b64url(client_data),
                "attestationObject": b64url(bytes(attestation)),
                "transports": ["internal"],
            },
        }

    def get(
        self, options: dict[str, Any], origin: str, *, counter: int | None = None, user_handle: bool = True
    ) -> dict[str, Any]:
        """The answer to sign-in ``options`` on a page of ``origin``, signed with the counter raised by
        one (or set to ``counter``: a clone's)."""
        assert self.rp_id is not None
        self.counter = self.counter + 1 if counter is None else counter
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        auth_data = (
            hashlib.sha256(self.rp_id.encode()).digest() + bytes([UP | UV]) + struct.pack(">I", self.counter)
        )
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256()))
        response = {
            "clientDataJSON": b64url(client_data),
            "authenticatorData": b64url(auth_data),
            "signature": b64url(signature),
        }
        if user_handle and self.user_handle is not None:
            response["userHandle"] = self.user_handle
        return {
            "id": b64url(self.credential_id),
            "rawId": b64url(self.credential_id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "clientExtensionResults": {},
            "response": response,
        }
