"""Fixtures of the clocks suite: the game suite's players (PostgreSQL only), and the time suite's
real worker."""

from __future__ import annotations

from tests.games.conftest import _postgresql_only, make_player, players
from tests.timeouts.conftest import broker, worker

__all__ = ["_postgresql_only", "broker", "make_player", "players", "worker"]
