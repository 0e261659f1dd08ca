"""Fixtures of the bot API suite (issue 26, part 3): the game suite's players (PostgreSQL only),
bots that act at once, and ``make_bot_account``: a player whose account was made a bot account
through the API."""

from __future__ import annotations

from typing import Any

import pytest

from tests.games.conftest import _postgresql_only, make_player, outsider, players
from tests.support.players import MakePlayer, Player
from tests.support.table import ok

__all__ = ["_postgresql_only", "make_player", "outsider", "players"]

BOT_ACCOUNT = "/api/v1/players/me/bot-account/"


@pytest.fixture(autouse=True)
def _no_bot_delay(settings: Any) -> None:
    settings.UNO_BOT_DELAY = 0


@pytest.fixture
def make_bot_account(make_player: MakePlayer) -> MakePlayer:
    """A new player who made their account a bot account (``POST players/me/bot-account/``)."""

    def make(name: str = "prog") -> Player:
        program = make_player(name)
        assert ok(program.client.post(BOT_ACCOUNT))["bot_account"] is True
        return program

    return make
