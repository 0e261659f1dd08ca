"""Shared pytest fixtures for the whole suite."""

import pytest
from pytest_django.fixtures import Settings


@pytest.fixture(autouse=True)
def _no_throttling(settings: Settings) -> None:
    """Throttling is off outside tests/ops (which tests it): suites that play whole matches over
    HTTP would otherwise meet the production rates."""
    settings.UNO_THROTTLE_RATES = dict.fromkeys(settings.UNO_THROTTLE_RATES)
