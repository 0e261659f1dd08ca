"""``uno_games{status}``: games by status, one ``GROUP BY`` over the games table per scrape
(registered on ``unoservice.metrics.SCRAPED`` when the app is ready)."""

from __future__ import annotations

import logging
from collections.abc import Iterable, Iterator
from typing import Any

from django.db import DatabaseError
from django.db.models import Count
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

from games.models import Game, GameStatus

log = logging.getLogger("unoservice.games")


class GamesByStatusCollector(Collector):
    """``uno_games{status}``: one ``GROUP BY`` over the games table per scrape."""

    def describe(self) -> Iterable[Any]:
        return [self._family()]

    def _family(self) -> GaugeMetricFamily:
        return GaugeMetricFamily(
            "uno_games", "Games by status (counted at scrape time).", labels=["status"]
        )

    def collect(self) -> Iterator[Any]:
        try:
            rows = Game.objects.order_by().values_list("status").annotate(n=Count("id"))
            counts: dict[str, int] = {status: n for status, n in rows}
        except DatabaseError:
            log.warning("games by status: the database did not answer", exc_info=True)
            return
        family = self._family()
        for status in GameStatus.values:
            family.add_metric([status], counts.get(status, 0))
        yield family
