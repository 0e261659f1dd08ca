"""Fixtures of the chat suite: those of the game-service suite (players with real tokens)."""

from tests.games.conftest import _postgresql_only, make_player, outsider, players

__all__ = ["_postgresql_only", "make_player", "outsider", "players"]
