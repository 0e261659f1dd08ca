"""Web Push: messages encrypted for a subscription (RFC 8291) and signed with VAPID (RFC 8292).

The server's key pair is ``UNO_VAPID_PRIVATE_KEY`` (the raw 32-byte P-256 private key,
base64url, as ``manage.py generate_vapid_keys`` prints it); ``UNO_VAPID_SUBJECT`` is the contact
the push services see (``mailto:`` or ``https:``). With no key, push is off.
"""

from __future__ import annotations

import base64
import time
from dataclasses import dataclass
from functools import cache
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.conf import settings
from py_vapid import Vapid02
from pywebpush import WebPusher

from notifications import http
from notifications.models import PushSubscription
from unoservice.errors import DomainError

# How long a push service keeps a message for a browser that is offline.
TTL = 24 * 3600
# A VAPID token's lifetime (RFC 8292 allows at most 24 hours).
TOKEN_LIFETIME = 12 * 3600


def _b64url(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


@dataclass(frozen=True)
class Keys:
    vapid: Vapid02
    public_key: str  # the uncompressed point, base64url: a browser's applicationServerKey


@cache
def _keys(private_key: str) -> Keys:
    vapid = Vapid02.from_raw(private_key.strip().encode())
    point = vapid.public_key.public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )
    return Keys(vapid, _b64url(point))


def keys() -> Keys:
    """The server's VAPID keys: 503 ``push_not_configured`` without them."""
    if not settings.UNO_VAPID_PRIVATE_KEY:
        raise DomainError("push_not_configured", "Web Push is not configured on this server.")
    return _keys(settings.UNO_VAPID_PRIVATE_KEY)


def configured() -> bool:
    return bool(settings.UNO_VAPID_PRIVATE_KEY)


def generate_private_key() -> tuple[str, str]:
    """A new key pair: (private key for ``UNO_VAPID_PRIVATE_KEY``, public key)."""
    key = ec.generate_private_key(ec.SECP256R1())
    private = _b64url(key.private_numbers().private_value.to_bytes(32, "big"))
    return private, _keys(private).public_key


def check_keys(p256dh: str, auth: str) -> None:
    """A subscription's keys as a browser gives them: 400 ``invalid`` otherwise."""
    try:
        point = base64.urlsafe_b64decode(p256dh + "=" * (-len(p256dh) % 4))
        secret = base64.urlsafe_b64decode(auth + "=" * (-len(auth) % 4))
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise DomainError(
            "invalid", "keys.p256dh must be a P-256 public key (base64url)."
        ) from None
    if len(secret) != 16:
        raise DomainError("invalid", "keys.auth must be 16 bytes (base64url).")


def headers_for(endpoint: str) -> dict[str, str]:
    parts = urlsplit(endpoint)
    claims: dict[str, Any] = {
        "aud": f"{parts.scheme}://{parts.netloc}",
        "exp": int(time.time()) + TOKEN_LIFETIME,
        "sub": settings.UNO_VAPID_SUBJECT,
    }
    signed: dict[str, str] = keys().vapid.sign(claims)
    return {
        **signed,
        "TTL": str(TTL),
        "Content-Encoding": "aes128gcm",
        "Content-Type": "application/octet-stream",
        "Urgency": "high",
    }


def send(subscription: PushSubscription, payload: bytes) -> int | None:
    """Encrypt ``payload`` for ``subscription`` and post it to its push service: the status.

    ``http.Refused`` when the endpoint may not be posted to."""
    info = {
        "endpoint": subscription.endpoint,
        "keys": {"p256dh": subscription.p256dh, "auth": subscription.auth},
    }
    body = WebPusher(info).encode(payload, "aes128gcm")["body"]
    return http.post(subscription.endpoint, body, headers_for(subscription.endpoint))
