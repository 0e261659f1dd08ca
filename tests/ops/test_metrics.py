"""``/metrics``: Prometheus text with the HTTP requests and the game's own counters."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone
from prometheus_client.parser import text_string_to_metric_families
from pytest_django.fixtures import Settings

from games.models import Game
from service import clock
from tests.support.deployment import ROOT
from tests.support.players import MakePlayer
from tests.support.table import GAMES, SEED, Table, start_table

pytestmark = pytest.mark.django_db


def scrape(client: Client, **headers: Any) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
    response = client.get("/metrics", **headers)
    assert response.status_code == 200, response.content
    assert response["Content-Type"].startswith("text/plain; version=0.0.4")
    return {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(response.content.decode())
        for s in family.samples
    }


def value(
    samples: dict[tuple[str, frozenset[tuple[str, str]]], float], name: str, **labels: str
) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


def test_requests_are_counted_and_timed_by_url_pattern(client: Client, table: Table) -> None:
    route = "api/v1/games/<str:game_id>/"
    before = scrape(client)

    for _ in range(3):
        table.view(0)
    table.players[0].client.get(f"{GAMES}00000000-0000-0000-0000-000000000000/")
    client.get("/no/such/page/")
    after = scrape(client)

    requests = "uno_http_requests_total"
    ok = {"method": "GET", "route": route, "status": "200"}
    missing = {"method": "GET", "route": route, "status": "404"}
    assert value(after, requests, **ok) - value(before, requests, **ok) == 3
    assert value(after, requests, **missing) - value(before, requests, **missing) == 1
    unmatched = {"method": "GET", "route": "<unmatched>", "status": "404"}
    assert value(after, requests, **unmatched) - value(before, requests, **unmatched) == 1
    latency = "uno_http_request_duration_seconds_count"
    timed = {"method": "GET", "route": route}
    assert value(after, latency, **timed) - value(before, latency, **timed) == 4
    assert not any(table.id in labels_ for _, labels in after for _, labels_ in labels)


def test_games_by_status_are_counted_from_the_database(
    client: Client, make_player: MakePlayer
) -> None:
    host = make_player("host")
    host.client.post(GAMES, {"max_players": 3}, format="json")
    start_table([host, make_player("guest")], seed=SEED)

    samples = scrape(client)

    assert value(samples, "uno_games", status="waiting") == 1
    assert value(samples, "uno_games", status="active") == 1
    assert value(samples, "uno_games", status="finished") == 0
    assert value(samples, "uno_games", status="abandoned") == 0


def test_actions_and_refusals_are_counted(
    client: Client, table: Table, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    actor = table.actor()
    other = 1 - actor
    before = scrape(client)

    with django_capture_on_commit_callbacks(execute=True):
        drawn = table.players[actor].client.post(
            table.url("actions"), {"action": "draw"}, format="json"
        )
        refused = table.players[actor].client.post(
            table.url("actions"), {"action": "draw"}, format="json"
        )
        out_of_turn = table.players[other].client.post(
            table.url("actions"), {"action": "draw"}, format="json"
        )
    table.players[other].client.get(f"{GAMES}nope/")
    after = scrape(client)

    assert drawn.status_code == 200, drawn.content
    assert refused.status_code in (409, 422)
    assert out_of_turn.status_code == 409 and out_of_turn.json()["code"] == "not_your_turn"

    def delta(name: str, **labels: str) -> float:
        return value(after, name, **labels) - value(before, name, **labels)

    assert delta("uno_game_actions_total", action="draw") == 1
    assert delta("uno_game_events_total", type="cards_drawn") == 1
    assert delta("uno_refused_actions_total", code="not_your_turn") >= 1
    assert delta("uno_refused_actions_total", code=refused.json()["code"]) >= 1
    assert (
        sum(
            v - value(before, name, **dict(labels))
            for (name, labels), v in after.items()
            if name == "uno_refused_actions_total"
        )
        == 2
    )
    assert delta("uno_api_errors_total", code="not_found") == 1, "counted, not as an action"
    assert delta("uno_refused_actions_total", code="not_found") == 0


def test_timeouts_and_forfeits_are_counted(
    client: Client, make_player: MakePlayer, django_capture_on_commit_callbacks: Callable[..., Any]
) -> None:
    table = start_table(
        [make_player("ada"), make_player("bob"), make_player("cy")], max_timeouts=1, seed=SEED
    )
    before = scrape(client)

    with django_capture_on_commit_callbacks(execute=True):
        Game.objects.filter(pk=table.id).update(turn_deadline=timezone.now() - timedelta(seconds=1))
        assert clock.game_time_out(game_id=table.id)
        resigner = next(
            seat for seat in range(3) if table.view(seat)["seats"][seat]["status"] == "playing"
        )
        resigned = table.players[resigner].client.post(table.url("resign"))
    after = scrape(client)

    assert resigned.status_code == 200, resigned.content
    assert value(after, "uno_game_timeouts_total") - value(before, "uno_game_timeouts_total") == 1
    forfeits = "uno_game_forfeits_total"
    assert value(after, forfeits, reason="timeout") - value(before, forfeits, reason="timeout") == 1
    assert value(after, forfeits, reason="resign") - value(before, forfeits, reason="resign") == 1


def test_a_metrics_token_guards_the_endpoint(client: Client, settings: Settings) -> None:
    settings.UNO_METRICS_TOKEN = "scrape-me"

    assert client.get("/metrics").status_code == 401
    assert client.get("/metrics", HTTP_AUTHORIZATION="Bearer wrong").status_code == 401
    assert scrape(client, HTTP_AUTHORIZATION="Bearer scrape-me")


COUNT_AND_EXIT = """
import django
django.setup()
from unoservice import metrics
metrics.GAME_ACTIONS.labels(action="draw").inc()
"""
EXPOSE = """
import django
django.setup()
from unoservice import metrics
print(metrics.exposition().decode())
"""


def test_processes_add_up_in_multiprocess_mode(tmp_path: Path) -> None:
    """gunicorn's workers (and the Celery pool) each count; /metrics adds them up."""
    env = {
        **{k: v for k, v in os.environ.items() if not k.startswith("DJANGO_")},
        "DJANGO_SETTINGS_MODULE": "unoservice.settings",
        "PROMETHEUS_MULTIPROC_DIR": str(tmp_path / "metrics"),  # made on first use
    }

    def run(code: str) -> str:
        result = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
        )
        assert result.returncode == 0, result.stderr
        return result.stdout

    run(COUNT_AND_EXIT)
    run(COUNT_AND_EXIT)
    text = run(EXPOSE)

    samples = {
        (s.name, frozenset(s.labels.items())): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }
    assert value(samples, "uno_game_actions_total", action="draw") == 2
    assert len(list((tmp_path / "metrics").glob("*.db"))) >= 2
