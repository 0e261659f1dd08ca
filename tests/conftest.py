"""Shared pytest fixtures for the whole suite."""

import pytest
from pytest_django.fixtures import Settings

from tests.support.decks import TEST_SALT


@pytest.fixture(autouse=True)
def _no_throttling(settings: Settings) -> None:
    """Throttling is off outside tests/ops (which tests it): suites that play whole matches over
    HTTP would otherwise meet the production rates."""
    settings.UNO_THROTTLE_RATES = dict.fromkeys(settings.UNO_THROTTLE_RATES)


@pytest.fixture(autouse=True)
def _seeds_from_players(settings: Settings) -> None:
    """Players may give a seed in tests (only staff may in production, tests/hostile checks it):
    the suites reproduce games played by ordinary players."""
    settings.UNO_SEEDS_FROM_PLAYERS = True


@pytest.fixture(autouse=True)
def _bots_at_once(settings: Settings) -> None:
    """Without a broker, a bot with a delay plays on a timer thread (``make run``); the tests'
    bots play at once, in the request's thread, so that a test sees their moves when its request
    answers (tests/tables/test_bots_later.py covers the timer)."""
    settings.UNO_BOT_DELAY = 0


@pytest.fixture(autouse=True)
def _fixed_salt(settings: Settings) -> None:
    """Every game gets one known salt in tests, so that a seed deals the same cards every run
    (games are salted at random in production: tests/fairness turns this off)."""
    settings.UNO_TEST_SALT = TEST_SALT
