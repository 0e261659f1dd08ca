"""Answers checked against the schema the service publishes (``/api/schema/``), by schemathesis:
what a client generated from that schema alone would parse."""

from __future__ import annotations

import json
from typing import Any

import requests
import schemathesis
from django.test import Client


def published_schema() -> Any:
    response = Client().get("/api/schema/?format=json")
    assert response.status_code == 200
    return schemathesis.openapi.from_dict(json.loads(response.content))


def as_schemathesis(response: Any, method: str, url: str) -> schemathesis.Response:
    """A Django test response in the shape schemathesis validates."""
    return schemathesis.Response(
        status_code=response.status_code,
        headers={key: [value] for key, value in response.headers.items()},
        content=response.content,
        request=requests.Request(method, f"http://testserver{url}").prepare(),
        elapsed=0.0,
        verify=False,
    )


def conforms(published: Any, template: str, method: str, response: Any, url: str) -> None:
    """``response`` (to ``method`` ``url``) is one the schema's ``template`` operation allows."""
    operation = published[template][method]
    operation.validate_response(as_schemathesis(response, method, url))
