"""Fixtures of the contract fuzzer: the live server's published schema and a table to aim at."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from tests.support.world import make_world


@pytest.fixture(autouse=True)
def _postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip("the contract fuzzer runs on PostgreSQL: set DATABASE_URL")


@pytest.fixture
def world_factory(transactional_db: None) -> Any:
    return make_world
