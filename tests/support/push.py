"""A browser's side of Web Push for tests: its keys and auth secret, its subscription as
``PushSubscription.toJSON()`` gives it, and the decryption of what its push service is sent
(RFC 8291, ``http_ece``)."""

from __future__ import annotations

import base64
import json
import os
from dataclasses import dataclass
from typing import Any

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.contrib.auth.models import User

from tests.support.players import client_for

SUBSCRIPTIONS = "/api/v1/push/subscriptions/"


def b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Browser:
    """What a browser keeps for a subscription: its ECDH key pair and auth secret."""

    private_key: ec.EllipticCurvePrivateKey
    auth: bytes
    endpoint: str

    @classmethod
    def new(cls, endpoint: str) -> Browser:
        return cls(ec.generate_private_key(ec.SECP256R1()), os.urandom(16), endpoint)

    def subscription(self) -> dict[str, Any]:
        point = self.private_key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64url(point), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> Any:
        plain = http_ece.decrypt(
            body, private_key=self.private_key, auth_secret=self.auth, version="aes128gcm"
        )
        return json.loads(plain)


def subscribe(user: User, browser: Browser) -> int:
    answer = client_for(user).post(SUBSCRIPTIONS, browser.subscription(), format="json")
    assert answer.status_code == 201, answer.json()
    return int(answer.json()["id"])
