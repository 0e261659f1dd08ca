"""Smoke tests for the project wiring: settings, URLs, the OpenAPI schema."""

import pytest
from django.core.management import call_command
from django.test import Client


@pytest.mark.django_db
def test_schema_is_an_openapi_document(client: Client) -> None:
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    document = response.json()
    assert document["openapi"].startswith("3.")
    assert document["info"]["title"] == "UNO game service"
    assert "paths" in document


@pytest.mark.django_db
def test_swagger_ui_is_served(client: Client) -> None:
    response = client.get("/api/docs/")

    assert response.status_code == 200
    assert b"swagger" in response.content.lower()


def test_manage_py_check_passes() -> None:
    call_command("check", fail_level="WARNING")
