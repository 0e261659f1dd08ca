"""Print a new VAPID key pair for Web Push: run once, keep the private key in the environment.

A new key invalidates every browser's subscription (they were made for the old public key), so
this is done once per deployment, not per release.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from notifications.webpush import generate_private_key


class Command(BaseCommand):
    help = "Print a new VAPID key pair (UNO_VAPID_PRIVATE_KEY and its public key)."

    def handle(self, *args: Any, **options: Any) -> None:
        private, public = generate_private_key()
        self.stdout.write(f"UNO_VAPID_PRIVATE_KEY={private}\n")
        self.stdout.write(f"# public key (GET /api/v1/push/key/ serves it): {public}\n")
