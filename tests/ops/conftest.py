"""Fixtures of the operations suite: players with real tokens, a started two-player game.

Everything runs through HTTP (DRF's ``APIClient``); the database is read only for the truth
(the hands) that the answers must not reveal.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator

import pytest
from django.contrib.auth.models import User
from django.core.cache import cache
from pytest_django.fixtures import Settings

from tests.support.players import PASSWORD, MakePlayer, Player, player_for
from tests.support.table import SEED, Table, start_table

_names = itertools.count(1)


@pytest.fixture
def make_player(db: None) -> MakePlayer:
    def make(name: str = "player", *, staff: bool = False) -> Player:
        user = User.objects.create_user(f"{name}{next(_names)}", password=PASSWORD, is_staff=staff)
        return player_for(user)

    return make


@pytest.fixture
def table(make_player: MakePlayer) -> Table:
    return start_table([make_player("ada"), make_player("bob")], seed=SEED)


@pytest.fixture
def throttle_rates(settings: Settings) -> Iterator[Callable[..., None]]:
    """Set throttle rates for the test (the suite runs without), from a clean count."""

    def set_rates(**rates: str | None) -> None:
        settings.UNO_THROTTLE_RATES = {**settings.UNO_THROTTLE_RATES, **rates}

    cache.clear()
    yield set_rates
    cache.clear()
