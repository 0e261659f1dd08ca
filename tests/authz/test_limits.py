"""Rates on the calls that need them, through HTTP: what one account may file for staff."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.core.cache import cache
from pytest_django.fixtures import Settings

from players.models import Report
from tests.support.players import Player
from tests.support.table import ok, refused

pytestmark = pytest.mark.django_db

REPORTS = "/api/v1/reports/"


@pytest.fixture
def counted(settings: Settings) -> Iterator[None]:
    settings.UNO_THROTTLE_RATES = {**settings.UNO_THROTTLE_RATES, "reports": "2/hour"}
    cache.clear()
    yield
    cache.clear()


def test_reports_are_throttled_per_player_and_the_refused_one_stores_nothing(
    players: list[Player], counted: None
) -> None:
    ada, bob, cy, _ = players
    about_cy = {"player": cy.id, "reason": "spam"}
    for _ in range(2):
        ok(ada.client.post(REPORTS, about_cy, format="json"), 201)
    answer = refused(ada.client.post(REPORTS, about_cy, format="json"), 429, "throttled")
    assert answer["detail"] and ada.client.post(REPORTS, about_cy, format="json")["Retry-After"]
    assert Report.objects.filter(reporter=ada.user).count() == 2
    assert len(ok(ada.client.get(REPORTS))["reports"]) == 2  # reading is not counted
    ok(bob.client.post(REPORTS, about_cy, format="json"), 201)  # another's count is their own
