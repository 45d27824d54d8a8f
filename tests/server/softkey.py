"""A software authenticator for the server's passkey tests: it makes a P-256 key and answers the server's WebAuthn
options as a browser with a passkey would (attestation "none", the answers in WebAuthn's JSON form), and can be made
to lie (another site, a wrong signature, a counter that goes back) to check that the server refuses each lie."""

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
"""authenticatorData's flags: the user was present, verified, and the data carries a new credential."""


def b64(data: bytes) -> str:
    """base64url without padding, as WebAuthn's JSON writes bytes."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class SoftKey:
    """One passkey, as an authenticator keeps it: its id, private key, the account's user handle, its counter."""

    origin: str
    rp_id: str = "localhost"
    counter: int = 0
    verified: bool = True
    key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    credential_id: bytes = field(default_factory=lambda: os.urandom(32))
    user_handle: bytes | None = None
    sends_handle: bool = True
    cose: bytes | None = None  # a public key of another shape, sent instead of this one's (to see it refused)

    def _cose(self) -> bytes:
        if self.cose is not None:
            return self.cose
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})

    def _auth_data(self, rp_id: str, attested: bool) -> bytes:
        flags = UP | (UV if self.verified else 0) | (AT if attested else 0)
        data = hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", self.counter)
        if attested:
            data += bytes(16) + struct.pack(">H", len(self.credential_id)) + self.credential_id + self._cose()
        return data

    def _client_data(self, kind: str, challenge: str, origin: str | None) -> bytes:
        return json.dumps(
            {"type": kind, "challenge": challenge, "origin": origin or self.origin, "crossOrigin": False}
        ).encode()

    def create(self, options: dict[str, Any], rp_id: str | None = None, origin: str | None = None) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create(options)``."""
        self.user_handle = unb64(options["user"]["id"])
        client = self._client_data("webauthn.create", options["challenge"], origin)
        attestation = cbor2.dumps(
            {"fmt": "none", "attStmt": {}, "authData": self._auth_data(rp_id or self.rp_id, True)}
        )
        return {
            "id": b64(self.credential_id),
            "rawId": b64(self.credential_id),
            "type": "public-key",
            "response": {"clientDataJSON": b64(client), "attestationObject": b64(attestation)},
            "clientExtensionResults": {},
        }

    def get(
        self,
        options: dict[str, Any],
        rp_id: str | None = None,
        origin: str | None = None,
        signer: ec.EllipticCurvePrivateKey | None = None,
    ) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get(options)`` (the counter moves on first, as an authenticator's
        does; ``signer`` signs instead of this key, to forge)."""
        if self.counter:
            self.counter += 1
        client = self._client_data("webauthn.get", options["challenge"], origin)
        auth = self._auth_data(rp_id or self.rp_id, False)
        signature = (signer or self.key).sign(auth + hashlib.sha256(client).digest(), ec.ECDSA(hashes.SHA256()))
        response = {"clientDataJSON": b64(client), "authenticatorData": b64(auth), "signature": b64(signature)}
        if self.user_handle is not None and self.sends_handle:
            response["userHandle"] = b64(self.user_handle)
        return {
            "id": b64(self.credential_id),
            "rawId": b64(self.credential_id),
            "type": "public-key",
            "response": response,
            "clientExtensionResults": {},
        }
