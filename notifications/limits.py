"""The limits of the notifications API, defined once (the serializers and the schema read them)."""

from __future__ import annotations

from typing import Final

from games.engine.limits import Bound

WEBHOOKS_PER_PLAYER: Final = 10
PUSH_SUBSCRIPTIONS_PER_PLAYER: Final = 20
URL_LENGTH: Final = 2000
READ_IDS: Final = Bound("ids", 1, 1000)  # how many ids one mark-read call names
PAGE: Final = Bound("page_size", 1, 100)
PAGE_DEFAULT: Final = 20
