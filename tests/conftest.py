"""Shared pytest fixtures for the whole suite."""

import pytest
from pytest_django.fixtures import Settings


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
