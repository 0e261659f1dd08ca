"""Fixtures of the fairness suite: the game suite's players, on PostgreSQL."""

from tests.games.conftest import _postgresql_only, make_player, outsider, players, staff

__all__ = ["_postgresql_only", "make_player", "outsider", "players", "staff"]
