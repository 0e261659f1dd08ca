"""``/healthz`` and ``/readyz``: no token, cheap, and ``/readyz`` names what does not answer."""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from django.core.management import call_command
from django.db import OperationalError, connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from pytest_django.fixtures import Settings

REDIS = "redis://127.0.0.1:6379/15"
NOBODY = "redis://127.0.0.1:1/0"  # nothing listens on port 1


def test_healthz_answers_without_a_token_or_the_database(client: Client) -> None:
    with mock.patch("django.db.backends.utils.CursorWrapper.execute") as execute:
        response = client.get("/healthz")

    assert response.status_code == 200
    assert response.json() == {"status": "ok"}
    assert "no-cache" in response["Cache-Control"]
    execute.assert_not_called()


@pytest.mark.django_db
def test_readyz_checks_the_database_and_the_broker(client: Client, settings: Settings) -> None:
    settings.CELERY_BROKER_URL = REDIS

    with CaptureQueriesContext(connection) as queries:
        response = client.get("/readyz")

    assert response.status_code == 200, response.content
    assert response.json() == {"status": "ok", "checks": {"database": "ok", "broker": "ok"}}
    assert [q["sql"] for q in queries.captured_queries] == ["SELECT 1"]


@pytest.mark.django_db
def test_readyz_skips_the_broker_when_tasks_run_in_process(
    client: Client, settings: Settings
) -> None:
    settings.CELERY_BROKER_URL = None

    response = client.get("/readyz")

    assert response.status_code == 200
    assert response.json()["checks"] == {"database": "ok", "broker": "skipped"}


@pytest.mark.django_db
def test_readyz_is_503_when_the_broker_does_not_answer(client: Client, settings: Settings) -> None:
    settings.CELERY_BROKER_URL = NOBODY

    response = client.get("/readyz")

    assert response.status_code == 503
    body = response.json()
    assert body["checks"] == {"database": "ok", "broker": "unavailable"}
    assert body["code"] == "not_ready"
    assert "broker" in body["detail"]
    assert "127.0.0.1:1" not in response.content.decode(), "no connection details"


@pytest.mark.django_db
def test_readyz_is_503_when_the_database_does_not_answer(
    client: Client, settings: Settings
) -> None:
    settings.CELERY_BROKER_URL = REDIS

    def refuse(*args: Any, **kwargs: Any) -> None:
        raise OperationalError("connection refused")

    with mock.patch("django.db.backends.utils.CursorWrapper.execute", refuse):
        response = client.get("/readyz")

    assert response.status_code == 503
    assert response.json()["checks"] == {"database": "unavailable", "broker": "ok"}
    assert "connection refused" not in response.content.decode()


def test_probes_are_not_redirected_to_https(client: Client, settings: Settings) -> None:
    settings.SECURE_SSL_REDIRECT = True

    assert client.get("/healthz").status_code == 200
    assert client.get("/api/docs/").status_code == 301


def test_probes_only_read(client: Client) -> None:
    assert client.post("/healthz").status_code == 405
    assert client.head("/healthz").status_code == 200


def test_probes_stay_out_of_the_schema_and_the_schema_stays_clean(
    tmp_path: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "schema.yml"

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(out))

    schema = out.read_text()
    for path in ("/healthz", "/readyz", "/metrics"):
        assert f"{path}:" not in schema
