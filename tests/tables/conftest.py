"""Fixtures of the tables suite: the game suite's players and staff (PostgreSQL only), and (for
the bots that fill a quick match) the real Celery worker on the real Redis of the time suite."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.conftest import _postgresql_only, make_player, outsider, players, staff
from tests.timeouts.conftest import broker, worker

__all__ = ["_postgresql_only", "broker", "make_player", "outsider", "players", "staff", "worker"]


@pytest.fixture(autouse=True)
def _no_bot_delay(settings: Any) -> None:
    settings.UNO_BOT_DELAY = 0
