"""Fixtures of the authorization audit: the game suite's players, an outsider and staff, signed
in with real sessions' tokens (PostgreSQL only)."""

from __future__ import annotations

from tests.games.conftest import _postgresql_only, make_player, outsider, players, staff

__all__ = ["_postgresql_only", "make_player", "outsider", "players", "staff"]
